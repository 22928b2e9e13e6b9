#!/bin/bash
# Build the guest kernel of one variant into SRC/.build-VARIANT, linked
# from out/build/VARIANT. Usage: lab/build.sh baseline|patched|debug|baseline-debug
#
# The config is tinyconfig plus the fragments in lab/config/, regenerated only
# when a fragment changes; the build is incremental and goes through ccache.
# The build directory is a subdirectory of the source tree so that kbuild
# uses relative paths and ccache hits across trees and clones (lab/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: lab/build.sh VARIANT}
src=$(variant_src "$variant")
b=$(variant_build "$variant")
need make gcc ccache flex bison bc
lab_lock

# The bench kernels leave KUnit out: its suite would run at boot, before
# the runs, and one config for v7.3 and the series lets the compiler cache
# serve the second build (the KUnit symbol exists in the series only).
case $variant in
debug|baseline-debug) frags="guest kunit debug" ;;
bisect-min) frags="guest kunit min" ;;
bench-*) frags="guest" ;;
*) frags="guest kunit" ;;
esac
[ -f "$src/Makefile" ] || die "no kernel source at $src (run lab/fetch.sh and lab/apply.sh)"

files=""
for f in $frags; do files="$files $LAB_TOP/lab/config/$f.config"; done
# shellcheck disable=SC2086
cfghash=$( (cat $files; git -C "$src" rev-parse HEAD:arch/x86/configs 2>/dev/null || true) | sha256sum | cut -c1-16)
mkdir -p "$b" "$OUT/build"
link=$OUT/build/$variant
if [ -d "$link" ] && [ ! -L "$link" ]; then
	say "$variant: $link is a build of the old layout (absolute paths): removing it"
	rm -rf "$link"
fi
ln -sfn "$b" "$link"
kmake() { make -C "$src" O="$b" CC="ccache gcc" HOSTCC="ccache gcc" \
	KBUILD_BUILD_TIMESTAMP="2026-11-30" KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab "$@"; }

if [ ! -f "$b/.config" ] || [ "$(cat "$b/.lab-config" 2>/dev/null)" != "$cfghash" ]; then
	rm -f "$b/.lab-config"
	say "$variant: configuring (tinyconfig +$(echo " $frags" | sed 's/ / +/g; s/^ +//'))"
	kmake -s tinyconfig >"$b/config.log" 2>&1 || die "tinyconfig failed: see $b/config.log"
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" $files >>"$b/config.log" 2>&1 ||
		die "merge_config failed: see $b/config.log"
	kmake -s olddefconfig >>"$b/config.log" 2>&1 || die "olddefconfig failed: see $b/config.log"
	# Every option the fragments ask for must have survived, except symbols
	# this tree does not have (the KUnit suite on the baseline).
	bad=""
	# the last value a fragment gives each symbol
	# shellcheck disable=SC2086
	for line in $(grep -h '^CONFIG_' $files | awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = ++n; k[o[$1]] = $1 }
			END { for (i = 1; i <= n; i++) print v[k[i]] }'); do
		sym=${line%%=*}
		want=${line#*=}
		got=$({ grep -E "^$sym=|^# $sym is not set" "$b/.config" || true; } | head -1)
		case $got in
		"$sym=$want") ;;
		"# $sym is not set") [ "$want" = n ] || bad="$bad $sym" ;;
		"") [ "$want" = n ] || ! grep -rqsE --include='Kconfig*' "^(menu)?config ${sym#CONFIG_}\$" "$src" ||
			bad="$bad $sym" ;;
		*) bad="$bad $line(got ${got#*=})" ;;
		esac
	done
	[ -z "$bad" ] || die "$variant: config options not satisfied:$bad (see $b/.config)"
	echo "$cfghash" >"$b/.lab-config"
fi

# What this build is made of: the config, the compiler, the tree's commit,
# its changes and untracked files. When a whole build of exactly that is
# there, make (a minute of kbuild's checks) is not run again.
stamp() {
	echo "$cfghash $(gcc -dumpfullversion) $(git -C "$src" rev-parse HEAD)"
	{ git -C "$src" status --porcelain; git -C "$src" diff HEAD; } | sha256sum
}
now=$(stamp)
if [ -f "$b/arch/x86/boot/bzImage" ] && [ "$(cat "$b/.lab-built" 2>/dev/null)" = "$now" ]; then
	say "$variant: up to date: $link/arch/x86/boot/bzImage"
	exit 0
fi
rm -f "$b/.lab-built"
say "$variant: building bzImage with -j$JOBS (cold: about 10 minutes on 2 cores; log: $b/build.log)"
start=$(date +%s)
rc=0
kmake -j"$JOBS" bzImage 2>&1 | tee "$b/build.log" | awk -v v="$variant" '
	/^  (CC|AS|LD|AR)/ { n++; if (n % 400 == 0) { printf "[lab] %s: %d objects, at %s\n", v, n, $2; fflush() } }
	/ warning: | error: / { print; fflush() }' || rc=$?
if [ "$rc" != 0 ]; then
	{ grep -E 'error|Error' "$b/build.log" || true; } | tail -20 >&2
	die "$variant: kernel build failed (rc=$rc): see $b/build.log"
fi
echo "$now" >"$b/.lab-built"
say "$variant: built $(kmake -s kernelrelease 2>/dev/null) in $(( $(date +%s) - start ))s: $link/arch/x86/boot/bzImage"
