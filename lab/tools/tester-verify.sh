#!/bin/bash
# Check a set of tester kernel packages (.deb or .rpm): names that say which is which, each
# with its image and config (schedstats, debugfs), the gate (GATE_DEBUGFS) in
# the patched and experiment images only, the candidate in the experiment's only.
# --running: which of the three kernels runs, from its sched features (the
# candidate is off by default: NO_ of it), the gate's file in its domains'
# debugfs directory and its release name; they must agree.
# TESTER_FEATURES, TESTER_DOMAIN, TESTER_RELEASE, TESTER_LOCKDOWN (lab/settings): the tests' stand-ins.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage="usage: lab/tools/tester-verify.sh BASELINE PATCHED [EXPERIMENT] (.deb or .rpm packages) | --running"
case ${1:-} in -h|--help) echo "$usage"; exit 0 ;; esac
if [ "${1:-}" = --running ]; then
	[ $# = 1 ] || die "$usage"
	f=${TESTER_FEATURES:-/sys/kernel/debug/sched/features} rel=${TESTER_RELEASE:-$(uname -r)}
	lk=${TESTER_LOCKDOWN:-/sys/kernel/security/lockdown}
	# debugfs mounted for the read, as bench/bare-metal.sh does, and unmounted again
	if [ ! -e "$f" ] && [ -z "${TESTER_FEATURES:-}" ] && [ "$(id -u)" = 0 ] &&
		mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null; then
		trap 'umount /sys/kernel/debug' EXIT
	fi
	if ! feats=$(cat "$f" 2>&1); then
		[ "$(id -u)" = 0 ] || die "cannot read $f (${feats##*: }): run it as root (sudo)"
		case $feats:$(cat "$lk" 2>/dev/null) in
		*"not permitted":*"[integrity]"*|*"not permitted":*"[confidentiality]"*)
			die "root may not read $f: kernel lockdown ($(cat "$lk")), as under Secure Boot: turn it off for the tests" ;;
		*"not permitted":*) die "root may not read $f, and kernel lockdown is not on$([ -r "$lk" ] || echo " (or $lk cannot be read: mount -t securityfs securityfs /sys/kernel/security)"): the debugfs= boot option or a security module restricts debugfs" ;;
		*) die "cannot read $f (${feats##*: }): a kernel without CONFIG_DEBUG_FS?" ;;
		esac
	fi
	has() { grep -qwE "(NO_)?$1" <<<"$feats"; }
	has NI_RANDOM || die "$f has no NI_RANDOM: this kernel is none of the three (older than v7.3's throttle)"
	# the domains' files are there while sched/verbose is Y: set for the look, put back
	dom=${TESTER_DOMAIN:-/sys/kernel/debug/sched/domains/cpu0/domain0} vb=/sys/kernel/debug/sched/verbose was=""
	if [ -z "${TESTER_DOMAIN:-}" ] && [ "$(cat "$vb" 2>/dev/null)" = N ] && echo Y >"$vb" 2>/dev/null; then was=N; fi
	gate=""
	[ ! -e "$dom/$GATE_DEBUGFS" ] || gate=1
	[ -z "$was" ] || echo N >"$vb"
	if has "$EXPERIMENT_FEATURE"; then role=exp what="v7.3 + the series + the experimental set ($(grep -owE "(NO_)?$EXPERIMENT_FEATURE" <<<"$feats"))"
	elif [ -n "$gate" ]; then role=gate what="v7.3 + the series (debugfs: $GATE_DEBUGFS)"
	else role=base what="v7.3 or another kernel without the series (no $GATE_DEBUGFS in debugfs)"
	fi
	echo "running: $rel: $what"
	case $rel in
	*-newidle-"$role"-g*) echo "ok: its release names the same kernel (-newidle-$role-)" ;;
	*-newidle-*) echo "FAIL: its release names another kernel than its features (-newidle-$role- expected)"; exit 1 ;;
	*) echo "ok: not one of the tester packages (step one runs on it)" ;;
	esac
	exit 0
fi
[ $# = 2 ] || [ $# = 3 ] || die "$usage"
for p; do case $p in *.rpm) need rpm rpm2cpio cpio ;; *) need dpkg-deb ;; esac; done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
bad=0
pass() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; bad=1; }
# check OK-TEXT FAIL-TEXT COMMAND...: "ok: OK-TEXT" where COMMAND succeeds, else "FAIL: FAIL-TEXT"
check() { if "${@:3}"; then pass "$1"; else fail "$2"; fi; }

