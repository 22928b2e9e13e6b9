#!/bin/bash
# The KUnit suite on the host: it passes against the tree's gate, and each
# gate of tests/negative/gates fails the cases that its first line names.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib.sh"
. "$top/lab/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
neg=$top/tests/negative/gates

if "$top/lab/host/kunit.sh" >"$w/own.tap" 2>&1; then
	t_ok "the suite passes against the tree's gate ($(grep -c '^ok' "$w/own.tap") cases)"
else
	sed 's/^/# /' "$w/own.tap"
	t_notok "the suite fails against the tree's gate"
fi

# negative GATE-FILE: the header it stands for, then the suite's verdicts
for g in "$neg"/*.h "$neg"/*.patch; do
	name=$(basename "$g")
	fails=$(head -1 "$g" | sed -n 's/^\(\/\* \)\{0,1\}fails: \([a-z0-9_ ]*\).*/\2/p')
	[ -n "$fails" ] || { t_notok "$name: no 'fails:' line"; continue; }
	case $g in
	*.h) cp "$g" "$w/newidle.h" ;;
	*.patch)
		mkdir -p "$w/a"
		cp "$LINUX/kernel/sched/newidle.h" "$w/a/"
		if ! patch -s -p1 -d "$w/a" <"$g" >"$w/patch.log" 2>&1; then
			sed 's/^/# /' "$w/patch.log"
			t_notok "$name: does not apply to the tree's newidle.h"
			rm -rf "$w/a"
			continue
		fi
		mv "$w/a/newidle.h" "$w/newidle.h"
		rm -rf "$w/a"
		;;
	esac
	"$top/lab/host/kunit.sh" "$w/newidle.h" >"$w/neg.tap" 2>&1 || true
	grep -q '^1\.\.' "$w/neg.tap" || { sed 's/^/# /' "$w/neg.tap"; t_notok "$name: the suite did not run"; continue; }
	for c in $fails; do
		if grep -q "^not ok [0-9]* $c\$" "$w/neg.tap"; then
			t_ok "negative control: $name fails $c"
		else
			grep "$c" "$w/neg.tap" | sed 's/^/# /'
			t_notok "negative control: $name does not fail $c"
		fi
	done
done
t_done
