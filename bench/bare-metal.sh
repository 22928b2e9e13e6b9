#!/bin/sh
# One command for a tester with real hardware, as root: the series' comparisons
# on the running kernel, one boot, A/B/A each (bench/aba.sh). Step one (--step1,
# and by default on a kernel without NI_DICE, as v7.3): norandom alone on
# sembench815, sembench8, tbench32 and schbench, on the tester's own kernel.
#   norandom  A NI_RANDOM (the dice), B NO_NI_RANDOM (every visit attempts)
#   gate      A NI_DICE (the dice), B NO_NI_DICE (the gate): the experiment
#             kernel's
#   CANDIDATE each of CANDIDATES, B NO_CANDIDATE (the dice); NI_FOUND: an
#             attempt that found a task this CPU may run but did not move it
#             counts as a success
# Each sets its base first: NI_RANDOM on where not compared, NI_DICE but
# for gate, the other candidates off; one the kernel lacks is skipped, said.
# What it sets is put back on exit, failure or Ctrl-C (and debugfs unmounted
# if it mounted it); a run stopped before its end says INCOMPLETE, with the
# runs it lacks, in report.txt and --report's summary. One run at a time: a
# second (or --check) is refused (exit 2), naming the first's pid and OUTDIR
# (/run/newidle-bench.lock; a dead run's is taken over). Workloads:
# sembench-ng at 26350892f66d -o 2 (the review's 8 waking 4, 815 waking 101),
# msgbench (bench/msgbench.c), tbench at 1, 8, 16, 32 clients (the Zen 3
# review's), hackbench, schbench (Chris Mason's; it needs 4 CPUs or more,
# else left out, said).
# Per workload a warm-up round, then per comparison RUNS rounds of A B A2 with
# aba.sh -S's counters; then bench/stats.py's report (python3-scipy, checked
# first): spread, B's delta against A and A2 with its 95 % Welch interval,
# drift, and bench/counters.py's table (per level the newidle attempts by how
# they ended; sembench's waker: migrations, failed ones, CPU time per wake
# round); at its end the summary to paste, in 72 columns: the run (quick or
# full, rounds x seconds), the kernel, the CPUs; the feature against the dice,
# then the counters. A kernel where no comparison can run, or whose debugfs
# kernel lockdown (Secure Boot) keeps from root, is refused.
# sembench: SEMBENCH=path, or cloned from SEMBENCH_URL at the review's commit
# (checked) and built as the review did: gcc -O2 -g sembench.c -lpthread -lm;
# schbench: SCHBENCH=path, or cloned from SCHBENCH_URL at 24e32b8ef67c (its
# head of 2025-12-23), built by make. Offline: SEMBENCH=a built sembench, or
# SEMBENCH_URL=a local clone (schbench the same). Needs (Debian's names) git,
# gcc, make; dbench (tbench); rt-tests (hackbench); python3-scipy.
#
# Usage: sudo bench/bare-metal.sh [--step1] [--quick] [--runs-only] [OUTDIR]
#        sudo bench/bare-metal.sh [--step1] [--quick] --check   what is
#             missing, all at once (every run starts with it, and stops if
#             anything is: exit 1), the comparisons this kernel has, their time
#        bench/bare-metal.sh [--step1] --time   how long each takes, from the
#             settings, on this kernel as --check says (where its features
#             cannot be read, on one with every comparison)
#        sudo bench/bare-metal.sh [--step1] --record [--quick] [OUTDIR]   step
#             one, then a run of sembench815 under bench/ni-record.sh (every
#             newidle attempt, NO_NI_RANDOM) into OUTDIR/ni.rec: its replay's
#             table (bench/ni-replay.sh: a first-order ranking of the candidate
#             throttles) and the recorder's overhead (sembench815's throughput
#             against its NO_NI_RANDOM runs), in the report and the summary;
#             --check and --time with it: the recorder's needs, its minutes
#        bench/bare-metal.sh --report OUTDIR   the report of a --runs-only run
#             (or of one that failed: what it finished)
#        bench/bare-metal.sh --help   this text (options go before or after
#             OUTDIR, a new one: ./newidle-bench-DATE by default)
#   --runs-only: no report (no python3-scipy, as in the lab's guest)
#   the full run, when asked for: RUNS=5 rounds of SECONDS_PER_RUN=20 s;
#   --quick: RUNS=3 of SECONDS_PER_RUN=5 s (step one: of 10 s); step one's
#   quick run is the one to paste first
# Settings, in sudo's environment (an argument NAME=value is refused, exit 2):
#   sudo env RUNS=5 bench/bare-metal.sh. RUNS, SECONDS_PER_RUN, COMPARISONS=
#   "norandom gate NI_FOUND", CANDIDATES="NI_FOUND", WORKLOADS="sembench8
#   sembench815 msg tbench1 tbench8 tbench16 tbench32 hackbench schbench"
#   (step one: COMPARISONS=norandom, WORKLOADS="sembench815 sembench8 tbench32
#   schbench"), SEMBENCH=path, SCHBENCH=path, BENCH_CV_MAX=0 (%; a main
#   metric's CV over it: exit 6; 0: none, the CV is a column of the tables,
#   and the summary marks one over 5 %), SEMBENCH_URL=
#   https://github.com/davidlohr/sembench-ng, SCHBENCH_URL=
#   https://github.com/masoncl/schbench; ABA_FEATURES, ABA_SCHEDSTAT,
#   ABA_SCHEDSTATS_SYSCTL, ABA_LOCKDOWN, ABA_LOCK and aba.sh's other ABA_*,
#   NI_RECORD=bench/ni-record.sh, NI_REPLAY=bench/ni-replay.sh: the tests'
#   stand-ins. Under sudo, OUTDIR goes to SUDO_UID:SUDO_GID.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "bare-metal: $*" >&2; exit 1; }
# bad arguments and settings: exit 2, before anything is touched
bad() { echo "bare-metal: $*" >&2; exit 2; }
quick="" time_only="" runs_only="" report_only="" out="" step1="" why="" check_only="" record=""
for a; do
	case $a in
	--step1) step1=1 ;; --quick) quick=1 ;; --check) check_only=1 ;; --time) time_only=1 ;; --runs-only) runs_only=1 ;; --report) report_only=1 ;;
	--record) record=1 ;;
	-h|--help) sed -n '2,/^set -eu/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) bad "unknown option $a (--help: the usage)" ;;
	step1|quick|check|time|runs-only|report|record|help) bad "'$a' is taken for an option: --$a (an OUTDIR of that name: ./$a)" ;;
	[A-Za-z_]*=*) bad "'$a' is a setting, not an OUTDIR: give it before the command (sudo env $a bench/bare-metal.sh ...)" ;;
	*) [ -z "$out" ] || bad "one OUTDIR only, not '$out' and '$a'"; out=$a ;;
	esac
