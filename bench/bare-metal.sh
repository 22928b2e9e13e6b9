#!/bin/sh
# One command for a tester with real hardware, as root: the series' comparisons
# on the running kernel, one boot, A/B/A each (bench/aba.sh):
#   norandom  A NI_RANDOM (the dice), B NO_NI_RANDOM (every visit attempts)
#   gate      A NI_GATE (the gate), B NO_NI_GATE (the dice)
#   CANDIDATE each of CANDIDATES, B NO_CANDIDATE (the dice); NI_FOUND: an attempt that
#             found a task this CPU may run but did not move it counts as a success
# Each sets its base first: NI_RANDOM on where not compared, NO_NI_GATE but for gate,
# the other candidates off; one the kernel lacks is skipped, said. What it sets is put
# back on exit, failure or Ctrl-C. Workloads: sembench-ng at 26350892f66d -o 2 (the
# review's 8 waking 4, 815 waking 101), msgbench (bench/msgbench.c), tbench at 1, 8,
# 16, 32 clients (the Zen 3 review's), hackbench, schbench (Chris Mason's) with SCHBENCH.
# Per workload a warm-up round, then per comparison RUNS rounds of A B A2 with aba.sh
# -S's counters; then bench/stats.py's report (python3-scipy, checked first): spread,
# B's delta against A and A2 with its 95 % Welch interval, drift, and bench/counters.py's
# table. A condition over BENCH_CV_MAX is named (exit 6), everything still reported.
# sembench: SEMBENCH=path, or cloned from SEMBENCH_URL at the review's commit (checked)
# and built as the review did: gcc -O2 -g sembench.c -lpthread -lm.
#
# Usage: sudo bench/bare-metal.sh [--quick] [--runs-only] [OUTDIR]
#        bench/bare-metal.sh --time   how long each takes, from the settings
#        bench/bare-metal.sh --report OUTDIR   the report of a --runs-only run
#        bench/bare-metal.sh --help   this text (options go before or after OUTDIR)
#   --runs-only: no report (no python3-scipy, as in the lab's guest)
#   the full run (the one to report): RUNS=5 rounds of SECONDS_PER_RUN=20 s;
#   --quick, a first look: RUNS=3 of SECONDS_PER_RUN=5 s
# Settings: RUNS, SECONDS_PER_RUN, COMPARISONS="norandom gate NI_FOUND", CANDIDATES=
#   "NI_FOUND", WORKLOADS="sembench8 sembench815 msg tbench1 tbench8 tbench16 tbench32
#   hackbench" (and schbench with SCHBENCH=path), SEMBENCH=path, BENCH_CV_MAX=2 (%; 0:
#   none), SEMBENCH_URL=https://github.com/davidlohr/sembench-ng;
#   ABA_FEATURES and aba.sh's other ABA_*: the tests' stand-ins
set -eu
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "bare-metal: $*" >&2; exit 1; }
# bad arguments and settings: exit 2, before anything is touched
bad() { echo "bare-metal: $*" >&2; exit 2; }
quick="" time_only="" runs_only="" report_only="" out=""
for a; do
	case $a in
	--quick) quick=1 ;; --time) time_only=1 ;; --runs-only) runs_only=1 ;; --report) report_only=1 ;;
	-h|--help) sed -n '2,/^set -eu/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) bad "unknown option $a (--help: the usage)" ;;
	*) [ -z "$out" ] || bad "one OUTDIR only, not '$out' and '$a'"; out=$a ;;
	esac
done
out=${out:-./newidle-bench-$(date +%Y%m%d-%H%M%S)}
full_runs=5 full_secs=20 quick_runs=3 quick_secs=5
runs=${RUNS:-$([ -n "$quick" ] && echo $quick_runs || echo $full_runs)}
secs=${SECONDS_PER_RUN:-$([ -n "$quick" ] && echo $quick_secs || echo $full_secs)}
comparisons=${COMPARISONS:-norandom gate NI_FOUND}
candidates=${CANDIDATES:-NI_FOUND}
workloads=${WORKLOADS:-sembench8 sembench815 msg tbench1 tbench8 tbench16 tbench32 hackbench}
[ -n "${WORKLOADS:-}" ] || [ -z "${SCHBENCH:-}" ] || workloads="$workloads schbench"
url=${SEMBENCH_URL:-https://github.com/davidlohr/sembench-ng}
commit=26350892f66df56e6fa06a0c7c104ef1de322136
cvmax=${BENCH_CV_MAX:-2}
# the settings first (a CV and an interval need two rounds)
case $runs in ''|*[!0-9]*|0*|1) bad "RUNS takes a whole number from 2, not '$runs'" ;; esac
case $secs in ''|*[!0-9]*|0*) bad "SECONDS_PER_RUN takes a whole number from 1, not '$secs'" ;; esac
case $cvmax in ''|.|*[!0-9.]*|*.*.*) bad "BENCH_CV_MAX takes a number (%), not '$cvmax'" ;; esac
for c in $candidates; do
	case $c in NI_*[!A-Z0-9_]*|NI_) bad "CANDIDATES: '$c' is not a feature name (NI_...)" ;; NI_*) ;; *) bad "CANDIDATES: '$c' is not a feature name (NI_...)" ;; esac
