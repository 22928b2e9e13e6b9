#!/bin/bash
# The KUnit suite on the host: it passes against the tree's gate, and each
# gate of tests/negative/gates fails the cases that its first line names.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
neg=$top/tests/negative/gates

if "$top/lab/host/kunit.sh" >"$scratch/own.tap" 2>&1; then
	t_ok "the suite passes against the tree's gate ($(grep -c '^ok' "$scratch/own.tap") cases)"
else
	sed 's/^/# /' "$scratch/own.tap"
	t_notok "the suite fails against the tree's gate"
fi

# negative GATE-FILE: the header it stands for, then the suite's verdicts
for g in "$neg"/*.h "$neg"/*.patch; do
	name=$(basename "$g")
	fails=$(head -1 "$g" | sed -n 's/^\(\/\* \)\{0,1\}fails: \([a-z0-9_ ]*\).*/\2/p')
	[ -n "$fails" ] || { t_notok "$name: no 'fails:' line"; continue; }
	case $g in
	*.h) cp "$g" "$scratch/newidle.h" ;;
	*.patch)
		mkdir -p "$scratch/a"
		cp "$LINUX/kernel/sched/newidle.h" "$scratch/a/"
		if ! patch -s -p1 -d "$scratch/a" <"$g" >"$scratch/patch.log" 2>&1; then
			sed 's/^/# /' "$scratch/patch.log"
			t_notok "$name: does not apply to the tree's newidle.h"
			rm -rf "$scratch/a"
			continue
		fi
		mv "$scratch/a/newidle.h" "$scratch/newidle.h"
		rm -rf "$scratch/a"
		;;
	esac
	"$top/lab/host/kunit.sh" "$scratch/newidle.h" >"$scratch/neg.tap" 2>&1 || true
	grep -q '^1\.\.' "$scratch/neg.tap" || { sed 's/^/# /' "$scratch/neg.tap"; t_notok "$name: the suite did not run"; continue; }
	for c in $fails; do
		if grep -q "^not ok [0-9]* $c\$" "$scratch/neg.tap"; then
			t_ok "negative control: $name fails $c"
		else
			grep "$c" "$scratch/neg.tap" | sed 's/^/# /'
			t_notok "negative control: $name does not fail $c"
		fi
	done
done
t_done