done
case $check_only$time_only$report_only in 11*) bad "--check, --time and --report go one at a time" ;; esac
[ -z "$report_only" ] || [ -n "$out" ] || bad "--report takes the OUTDIR of a run"
# --report replays the recording again where the run made one
[ -z "$record" ] || [ -z "$report_only" ] || bad "--report takes no --record (it replays OUTDIR/ni.rec where the run recorded)"
out=${out:-newidle-bench-$(date +%Y%m%d-%H%M%S)}
case $out in /*) ;; *) out=$(pwd)/${out#./} ;; esac
F=${ABA_FEATURES:-/sys/kernel/debug/sched/features} LK=${ABA_LOCKDOWN:-/sys/kernel/security/lockdown}
SCHED_FEATURES=$F
for lib in "$here/../lab/guest/sched.sh" /lab/sched.sh; do [ -f "$lib" ] && break; done
# shellcheck source=lab/guest/sched.sh
. "$lib"
# one at a time: the lock, a symlink to "PID OUTDIR DIR" (or "PID --check"), taken
# before anything is changed (none where none can be made: not root, said below)
lock=${ABA_LOCK:-/run/newidle-bench.lock} locked="" mounted="" unread="" orig="" started=""
for _ in 1 2; do
	[ -z "$time_only$report_only" ] || break
	ln -s "$$ $(cut -d' ' -f5 /proc/$$/stat) $([ -n "$check_only" ] && echo --check || echo "OUTDIR $out")" "$lock" 2>/dev/null && locked=1 && break
	h=$(readlink "$lock") || break
	set -- $h
	[ ! -d "/proc/$1" ] || bad "another run is going on: pid $1, ${h#* * } (one at a time; its lock: $lock)"
	# a run killed with -9 may leave its workload running, toggling features
	[ "$2" = "$(cut -d' ' -f5 /proc/$$/stat)" ] || ! kill -0 "-$2" 2>/dev/null || bad "a run that was killed left processes running (process group $2; its lock: $lock): kill -- -$2, then start again"
	rm -f "$lock"
done
# on every exit: the features put back, debugfs unmounted if mounted here, a run
# stopped before its end marked, the lock given back
leave() {
	for s in $orig; do set_feat "$s" || echo "bare-metal: could not put $s back" >&2; done
	[ -z "$mounted" ] || umount /sys/kernel/debug || echo "bare-metal: could not unmount /sys/kernel/debug" >&2
	[ -z "$started" ] || incomplete >>"$out/report.txt"
	# under sudo, the results are the user's
	[ -z "$started" ] || [ -z "${SUDO_UID:-}" ] || chown -R "$SUDO_UID:${SUDO_GID:-}" "$out" || true
	[ -z "$locked" ] || rm -f "$lock"
}
trap leave EXIT
trap 'echo "bare-metal: interrupted${orig:+; the features put back}${started:+; results so far: $out/report.txt}" >&2; exit 130' INT TERM HUP
# a reader gone (--check | head): put back all the same, writing nowhere
trap 'trap "" PIPE; exit 141' PIPE
[ -n "$time_only$report_only" ] || [ -e "$F" ] || { mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null && mounted=1; } || true
# read once: kernel lockdown (Secure Boot) refuses debugfs to root (EPERM); --time
# reads it where it can
[ -n "$report_only" ] || unread=$(cat "$F" 2>&1 >/dev/null) || unread=${unread:-"cannot read $F"}
# step one where the kernel has no NI_DICE and no comparison or workload is asked for
[ -n "$step1$report_only$unread${COMPARISONS+c}${WORKLOADS+w}" ] ||
	grep -qE '(^| )(NO_)?NI_DICE( |$)' "$F" || step1=1 why=" (the kernel has no NI_DICE)"
full_runs=5 full_secs=20 quick_runs=3 quick_secs=5
[ -z "$step1" ] || { quick_secs=10 && : "${COMPARISONS=norandom}" "${WORKLOADS=sembench815 sembench8 tbench32 schbench}"; }
runs=${RUNS:-$([ -n "$quick" ] && echo $quick_runs || echo $full_runs)}
secs=${SECONDS_PER_RUN:-$([ -n "$quick" ] && echo $quick_secs || echo $full_secs)}
comparisons=${COMPARISONS-norandom gate NI_FOUND}
candidates=${CANDIDATES:-NI_FOUND}
workloads=${WORKLOADS-sembench8 sembench815 msg tbench1 tbench8 tbench16 tbench32 hackbench schbench}
url=${SEMBENCH_URL:-https://github.com/davidlohr/sembench-ng}
commit=26350892f66df56e6fa06a0c7c104ef1de322136
sch_url=${SCHBENCH_URL:-https://github.com/masoncl/schbench}
sch_commit=24e32b8ef67cbafb0761aed68747d90a291767ae
cvmax=${BENCH_CV_MAX:-0}
rec=${NI_RECORD:-$here/ni-record.sh} replay=${NI_REPLAY:-$here/ni-replay.sh}
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
# shellcheck disable=SC2086 # spaces alone are empty
comparisons=$(echo $comparisons) workloads=$(echo $workloads)
[ -n "$comparisons" ] && [ -n "$workloads" ] || bad "COMPARISONS and WORKLOADS must not be empty"
# --record: after step one's runs, its overhead set against sembench815's NO_NI_RANDOM ones
[ -z "$record" ] || [ -n "$step1" ] || bad "--record goes with step one: add --step1 (the default only where sched/features is read and has no NI_DICE)"
[ -z "$record" ] || case " $comparisons | $workloads " in *" norandom "*" sembench815 "*) ;; *)
	bad "--record needs norandom among COMPARISONS and sembench815 among WORKLOADS (step one's): its overhead is measured against them" ;; esac
# a name aba.sh does not know, in every mode (it checks names before its -k)
for wl in $workloads; do
	e=$("$here/aba.sh" -w "$wl" -k 0 2>&1) || case $e in *"unknown workload"*) bad "WORKLOADS: ${e#aba: }" ;; esac
done
wants() { case " $workloads " in *" $1"*) ;; *) return 1 ;; esac; }
# schbench -m 4 pins its message threads to CPUs 0-3 (--time: where the kernel is read)
ncpu=$(nproc) left=""
[ -n "$report_only" ] || { [ -n "$time_only" ] && [ -n "$unread" ]; } || [ "$ncpu" -ge 4 ] || ! wants schbench || {
	workloads=$(echo " $workloads " | sed 's/ schbench / /; s/^ *//; s/ *$//')
	left="; schbench left out: it needs 4 CPUs or more (its -m 4 pins to CPUs 0-3), this machine has $ncpu"
	[ -n "$workloads" ] || bad "no workload left:${left#;}"
}
# The time, of the comparisons the kernel has (said at the start; --time where the
# kernel cannot be read: of those asked): a run's seconds and up to 1 s to start and stop its threads (futexbench
# -t 815: 0.2 s over 2 s on 2 cores); hackbench's 100 loops a second take less on hardware.
nw=$(echo $workloads | wc -w)
# --record: one run more, and a minute allowed for the recorder's setup, its trace's parse
# (7 s for 1.2 M events with mawk, about what its 64 MiB hold) and the replay's build (gcc: seconds)
took() {
	t_n=$((nw * (1 + nc * $1) * 3)) t_r=0
	[ -z "$record" ] || t_r=$(($2 + 1 + 60))
	t_m=$(( (t_n * ($2 + 1) + t_r + 59) / 60 ))
	echo "about $t_m minute$(s "$t_m") ($t_n runs of $2 s: $nw workload$(s "$nw") x (1 warm-up + $nc comparison$(s "$nc") x $1 rounds) x A B A2${record:+; then the recording: 1 run of $2 s, and a minute for its trace and to build the replay})"
}
s() { [ "$1" = 1 ] || echo s; }
# lack WHAT: missing, said; the checks go on, the run does not start (exit 1)
miss=0
lack() { echo "bare-metal: missing: $*" >&2; miss=1; }
[ -n "$runs_only$time_only" ] || /usr/bin/python3 -c 'import scipy' 2>/dev/null || lack "scipy, for the report (Debian and Fedora: python3-scipy; or --runs-only here, then --report OUTDIR where it is)"
report_one() {
	"$here/stats.py" "$out/$1-$2.csv" --title "$1, $2: A/B/A of $3 on one boot" --label "A=A  ${4%|*}" \
		--label "B=B  ${4#*|}" --label "A2=A2 ${4%|*} again" --no-control --cv-max "$cvmax" --json "$out/$1-$2.json" \
		--csv "$out/$1-$2.report.csv" >>"$out/report.txt" || rc=$?
	[ ! -x "$here/counters.py" ] || "$here/counters.py" "$out/$1-$2.csv" >>"$out/report.txt" 2>&1 ||
		echo "(bench/counters.py failed on $1-$2.csv: exit $?)" >>"$out/report.txt"
}
# summary: the paste, at most 72 columns: the run, kernel and CPUs (report.txt's head), what
# it lacks; per comparison the main metrics, the feature against the dice (stats.py
# --summary), the legend once; then the counters (counters.py --brief): step one's, of
# norandom on every workload; else of the candidates, on the workloads the experiment
# letter's rule reads (sembench815, schbench): step one's about 30 lines, step two's about 50
summary() (
	cd "$out"
	r=$(sed -n 's/^Runs:.* \([a-z]*\): per workload .* \([0-9]*\) rounds of A B A2, \([0-9]*\) s each.*/\1, \2 rounds x \3 s/p' report.txt)
	m=$(sed -n 's/^Machine: \(.*\), \([0-9]*\) CPUs; .*/\2 CPUs, \1/p' report.txt)
	! grep -q '^Runs: step one' report.txt || r="step one, $r"
	# a kernel's name may be long: the CPUs on the first line, the kernel and harness on the second
	echo "Summary: $r; $m" | sed 's/([RT]M*)//g; s/ CPU / /; s/ @ .*//' | cut -c1-72
	echo "Kernel: $(sed -n 's/^Machine: .* CPUs; kernel \([^;]*\);.*/\1/p' report.txt); harness $(sed -n 's/^Harness: //p' report.txt)" | cut -c1-72
	incomplete
	cs=$(awk '!s[$2]++ { print $2 }' runs.txt) cn="" only=""
	for c in $cs; do
		echo
		brief "$c" "$here/stats.py" --summary || echo "(bench/stats.py --summary failed: exit $?)"
	done | awk '!/^  / || !seen[$0]++'
	[ -x "$here/counters.py" ] || return 0
	for c in $cs; do case $c in norandom|gate) ;; *) cn="$cn $c" only="sembench815 schbench" ;; esac; done
	for c in ${cn:-norandom}; do
		echo
		brief "$c" "$here/counters.py" --brief $only || echo "(bench/counters.py --brief failed: exit $?)"
	done
)
# replayed: the recording's replay (ni-replay.txt: its table, or its failure) and the
# recorder's overhead, after the tables
replayed() {
	"$replay" "$out/ni.rec" >"$out/ni-replay.txt" || echo "(bench/ni-replay.sh failed on ni.rec: exit $?)" >"$out/ni-replay.txt"
	echo
	echo "Replay, first order, of one recording: sembench815 under NO_NI_RANDOM (ni.rec)"
	cat "$out/ni-replay.txt"
	overhead
}
# overhead: sembench815's throughput in the recorded run against its NO_NI_RANDOM (B) runs
overhead() {
	[ -f "$out/sembench815-norandom.csv" ] || { echo "Recorder overhead: not measured (no NO_NI_RANDOM runs of sembench815)"; return 0; }
	awk -F, 'FNR == 1 { f++ } $4 == "burns_per_s" && f == 1 && $2 == "B" { b[++n] = $5; s += $5 } $4 == "burns_per_s" && f == 2 { r = $5 }
		END { if (!n || r == "" || !s) { print "Recorder overhead: not measured (no burns/s of the recorded run, or of B)"; exit }
			printf "Recorder overhead: sembench815 burns/s %+.1f %% against B, NO_NI_RANDOM\n", 100 * (r * n / s - 1)
			lo = hi = b[1]; for (i = 2; i <= n; i++) { lo = b[i] < lo ? b[i] : lo; hi = b[i] > hi ? b[i] : hi }
			printf "  (recorded %.1f; B: %.1f, the mean of %d runs, %.1f to %.1f)\n", r, s / n, n, lo, hi }' \
		"$out/sembench815-norandom.csv" "$out/ni.csv"
}
# replay_brief: the summary's part of it, at most 10 lines: its table, whose first line says
# what it is (a recording replayed, first order), or a title saying it; then the overhead
replay_brief() {
	[ -f "$out/ni-replay.txt" ] || return 0
	echo
	{ head -n 1 "$out/ni-replay.txt" | grep -q 'replayed.*first order' ||
		echo "Replay, first order, of one recording (sembench815, NO_NI_RANDOM):"; cat "$out/ni-replay.txt"; } |
		awk '{ l[NR] = $0 } END { n = NR > 10 ? 9 : NR; for (i = 1; i <= n; i++) print l[i]
			if (NR > 10) printf "(%d lines more in report.txt)\n", NR - 9 }'
	overhead | head -n 1
}
# incomplete: the runs report.txt's head plans that runs.txt lacks, said
incomplete() {
	p=$(sed -n 's/^Comparisons: \([^;]*\); workloads: \([^;]*\).*/\1|\2/p' "$out/report.txt")
	m=$(for wl in ${p#*|}; do for c in ${p%|*}; do grep -qs "^$wl $c " "$out/runs.txt" || printf ' %s' "$wl-$c"; done; done)
	# the recording, where the head plans it: done once its ni.csv is there
	! sed '/^$/q' "$out/report.txt" | grep -q '^Recording: ' || [ -f "$out/ni.csv" ] || m="$m recording"
	[ -z "$m" ] || echo "INCOMPLETE, not run to its end:$m" | fold -s -w 72 | sed "s/ $//"
}
# brief C PROGRAM OPTION [WORKLOAD...]: PROGRAM's table of comparison C, the feature against
# the dice, over its workloads (those named)
brief() {
	l=$(grep -m1 "^[^ ]* $1 " runs.txt) && f=$(echo "$l" | cut -d' ' -f3) ab=$(echo "$l" | cut -d' ' -f4-)
	case $1 in norandom|gate) side=B t="${ab#*|} against ${ab%|*}" ;; *) side=A+A2 t="${ab%|*} against ${ab#*|}" ;; esac
	wls=$(awk -v c="$1" '$2 == c { print $1 }' runs.txt) c=$1 p=$2 o=$3
	shift 3
	[ $# = 0 ] || wls=$(for wl in $wls; do case " $* " in *" $wl "*) echo "$wl" ;; esac; done)
	[ -n "$wls" ] || { echo "($c: none of ${*:-its workloads} ran)"; return 0; }
	set -- --label "A=$f" --label "A2=$f" --label "B=NO_$f" "$o" "$side"
	[ "$o" = --brief ] || set -- "$@" --title "$c: $t"
	for wl in $wls; do set -- "$@" "$wl-$c.csv"; done
	"$p" "$@"
}
if [ -n "$report_only" ]; then
	[ "$miss" = 0 ] || exit 1
	[ -f "$out/runs.txt" ] && [ -f "$out/report.txt" ] || die "$out holds no --runs-only run (runs.txt, report.txt)"
	! grep -q '^Report: ' "$out/report.txt" || die "$out/report.txt has its report already"
	# a run that failed has the tables of what it finished: made again, once
	sed -i '/^$/q' "$out/report.txt"
	echo "Report: made apart from the runs (bench/bare-metal.sh --report)" >>"$out/report.txt"
	rc=0
	while IFS=' ' read -r wl c f ab; do report_one "$wl" "$c" "$f" "$ab"; done <"$out/runs.txt"
	[ ! -f "$out/ni.csv" ] || replayed >>"$out/report.txt"
	{ summary; replay_brief; } >>"$out/report.txt"
	cat "$out/report.txt"
	exit $rc
fi
# prog NAME VAR GIVEN URL: the tester's binary GIVEN, else URL reachable (offline: its clone)
prog() {
	if [ -n "$3" ]; then
		[ -f "$3" ] && [ -x "$3" ] || lack "$2=$3 is not an executable file (a built $1; its source: ${2}_URL=a clone)"
	elif wants "$1"; then
		fetch=1
		# in the background: Ctrl-C acts at once (timeout gives git a process group of its own)
		! command -v git >/dev/null || { GIT_TERMINAL_PROMPT=0 timeout 20 git ls-remote "$4" >/dev/null 2>&1 & wait $!; } ||
			lack "$1 from $4 (git ls-remote, 20 s); offline: $2=a built $1, or ${2}_URL=a clone of it"
	fi
}
fetch=""
if [ -z "$time_only" ]; then
	[ -n "${ABA_FEATURES:-}" ] || [ "$(id -u)" = 0 ] || lack "root: run it with sudo (it writes $F)"
	prog sembench SEMBENCH "${SEMBENCH:-}" "$url"
	prog schbench SCHBENCH "${SCHBENCH:-}" "$sch_url"
	# OUTDIR: new or empty, in a directory it can write
	d=$out
	while [ ! -e "$d" ]; do d=$(dirname "$d"); done
	if [ ! -d "$d" ] || [ ! -w "$d" ]; then lack "a writable OUTDIR: $d is not a directory it can write"
	elif [ "$d" = "$out" ] && [ -n "$(ls -A "$out")" ]; then lack "a new OUTDIR: $out holds files (an earlier run? another OUTDIR)"; fi
	[ -w "$F" ] || [ "$(id -u)" != 0 ] || lack "a writable $F (CONFIG_DEBUG_FS, debugfs mounted)"
	# the sysctl is root's alone: without root, not said missing
	sst=${ABA_SCHEDSTATS_SYSCTL:-/proc/sys/kernel/sched_schedstats}
	for f in "${ABA_SCHEDSTAT:-/proc/schedstat}" "$sst"; do [ -e "$f" ] || { lack "CONFIG_SCHEDSTATS, for the counters (no $f)"; break; }; done
fi
for p in ${fetch:+git gcc make}; do
	command -v "$p" >/dev/null || lack "$p, to fetch and build sembench and schbench (Debian and Fedora: $p)"
done
# --record: what the recorder's --check says is missing, each piece (without root, said above,
# not asked: its checks read root's files); the replay's build (--runs-only: --report's)
recorder() {
	if [ ! -x "$rec" ]; then lack "$rec, for --record (not an executable file)"
	elif [ -z "${ABA_FEATURES:-}" ] && [ "$(id -u)" != 0 ]; then :
	elif ! r=$("$rec" --check 2>&1); then
		m=$(printf '%s\n' "$r" | sed -n 's/^ni-record: missing: //p')
		# what is named above already (debugfs, lockdown, schedstats) once
		while IFS= read -r l; do
			case $l in lockdown\ *|*sched/features*|kernel.sched_schedstats*) ;; *) lack "$l (for --record: $rec --check)" ;; esac
		done <<-EOF
			${m:-what $rec --check says: $(echo "$r" | tr '\n' ' ')}
		EOF
	fi
	[ -n "$runs_only" ] || [ -x "$replay" ] || lack "$replay, for --record's replay (not an executable file)"
	for p in gcc git; do
		[ -n "$runs_only$fetch" ] || command -v "$p" >/dev/null || lack "$p, for --record's replay (bench/ni-replay.sh builds it)"
	done
}
[ -z "$record" ] || [ -n "$time_only" ] || recorder
# check_workloads others|provided: aba.sh -n of others' workloads (each missing
# one said by aba.sh), or ours
check_workloads() {
	for wl in $workloads; do
		p=others
		case $wl in sembench8|sembench815|msg|schbench) p=provided ;; esac
		[ "$p" != "$1" ] || "$here/aba.sh" -n -w "$wl" -s "$secs" || lack "what workload $wl needs (above)"
	done
}
[ -n "$time_only" ] || check_workloads others
has() { feat "$1" >/dev/null; }
# lacks CMP: what of the comparison's features the kernel lacks, or fails
lacks() {
	case $1 in
	norandom) has NI_RANDOM && return 1; echo NI_RANDOM ;;
	gate) has NI_DICE && has NI_RANDOM && return 1; has NI_DICE && echo NI_RANDOM || echo NI_DICE ;;
	*) has "$1" && return 1; echo "$1" ;;
	esac
}
runnable=""
if [ -n "$time_only" ] && [ -n "$unread" ]; then
	# --time where the kernel cannot be read: of one with every comparison asked
	runnable=$comparisons
	echo "kernel: not read (${unread#cat: }); assumed to have $comparisons"
