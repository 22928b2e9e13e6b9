#!/bin/sh
# One command for a tester with real hardware, as root: the review's own
# benchmark, sembench-ng at 26350892f66d (-o 2: 8 workers waking 4 per
# pass, and 815 waking 101), beside the lab's futexbench at the same two
# conditions, A/B/A on the running kernel for each feature of FEATURES:
# NI_GATE (A: the gate; B: NO_NI_GATE, the dice the series keeps), where the
# kernel has it, and NI_RANDOM (B: NO_NI_RANDOM, every visit attempts). For
# each workload and feature one warm-up round, then RUNS rounds of A B A2 of
# SECONDS_PER_RUN s each, with the schedstat deltas of every run (newidle
# attempts and pulls); then bench/stats.py's report of each: n, mean,
# median, min, max, CV, the delta of B against A and A2 with its 95 % Welch
# interval, and the drift. A condition over BENCH_CV_MAX is named (exit 6),
# but every condition is still run and reported. The report needs scipy
# (Debian's python3-scipy), checked before the first run.
#
# sembench: SEMBENCH=/path/to/sembench (the tester's own binary), or fetched
# with git from SEMBENCH_URL and checked out at the review's commit, whose id
# names the tree it builds (git checks it), then built as the review did:
# gcc -O2 -g sembench.c -lpthread -lm. Nothing of it is in the lab.
#
# Usage: sudo bench/bare-metal.sh [--quick] [OUTDIR]
#        bench/bare-metal.sh --time [--quick]   how long it takes, from the settings
#   the full run (the one to report): RUNS=9 rounds of SECONDS_PER_RUN=30 s;
#   --quick, a first look: RUNS=5 of SECONDS_PER_RUN=10 s
# Settings: RUNS, SECONDS_PER_RUN, FEATURES="NI_GATE NI_RANDOM"
#           WORKLOADS="sembench8 sembench815 futex8 futex815"
#           SEMBENCH=path  SEMBENCH_URL=https://github.com/davidlohr/sembench-ng
#           BENCH_CV_MAX=2 (the CV limit, %; 0: none)
#           ABA_FEATURES (and bench/aba.sh's other ABA_* files): stand-ins
#           for the kernel's files, for the tests; root is then not needed
set -eu
here=$(cd "$(dirname "$0")" && pwd)
quick="" time_only=""
while [ $# -gt 0 ]; do
	case $1 in --quick) quick=1 ;; --time) time_only=1 ;; *) break ;; esac
	shift
done
out=${1:-./newidle-bench-$(date +%Y%m%d-%H%M%S)}
runs=${RUNS:-$([ -n "$quick" ] && echo 5 || echo 9)}
secs=${SECONDS_PER_RUN:-$([ -n "$quick" ] && echo 10 || echo 30)}
features=${FEATURES:-NI_GATE NI_RANDOM}
workloads=${WORKLOADS:-sembench8 sembench815 futex8 futex815}
url=${SEMBENCH_URL:-https://github.com/davidlohr/sembench-ng}
commit=26350892f66df56e6fa06a0c7c104ef1de322136
cvmax=${BENCH_CV_MAX:-2}
die() { echo "bare-metal: $*" >&2; exit 1; }
# The time it takes: for each feature and workload, one warm-up round and
# RUNS rounds of A B A2, each run its seconds and up to 1 s more to start
# and stop its threads (futexbench -t 815 took 0.2 s over a 2 s run on 2
# cores). A feature the kernel lacks is skipped: NI_GATE on v7.3 halves it.
nf=$(echo $features | wc -w) nw=$(echo $workloads | wc -w)
n=$((nf * nw * (1 + runs) * 3))
took="about $(( (n * (secs + 1) + 59) / 60 )) minutes ($n runs of $secs s: $nf features x $nw workloads x (1 warm-up + $runs rounds) x A B A2)"
[ -z "$time_only" ] || { echo "$took"; exit 0; }
/usr/bin/python3 -c 'import scipy' 2>/dev/null || die "the report needs scipy: apt install python3-scipy"
# ABA_FEATURES and bench/aba.sh's other ABA_* stand-ins (the tests') replace
# the kernel's files; then root is not needed
F=${ABA_FEATURES:-/sys/kernel/debug/sched/features}
[ -n "${ABA_FEATURES:-}" ] || [ "$(id -u)" = 0 ] || die "run as root (it writes $F)"
mkdir -p "$out/bin"

# sembench: the tester's, or the review's commit fetched, checked and built
case " $workloads " in
*" sembench"*)
	if [ -n "${SEMBENCH:-}" ]; then
		[ -x "$SEMBENCH" ] || die "SEMBENCH=$SEMBENCH is not an executable"
		cp "$SEMBENCH" "$out/bin/sembench"
		echo "sembench: the tester's binary, $SEMBENCH" >"$out/sembench.txt"
	else
		command -v git >/dev/null && command -v gcc >/dev/null || die "git and gcc are needed to fetch and build sembench (or give SEMBENCH=path)"
		src=$out/sembench-ng
		[ -d "$src/.git" ] || git clone -q "$url" "$src" || die "cannot clone $url"
		git -C "$src" checkout -q "$commit" || die "$url has no commit $commit"
		[ "$(git -C "$src" rev-parse HEAD)" = "$commit" ] || die "the checkout is not $commit"
		git -C "$src" diff --quiet || die "$src has local changes"
		gcc -O2 -g "$src/sembench.c" -lpthread -lm -o "$out/bin/sembench" || die "sembench did not build"
		echo "sembench: $url at $commit (checked), sembench.c sha256 $(sha256sum "$src/sembench.c" | cut -d' ' -f1)," \
			"built with gcc -O2 -g sembench.c -lpthread -lm ($(gcc -dumpfullversion))" >"$out/sembench.txt"
	fi
	PATH=$out/bin:$PATH
	;;
esac
[ -e "$F" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
[ -w "$F" ] || die "no $F (CONFIG_DEBUG_FS, debugfs mounted?)"
SCHED_FEATURES=$F
# shellcheck source=lab/guest/sched.sh
. "$here/../lab/guest/sched.sh"
{
	echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(grep -c ^processor /proc/cpuinfo) CPUs;" \
		"kernel $(uname -r); features: $(feats)"
	[ ! -f "$out/sembench.txt" ] || cat "$out/sembench.txt"
	echo "Runs: per workload and feature, 1 warm-up round then $runs rounds of A B A2, $secs s each" \
		"(futex: transient = first 250 ms, steady = after 5 s); $took"
	echo
} >"$out/report.txt"
rc=0
for f in $features; do
	feat "$f" >/dev/null || { echo "(the kernel has no $f: skipped)" >>"$out/report.txt"; continue; }
	for wl in $workloads; do
		"$here/aba.sh" -w "$wl" -f "$f" -k "$runs" -s "$secs" -x 1 -i 250 -u 5 -S -o "$out/$wl-$f.csv"
		"$here/stats.py" "$out/$wl-$f.csv" --title "$wl, A/B/A of $f on one boot" --label "A=A  $f" \
			--label "B=B  NO_$f" --label "A2=A2 $f again" --cv-max "$cvmax" --json "$out/$wl-$f.json" \
			--csv "$out/$wl-$f.report.csv" >>"$out/report.txt" || rc=$?
	done
done
cat "$out/report.txt"
echo "bare-metal: results in $out (report.txt; a CSV and a JSON per workload and feature)" >&2
exit $rc
