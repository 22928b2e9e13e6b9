#!/bin/bash
# Build VARIANT's kernel in SRC/.build-VARIANT (out/build/VARIANT links to it):
# tinyconfig + fragments of lab/data/config, incremental, through ccache.
# Usage: lab/steps/build.sh baseline|patched|debug|baseline-debug|experiment|experiment-debug|bench-*|bench-record
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

variant=${1:?usage: lab/steps/build.sh VARIANT}
src=$(variant_src "$variant")
b=$(variant_build "$variant")
need make gcc ccache flex bison bc
lab_lock

# No KUnit in the bench kernels: its suite would run at boot, and one config
# for v7.3 and the series lets ccache serve the second build.
case $variant in
debug|baseline-debug|experiment-debug) frags="guest kunit debug" ;;
bisect-min) frags="guest kunit min" ;;
bench-record) frags="guest record" ;;
bench-*) frags="guest" ;;
*) frags="guest kunit" ;;
esac
[ -f "$src/Makefile" ] || die "no kernel source at $src (run lab/steps/fetch.sh and lab/steps/apply.sh)"

files=""
for f in $frags; do files="$files $LAB_TOP/lab/data/config/$f.config"; done
# shellcheck disable=SC2086
cfghash=$( (cat $files; git -C "$src" rev-parse HEAD:arch/x86/configs 2>/dev/null || true) | sha256sum | cut -c1-16)
mkdir -p "$b" "$OUT/build"
link=$OUT/build/$variant
ln -sfn "$b" "$link"
if [ ! -f "$b/.config" ] || [ "$(cat "$b/.lab-config" 2>/dev/null)" != "$cfghash" ]; then
	rm -f "$b/.lab-config"
	say "$variant: configuring (tinyconfig +$(echo " $frags" | sed 's/ / +/g; s/^ +//'))"
	# shellcheck disable=SC2086
	kconfig_lab "$src" "$b" "$b/config.log" $frags ||
		{ tail -3 "$b/config.log" >&2; die "$variant: the config failed: see $b/config.log"; }
	echo "$cfghash" >"$b/.lab-config"
fi

# What the build is made of: when a whole build of that is there, make (a
# minute of kbuild's checks) is not run again.
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
kmake "$src" O="$b" -j"$JOBS" bzImage 2>&1 | tee "$b/build.log" | kbuild_progress "$variant" || rc=$?
if [ "$rc" != 0 ]; then
	{ grep -E 'error|Error' "$b/build.log" || true; } | tail -20 >&2
	die "$variant: kernel build failed (rc=$rc): see $b/build.log"
fi
echo "$now" >"$b/.lab-built"
say "$variant: built $(kmake "$src" O="$b" -s kernelrelease 2>/dev/null) in $(( $(date +%s) - start ))s: $link/arch/x86/boot/bzImage"
