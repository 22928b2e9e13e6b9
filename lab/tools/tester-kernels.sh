#!/bin/bash
# Kernels for a tester: v7.3 (baseline), v7.3 + the series (patched) and the
# series + the experimental set (experiment: for testing only), from one
# config as Debian packages and RPMs (TESTER_RPMS) that cannot be mistaken for
# each other.
# Usage: lab/tools/tester-kernels.sh [CONFIG]  (or CONFIG=...): a .config (.gz
# too), 'guest' (the lab's), 'min' (make check's: tinyconfig + tester-min);
# default: the running kernel's. Output in TESTER_OUT: the packages,
# CHECKLIST.txt, and base/, gate/ and exp/ with each kernel's logs.
set -euo pipefail
case ${1:-} in -h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0"; exit 0 ;; esac
. "$(dirname "$0")/../lib.sh"
command -v apt-get >/dev/null || die "no apt-get: make tester-kernels fetches and packages with Debian's tools. On Fedora,
  the kernel's own packaging makes the RPMs: in v7.3 with patches/series applied (git am; patches/experiment/ on it, the third)
    sudo dnf install gcc make flex bison bc perl openssl-devel elfutils-libelf-devel dwarves rpm-build
    cp /boot/config-\$(uname -r) .config && scripts/config -e SCHEDSTATS -e DEBUG_FS && make olddefconfig
    make -j\$(nproc) LOCALVERSION=-newidle-gate binrpm-pkg   # v7.3: -newidle-base; the experiment: -newidle-exp"

cfg=${1:-${CONFIG:-}}
dest=$TESTER_OUT
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The config, checked before anything is touched.
if [ -z "$cfg" ]; then
	if [ -r /proc/config.gz ]; then cfg=/proc/config.gz
	elif [ -r "/boot/config-$(uname -r)" ]; then cfg=/boot/config-$(uname -r)
	else die "no config of the running kernel (/proc/config.gz, /boot/config-$(uname -r)): give one, CONFIG=/path/to/config"
	fi
fi
if [ "$cfg" != guest ] && [ "$cfg" != min ]; then
	if [ ! -f "$cfg" ] || [ ! -r "$cfg" ]; then die "config '$cfg': no such readable file"; fi
	case $cfg in
	*.gz) gzip -dc "$cfg" >"$tmp/input.config" 2>/dev/null || die "config '$cfg': not a gzip file" ;;
	*) cat "$cfg" >"$tmp/input.config" ;;
	esac
	grep -qE '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' "$tmp/input.config" ||
		die "config '$cfg' is not a kernel config (no CONFIG_ lines)"
	if [ "$(uname -m)" = x86_64 ] && ! grep -q '^CONFIG_X86_64=y' "$tmp/input.config"; then
		die "config '$cfg' is not an x86_64 config; build on the machine it is for"
	fi
fi

# 2. Room for both builds (and the base tree when it is not there yet),
# checked before starting; the guest config has no modules, no debug info.
mods=0 dbg=0
if [ -f "$tmp/input.config" ]; then
	mods=$(grep -c '=m$' "$tmp/input.config" || true)
	if grep -q '^CONFIG_DEBUG_INFO=y' "$tmp/input.config" &&
		! grep -q '^CONFIG_DEBUG_INFO_NONE=y' "$tmp/input.config"; then dbg=1; fi
fi
per=$((1024 + mods))
[ "$dbg" = 0 ] || per=$((per * 4))
want=$(( $(wc -w <<<"$TESTER_KERNELS") * per ))
git -C "$LINUX" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1 || want=$((want + 3072))
want=${TESTER_SPACE_MB:-$want}
at=$dest
while [ ! -d "$at" ]; do at=$(dirname "$at"); done
free=$(df -Pm "$at" | awk 'NR == 2 { print $4 }')
if [ "$free" -lt "$want" ]; then
	die "not enough disk space: the builds need about $((want / 1024 + 1)) GiB ($want MiB) in $dest, which has $free MiB free; free some, or set TESTER_OUT to a larger disk"
fi
say "disk: about $want MiB needed, $free MiB free in $at"

