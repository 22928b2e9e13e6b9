#!/bin/bash
# The KUnit suite on the host: it passes against the tree's newidle.h, and
# the header broken by each patch of tests/negative/gates fails the cases
# that the patch's first line names.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if "$top/lab/host/kunit.sh" >"$scratch/own.tap" 2>&1; then
	t_ok "the suite passes against the tree's newidle.h ($(grep -c '^ok' "$scratch/own.tap") cases)"
else
	sed 's/^/# /' "$scratch/own.tap"
	t_notok "the suite fails against the tree's newidle.h"
fi

for g in "$top"/tests/negative/gates/*.patch; do
	name=$(basename "$g")
	fails=$(sed -n '1s/^fails: //p' "$g")
	[ -n "$fails" ] || { t_notok "$name: no 'fails:' line"; continue; }
	rm -rf "$scratch/a"
	mkdir -p "$scratch/a"
	cp "$LINUX/kernel/sched/newidle.h" "$scratch/a/"
	if ! patch -s -p1 -d "$scratch/a" <"$g" >"$scratch/patch.log" 2>&1; then
		sed 's/^/# /' "$scratch/patch.log"
		t_notok "$name: does not apply to the tree's newidle.h"
		continue
	fi
	"$top/lab/host/kunit.sh" "$scratch/a/newidle.h" >"$scratch/neg.tap" 2>&1 || true
	grep -q '^1\.\.' "$scratch/neg.tap" || { sed 's/^/# /' "$scratch/neg.tap"; t_notok "$name: the suite did not run"; continue; }
	for c in $fails; do
		if grep -q "^not ok [0-9]* $c\$" "$scratch/neg.tap"; then
			t_ok "negative control: $name fails $c"
		else
			t_notok "negative control: $name does not fail $c"
		fi
	done
done
t_done
