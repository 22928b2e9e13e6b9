#!/bin/sh
# A/B/A on one boot: run a workload K times under feature state A (e.g.
# NI_RANDOM), B (NO_NI_RANDOM) and A again, interleaved A B A per run, and
# write one CSV line per measurement. Runs as root, in the lab's guest or on
# bare metal; the feature state is restored on exit, failure or Ctrl-C.
#
# Usage: bench/aba.sh [-w futex|futex8|futex815|hackbench|stress|perfmsg|perfpipe|tbench] [-k RUNS] [-s SECONDS]
#                     [-t THREADS] [-W WAKE] [-f FEATURE] [-c CONDITION] [-o CSV]
#                     [-i MS] [-u SECONDS] [-D] [-S]
#   -f FEATURE   A = FEATURE, B = NO_FEATURE (default NI_RANDOM)
#   -c NAME      no toggling: K runs as they are, labelled NAME (one boot of
#                a kernels A/B/A, bench/kernels.sh)
#   -i MS        futex: count completions per MS milliseconds, and report
#                the transient apart from the steady state: transient_per_s
#                (the first MS after the workload starts) and steady_per_s
#                (after the warm-up of -u SECONDS, default 1)
#   -D           rebuild the sched domains before each run (a cpuset
#                partition switched root -> member), so that each run's
#                transient starts from fresh domains
#   -S           schedstat deltas of each run, as more metrics (schedstats
#                switched on for the whole A/B/A, /proc/sys/kernel/sched_schedstats):
#                ni_lb_count and ni_lb_gained (newidle balance attempts and
#                tasks pulled, lb_count and lb_gained of CPU_NEWLY_IDLE,
#                all CPUs and domains), lb_gained (pulls of every kind) and
#                run_delay_ms (time tasks waited on a runqueue); per run
#   futex: futexbench -t THREADS -w WAKE -r SECONDS (default 8 threads, 4 wakes)
#   futex8, futex815: the sembench mail's two conditions as presets, 8
#          workers waking 4 and 815 waking 101 (-t and -W are ignored)
#   hackbench: hackbench -g THREADS -l 100*SECONDS (groups; rt-tests)
#   stress: stress-ng --futex THREADS -t SECONDS --metrics-brief
#   perfmsg: perf bench sched messaging -g THREADS -l 100*SECONDS (seconds)
#   perfpipe: perf bench sched pipe -l 10000*SECONDS (usecs_per_op; linux-perf)
#   tbench: tbench_srv on loopback, tbench -t SECONDS THREADS clients
#          (mb_per_s; Debian's dbench)
# CSV columns: workload,condition,run,metric,value
# ABA_FEATURES=file: the sched features file (/sys/kernel/debug/sched/features).
# A run whose workload fails or reports no figures stops the whole A/B/A
# with its output: no measurement is lost silently.
set -eu
FEAT=${ABA_FEATURES:-/sys/kernel/debug/sched/features}
w=futex k=5 s=10 t=8 W=4 f=NI_RANDOM o=/dev/stdout only="" iv=0 warm=1 rebuild="" sst=""
while getopts w:k:s:t:W:f:o:c:i:u:DS opt; do
	case $opt in
	w) w=$OPTARG ;; k) k=$OPTARG ;; s) s=$OPTARG ;; t) t=$OPTARG ;;
	W) W=$OPTARG ;; f) f=$OPTARG ;; o) o=$OPTARG ;; c) only=$OPTARG ;;
	i) iv=$OPTARG ;; u) warm=$OPTARG ;; D) rebuild=1 ;; S) sst=1 ;;
	*) echo "usage: see the head of $0" >&2; exit 2 ;;
	esac
done
die() { echo "aba: $*" >&2; exit 1; }
# the arguments first: bad ones are refused before anything is touched
label=$w
case $w in
futex|hackbench|stress|perfmsg|perfpipe|tbench) ;;
futex8) w=futex t=8 W=4 ;;
futex815) w=futex t=815 W=101 ;;
*) die "unknown workload '$w' (futex, futex8, futex815, hackbench, stress, perfmsg, perfpipe, tbench)" ;;
esac
for n in "$k" "$s" "$t" "$W"; do
	case $n in ''|*[!0-9]*|0) die "-k, -s, -t and -W take positive numbers" ;; esac
