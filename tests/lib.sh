# shellcheck shell=bash
# What every test of the project starts with, sourced as its first step
# (tests/X.sh: . "$(dirname "$0")/lib.sh"; tests/lab/X.sh: ../lib.sh): the
# project's top directory (top), the lab's settings and helpers
# (lab/lib.sh), the TAP helpers (lab/guest/tap.sh, shared with the guest), a
# scratch directory removed on exit (scratch), and a few checks.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/lab/guest/tap.sh"
. "$top/lab/lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# refuses_with TEXT COMMAND...: COMMAND fails and its stderr says TEXT (a
# fixed string), so that it failed for the reason the test is about.
refuses_with() {
	local text=$1 err rc=0
	shift
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" != 0 ] && grep -qF -- "$text" <<<"$err"
}

# not COMMAND...: COMMAND fails (for t_check, which runs its command as is)
not() { ! "$@"; }