# 3. The trees: the base, and the series applied (its errors name the patch and hunk),
# installing only what fetching, building and packaging a kernel needs (lab/data/packages)
grep -E '^[^#]+ required .*\<(everything|fetch|kernel build|tester-kernels)\>' "$LAB_PACKAGES" >"$tmp/packages" && export LAB_PACKAGES=$tmp/packages
"$LAB_TOP/lab/prepare.sh" apply || die "the series in $PATCHES does not apply to $BASE_TAG (above: the patch and the hunk); no kernel built"
"$LAB_TOP/lab/prepare.sh" apply experiment || die "the experimental set in $EXPERIMENT does not apply on the series; no kernel built"
base_src=$OUT/src/baseline gate_src=$LINUX exp_src=$OUT/src/experiment
for s in "$base_src" "$gate_src" "$exp_src"; do
	[ -z "$(git -C "$s" status --porcelain --untracked-files=no)" ] ||
		die "$s has uncommitted changes: its package would not match its commit"
done
[ "$(git -C "$base_src" rev-parse HEAD)" = "$(git -C "$LINUX" rev-parse "$BASE_TAG^{commit}")" ] ||
	die "$base_src is not at $BASE_TAG"
need make gcc ccache flex bison bc dpkg-buildpackage dh_prep ${TESTER_RPMS:+rpmbuild}

case $cfg in
guest|min)
	# The lab's config, made as lab/steps/build.sh makes it (patched tree, so
	# the series' own options are in it too)
	frags="guest kunit"
	[ "$cfg" = guest ] || frags=tester-min
	say "config: tinyconfig + lab/data/config/{$(echo $frags | tr ' ' ,)}.config"
	# shellcheck disable=SC2086
	kconfig_lab "$gate_src" "$tmp/g" "$tmp/g.log" $frags || { cat "$tmp/g.log" >&2; die "the $cfg config failed"; }
	cp "$tmp/g/.config" "$tmp/input.config"
	;;
esac

# 4. What the lab changes in the config, said once; the same for both kernels.
notes=$("$LAB_TOP/lab/tools/tester-config.sh" "$tmp/input.config" "$tmp/tester.config")
[ -z "$notes" ] || while IFS= read -r n; do say "config: $n"; done <<<"$notes"

# 5. The three kernels: same config, same compiler, names that tell them apart.
for v in $TESTER_KERNELS; do
	case $v in base|gate|exp) ;; *) die "TESTER_KERNELS: no kernel '$v' (base, gate, exp)" ;; esac