done
for c in $comparisons; do
	case " norandom gate $candidates " in *" $c "*) ;; *) bad "unknown comparison '$c' (norandom, gate,$(printf ' %s' $candidates))" ;; esac
done
[ -n "$comparisons" ] && [ -n "$workloads" ] || bad "COMPARISONS and WORKLOADS must not be empty"
# The time, every comparison there: a run's seconds and up to 1 s to start and
# stop its threads (futexbench -t 815: 0.2 s over 2 s on 2 cores); hackbench's
# 100 loops a second take less on hardware. v7.3 skips two comparisons of 3.
nc=$(echo $comparisons | wc -w) nw=$(echo $workloads | wc -w)
took() {
	t_n=$((nw * (1 + nc * $1) * 3))
	echo "about $(( (t_n * ($2 + 1) + 59) / 60 )) minutes ($t_n runs of $2 s: $nw workloads x (1 warm-up + $nc comparisons x $1 rounds) x A B A2)"
}
[ -z "$time_only" ] || { echo "full: $(took "${RUNS:-$full_runs}" "${SECONDS_PER_RUN:-$full_secs}")"
	echo "quick: $(took "${RUNS:-$quick_runs}" "${SECONDS_PER_RUN:-$quick_secs}")"; exit 0; }
[ -n "$runs_only" ] || /usr/bin/python3 -c 'import scipy' 2>/dev/null || die "the report needs scipy: apt install python3-scipy"
report_one() {
	"$here/stats.py" "$out/$1-$2.csv" --title "$1, $2: A/B/A of $3 on one boot" --label "A=A  ${4%|*}" \
		--label "B=B  ${4#*|}" --label "A2=A2 ${4%|*} again" --cv-max "$cvmax" --json "$out/$1-$2.json" \
		--csv "$out/$1-$2.report.csv" >>"$out/report.txt" || rc=$?
	[ ! -x "$here/counters.py" ] || "$here/counters.py" "$out/$1-$2.csv" >>"$out/report.txt" 2>&1 ||
		echo "(bench/counters.py failed on $1-$2.csv: exit $?)" >>"$out/report.txt"
}
if [ -n "$report_only" ]; then
	[ -f "$out/runs.txt" ] && [ -f "$out/report.txt" ] || die "$out holds no --runs-only run (runs.txt, report.txt)"
	! grep -q '^Report: ' "$out/report.txt" || die "$out/report.txt has its report already"
	echo "Report: made apart from the runs (bench/bare-metal.sh --report)" >>"$out/report.txt"
	rc=0
	while IFS=' ' read -r wl c f ab; do report_one "$wl" "$c" "$f" "$ab"; done <"$out/runs.txt"
	cat "$out/report.txt"
	exit $rc
fi
F=${ABA_FEATURES:-/sys/kernel/debug/sched/features}
[ -n "${ABA_FEATURES:-}" ] || [ "$(id -u)" = 0 ] || die "run as root (it writes $F)"
[ -z "${SEMBENCH:-}" ] || [ -x "$SEMBENCH" ] || die "SEMBENCH=$SEMBENCH is not an executable"
[ -z "${SCHBENCH:-}" ] || [ -x "$SCHBENCH" ] || die "SCHBENCH=$SCHBENCH is not an executable"
[ -e "$F" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
[ -w "$F" ] || die "no $F (CONFIG_DEBUG_FS, debugfs mounted?)"
# check_workloads others|provided: aba.sh -n of others' workloads, or ours
check_workloads() {
	for wl in $workloads; do
		p=others
		case $wl in sembench8|sembench815|msg) p=provided ;; schbench) [ -z "${SCHBENCH:-}" ] || p=provided ;; esac
		[ "$p" != "$1" ] || "$here/aba.sh" -n -w "$wl" -s "$secs" || die "workload $wl cannot run here"
	done
}
check_workloads others
mkdir -p "$out/bin"
PATH=$out/bin:$PATH

: >"$out/programs.txt"
wants() { case " $workloads " in *" $1"*) ;; *) return 1 ;; esac; }
if wants sembench && [ -n "${SEMBENCH:-}" ]; then
	cp "$SEMBENCH" "$out/bin/sembench"
	echo "sembench: the tester's binary, $SEMBENCH" >>"$out/programs.txt"
elif wants sembench; then
	command -v git >/dev/null && command -v gcc >/dev/null || die "git and gcc are needed to fetch and build sembench (or give SEMBENCH=path)"
	src=$out/sembench-ng
	[ -d "$src/.git" ] || git clone -q "$url" "$src" || die "cannot clone $url"
	git -C "$src" checkout -q "$commit" || die "$url has no commit $commit"
	[ "$(git -C "$src" rev-parse HEAD)" = "$commit" ] || die "the checkout is not $commit"
	git -C "$src" diff --quiet || die "$src has local changes"
	gcc -O2 -g "$src/sembench.c" -lpthread -lm -o "$out/bin/sembench" || die "sembench did not build"
	echo "sembench: $url at $commit (checked), sembench.c sha256 $(sha256sum "$src/sembench.c" | cut -d' ' -f1)," \
		"built with gcc -O2 -g sembench.c -lpthread -lm ($(gcc -dumpfullversion))" >>"$out/programs.txt"
