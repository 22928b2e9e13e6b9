#!/bin/sh
# Runs of one workload on one boot, a CSV line per measurement (bench/stats.py's
# workload,condition,run,metric,value,boot), as root in the lab's guest or on
# bare metal; a feature, schedstats and sched/verbose are put back on exit.
# Usage: bench/aba.sh [-w WORKLOAD] [-k RUNS] [-s SECONDS] [-t THREADS] [-W WAKE]
#          [-f FEATURE | -c NAME] [-o CSV] [-i MS] [-u SECONDS] [-x RUNS]
#          [-C OFFSET] [-b BOOT] [-D] [-S] [-n]
#   -f FEATURE  K rounds of A (FEATURE), B (NO_FEATURE), A2 (default NI_RANDOM);
#   -c NAME     or K runs as they are, labelled NAME (bench-kernels)
#   -x RUNS     warm-up rounds, '# warm-up' lines, never in the CSV (a boot's first run is no sample)
#   -b BOOT     the CSV's last column (1);  -n  check arguments and programs, change nothing
#   -C OFFSET   futex: workers from the OFFSET-th allowed CPU on: it moves a boot's trajectory
#   -i MS       futex: completions per MS ms: transient_per_s (the first MS) and
#               steady_per_s (after -u SECONDS, default 1)
#   -D          rebuild the sched domains before each run (a cpuset partition)
#   -S          schedstat 17's counters per run: ni_lb_count, ni_lb_gained, lb_gained,
#               run_delay_ms, counted_s, dom_LEVEL_* (deltas; bench/counters.py); sembench's
#               waker (its main thread) from /proc/PID/sched as it exited, per 1000 of its
#               wake rounds: main_migrations_per_1k, main_failed_{running,hot,affine}_per_1k,
#               main_cpu_us_per_completion, and main_rounds_per_s
# sembench's burns_per_s, main_rounds_per_s: its worker burn count total and main thread burns
# (rounds) per second of its run as /proc/uptime times it (10 ms), thread setup and teardown in:
# its own rate divides by -r, but it stops at the first whole second past -r (-r - 1 to -r s)
# Workloads (futexbench, msgbench: bench/*.c, built if missing): futex (-t 8 -W 4);
# futex8, futex815, sembench8, sembench815: the sembench mail's 8 waking 4 and 815
# waking 101 (sembench: sembench-ng -o 2 on PATH); msg (msgbench -m 4 -t T) and
# schbench (Chris Mason's -L -m 4 -M auto -t T -n 0 -s 0): T = 2 x CPUs / 4, as his
# -t 256 came without its CPU count; hackbench -g THREADS, stress (stress-ng --futex),
# perfmsg, perfpipe (perf bench sched); tbench, tbench1, 8, 16, 32 (dbench, loopback,
# the Zen 3 review's clients). ABA_FEATURES, ABA_SCHEDSTAT, ABA_SCHEDSTATS_SYSCTL,
# ABA_TELEMETRY, ABA_DOMAINS, ABA_VERBOSE, ABA_TBENCH_LOADFILE, ABA_NET_TCP,
# ABA_WAKER_SCHED (for /proc/PID/sched), ABA_UPTIME: the tests' stand-ins. A run that fails
# or reports no figures stops it all, shown.
set -eu
FEAT=${ABA_FEATURES:-/sys/kernel/debug/sched/features} TEL=${ABA_TELEMETRY:-/sys/kernel/debug/lab_newidle}
SCHEDSTAT=${ABA_SCHEDSTAT:-/proc/schedstat} SST=${ABA_SCHEDSTATS_SYSCTL:-/proc/sys/kernel/sched_schedstats} UP=${ABA_UPTIME:-/proc/uptime}
# with stand-ins for the features (the tests), no kernel file unless given
dbg=/sys/kernel/debug/sched NETTCP=${ABA_NET_TCP:-/proc/net/tcp}
[ -z "${ABA_FEATURES:-}" ] || dbg=/nonexistent
DOMS=${ABA_DOMAINS:-$dbg/domains} VERB=${ABA_VERBOSE:-$dbg/verbose}
wl=futex runs=5 secs=10 threads=8 wake=4 feature=NI_RANDOM csv_out=/dev/stdout only="" interval=0 warm=1 rebuild="" sst=""
warmups=0 offset=0 boot=1 check=""
while getopts w:k:s:t:W:f:o:c:i:u:x:C:b:DSn opt; do
	case $opt in
	w) wl=$OPTARG ;; k) runs=$OPTARG ;; s) secs=$OPTARG ;; t) threads=$OPTARG ;;
	W) wake=$OPTARG ;; f) feature=$OPTARG ;; o) csv_out=$OPTARG ;; c) only=$OPTARG ;;
	i) interval=$OPTARG ;; u) warm=$OPTARG ;; x) warmups=$OPTARG ;; C) offset=$OPTARG ;;
	b) boot=$OPTARG ;; D) rebuild=1 ;; S) sst=1 ;; n) check=1 ;;
	*) echo "usage: see the head of $0" >&2; exit 2 ;;
	esac
