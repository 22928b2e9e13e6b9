#!/bin/bash
# The KUnit suite on the host: it passes against the tree's newidle.h; the header broken by
# each patch of tests/negative/gates fails the cases that the patch's first line names.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

runrc "$scratch/own.tap" "$top/lab/host/kunit.sh"
[ "$rc" = 0 ] || sed 's/^/# /' "$scratch/own.tap"
t_check "the suite passes against the tree's newidle.h ($(grep -c '^ok' "$scratch/own.tap") cases)" test "$rc" = 0
for g in "$top"/tests/negative/gates/*.patch; do
	name=$(basename "$g")
	fails=$(sed -n '1s/^fails: //p' "$g")
	[ -n "$fails" ] || { t_notok "$name: no 'fails:' line"; continue; }
	rm -rf "$scratch/a" && mkdir "$scratch/a" && cp "$LINUX/kernel/sched/newidle.h" "$scratch/a/"
	patch -s -p1 -d "$scratch/a" <"$g" >"$scratch/patch.log" 2>&1 ||
		{ sed 's/^/# /' "$scratch/patch.log"; t_notok "$name: does not apply to the tree's newidle.h"; continue; }
	"$top/lab/host/kunit.sh" "$scratch/a/newidle.h" >"$scratch/neg.tap" 2>&1 || true
	grep -q '^1\.\.' "$scratch/neg.tap" || { sed 's/^/# /' "$scratch/neg.tap"; t_notok "$name: the suite did not run"; continue; }
	for c in $fails; do
		t_check "negative control: $name fails $c" grep -q "^not ok [0-9]* $c\$" "$scratch/neg.tap"
	done
done
t_done
