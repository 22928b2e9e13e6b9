#!/bin/bash
# The tester's checklist for a set of tester kernel packages.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# = 2 ] || [ $# = 3 ] || { echo "usage: lab/tools/tester-checklist.sh BASELINE.deb PATCHED.deb [EXPERIMENT.deb]" >&2; exit 1; }
base=$(dpkg-deb -f "$1" Package)
gate=$(dpkg-deb -f "$2" Package)
debs="./$(basename "$1") ./$(basename "$2")"
# the experiment's lines, each with its newline first (none without it)
exp_file="" exp_boot=""
if [ $# = 3 ]; then
	debs="$debs ./$(basename "$3")"
	exp_file=$'\n'"  experiment: $(basename "$3")   (candidate $EXPERIMENT_FEATURE, for testing only)"
	exp_boot=$'\n'"     $(dpkg-deb -f "$3" Package | sed 's/^linux-image-//')     v7.3 + the series + the experimental set ($EXPERIMENT_FEATURE)"
fi
# bm full|quick: the time bench/bare-metal.sh computes from its defaults (every comparison:
# a features file it cannot read)
bm() { env -u RUNS -u SECONDS_PER_RUN -u COMPARISONS -u WORKLOADS -u SCHBENCH -u CANDIDATES ABA_FEATURES=/nonexistent "$LAB_TOP/bench/bare-metal.sh" --time | sed -n "s/^$1: //p"; }
cat <<EOF

Tester checklist
  baseline:   $(basename "$1")
  patched:    $(basename "$2")$exp_file
1. Copy the packages to the test machine and install them (only these;
   not linux-libc-dev or kernel-headers, which would replace the system's
   userspace headers):
     sudo apt install $debs                       (Debian, Ubuntu)
     sudo dnf install ./kernel-[0-9]*newidle*.rpm   (Fedora)
   The packages are not signed. With Secure Boot on, the firmware refuses
   them, or the kernel's lockdown keeps debugfs from root (step 4's --check
   names it): turn Secure Boot off in the firmware for the tests, or sign
   the image with a key of your own enrolled with mokutil.
2. Boot each in turn, fresh, from the boot menu (Advanced options):
     ${base#linux-image-}    v7.3, the baseline
     ${gate#linux-image-}    v7.3 + the series$exp_boot
3. Confirm which one runs, from the lab's checkout:
     sudo lab/tools/tester-verify.sh --running
   It names the kernel from its sched features and debugfs ($GATE_DEBUGFS in
   each domain's directory: the series; $EXPERIMENT_FEATURE or NO_$EXPERIMENT_FEATURE, off until
   switched on: the experiment) and fails where its release (uname -r)
   names another one. The per-domain
   files (the series' newidle state) need:
     echo Y | sudo tee /sys/kernel/debug/sched/verbose
4. Benchmark on each, from the lab's checkout, on an otherwise idle machine;
   what the runs need (--check names what is missing, all at once):
     sudo apt install git gcc make dbench rt-tests python3-scipy
     sudo dnf install git gcc make dbench realtime-tests python3-scipy
     sudo bench/bare-metal.sh --quick    first, on the experiment kernel:
         $(bm quick)
     sudo bench/bare-metal.sh            optional, the full run on each:
         $(bm full)
   Each kernel runs the comparisons it has: the experiment kernel all of
   them; the patched one and the baseline run step one (bench/bare-metal.sh
   --step1 --time). Step one of the letters, on the kernel you ran before
   these, needs none of the kernel packages.
5. Report back: reply to the series' thread on LKML (reply-all, plain text,
   inline) with the summary each run prints last (its first two lines: the
   run, the CPUs, the kernel, the harness); attach report.txt (it holds
   lscpu's output). Runs on two or three kernels, one table:
     bench/kernels.py v7.3=OUTDIR series=OUTDIR exp=OUTDIR
EOF
