#!/bin/bash
# The tester's checklist for a set of tester kernel packages.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# = 2 ] || [ $# = 3 ] || { echo "usage: lab/tools/tester-checklist.sh BASELINE.deb PATCHED.deb [EXPERIMENT.deb]" >&2; exit 1; }
base=$(dpkg-deb -f "$1" Package)
gate=$(dpkg-deb -f "$2" Package)
exp="" debs="./$(basename "$1") ./$(basename "$2")"
if [ $# = 3 ]; then
	exp=$(dpkg-deb -f "$3" Package)
	debs="$debs ./$(basename "$3")"
fi
f=/sys/kernel/debug/sched/features
# bm full|quick: the time bench/bare-metal.sh computes from its defaults
bm() { env -u RUNS -u SECONDS_PER_RUN -u COMPARISONS -u WORKLOADS -u SCHBENCH -u CANDIDATES "$LAB_TOP/bench/bare-metal.sh" --time | sed -n "s/^$1: //p"; }
cat <<EOF

Tester checklist
  baseline:   $(basename "$1")
  patched:    $(basename "$2")
EOF
[ -z "$exp" ] || echo "  experiment: $(basename "$3")   (candidate $EXPERIMENT_FEATURE, for testing only)"
cat <<EOF
1. Copy the packages to the test machine and install them (only these;
   not linux-libc-dev, which would replace the system's headers):
     sudo apt install $debs
2. Boot each in turn, fresh, from the boot menu (Advanced options):
     ${base#linux-image-}    v7.3, the baseline
     ${gate#linux-image-}    v7.3 + the series
EOF
[ -z "$exp" ] || echo "     ${exp#linux-image-}     v7.3 + the series + the experimental set ($EXPERIMENT_FEATURE)"
cat <<EOF
3. Confirm which one runs:
     uname -r
     echo Y | sudo tee /sys/kernel/debug/sched/verbose
     sudo grep -owE '(NO_)?($GATE_DEBUGFS|$EXPERIMENT_FEATURE)' $f
   It prints $GATE_DEBUGFS on the patched kernel, $GATE_DEBUGFS and NO_$EXPERIMENT_FEATURE
   (the candidate, off until switched on) on the experiment kernel, nothing
   on the baseline.
4. Benchmark on each, from the lab's checkout, on an otherwise idle machine
   (the report needs python3-scipy: sudo apt install python3-scipy):
     sudo bench/bare-metal.sh            the full run, the one to report:
         $(bm full)
     sudo bench/bare-metal.sh --quick    a first look:
         $(bm quick)
   Each kernel runs the comparisons it has: the experiment kernel all of
   them, the patched one two, the baseline only NI_RANDOM against
   NO_NI_RANDOM (a third of the time).
5. Report back: reply to the series' thread on LKML (reply-all, plain text,
   inline) with each kernel's report.txt (newidle-bench-*/report.txt), the
   uname -r of each, and the machine (lscpu: model, sockets, cores, threads).
EOF
