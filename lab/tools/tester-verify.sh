#!/bin/bash
# Check a set of tester kernel packages: names that say which is which, each
# with its image and config (schedstats, debugfs), the gate (GATE_DEBUGFS) in
# the patched and experiment images only, the candidate in the experiment's only.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# = 2 ] || [ $# = 3 ] || die "usage: lab/tools/tester-verify.sh BASELINE.deb PATCHED.deb [EXPERIMENT.deb]"
need dpkg-deb
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
bad=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; bad=1; }

# has_word DEB WORD: the package's kernel image holds WORD
has_word() {
	local x=$w/x word=$2
	rm -rf "$x"
	mkdir -p "$x"
	dpkg-deb -x "$1" "$x"
	set -- "$x"/boot/vmlinuz-*
	[ -f "$1" ] || die "$(basename "$1"): no /boot/vmlinuz-* in the package"
	"$LINUX/scripts/extract-vmlinux" "$1" >"$w/vmlinux" 2>/dev/null ||
		die "cannot decompress $(basename "$1") (its decompressor: xz, gzip, zstd or lz4, missing?)"
	grep -qaw "$word" "$w/vmlinux"
}

names=""
roles="base gate"
[ $# = 2 ] || roles="base gate exp"
for role in $roles; do
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
	if has_word "$deb" "$GATE_DEBUGFS"; then gate=yes; else gate=no; fi
	case $role-$gate in
	gate-yes) pass "the patched image holds the gate ($GATE_DEBUGFS)" ;;
	exp-yes) pass "the experiment image holds the gate ($GATE_DEBUGFS)" ;;
	exp-no) fail "the experiment image does not hold the gate (no $GATE_DEBUGFS): is it the baseline?" ;;
	gate-no) fail "the patched image does not hold the gate (no $GATE_DEBUGFS): is it the baseline?" ;;
	base-no) pass "the baseline image has no gate (no $GATE_DEBUGFS)" ;;
	base-yes) fail "the baseline image holds the gate ($GATE_DEBUGFS): is it the patched kernel?" ;;
	esac
	[ "$roles" != "base gate" ] || continue
	if has_word "$deb" "$EXPERIMENT_FEATURE"; then cand=yes; else cand=no; fi
	case $role-$cand in
	exp-yes) pass "the experiment image holds the candidate ($EXPERIMENT_FEATURE)" ;;
	exp-no) fail "the experiment image does not hold the candidate (no $EXPERIMENT_FEATURE): is it the patched kernel?" ;;
	*-no) pass "the $role image has no candidate (no $EXPERIMENT_FEATURE)" ;;
	*-yes) fail "the $role image holds the candidate ($EXPERIMENT_FEATURE): is it the experiment kernel?" ;;
	esac
done
if [ "$(echo $names | tr ' ' '\n' | sort -u | wc -l)" = "$(echo $names | wc -w)" ]; then
	pass "the packages have different names"
else
	fail "two packages have the same name:$names"
fi
exit $bad