fi
if wants "msg " && [ -f "$here/msgbench.c" ]; then
	"$here/build-futexbench.sh" "$out/bin/msgbench" || die "cannot build bench/msgbench.c (a C compiler is needed)"
	echo "msgbench: bench/msgbench.c sha256 $(sha256sum "$here/msgbench.c" | cut -d' ' -f1) (bench.h $(sha256sum "$here/bench.h" | cut -d' ' -f1))," \
		"built by bench/build-futexbench.sh; -m 4 -t (2 x CPUs / 4)" >>"$out/programs.txt"
elif wants "msg "; then
	# the lab's guest has it in its initramfs, beside this script
	cp "$here/msgbench" "$out/bin/msgbench" 2>/dev/null || die "no bench/msgbench.c, nor a msgbench beside $0"
	echo "msgbench: the lab's guest build; -m 4 -t (2 x CPUs / 4)" >>"$out/programs.txt"
fi
[ -z "${SCHBENCH:-}" ] || { cp "$SCHBENCH" "$out/bin/schbench"
	echo "schbench: the tester's binary, $SCHBENCH; -m 4 -t (2 x CPUs / 4)" >>"$out/programs.txt"; }
check_workloads provided

SCHED_FEATURES=$F
for lib in "$here/../lab/guest/sched.sh" /lab/sched.sh; do [ -f "$lib" ] && break; done
# shellcheck source=lab/guest/sched.sh
. "$lib"
# the features this script writes, as they are, put back on every exit
orig=""
for f in NI_RANDOM NI_GATE $candidates; do s=$(feat "$f") && orig="$orig $s"; done
restore() { for s in $orig; do set_feat "$s" || echo "bare-metal: could not put $s back" >&2; done; }
trap restore EXIT
trap 'exit 130' INT TERM
has() { feat "$1" >/dev/null; }
# lacks CMP: what of the comparison's features the kernel lacks, or fails
lacks() {
	case $1 in
	norandom) has NI_RANDOM && return 1; echo NI_RANDOM ;;
	gate) has NI_GATE && has NI_RANDOM && return 1; has NI_GATE && echo NI_RANDOM || echo NI_GATE ;;
	*) has "$1" && return 1; echo "$1" ;;
	esac
}
# base CMP: the comparison's base features (its loop's bc: sh has no locals)
base() {
	case $1 in
	norandom) ! has NI_GATE || set_feat NO_NI_GATE ;;
	gate) set_feat NI_RANDOM ;;
	*) { ! has NI_RANDOM || set_feat NI_RANDOM; } && { ! has NI_GATE || set_feat NO_NI_GATE; } ;;
	esac || die "writing $F did not take effect"
	for bc in $candidates; do
		[ "$bc" = "$1" ] || ! has "$bc" || set_feat "NO_$bc" || die "writing $F did not take effect"
	done
}
# the feature each comparison toggles|the name of A|of B
toggled() {
	case $1 in norandom) echo "NI_RANDOM|NI_RANDOM (the dice)|NO_NI_RANDOM (every visit)" ;;
	gate) echo "NI_GATE|NI_GATE (the gate)|NO_NI_GATE (the dice)" ;; *) echo "$1|$1|NO_$1 (the dice)" ;; esac
}
{
	echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(grep -c ^processor /proc/cpuinfo) CPUs;" \
		"kernel $(uname -r); features: $(feats)"
	cat "$out/programs.txt"
	echo "Runs: per workload 1 warm-up round, then per comparison $runs rounds of A B A2, $secs s each;" \
		"every comparison: $(took "$runs" "$secs")"
	echo "Comparisons: $comparisons; workloads: $workloads"
	for c in $comparisons; do
		! what=$(lacks "$c") || echo "(the kernel has no $what: comparison $c skipped)"
	done
	echo
} >"$out/report.txt"
rc=0
: >"$out/runs.txt"
for wl in $workloads; do
	warm=1
	for c in $comparisons; do
		! lacks "$c" >/dev/null || continue
		base "$c"
		ab=$(toggled "$c") && f=${ab%%|*} ab=${ab#*|}
		set -- -w "$wl" -f "$f" -k "$runs" -s "$secs" -x "$warm" -S -o "$out/$wl-$c.csv"
		case $wl in futex*) set -- "$@" -i 250 -u $((secs > 5 ? 5 : secs / 2)) ;; esac
		"$here/aba.sh" "$@"
		warm=0
		echo "$wl $c $f $ab" >>"$out/runs.txt"
		[ -n "$runs_only" ] || report_one "$wl" "$c" "$f" "$ab"
	done
done
[ -z "$runs_only" ] || { echo "bare-metal: runs only, in $out; the report: bench/bare-metal.sh --report $out" >&2; exit 0; }
cat "$out/report.txt"
echo "bare-metal: results in $out (report.txt; a CSV and a JSON per workload and comparison)" >&2
exit $rc
