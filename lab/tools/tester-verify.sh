#!/bin/bash
# Check a baseline / patched pair of tester kernel packages: their names
# differ and say which is which, each holds the image and config of its own
# release with schedstats and debugfs on, and only the patched image holds
# the gate (the name of its feature, GATE_DEBUGFS in lab/lib.sh, which
# v7.3 lacks).
# Usage: lab/tools/tester-verify.sh BASELINE.deb PATCHED.deb; exits 1 on any failure.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# = 2 ] || die "usage: lab/tools/tester-verify.sh BASELINE.deb PATCHED.deb"
need dpkg-deb
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
bad=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; bad=1; }

# has_gate DEB: 0 when the package's kernel image holds the gate's name
has_gate() {
	local x=$w/x
	rm -rf "$x"
	mkdir -p "$x"
	dpkg-deb -x "$1" "$x"
	set -- "$x"/boot/vmlinuz-*
	[ -f "$1" ] || die "$(basename "$1"): no /boot/vmlinuz-* in the package"
	"$LINUX/scripts/extract-vmlinux" "$1" >"$w/vmlinux" 2>/dev/null ||
		die "cannot decompress $(basename "$1") (its decompressor: xz, gzip, zstd or lz4, missing?)"
	grep -qaw "$GATE_DEBUGFS" "$w/vmlinux"
}

names=""
for role in base gate; do
	deb=$1
	shift
	[ -f "$deb" ] || die "no such package: $deb"
	pkg=$(dpkg-deb -f "$deb" Package) || die "$deb is not a Debian package"
	ver=$(dpkg-deb -f "$deb" Version)
	rel=${pkg#linux-image-}
	names="$names $pkg"
	if [[ $pkg =~ ^linux-image-[0-9]+\.[0-9]+\.[0-9]+-newidle-$role-g[0-9a-f]{12}$ ]] && [ "$ver" = "$rel-1" ]; then
		pass "$role package $pkg $ver: named as a $role kernel, with its commit"
	else
		fail "$role package $pkg $ver: not named linux-image-X.Y.Z-newidle-$role-gCOMMIT, version the same + -1"
	fi
	files=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
	if grep -qx "./boot/vmlinuz-$rel" <<<"$files" && grep -qx "./boot/config-$rel" <<<"$files"; then
		pass "$role package holds /boot/vmlinuz-$rel and /boot/config-$rel"
	else
		fail "$role package lacks /boot/vmlinuz-$rel or /boot/config-$rel"
	fi
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/config-$rel" >"$w/config" 2>/dev/null || true
	if grep -q '^CONFIG_SCHEDSTATS=y' "$w/config" && grep -q '^CONFIG_DEBUG_FS=y' "$w/config"; then
		pass "$role kernel has CONFIG_SCHEDSTATS and CONFIG_DEBUG_FS"
	else
		fail "$role kernel lacks CONFIG_SCHEDSTATS or CONFIG_DEBUG_FS"
	fi
	if has_gate "$deb"; then gate=yes; else gate=no; fi
	case $role-$gate in
	gate-yes) pass "the patched image holds the gate ($GATE_DEBUGFS)" ;;
	gate-no) fail "the patched image does not hold the gate (no $GATE_DEBUGFS): is it the baseline?" ;;
	base-no) pass "the baseline image has no gate (no $GATE_DEBUGFS)" ;;
	base-yes) fail "the baseline image holds the gate ($GATE_DEBUGFS): is it the patched kernel?" ;;
	esac
done
# shellcheck disable=SC2086
set -- $names
if [ "$1" != "$2" ]; then
	pass "the two packages have different names"
else
	fail "the two packages have the same name, $1"
fi
exit $bad