done
die() { echo "aba: $*" >&2; exit 1; }
# the arguments first: bad ones are refused before anything is touched
label=$wl
case $wl in
futex|hackbench|stress|perfmsg|perfpipe|tbench|msg|schbench) ;;
tbench1|tbench8|tbench16|tbench32) threads=${wl#tbench} wl=tbench ;;
futex8|sembench8) wl=${wl%8} threads=8 wake=4 ;;
futex815|sembench815) wl=${wl%815} threads=815 wake=101 ;;
*) die "unknown workload '$wl' (futex, futex8, futex815, sembench8, sembench815, msg, schbench, hackbench, stress, perfmsg, perfpipe, tbench, tbench1, tbench8, tbench16, tbench32)" ;;
esac
for n in "$runs" "$secs" "$threads" "$wake" "$boot"; do
	case $n in ''|*[!0-9]*|0) die "-k, -s, -t, -W and -b take positive numbers" ;; esac
done
for n in "$interval" "$warm" "$warmups" "$offset"; do
	case $n in ''|*[!0-9]*) die "-i, -u, -x and -C take numbers" ;; esac
done
[ "$interval" = 0 ] || [ "$warm" -lt "$secs" ] || die "-u (warm-up) must be shorter than -s"
[ "$FEAT" != /sys/kernel/debug/sched/features ] || [ -e "$FEAT" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
# -n: the programs alone (bench/bare-metal.sh --check checks the kernel's files)
[ -n "$check" ] || [ -e "$FEAT" ] || die "no $FEAT: mount debugfs (a kernel with CONFIG_SCHED_DEBUG and DEBUG_FS)"
[ -n "$check" ] || [ -w "$FEAT" ] || die "cannot write $FEAT: run as root"
here=$(cd "$(dirname "$0")" && pwd)
ms=${interval#0} msgs=4 msgt=$(( $(nproc 2>/dev/null || grep -c ^processor /proc/cpuinfo) * 2 / 4 ))
[ "$msgt" -ge 1 ] || msgt=1
# the programs WORKLOAD runs, and where to get them
case $wl in
futex|msg) prog=${wl}bench where=bench/${wl}bench.c ;;
schbench) prog=schbench where="give bench/bare-metal.sh SCHBENCH=path, or put it on PATH" ;;
sembench) prog=sembench where="sembench-ng; bench/bare-metal.sh fetches it" ;;
hackbench) prog=hackbench where="Debian: rt-tests; Fedora: realtime-tests" ;;
stress) prog=stress-ng where="Debian and Fedora: stress-ng" ;;
perf*) prog=perf where="Debian: linux-perf; Fedora: perf; in the lab's guest: LAB_HOST_PROGS" ;;
tbench) prog="tbench tbench_srv" where="Debian and Fedora: dbench" loadfile=${ABA_TBENCH_LOADFILE:-/usr/share/dbench/client.txt} ;;
esac
if [ -f "$here/$prog.c" ] && ! command -v "$prog" >/dev/null; then
	# on bare metal, from the source beside this script (-n: the source will do)
	[ -z "$check" ] || exit 0
	"$here/build-futexbench.sh" "$here/bin/$prog" || die "cannot build $here/$prog.c (a C compiler is needed)"
	PATH=$here/bin:$PATH
