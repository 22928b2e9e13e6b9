# shellcheck shell=bash
# Sourced first by every test: $top, lab/lib.sh, the TAP helpers (shared with the guest), $scratch.
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$top/lab/guest/tap.sh"
. "$top/lab/lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# no test reads or writes the machine's kept base (lab/steps/fetch.sh)
export BASE_CACHE=$scratch/base-cache.git

# refuses_with TEXT COMMAND...: COMMAND fails, its stderr saying TEXT: for the reason tested
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
# throwaway_series CHANGE...: OUT, PATCHES, BASE_TAG in $scratch; an upstream $scratch/up (main:
# kernel/sched/fair.c), PATCHES a series in git of a patch per CHANGE: V=N: 'int V = N;', +FILE adds FILE
throwaway_series() {
	local v g=(git -C "$scratch/up")
	export OUT=$scratch/out PATCHES=$scratch/patches BASE_TAG=base-test
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
	put "$scratch/up/kernel/sched/fair.c" 'int a;' 'int b;' 'int c;' 'int d;' 'int e;' 'int f;' 'int g;'
	"${g[@]}" init -q -b main && "${g[@]}" add -A && "${g[@]}" commit -q -m base && "${g[@]}" checkout -q -b topic
	for v; do
		case $v in
		+*) echo "int h;" >"$scratch/up/kernel/sched/${v#+}" && "${g[@]}" add -A && "${g[@]}" commit -q -m "sched: Add ${v#+}" -m "A new file." ;;
		*) sed -i "s/int ${v%=*};/int ${v%=*} = ${v#*=};/" "$scratch/up/kernel/sched/fair.c"
			"${g[@]}" commit -q -am "sched/fair: Initialise ${v%=*}" -m "Throwaway change." ;;
		esac
	done
	mkdir -p "$PATCHES" "$OUT" && "${g[@]}" format-patch -q --zero-commit --no-signature -o "$PATCHES" main..topic
	(cd "$PATCHES" && ls -1 ./*.patch | sed 's|^\./||') >"$PATCHES/series"
	git -C "$PATCHES" init -q && git -C "$PATCHES" add -A && git -C "$PATCHES" commit -q -m series
}