done
mkdir -p "$dest"
rm -f "$dest"/*.deb "$dest"/*.rpm "$dest/CHECKLIST.txt" "$dest/config.diff"
build() {
	local v=$1 src=$2 sha rel d b start rc
	sha=$(git -C "$src" rev-parse --short=12 HEAD)
	rel=$(kmake "$src" -s kernelversion)-newidle-$v-g$sha
	d=$dest/$v
	# inside the tree: relative paths, so that ccache serves clones; make
	# bindeb-pkg writes the packages one directory up, into .build-tester
	b=$src/.build-tester/$v
	mkdir -p "$b" "$d"
	rm -f "$src"/.build-tester/*.deb "$src"/.build-tester/*.changes "$src"/.build-tester/*.buildinfo
	cp "$tmp/tester.config" "$b/.config"
	kmake "$src" O="$b" LOCALVERSION="-newidle-$v-g$sha" olddefconfig >"$d/config.log" 2>&1 ||
		die "$v: olddefconfig failed on this config: see $d/config.log"
	for s in SCHEDSTATS DEBUG_FS; do
		grep -q "^CONFIG_$s=y" "$b/.config" || die "$v: CONFIG_$s is off after olddefconfig (a dependency of it is off in the config)"
	done
	cp "$b/.config" "$d/config"
	grep -qw "$v" <<<"$TESTER_KERNELS" || { say "$v: $rel: config made, not built (TESTER_KERNELS)"; return 0; }
	say "$v: building $rel as Debian packages with -j$JOBS (log: $d/build.log)"
	start=$(date +%s)
	set +e
	DEB_BUILD_OPTIONS=terse DEB_BUILD_PROFILES="pkg.linux-newidle-$v.nokerneldbg" \
		kmake "$src" O="$b" -j"$JOBS" LOCALVERSION="-newidle-$v-g$sha" KDEB_PKGVERSION="$rel-1" \
		KDEB_SOURCENAME="linux-newidle-$v" KDEB_CHANGELOG_DIST=unstable DPKG_FLAGS=-d bindeb-pkg 2>&1 |
		tee "$d/build.log" | kbuild_progress "$v"
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" != 0 ]; then
		grep -E 'error|Error' "$d/build.log" | tail -15 >&2 || true
		die "$v: the kernel does not build with this config (make bindeb-pkg exit $rc): see $d/build.log; no packages"
	fi
	mv "$src"/.build-tester/linux-image-"$rel"_*.deb "$dest/" 2>/dev/null ||
		die "$v: no linux-image-$rel package in $src/.build-tester"
	mv "$src"/.build-tester/linux-headers-"$rel"_*.deb "$dest/" 2>/dev/null || true
	[ -n "$TESTER_RPMS" ] || { say "$v: $rel packaged in $(( $(date +%s) - start ))s"; return 0; }
	# the same build as RPMs: the kernel and its -devel, not kernel-headers
	# (the system's userspace headers, as linux-libc-dev is on Debian)
	rm -rf "$b/rpmbuild"
	kmake "$src" O="$b" -j"$JOBS" LOCALVERSION="-newidle-$v-g$sha" binrpm-pkg >"$d/rpm.log" 2>&1 ||
		die "$v: make binrpm-pkg failed (exit $?): see $d/rpm.log; no RPMs"
	mv "$b"/rpmbuild/RPMS/*/kernel-"${rel//-/_}"-*.rpm "$dest/" 2>/dev/null ||
		die "$v: no kernel-${rel//-/_} RPM in $b/rpmbuild/RPMS"
	mv "$b"/rpmbuild/RPMS/*/kernel-devel-"${rel//-/_}"-*.rpm "$dest/" 2>/dev/null || true
	say "$v: $rel packaged as .deb and .rpm in $(( $(date +%s) - start ))s"
}
build base "$base_src"
build gate "$gate_src"
build exp "$exp_src"
diff <(grep CONFIG_ "$dest/base/config") <(grep CONFIG_ "$dest/gate/config") |
	grep '^[<>]' >"$dest/config.diff" || true
diff -q <(grep CONFIG_ "$dest/gate/config") <(grep CONFIG_ "$dest/exp/config") >/dev/null ||
	die "the series' and the experiment's configs differ: see $dest/gate/config and $dest/exp/config"
# Only in the options the series adds: any other difference means two configs.
for s in $(sed -E 's/^[<>] (# )?(CONFIG_[A-Za-z0-9_]+).*/\2/' "$dest/config.diff" | sort -u); do
	! git -C "$base_src" grep -qE "^(menu)?config ${s#CONFIG_}\$" -- '*Kconfig*' ||
		die "the two configs differ in $s, which v7.3 has too: see $dest/config.diff"
done
say "the configs differ only in the series' own options:" "$(sed -E 's/^[<>] //' "$dest/config.diff" | paste -sd ' ')"

# 6. The packages checked, then the tester's checklist.
if [ "$(wc -w <<<"$TESTER_KERNELS")" != 3 ]; then
	say "built: $TESTER_KERNELS (TESTER_KERNELS); the packages are checked and listed when all three are"
	exit 0
fi
debs=("$dest"/linux-image-*-newidle-{base,gate,exp}-*.deb)
"$LAB_TOP/lab/tools/tester-verify.sh" "${debs[@]}"
[ -z "$TESTER_RPMS" ] || "$LAB_TOP/lab/tools/tester-verify.sh" "$dest"/kernel-[0-9]*_newidle_{base,gate,exp}_*.rpm
{
	echo "Config: $cfg; compiler: $(gcc --version | sed -n 1p)"
	[ -z "$notes" ] || { echo "The lab changed in it, for both kernels:"; sed 's/^/  - /' <<<"$notes"; }
	echo "Series: lab commit $(git -C "$LAB_TOP" rev-parse --short=12 HEAD)$([ -z "$(git -C "$LAB_TOP" status --porcelain -- patches)" ] || echo ' (patches/ modified)'), series hash $(series_hash)"
	"$LAB_TOP/lab/tools/tester-checklist.sh" "${debs[@]}"
} >"$dest/CHECKLIST.txt"
cat "$dest/CHECKLIST.txt"
