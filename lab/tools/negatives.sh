#!/bin/bash
# Write lab/data/negative-selftest/NAME.patch afresh from the tree's
# newidle_gate_test.c (after the test changed): each is the test with one
# change that must make it fail, and a header that says which tests fail,
# how to run it and whether it leaves changes (lab/steps/selftests.sh
# builds them, lab/guest/tests.sh runs them). A change that no longer
# applies to the test stops the run, naming it.
# Usage: lab/tools/negatives.sh
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need python3
src=$LINUX/tools/testing/selftests/sched/newidle_gate_test.c
dst=$LAB_TOP/lab/data/negative-selftest
[ -f "$src" ] || die "no $src: the series is not applied (run 'make apply')"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/a"
cp "$src" "$tmp/a/"
# mk NAME HEADER PYTHON: the test changed by PYTHON (which edits the string s)
mk() {
	rm -rf "$tmp/b"
	cp -r "$tmp/a" "$tmp/b"
	python3 -c "import sys
p = sys.argv[2]
s = open(p).read()
exec(sys.argv[1])
open(p, 'w').write(s)" "$3" "$tmp/b/newidle_gate_test.c"
	! cmp -s "$tmp/a/newidle_gate_test.c" "$tmp/b/newidle_gate_test.c" ||
		die "$1: its change no longer applies to $src"
	{
		printf '%s\n\n' "$2"
		(cd "$tmp" && diff -u a/newidle_gate_test.c b/newidle_gate_test.c || true) |
			sed -E 's/^(---|\+\+\+) ([ab]\/[a-z_.]*).*/\1 \2/'
	} >"$dst/$1.patch"
	say "$1: $(grep -c '^[-+][^-+]' "$dst/$1.patch") changed lines"
}
mk dice "fails: live.gate_keeps_rate

The dice (NO_NI_GATE) where the test asks for the gate." '
s=s.replace("set_feature(\"NI_GATE\", 1)","set_feature(\"NI_GATE\", 0)")'
mk timeout "fails: live.gate_keeps_rate
run: -t gate_keeps_rate

The harness kills the test on its timeout, before its teardown, and it is the
last test run: main() must put back what it changed." '
s=s.replace("TEST_F_TIMEOUT(live, gate_keeps_rate, 60)","TEST_F_TIMEOUT(live, gate_keeps_rate, 3)")'
mk unrestored "fails: live.gate_keeps_rate
run: -t gate_keeps_rate
leaves: changes

As timeout.patch, and main() does not put back what the tests changed: the
guest's check of the knobs must see it." '
s=s.replace("TEST_F_TIMEOUT(live, gate_keeps_rate, 60)","TEST_F_TIMEOUT(live, gate_keeps_rate, 3)")
s=s.replace("	atexit(restore_state);	/* test_harness_run() ends with exit() */\n","")'
mk tight "fails: live.gate_keeps_rate
run: -t gate_keeps_rate

Attempts asked within half of one of visits * (1 + ratio) / 1024, where the gate
promises two: the count check is shown failing on the gate itself." '
s=s.replace("EXPECT_LT(llabs(did * SCALE - due), 2 * SCALE)","EXPECT_LT(llabs(did * SCALE - due), SCALE / 2)")'
