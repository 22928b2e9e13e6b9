#!/bin/sh
# Guest side of make check's bare-metal smoke: bench/bare-metal.sh's whole
# matrix on the booted kernel, runs only (the guest has no python3-scipy),
# two rounds (its least) of 1 s runs, the real msgbench, tbench and
# hackbench, and stand-ins for the two programs the lab does not have
# (sembench-ng, schbench). Every file of the run is printed between
# "BM-FILE NAME" and "BM-END" for the host to make the report
# (bench/bare-metal.sh --report).
set -eu
sb=/tmp/bm-standins
mkdir -p $sb
# the stand-ins print what the real programs print, after their run length
printf '#!/bin/sh\nsleep 1\necho "run time 1 seconds 12345 worker burns per second (stand-in)"\n' >$sb/sembench
printf '#!/bin/sh\nsleep 1\necho "average rps: 1000.5 (stand-in)"\n' >$sb/schbench
chmod +x $sb/sembench $sb/schbench
rc=0
RUNS=2 SECONDS_PER_RUN=1 BENCH_CV_MAX=0 SEMBENCH=$sb/sembench SCHBENCH=$sb/schbench \
	/lab/bin/bare-metal.sh --runs-only /tmp/bm || rc=$?
for f in /tmp/bm/report.txt /tmp/bm/runs.txt /tmp/bm/programs.txt /tmp/bm/*.csv; do
	[ -f "$f" ] || continue
	echo "BM-FILE ${f##*/}"
	cat "$f"
	echo "BM-END"
done
. /lab/sched.sh
echo "# bare-metal.sh exit $rc; features after it: $(feats)"
exit $rc
