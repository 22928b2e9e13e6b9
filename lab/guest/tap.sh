# shellcheck shell=sh
# TAP for the guest's scripts (busybox sh) and the host's tests (tests/lib.sh).
T_N=0
T_FAIL=0
T_SKIP=0
t_ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
t_notok() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
# t_skip DESCRIPTION REASON
t_skip() { T_N=$((T_N + 1)); T_SKIP=$((T_SKIP + 1)); echo "ok $T_N - $1 # SKIP $2"; }
# t_check DESCRIPTION COMMAND...: passes when COMMAND succeeds
t_check() {
	t_desc=$1
	shift
	if "$@"; then t_ok "$t_desc"; else t_notok "$t_desc"; fi
}
t_done() {
	echo "1..$T_N"
	echo "# $((T_N - T_FAIL - T_SKIP)) passed, $T_FAIL failed, $T_SKIP skipped"
	[ "$T_FAIL" = 0 ]
}