done
for n in "$iv" "$warm"; do
	case $n in ''|*[!0-9]*) die "-i and -u take numbers" ;; esac
done
[ "$iv" = 0 ] || [ "$warm" -lt "$s" ] || die "-u (warm-up) must be shorter than -s"
if [ "$FEAT" = /sys/kernel/debug/sched/features ] && [ ! -e "$FEAT" ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
fi
[ -e "$FEAT" ] || die "no $FEAT: mount debugfs (a kernel with CONFIG_SCHED_DEBUG and DEBUG_FS)"
[ -w "$FEAT" ] || die "cannot write $FEAT: run as root"
here=$(cd "$(dirname "$0")" && pwd)
if [ "$w" = futex ] && ! command -v futexbench >/dev/null && [ -f "$here/futexbench.c" ]; then
	# on bare metal: build it from the source next to this script
	"$here/build-futexbench.sh" "$here/bin/futexbench" ||
		die "cannot build $here/futexbench.c (a C compiler is needed)"
	PATH=$here/bin:$PATH
fi
case $w in
futex) command -v futexbench >/dev/null || die "futexbench not found (bench/futexbench.c)" ;;
hackbench) command -v hackbench >/dev/null || die "hackbench not found (Debian: rt-tests)" ;;
stress) command -v stress-ng >/dev/null || die "stress-ng not found (Debian: stress-ng)" ;;
perf*) command -v perf >/dev/null || die "perf not found (Debian: linux-perf; in the lab's guest: LAB_HOST_PROGS)" ;;
tbench)
	command -v tbench >/dev/null && command -v tbench_srv >/dev/null || die "tbench not found (Debian: dbench)"
	loadfile=/usr/share/dbench/client.txt
	[ -f $loadfile ] || die "no $loadfile (Debian: dbench)"
	;;
esac

state() { tr ' ' '\n' <"$FEAT" | grep -E "^(NO_)?$f\$"; }
orig=$(state) || die "the kernel has no feature $f"
SST=/proc/sys/kernel/sched_schedstats
sst_orig="" srv=""
if [ -n "$sst" ]; then
	[ -r /proc/schedstat ] && [ -w $SST ] || die "-S: no /proc/schedstat or $SST (CONFIG_SCHEDSTATS; root)"
	sst_orig=$(cat $SST)
	echo 1 >$SST
fi
restore() {
	echo "$orig" >"$FEAT"
	[ -z "$sst_orig" ] || echo "$sst_orig" >$SST
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
}
trap restore EXIT
trap 'exit 130' INT TERM

# one run of the workload, its output on stdout
workload() {
	case $w in
	futex) futexbench -t "$t" -w "$W" -r "$s" $([ "$iv" = 0 ] || echo "-i $iv") ;;
	hackbench) hackbench -g "$t" -l $((s * 100)) ;;
	stress) stress-ng --futex "$t" -t "$s" --metrics-brief ;;
	perfmsg) perf bench sched messaging -g "$t" -l $((s * 100)) ;;
	perfpipe) perf bench sched pipe -l $((s * 10000)) ;;
	tbench) tbench -t "$s" "$t" 127.0.0.1 -c "$loadfile" ;;
	esac
}
# its figures: metric value pairs, from its output on stdin
figures() {
	case $w in
	futex)
		tee "$tmp/fout" | grep -v '^interval ' | tr ' ' '\n' |
			sed -n 's/^\([a-z_0-9]*\)=\([0-9.]*\)$/\1 \2/p' |
			grep -v -e '^threads ' -e '^wake ' -e '^seconds ' || true
		# the first interval, and the intervals after the warm-up
		[ "$iv" = 0 ] || awk -v w="$warm" '/^interval / {
				split($2, a, "="); split($3, b, "="); t = a[2]; c = b[2]
				if (!n++) printf "transient_per_s %.1f\n", c * 1000 / t
				if (prev >= w * 1000) { sc += c; st += t - prev }
				prev = t }
			END { if (st > 0) printf "steady_per_s %.1f\n", sc * 1000 / st }' "$tmp/fout"
		;;
	hackbench) sed -n 's/^Time: *\([0-9.]*\).*/seconds \1/p' ;;
	stress) awk '$4 == "futex" && $5 ~ /^[0-9]/ { print "bogo_ops_per_s", $9 }' ;;
	perfmsg) sed -n 's/^ *Total time: *\([0-9.]*\) \[sec\].*/seconds \1/p' ;;
	perfpipe) sed -n 's/^ *\([0-9.]*\) usecs\/op.*/usecs_per_op \1/p' ;;
	tbench) sed -n 's/^Throughput \([0-9.]*\) MB\/sec.*/mb_per_s \1/p' ;;
	esac
}

