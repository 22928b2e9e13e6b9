#!/bin/bash
# Write lab/data/negative-selftest/NAME.patch afresh from the tree's test:
# each a change that must make it fail, under a header of what fails, how to
# run it and whether it leaves changes. A change that no longer applies stops it.
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
s=s.replace("set_feature(\"NI_GATE\")","set_feature(\"NO_NI_GATE\")")'
mk tight "fails: live.gate_keeps_rate
run: -t gate_keeps_rate

Attempts asked within half of one of visits * (1 + ratio) / 1024, where the
gate promises two: the count check is shown failing on the gate itself." '
s=s.replace("EXPECT_LT(llabs(did * SCALE - due), 2 * SCALE)","EXPECT_LT(llabs(did * SCALE - due), SCALE / 2)")'
mk timeout "fails: live.gate_keeps_rate
run: -t gate_keeps_rate

The harness kills the test on its timeout: its parent must still put back
what the test changed, and kill the helpers." '
s=s.replace("TEST_F_TIMEOUT(live, gate_keeps_rate, 40)","TEST_F_TIMEOUT(live, gate_keeps_rate, 3)")'
mk unrestored "fails: live.gate_keeps_rate
run: -t gate_keeps_rate
leaves: changes

As timeout.patch, with nothing put back: the guest's check of the knobs
must see it." '
s=s.replace("TEST_F_TIMEOUT(live, gate_keeps_rate, 40)","TEST_F_TIMEOUT(live, gate_keeps_rate, 3)")
s=s.replace("\tif (!saved || !saved->valid)\n\t\treturn;","\treturn;")'
mk setupleak "run: -t gate_keeps_rate
leaves: changes

A setup that changes a knob and then skips: the harness runs no teardown
after it, so the change stays (why the test changes nothing in setup)." '
s=s.replace("\tif (geteuid())\n\t\tSKIP(return, \"must be root\");","\tif (geteuid())\n\t\tSKIP(return, \"must be root\");\n\twrite_file(FEATURES, \"NO_NI_RATE\");\n\tSKIP(return, \"planted: a change, then a skip\");")'
mk orphan "run: -t gate_keeps_rate
leaves: changes

A helper that sets its death signal only after the test ended (a second
late, setup skipping at once) and does not check its parent: it is left
running (why spawn() checks getppid())." '
s=s.replace("\tif (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)","\tsleep(1);\n\tif (prctl(PR_SET_PDEATHSIG, SIGKILL) || !parent)")
s=s.replace("\tASSERT_GT(self->helper[1], 0);\n}","\tASSERT_GT(self->helper[1], 0);\n\tSKIP(return, \"planted: helpers, then a skip\");\n}")'
mk orphan-checked "run: -t gate_keeps_rate

As orphan.patch, with spawn()'s check of its parent kept: no helper is left." '
s=s.replace("\tif (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)","\tsleep(1);\n\tif (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)")
s=s.replace("\tASSERT_GT(self->helper[1], 0);\n}","\tASSERT_GT(self->helper[1], 0);\n\tSKIP(return, \"planted: helpers, then a skip\");\n}")'
