# shellcheck shell=bash
# Tiny TAP helpers for the project's shell tests; sourced.
T_N=0
T_FAIL=0
t_ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
t_notok() { T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1)); echo "not ok $T_N - $*"; }
# t_check DESCRIPTION COMMAND...: passes when COMMAND succeeds
t_check() { local d=$1; shift; if "$@"; then t_ok "$d"; else t_notok "$d"; fi; }
t_done() { echo "1..$T_N"; [ "$T_FAIL" = 0 ]; }