# rebuild the sched domains: a cpuset partition of the upper half of the
# CPUs switched to root and back (as lab/guest/stress.sh does)
rebuild_domains() {
	cg=/sys/fs/cgroup
	n=$(grep -c ^processor /proc/cpuinfo)
	echo +cpuset >$cg/cgroup.subtree_control 2>/dev/null && mkdir -p $cg/aba &&
		echo "$((n / 2))-$((n - 1))" >$cg/aba/cpuset.cpus &&
		echo root >$cg/aba/cpuset.cpus.partition &&
		echo member >$cg/aba/cpuset.cpus.partition && rmdir $cg/aba ||
		die "cannot rebuild the sched domains (-D: needs cgroup2 with cpuset)"
}

# the schedstat counters (version 17): newidle lb_count, lb_gained; every
# lb_gained; run_delay (ns)
schedsnap() {
	awk '/^cpu/ { rd += $9 }
		/^domain/ { nc += $26; ng += $33; g += $11 + $22 + $33 }
		END { printf "%.0f %.0f %.0f %.0f\n", nc, ng, g, rd }' /proc/schedstat
}

tmp=$(mktemp -d)
trap 'restore; rm -rf "$tmp"' EXIT
if [ "$w" = tbench ]; then
	# loopback up (the lab's guest starts with it down), the server once
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null || true
	tbench_srv >/dev/null 2>&1 &
	srv=$!
	sleep 1
fi
echo "workload,condition,run,metric,value" >"$tmp/csv"
i=1
while [ $i -le "$k" ]; do
	for cond in ${only:-A B A2}; do
		if [ -z "$only" ]; then
			case $cond in B) echo "NO_$f" >"$FEAT" ;; *) echo "$f" >"$FEAT" ;; esac
			[ "$(state)" = "$([ $cond = B ] && echo "NO_$f" || echo "$f")" ] ||
				die "writing $FEAT did not take effect"
		fi
		[ -z "$rebuild" ] || rebuild_domains
		echo "# run $i/$k condition $cond ($(state))" >&2
		rc=0
		[ -z "$sst" ] || schedsnap >"$tmp/s0"
		workload >"$tmp/out" 2>&1 || rc=$?
		[ -z "$sst" ] || schedsnap >"$tmp/s1"
		if [ "$rc" != 0 ]; then
			sed 's/^/  /' "$tmp/out" >&2
			die "run $i, condition $cond: $w failed (exit $rc)"
		fi
		figures <"$tmp/out" >"$tmp/fig"
		[ -z "$sst" ] || [ ! -s "$tmp/fig" ] || awk 'NR == 1 { split($0, a); next } {
			printf "ni_lb_count %d\nni_lb_gained %d\nlb_gained %d\nrun_delay_ms %.3f\n",
				$1 - a[1], $2 - a[2], $3 - a[3], ($4 - a[4]) / 1e6 }' "$tmp/s0" "$tmp/s1" >>"$tmp/fig"
		if [ ! -s "$tmp/fig" ]; then
			sed 's/^/  /' "$tmp/out" >&2
			die "run $i, condition $cond: $w reported no figures"
		fi
		while read -r metric value; do
			echo "$label,$cond,$i,$metric,$value"
		done <"$tmp/fig" >>"$tmp/csv"
	done
	i=$((i + 1))
done
case $o in
/dev/stdout|-) cat "$tmp/csv" ;;
*) cp "$tmp/csv" "$o.tmp.$$" && mv -f "$o.tmp.$$" "$o" ;;
esac
