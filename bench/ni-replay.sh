#!/bin/bash
# ni-replay.sh: a newidle recording (bench/ni-record.sh) replayed through the candidate
# throttles: the table a tester pastes, or with -l attempts and tasks moved per level
# (schedstat's newidle lb_count, lb_gained) and the waker's pulls, every-2nd (a control
# that ignores the ratio) too. bench/ni-replay.c is built in a temporary folder against
# the series' newidle.h: out/linux's when the series is applied there, else made from
# patches/ alone (a tester's clone: gcc and git, no kernel tree).
# The table, to first order (a task a rule leaves is not pulled later: pulls are a lower
# bound): per rule, its attempts, pulls, the waker's pulls and time in attempts as shares
# of NO_NI_RANDOM's (every visit attempts), and unseen: the share of newidle calls the
# rule walks on past where the recorded walk ended. Above: the window ends, where the
# rules' estimates move, and the visits whose state is off the kernel's (0: none lost).
# Below: the waker (the task pulled most) and, per sched domain level (sd->level), the
# attempts that met a task running or cache hot (at most what NI_FOUND would count) per
# pull. The dice's draws follow SEED (-s, 1).
# Usage: bench/ni-replay.sh [-l] [-s SEED] RECORDING
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
usage() { echo "ni-replay: ${1:+$1; }usage: bench/ni-replay.sh [-l] [-s SEED] RECORDING" >&2; exit 2; }
fail() { echo "ni-replay: $*" >&2; exit 2; }
opts=() rec=""
while [ $# -gt 0 ]; do
	case $1 in
	-l) opts+=(-l) ;;
	-s) [[ ${2:-} =~ ^[0-9]+$ ]] || usage "-s takes a number"; opts+=(-s "$2"); shift ;;
	-h|--help) sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	-*) usage "unknown option $1" ;;
	*) [ -z "$rec" ] || usage "one RECORDING"; rec=$1 ;;
	esac
	shift
done
[ -n "$rec" ] || usage
[[ -f $rec && -r $rec ]] || fail "no recording $rec (a file of bench/ni-record.sh)"
command -v gcc >/dev/null || fail "gcc is missing: install it (Debian and Fedora: gcc) to build the replay"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hdr=$LINUX/kernel/sched/newidle.h
if [ ! -f "$hdr" ]; then
	# newidle.h from the series alone: patch 0007 creates it, 0008 changes it
	[ -f "$PATCHES/series" ] || fail "no $hdr and no $PATCHES/series to make it from"
	command -v git >/dev/null || fail "git is missing: install it (Debian and Fedora: git) to make newidle.h from $PATCHES"
	mkdir "$tmp/h"
	mapfile -t p < <(grep '^[^#]' "$PATCHES/series")
	(cd "$tmp/h" && GIT_CEILING_DIRECTORIES=$tmp git apply --include=kernel/sched/newidle.h \
		"${p[@]/#/$PATCHES/}" </dev/null) || fail "newidle.h could not be made from $PATCHES"
	hdr=$tmp/h/kernel/sched/newidle.h
	[ -f "$hdr" ] || fail "no patch of $PATCHES/series creates kernel/sched/newidle.h"
fi
gcc -O2 -Wall -Wextra -Werror -I"$LAB_TOP/lab/host/include" -I"$LAB_TOP/bench/include" \
	-DNEWIDLE_H="\"$hdr\"" -o "$tmp/ni-replay" "$LAB_TOP/bench/ni-replay.c"
"$tmp/ni-replay" "${opts[@]}" <"$rec"