fi
for p in $prog; do command -v "$p" >/dev/null || die "${prog%% *} not found ($where)"; done
[ "$wl" != tbench ] || [ -f "$loadfile" ] || die "no $loadfile (Debian and Fedora: dbench)"
[ -z "$check" ] || exit 0

for lib in "$here/../lab/guest/sched.sh" /lab/sched.sh; do [ -f "$lib" ] && break; done
[ -f "$lib" ] || die "no lab/guest/sched.sh beside bench/ (nor /lab/sched.sh)"
SCHED_FEATURES=$FEAT
# shellcheck source=lab/guest/sched.sh
. "$lib"
state() { feat "$feature"; }
orig=$(state) || die "the kernel has no feature $feature"
[ -z "$sst" ] || { [ -r "$SCHEDSTAT" ] && [ -w "$SST" ]; } || die "-S: no $SCHEDSTAT or $SST (CONFIG_SCHEDSTATS; root)"
sst_orig="" srv="" verb_orig="" tmp=$(mktemp -d)
restore() {
	set_feat "$orig" || echo "aba: could not put $feature back to $orig" >&2
	[ -z "$sst_orig" ] || echo "$sst_orig" >"$SST"
	[ -z "$verb_orig" ] || echo "$verb_orig" >"$VERB"
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
	[ ! -s "$tmp/w.pid" ] || { read -r wpid holder <"$tmp/w.pid" && kill "$wpid" "$holder"; } 2>/dev/null || true
	rm -rf "$tmp"
}
trap restore EXIT
if [ -n "$sst" ]; then
	sst_orig=$(cat "$SST"); echo 1 >"$SST"
	# the domains directory is there only with sched/verbose on
	[ ! -w "$VERB" ] || { verb_orig=$(cat "$VERB"); echo Y >"$VERB"; }
fi
trap 'exit 130' INT TERM HUP

