#!/bin/sh
# Guest side of make check's bare-metal smoke: bench/bare-metal.sh's three
# comparisons on the booted kernel, runs only (the guest has no
# python3-scipy), two rounds (its least) of 1 s runs of futex8, a workload
# that stops on time however busy the host (the host's checks cover the
# other workloads with stand-ins). Every file of the run is printed between "BM-FILE NAME" and
# "BM-END" for the host to make the report (bench/bare-metal.sh --report).
set -eu
rc=0
RUNS=2 SECONDS_PER_RUN=1 BENCH_CV_MAX=0 WORKLOADS=futex8 /lab/bin/bare-metal.sh --runs-only /tmp/bm || rc=$?
for f in /tmp/bm/report.txt /tmp/bm/runs.txt /tmp/bm/programs.txt /tmp/bm/*.csv; do
	[ -f "$f" ] || continue
	echo "BM-FILE ${f##*/}"
	cat "$f"
	echo "BM-END"
done
. /lab/sched.sh
echo "# bare-metal.sh exit $rc; features after it: $(feats)"
exit $rc
