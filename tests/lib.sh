# shellcheck shell=bash
# The project's shell tests: the TAP helpers (lab/guest/tap.sh, shared with
# the guest) and a few checks; sourced.
. "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/lab/guest/tap.sh"

# refuses_with TEXT COMMAND...: COMMAND fails and its stderr says TEXT (a
# fixed string), so that it failed for the reason the test is about.
refuses_with() {
	local text=$1 err rc=0
	shift
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" != 0 ] && grep -qF -- "$text" <<<"$err"
}