# workload: one run, its output on stdout; figures: its metric value pairs
workload() {
	case $wl in
	futex) futexbench -t "$threads" -w "$wake" -r "$secs" -c "$offset" ${ms:+-i "$ms"} ;;
	sembench) ${sst:+waker} sembench -r "$secs" -o 2 -t "$threads" -w "$wake" ;;
	msg) msgbench -m "$msgs" -t "$msgt" -r "$secs" ;;
	schbench) schbench -L -m "$msgs" -M auto -t "$msgt" -n 0 -r "$secs" -s 0 ;;
	hackbench) hackbench -g "$threads" -l $((secs * 100)) ;;
	stress) stress-ng --futex "$threads" -t "$secs" --metrics-brief ;;
	perfmsg) perf bench sched messaging -g "$threads" -l $((secs * 100)) ;;
	perfpipe) perf bench sched pipe -l $((secs * 10000)) ;;
	tbench) tbench -t "$secs" "$threads" 127.0.0.1 -c "$loadfile" ;;
	esac
}
# waker COMMAND...: COMMAND, its exit status; its main thread's /proc/PID/sched
# in $tmp/waker as it ended. Its parent, a sleep, does not reap it: a zombie
# till read, its exit code in its stat. Nothing polls while it runs: cat ends
# when it closes its output, as it exits.
waker() {
	{ sh -c '"$@" & echo $! $$ >"$0.pid"; exec sleep 86400 >/dev/null 2>&1' "$tmp/w" "$@" 2>&1 & } | cat
	read -r wpid holder <"$tmp/w.pid"
	while read -r st <"/proc/$wpid/stat"; do case ${st##*) } in Z*) break ;; esac; sleep 0.05; done
	cp "${ABA_WAKER_SCHED:-/proc/$wpid/sched}" "$tmp/waker" 2>/dev/null || : >"$tmp/waker"
	st=$(cat "/proc/$wpid/stat" 2>/dev/null) || st=0
	kill "$holder" 2>/dev/null
	rm -f "$tmp/w.pid"
	st=${st##* }
	[ $((st & 127)) = 0 ] && return $((st >> 8)) || return $((128 + (st & 127)))
}
# wakerfig: the waker's counters per 1000 wake rounds (sembench's main thread
# burns), its CPU time per round, the rounds per second
wakerfig() {
	awk -v s="$el" 'FNR == NR { if (/^main thread burns: [0-9]/) n = $4; next } $2 == ":" { v[$1] = $3 }
		END { if (!n || s <= 0) exit; printf "main_rounds_per_s %.1f\n", n / s
			split("se.nr_migrations migrations nr_failed_migrations_running failed_running " \
				"nr_failed_migrations_hot failed_hot nr_failed_migrations_affine failed_affine", f, " ")
			for (i = 1; i < 8; i += 2) if (f[i] in v) printf "main_%s_per_1k %.3f\n", f[i + 1], 1000 * v[f[i]] / n
			if ("se.sum_exec_runtime" in v) printf "main_cpu_us_per_completion %.4f\n", 1000 * v["se.sum_exec_runtime"] / n }' "$tmp/out" "$tmp/waker"
}
# pairs: a line of key=value as metric value pairs, but the settings echoed
pairs() { tr ' ' '\n' | sed -n 's/^\([a-z_0-9]*\)=\([0-9.]*\)$/\1 \2/p' | grep -vE '^(threads|wake|offset|m|t|work_us|seconds) ' || true; }
figures() {
	case $wl in
	futex)
		tee "$tmp/fout" | grep -v '^interval ' | pairs
		# the first interval, and the intervals after the warm-up
		[ "$interval" = 0 ] || awk -v w="$warm" '/^interval / {
				split($2, a, "="); split($3, b, "="); t = a[2]; c = b[2]
				if (!n++) printf "transient_per_s %.1f\n", c * 1000 / t
				if (prev >= w * 1000) { sc += c; st += t - prev }
				prev = t }
			END { if (st > 0) printf "steady_per_s %.1f\n", sc * 1000 / st }' "$tmp/fout"
		;;
	sembench) awk -v s="$el" '/^worker burn count total [0-9]/ && s > 0 { printf "burns_per_s %.1f\n", $5 / s }' ;;
	msg) pairs ;;
	schbench)
		# "average rps: N" (schbench's last line); else the last line that
		# has "rps" and a number after it, whatever its case and spacing
		awk '{ l = tolower($0) }
			match(l, /rps[:= \t]*[0-9][0-9.]*/) { v = substr(l, RSTART, RLENGTH); sub(/^rps[:= \t]*/, "", v)
				if (l ~ /average rps/) a = v; else r = v }
			END { v = a != "" ? a : r; if (v != "") print "rps", v }' ;;
	hackbench) sed -n 's/^Time: *\([0-9.]*\).*/seconds \1/p' ;;
	stress) awk '$4 == "futex" && $5 ~ /^[0-9]/ { print "bogo_ops_per_s", $9 }' ;;
	perfmsg) sed -n 's/^ *Total time: *\([0-9.]*\) \[sec\].*/seconds \1/p' ;;
	perfpipe) sed -n 's/^ *\([0-9.]*\) usecs\/op.*/usecs_per_op \1/p' ;;
	tbench) sed -n 's/^Throughput \([0-9.]*\) MB\/sec.*/mb_per_s \1/p' ;;
	esac
}