elif [ -n "$unread" ]; then
	# without root, root alone is missing (said above)
	[ -n "${ABA_FEATURES:-}" ] || [ "$(id -u)" = 0 ] || exit 1
	# lockdown where it says so; a refusal without it has another cause
	if grep -qs '\[integrity\]\|\[confidentiality\]' "$LK"; then
		lack "debugfs is restricted by kernel lockdown (Secure Boot, $LK): turn Secure Boot off in the firmware's setup for the runs"
	elif case $unread in *"not permitted"*) ;; *) false ;; esac; then
		lack "root may not read $F (Operation not permitted): $([ -r "$LK" ] && echo "kernel lockdown is off ($LK), so the debugfs= boot option or a security module restricts debugfs" || echo "kernel lockdown could not be checked ($LK: mount -t securityfs securityfs /sys/kernel/security, then --check again)")"
	else
		lack "the kernel's sched features (${unread#cat: }): no comparison can be checked"
	fi
	exit 1
else
	for c in $comparisons; do lacks "$c" >/dev/null || runnable="$runnable $c"; done
	[ -n "$runnable" ] || die "the kernel has no$(for c in $comparisons; do printf ' %s' "$(lacks "$c")"; done): no comparison of '$comparisons' can run here (boot v7.3, or a kernel of make tester-kernels)"
	[ -z "$time_only" ] || echo "kernel: $(uname -r), ${step1:+step one$why: }$(echo $runnable)$left"
