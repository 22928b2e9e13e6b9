# shellcheck shell=bash
# Sourced first by every test: the top directory (top), lab/lib.sh, the TAP
# helpers (lab/guest/tap.sh, shared with the guest), a scratch directory.
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
# runrc OUT COMMAND...: COMMAND's output and errors in OUT, its exit in rc
runrc() { local o=$1; shift; rc=0; "$@" >"$o" 2>&1 || rc=$?; }
# put FILE LINE...: FILE holds these lines (its folder made); script: an executable sh script of them
put() { mkdir -p "${1%/*}"; printf '%s\n' "${@:2}" >"$1"; }
script() { put "$1" '#!/bin/sh' "${@:2}"; chmod +x "$1"; }
# has [-x] FILE RE...: each RE (grep's) matches a line (-x: a whole line) of FILE
has() { local o=-q f r; [ "$1" != -x ] || { o=-qx; shift; }; f=$1; shift; for r; do grep "$o" -- "$r" "$f" || return 1; done; }