# -S's counters: S newidle lb_count, lb_gained, every lb_gained, run_delay;
# U the uptime; D per CPU and domain its CPU_NEWLY_IDLE columns (26-36);
# T the telemetry: cpu level name visits full (at ratio 1024: nothing asked)
# ratio attempts pulls [pinned]; R the domain's ratio (- if none) and cost
snap() {
	set -- "$DOMS"/cpu*/domain*
	# one awk, as a process less is less noise; another version of
	# schedstat has other columns: refused, not read as these
	awk -v tel="$TEL" -v doms="$*" '/^version/ { ver = $2 }
		/^cpu/ { rd += $9; c = substr($1, 4) }
		/^domain/ { nc += $26; ng += $33; g += $11 + $22 + $33
			print "D", c, $1, tolower($2), $26, $27, $28, $33, $35, $36 }
		END { if (ver != 17) { print "aba: -S reads schedstat version 17, " FILENAME " is version " ver >"/dev/stderr"; exit 1 }
			printf "S %.0f %.0f %.0f %.0f\n", nc, ng, g, rd
			getline u <"/proc/uptime"; split(u, a, " "); print "U", a[1]
			while ((getline l <tel) > 0) print "T", l
			for (i = split(doms, ds, " "); i > 0; i--) {
				d = ds[i]; r = "-"
				if ((getline nm <(d "/name")) <= 0 || (getline k <(d "/max_newidle_lb_cost")) <= 0) continue
				getline r <(d "/newidle_ratio")
				c = d; sub(/\/domain[^\/]*$/, "", c); sub(/.*\/cpu/, "", c); sub(/.*\/domain/, "", d)
				print "R", c, d, tolower(nm), r, k } }' "$SCHEDSTAT"
}
# a run's metrics from the snapshots around it, a level's summed over its
# CPUs and same-named domains (NUMA's). schedstat's lb_balanced holds the
# attempts with no busiest group or queue, and the all-pinned ones: taken
# out, balanced is what is left (should_we_balance said no, or another CPU
# balanced the domain), so the classes do not overlap and every attempt is
# one of balanced, nobusyg, nobusyq, pinned, failed (a busiest queue,
# nothing moved) or a pull (lb_count - lb_balanced - lb_failed)
deltas() {
	awk 'function o(l, w, x, f) { printf "dom_%s_%s " (f ? f : "%d") "\n", l, w, x }
		FNR == 1 { f++ } $1 == "U" { up[f] = $2 } $1 == "S" { for (i = 2; i <= 5; i++) s[f, i] = $i }
		$1 == "R" { l = $4; rl[l] = 1; cs[f, l] += $6; cn[f, l]++; if ($5 != "-") { rs[f, l] += $5; rn[f, l]++ } }
		$1 == "D" { k = $2 SUBSEP $3; dk[k] = $4; for (i = 5; i <= 10; i++) d[f, k, i] = $i }
		$1 == "T" { l = tolower($4); lv[l] = 1; k = $2 SUBSEP $3; v[f, k] = $5; fu[f, k] = $6; at[f, k] = $8
			if (NF >= 10) pi[f, k] = $10; else nopin[l] = 1
			if (f == 1) { r0[l] += $7; n0[l]++; keys[k] = l } else { r1[l] += $7; n1[l]++ } }
		END {
			printf "ni_lb_count %d\nni_lb_gained %d\nlb_gained %d\nrun_delay_ms %.3f\ncounted_s %.2f\n", s[2, 2] - s[1, 2],
				s[2, 3] - s[1, 3], s[2, 4] - s[1, 4], (s[2, 5] - s[1, 5]) / 1e6, up[2] - up[1]
			for (k in keys) { l = keys[k]; dv[l] += v[2, k] - v[1, k]; df[l] += fu[2, k] - fu[1, k]
				da[l] += at[2, k] - at[1, k]; dpi[l] += pi[2, k] - pi[1, k] }
			for (l in lv) { o(l, "visits", dv[l]); o(l, "full", df[l]); o(l, "attempts", da[l])
				if (!(l in nopin)) o(l, "pinned", dpi[l])
				o(l, "ratio0", r0[l] / n0[l], "%.1f"); o(l, "ratio1", n1[l] ? r1[l] / n1[l] : 0, "%.1f") }
			for (k in dk) { l = dk[k]; sl[l] = 1; for (i = 5; i <= 10; i++) dd[l, i] += d[2, k, i] - d[1, k, i] }
			# 5 lb_count, 6 lb_balanced, 7 lb_failed, 8 lb_gained, 9 lb_nobusyq, 10 lb_nobusyg
			for (l in sl) { if (!(l in lv)) o(l, "attempts", dd[l, 5])
				o(l, "nobusyg", dd[l, 10]); o(l, "nobusyq", dd[l, 9])
				o(l, "balanced", dd[l, 6] - dd[l, 9] - dd[l, 10] - (((l in lv) && !(l in nopin)) ? dpi[l] : 0))
				o(l, "failed", dd[l, 7]); o(l, "pulls", dd[l, 5] - dd[l, 6] - dd[l, 7]); o(l, "gained", dd[l, 8]) }
			for (l in rl) {
				if (!(l in lv) && rn[1, l] && rn[2, l]) { o(l, "ratio0", rs[1, l] / rn[1, l], "%.1f"); o(l, "ratio1", rs[2, l] / rn[2, l], "%.1f") }
				if (cn[1, l] && cn[2, l]) { o(l, "cost0", cs[1, l] / cn[1, l], "%.0f"); o(l, "cost1", cs[2, l] / cn[2, l], "%.0f") } } }' "$1" "$2"
}