fi
nc=$(echo $runnable | wc -w)
[ -z "$time_only" ] || { echo "full: $(took "${RUNS:-$full_runs}" "${SECONDS_PER_RUN:-$full_secs}")"
	echo "quick: $(took "${RUNS:-$quick_runs}" "${SECONDS_PER_RUN:-$quick_secs}")"; exit 0; }
echo "bare-metal: ${step1:+step one$why: }$(echo $runnable) on $workloads: $(took "$runs" "$secs")$left" >&2
[ "$miss" = 0 ] || exit 1
[ -z "$check_only" ] || { echo "bare-metal: ready (--check)" >&2; exit 0; }
mkdir -p "$out/bin" 2>/dev/null || die "cannot make $out/bin"
PATH=$out/bin:$PATH

: >"$out/programs.txt"
# provide NAME GIVEN URL COMMIT BUILD: $out/bin/NAME, the tester's binary GIVEN, or
# URL's code at COMMIT (checked) built in its tree by BUILD; said in programs.txt
provide() {
	if [ -n "$2" ]; then
		cp "$2" "$out/bin/$1" && echo "$1: the tester's binary, $2, sha256 $(sha256sum "$2" | cut -d' ' -f1)" >>"$out/programs.txt"
		return
	fi
	src=$out/$1-src
	git clone -q "$3" "$src" || die "cannot clone $3"
	git -C "$src" checkout -q "$4" || die "$3 has no commit $4"
	[ "$(git -C "$src" rev-parse HEAD)" = "$4" ] || die "the checkout is not $4"
	git -C "$src" diff --quiet || die "$src has local changes"
	(cd "$src" && $5) >"$out/$1-build.log" 2>&1 || die "$1 did not build ($out/$1-build.log)"
	cp "$src/$1" "$out/bin/$1"
	echo "$1: $3 at $4 (checked), built with $5 ($(gcc -dumpfullversion))" >>"$out/programs.txt"
}
! wants sembench || provide sembench "${SEMBENCH:-}" "$url" "$commit" "gcc -O2 -g sembench.c -lpthread -lm -o sembench"
! wants schbench || provide schbench "${SCHBENCH:-}" "$sch_url" "$sch_commit" make
if wants "msg " && [ -f "$here/msgbench.c" ]; then
	"$here/build-futexbench.sh" "$out/bin/msgbench" || die "cannot build bench/msgbench.c (a C compiler is needed)"
	echo "msgbench: bench/msgbench.c sha256 $(sha256sum "$here/msgbench.c" | cut -d' ' -f1) (bench.h $(sha256sum "$here/bench.h" | cut -d' ' -f1))," \
		"built by bench/build-futexbench.sh; -m 4 -t (2 x CPUs / 4)" >>"$out/programs.txt"
