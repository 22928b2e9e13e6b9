#!/bin/bash
# The series' KUnit suite on the host (lab/host/include stands in for KUnit),
# against the tree's gate or another newidle.h. Usage: lab/host/kunit.sh [NEWIDLE_H]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
suite=$LINUX/kernel/sched/tests/newidle_kunit.c
hdr=${1:-$LINUX/kernel/sched/newidle.h}
[ -f "$suite" ] || die "no $suite: the series is not applied (make apply)"
[ -f "$hdr" ] || die "no gate header $hdr"
need gcc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the suite includes "../newidle.h": the same layout, with HDR in the gate's place
mkdir -p "$tmp/sched/tests"
cp "$suite" "$tmp/sched/tests/"
cp "$hdr" "$tmp/sched/newidle.h"
gcc -O2 -Wall -Werror -I"$LAB_TOP/lab/host/include" -I"$LINUX/tools/include" \
	-o "$tmp/kunit" "$tmp/sched/tests/newidle_kunit.c"
"$tmp/kunit"