# unpack PACKAGE: its files in $w/x (a .deb or an .rpm)
unpack() {
	rm -rf "$w/x"
	mkdir -p "$w/x"
	case $1 in
	*.rpm) rpm2cpio "$1" | (cd "$w/x" && cpio -idm --quiet) ;;
	*) dpkg-deb -x "$1" "$w/x" ;;
	esac || die "$1: cannot unpack it"
}
# has_word WORD: the unpacked kernel image holds WORD
has_word() {
	set -- "$1" "$img"
	[ -f "$2" ] || die "no kernel image in the package"
	"$LINUX/scripts/extract-vmlinux" "$2" >"$w/vmlinux" 2>/dev/null ||
		die "cannot decompress $(basename "$2") (its decompressor: xz, gzip, zstd or lz4, missing?)"
	grep -qaw "$1" "$w/vmlinux"
}
# image NAME yes|no WHAT WORD SUSPECT-IF-NOT SUSPECT-IF-SO: the image of the role NAME
# holds WORD (yes) or not (no); a wrong one asks whether it is the SUSPECT
image() {
	if has_word "$4"; then
		check "the $1 image holds the $3 ($4)" "the $1 image holds the $3 ($4): is it $6?" [ "$2" = yes ]
	else
		check "the $1 image has no $3 (no $4)" "the $1 image does not hold the $3 (no $4): is it $5?" [ "$2" = no ]
	fi
}

names=""
roles="base gate"
[ $# = 2 ] || roles="base gate exp"
for role in $roles; do
	deb=$1
	shift
	[ -f "$deb" ] || die "no such package: $deb"
	# the name, version and the kernel's release: linux-image-REL, REL-1
	# (Debian's), or kernel, REL with _ for - (the kernel's binrpm-pkg)
	case $deb in
	*.rpm)
		pkg=$(rpm -qp --qf '%{NAME}' "$deb" 2>/dev/null) || die "$deb is not an RPM package"
		ver=$(rpm -qp --qf '%{VERSION}' "$deb")
		rel=${ver//_/-}
		[[ $pkg = kernel && $ver =~ ^[0-9]+\.[0-9]+\.[0-9]+_newidle_${role}_g[0-9a-f]{12}$ ]] && ok=1 || ok=""
		want="kernel, version X.Y.Z_newidle_${role}_gCOMMIT"
		names="$names $pkg-$ver" ;;
	*)
		pkg=$(dpkg-deb -f "$deb" Package) || die "$deb is not a Debian package"
		ver=$(dpkg-deb -f "$deb" Version)
		rel=${pkg#linux-image-}
		[[ $pkg =~ ^linux-image-[0-9]+\.[0-9]+\.[0-9]+-newidle-$role-g[0-9a-f]{12}$ && $ver = "$rel-1" ]] && ok=1 || ok=""
		want="linux-image-X.Y.Z-newidle-$role-gCOMMIT, version the same + -1"
		names="$names $pkg" ;;
	esac
	check "$role package $pkg $ver: named as a $role kernel, with its commit" "$role package $pkg $ver: not named $want" [ -n "$ok" ]
	unpack "$deb"
	# the .deb installs /boot/vmlinuz-REL; the .rpm /lib/modules/REL/vmlinuz,
	# which its scriptlet copies to /boot
	img=$w/x/boot/vmlinuz-$rel cfg=$w/x/boot/config-$rel
	[ -f "$img" ] || img=$w/x/lib/modules/$rel/vmlinuz cfg=$w/x/lib/modules/$rel/config
	check "$role package holds ${img#"$w"/x} and ${cfg#"$w"/x}" \
		"$role package lacks the image or config of $rel (/boot/vmlinuz-$rel, /lib/modules/$rel/vmlinuz)" eval '[ -f "$img" ] && [ -f "$cfg" ]'
	check "$role kernel has CONFIG_SCHEDSTATS and CONFIG_DEBUG_FS" "$role kernel lacks CONFIG_SCHEDSTATS or CONFIG_DEBUG_FS" \
		eval 'grep -qs "^CONFIG_SCHEDSTATS=y" "$cfg" && grep -qs "^CONFIG_DEBUG_FS=y" "$cfg"'
	# the gate in all but the baseline, the candidate in the experiment only
	case $role in base) n=baseline g=no ;; gate) n=patched g=yes ;; exp) n=experiment g=yes ;; esac
	image "$n" $g gate "$GATE_DEBUGFS" "the baseline" "the patched kernel"
	[ "$roles" != "base gate" ] || continue
	# (the candidate's checks name the others by their role)
	if [ "$role" = exp ]; then c=yes; else n=$role c=no; fi
	image "$n" $c candidate "$EXPERIMENT_FEATURE" "the patched kernel" "the experiment kernel"
done
check "the packages have different names" "two packages have the same name:$names" \
	[ "$(echo $names | tr ' ' '\n' | sort -u | wc -l)" = "$(echo $names | wc -w)" ]
exit $bad
