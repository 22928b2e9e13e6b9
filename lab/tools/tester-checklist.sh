#!/bin/bash
# The tester's checklist for a baseline / patched pair of kernel packages.
# Usage: lab/tools/tester-checklist.sh BASELINE.deb PATCHED.deb
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# = 2 ] || { echo "usage: lab/tools/tester-checklist.sh BASELINE.deb PATCHED.deb" >&2; exit 1; }
base=$(dpkg-deb -f "$1" Package)
gate=$(dpkg-deb -f "$2" Package)
f=/sys/kernel/debug/sched/features
# the times bench/bare-metal.sh computes from its defaults
# (bm full, bm quick: its line of --time)
bm() { env -u RUNS -u SECONDS_PER_RUN -u COMPARISONS -u WORKLOADS -u SCHBENCH "$LAB_TOP/bench/bare-metal.sh" --time | sed -n "s/^$1: //p"; }
cat <<EOF

Tester checklist
  baseline: $(basename "$1")
  patched:  $(basename "$2")
1. Copy both packages to the test machine and install both (only these two;
   not linux-libc-dev, which would replace the system's headers):
     sudo apt install ./$(basename "$1") ./$(basename "$2")
2. Boot each in turn, fresh, from the boot menu (Advanced options):
     ${base#linux-image-}    v7.3, the baseline
     ${gate#linux-image-}    v7.3 + the series
3. Confirm which one runs:
     uname -r
     echo Y | sudo tee /sys/kernel/debug/sched/verbose
     sudo grep -ow $GATE_DEBUGFS $f
   It prints $GATE_DEBUGFS only on the patched kernel (nothing on the baseline).
4. Benchmark on each, from the lab's checkout, on an otherwise idle machine
   (the report needs python3-scipy: sudo apt install python3-scipy):
     sudo bench/bare-metal.sh            the full run, the one to report:
         $(bm full)
     sudo bench/bare-metal.sh --quick    a first look:
         $(bm quick)
   On the baseline, which has neither NI_GATE nor NI_FOUND, each takes a
   third of that (only the norandom comparison runs).
5. Report back: reply to the series' thread on LKML (reply-all, plain text,
   inline) with each kernel's report.txt (newidle-bench-*/report.txt), the
   uname -r of each, and the machine (lscpu: model, sockets, cores, threads).
EOF