if [ "$wl" = tbench ]; then
	# loopback up (the lab's guest starts with it down), the server once
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null || true
	# ready once it listens on its port, 7003 (1B5B): waited for, at most 10 s
	tbench_srv >/dev/null 2>&1 & srv=$! n=0
	until grep -qsE '^ *[0-9]+: [0-9A-F]+:1B5B [0-9A-F]+:0000 0A ' "$NETTCP"; do
		n=$((n + 1))
		[ $n -le 100 ] && kill -0 "$srv" 2>/dev/null || die "tbench_srv is not listening on port 7003 ($NETTCP)"
		sleep 0.1
	done
fi
# shown MESSAGE: the run's output, then die
shown() { sed 's/^/  /' "$tmp/out" >&2; die "$@"; }
# measure COND RUN: one run under condition COND, its figures on stdout
measure() {
	st=$feature
	[ "$1" != B ] || st=NO_$feature
	[ -n "$only" ] || set_feat "$st" || die "writing $FEAT did not take effect"
	# -D: a partition of the upper half of the CPUs, as lab/guest/stress.sh does
	[ -z "$rebuild" ] || { ncpu=$(grep -c ^processor /proc/cpuinfo); rebuild_domains "$((ncpu / 2))-$((ncpu - 1))"; } ||
		die "cannot rebuild the sched domains (-D: needs cgroup2 with cpuset)"
	[ -z "$only" ] || st=$(state)
	echo "# run $2 condition $1 ($st)" >&2
	rc=0
	[ -z "$sst" ] || snap >"$tmp/s0"
	read -r u0 _ <"$UP"
	workload >"$tmp/out" 2>&1 || rc=$?
	read -r u1 _ <"$UP"
	el=$(echo "$u0 $u1" | awk '{ print $2 - $1 }')
	[ -z "$sst" ] || snap >"$tmp/s1"
	[ "$rc" = 0 ] || shown "run $2, condition $1: $wl failed (exit $rc)"
	figures <"$tmp/out" >"$tmp/fig"
	[ -s "$tmp/fig" ] || [ "$wl" != schbench ] ||
		shown "run $2, condition $1: schbench printed no rps figure (no \"average rps: N\" line, nor \"rps: N\" or \"rps=N\")"
	[ -s "$tmp/fig" ] || shown "run $2, condition $1: $wl reported no figures"
	cat "$tmp/fig"
	[ ! -s "$tmp/waker" ] || wakerfig
	rm -f "$tmp/waker"
	[ -z "$sst" ] || deltas "$tmp/s0" "$tmp/s1"
}
echo "workload,condition,run,metric,value,boot" >"$tmp/csv"
for round in $(seq 1 $((warmups + runs))); do
	i=$((round - warmups))
	for cond in ${only:-A B A2}; do
		r=$i
		[ $i -gt 0 ] || r=w$round
		measure "$cond" "$r" >"$tmp/fig.run"
		if [ $i -gt 0 ]; then
			while read -r metric value; do echo "$label,$cond,$i,$metric,$value,$boot"; done <"$tmp/fig.run" >>"$tmp/csv"
		else
			sed "s/^/# warm-up $label $cond $round: /" "$tmp/fig.run" >&2
		fi
	done
done
case $csv_out in
/dev/stdout|-) cat "$tmp/csv" ;;
*) cp "$tmp/csv" "$csv_out.tmp.$$" && mv -f "$csv_out.tmp.$$" "$csv_out" ;;
esac