elif wants "msg "; then
	# the lab's guest has it in its initramfs, beside this script
	cp "$here/msgbench" "$out/bin/msgbench" 2>/dev/null || die "no bench/msgbench.c, nor a msgbench beside $0"
	echo "msgbench: the lab's guest build; -m 4 -t (2 x CPUs / 4)" >>"$out/programs.txt"
fi
check_workloads provided
[ "$miss" = 0 ] || exit 1

# the features this script writes, as they are, put back on every exit (leave)
for f in NI_RANDOM NI_DICE $candidates; do s=$(feat "$f") && orig="$orig $s"; done
# base CMP: the comparison's base features set; f the feature it toggles, ab the
# names of A|of B (its loop's bc: sh has no locals)
base() {
	case $1 in
	norandom) f=NI_RANDOM ab="NI_RANDOM (the dice)|NO_NI_RANDOM (every visit)" && { ! has NI_DICE || set_feat NI_DICE; } ;;
	gate) f=NI_DICE ab="NI_DICE (the dice)|NO_NI_DICE (the gate)" && set_feat NI_RANDOM ;;
	*) f=$1 ab="$1|NO_$1 (the dice)" && { ! has NI_RANDOM || set_feat NI_RANDOM; } && { ! has NI_DICE || set_feat NI_DICE; } ;;
	esac || die "writing $F did not take effect"
	for bc in $candidates; do
		[ "$bc" = "$1" ] || ! has "$bc" || set_feat "NO_$bc" || die "writing $F did not take effect"
	done
}
{
	echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(grep -c ^processor /proc/cpuinfo) CPUs;" \
		"kernel $(uname -r); features: $(feats)"
	echo "Harness: $(git -c safe.directory='*' -C "$here" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
	! command -v lscpu >/dev/null || lscpu | sed 's/^/lscpu: /'
	cat "$out/programs.txt"
	echo "Runs: ${step1:+step one$why; }$([ -n "$quick" ] && echo quick || echo full): per workload 1 warm-up round, then per comparison $runs rounds of A B A2," \
		"$secs s each: $(took "$runs" "$secs")"
	echo "Comparisons: $(echo $runnable); workloads: $workloads$left"
	[ -z "$record" ] || echo "Recording: then 1 run of sembench815, $secs s, under $rec (NO_NI_RANDOM), replayed by $replay"
	echo "No positive control: a \"within noise\" below does not show that A and B could be told apart."
	for c in $comparisons; do
		! what=$(lacks "$c") || echo "(the kernel has no $what: comparison $c skipped)"
	done
	echo
} >"$out/report.txt"
rc=0 started=1
: >"$out/runs.txt"
for wl in $workloads; do
	warm=1
	for c in $runnable; do
		base "$c"
		set -- -w "$wl" -f "$f" -k "$runs" -s "$secs" -x "$warm" -S -o "$out/$wl-$c.csv"
		case $wl in futex*) set -- "$@" -i 250 -u $((secs > 5 ? 5 : secs / 2)) ;; esac
		"$here/aba.sh" "$@" || die "$wl, $c failed (above); results so far: $out/${runs_only:+runs.txt}${runs_only:-report.txt}"
		warm=0
		echo "$wl $c $f $ab" >>"$out/runs.txt"
		[ -n "$runs_only" ] || report_one "$wl" "$c" "$f" "$ab"
	done
done
# the recording: as norandom's B runs, under the recorder; ni.csv, its figures, kept once the
# recorder says it recorded (incomplete() reads it). An optional part: where it fails, the
# report is still made, INCOMPLETE
if [ -n "$record" ]; then
	base norandom
	echo "bare-metal: the recording: sembench815, $secs s, under $rec" >&2
	if "$rec" "$out/ni.rec" "$here/aba.sh" -w sembench815 -c NO_NI_RANDOM -k 1 -s "$secs" -S -o "$out/ni.run.csv" >&2; then
		mv "$out/ni.run.csv" "$out/ni.csv"
		[ -n "$runs_only" ] || replayed >>"$out/report.txt"
	else
		echo "bare-metal: the recording failed (exit $?; $rec, above): the report without it" >&2
		rc=1
	fi
fi
[ -z "$runs_only" ] || { echo "bare-metal: runs only, in $out; the report: bench/bare-metal.sh --report $out" >&2; exit "$rc"; }
{ summary; replay_brief; } >>"$out/report.txt"
cat "$out/report.txt"
echo "bare-metal: results in $out: paste the summary above (from 'Summary:'), attach report.txt" >&2
exit $rc
