#!/bin/bash
# ni-record.sh: every newidle balance attempt of a stock kernel with NI_RANDOM
# (v7.3), under NO_NI_RANDOM, by tracefs kprobe events with BTF arguments: one
# line per attempt for bench/ni-replay.sh (cpu t_us level ratio call success
# stamp_ns cost_us outcome moved pid waker comm; ratio to stamp read at entry).
# Outcome, as sched_balance_rq() ended: P pulled; B should_we_balance() said no;
# G no busiest group; A LBF_ALL_PINNED left (no task allowed here, or refused
# before the affinity test: delayed, per-CPU kthread); R a running task refused;
# H another refused after an allowed one (hot, LLC, delayed); F allowed, not
# taken; Q none of these (no busiest queue, one task there, imbalance <= 0, a
# serialized domain busy).
# waker: p->wakee_flips > 0 at the pull (it woke others lately; the replay's
# waker is the task pulled most). Visits the cost check cuts are not seen. A
# function inlined at one call site is not refused: for sched_balance_rq(),
# attempts or moved below schedstat's over the run (its last line) show it.
# Usage: ni-record.sh --check | OUT CMD... | --parse <trace
#   --check  what this kernel lacks for it, all at once; changes nothing
#   OUT CMD...  records while CMD runs (sleep 5: a window) into OUT, /proc/schedstat
#            beside it (OUT.schedstat.0, .1); the features, schedstats and tracefs
#            are put back as they were, on Ctrl-C too
# Settings: NI_MB (buffer, all CPUs; 64), NI_PROBES (rq|rqx: the cost's calibration),
# NI_TRACE (a file: the raw events kept there); TRACEFS, DEBUGFS: the tests'
# stand-ins for /sys/kernel/tracing and /sys/kernel/debug
set -euo pipefail
T=${TRACEFS:-/sys/kernel/tracing} D=${DEBUGFS:-/sys/kernel/debug} G=ni_record
I=$T/instances/$G
# tracefs and debugfs mounted here where they are not, and unmounted on exit
mounted=""
[ -e "$T/README" ] || [ -n "${TRACEFS:-}" ] || { mount -t tracefs nodev "$T" 2>/dev/null && mounted="$T"; }
[ -e "$D/sched" ] || [ -n "${DEBUGFS:-}" ] || { mount -t debugfs nodev "$D" 2>/dev/null && mounted="$mounted $D"; }
unmount() { for m in $mounted; do umount "$m" || true; done; }
trap unmount EXIT
probes() { # name|filter|definition, each where v7.3's fair.c decides an outcome
	grep -E "^(${NI_PROBES:-rq|rqx|grp|can|pull})\|" <<EOF
rq|idle == 2|p:$G/rq sched_balance_rq idle lvl=sd->level ratio=sd->newidle_ratio call=sd->newidle_call succ=sd->newidle_success stamp=sd->newidle_stamp
rqx|idle == 2|r:$G/rqx sched_balance_rq moved=\$retval idle cont=+0(continue_balancing):s32
grp|idle == 2 && grp == 0|r:$G/grp sched_balance_find_src_group grp=\$retval:x64 idle=env->idle
can|idle == 2|r:$G/can can_migrate_task ok=\$retval idle=env->idle fl=env->flags:x32 run=p->on_cpu:u8
pull|idle == 2|p:$G/pull detach_task pid=p->pid flips=p->wakee_flips:u32 idle=env->idle comm=p->comm:string
EOF
}

parse() {
	# dec(): busybox awk reads "016" as octal (14), "005059" as 5 (a 9 ends it)
	awk 'function odd(x) { return index("13579bdfBDF", substr(x, length(x))) > 0 }
	function dec(x) { sub(/^0+/, "", x); return x == "" ? 0 : x + 0 }
	{
		c = -1
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) { c = dec(substr($i, 2, length($i) - 2)); break }
		for (; c >= 0 && i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		if (c < 0 || i >= NF) next
		split($i, ts, /[.:]/); t = dec(ts[1]) * 1000000 + dec(ts[2]); ev = $(i + 1)
		split("", v)
		for (; i <= NF; i++)
			if ((k = index($i, "=")) > 0) v[substr($i, 1, k - 1)] = substr($i, k + 1)
		if (ev == "rq:") {
			if (c in open) cut++
			open[c] = 1; t0[c] = t; last[c] = seen[c] = ""; who[c] = "-1 0 -"
			at[c] = v["lvl"] " " v["ratio"] " " v["call"] " " v["succ"] " " v["stamp"]
		} else if (!(c in open)) {
			next
		} else if (ev == "grp:") {
			last[c] = "G"
		} else if (ev == "can:") {	# fl & LBF_ALL_PINNED: no task allowed here yet
			last[c] = v["ok"] != 0 ? "F" : odd(v["fl"]) ? "A" : v["run"] != 0 ? "R" : "H"
			seen[c] = seen[c] last[c]
		} else if (ev == "pull:" && who[c] == "-1 0 -") {
			gsub(/"/, "", v["comm"]); who[c] = v["pid"] " " (v["flips"] > 0) " " v["comm"]
		} else if (ev == "rqx:" && (t < t0[c] || (v["moved"] == 0 && who[c] != "-1 0 -"))) {
			lost++; delete open[c]	# a probe missed: its attempt left out, counted
		} else if (ev == "rqx:") {
			o = seen[c] ~ /R/ ? "R" : seen[c] ~ /H/ ? "H" : seen[c] ~ /F/ ? "F" : "Q"
			o = v["moved"] > 0 ? "P" : v["cont"] == 0 ? "B" : last[c] ~ /[GA]/ ? last[c] : o
			print c, t0[c], at[c], t - t0[c], o, v["moved"] + 0, who[c]
			delete open[c]
		}
	}
	END { for (c in open) cut++; print "# cut " cut + 0 " attempts open at the end, " lost + 0 " with a probe missed, left out" }'
}

check() {
	local miss=() f e def
	# without root tracefs, debugfs and kallsyms say nothing true: root alone
	[ "$(id -u)" = 0 ] || { echo "ni-record: missing: root (the rest is checked as root)" >&2; return 1; }
	[ ! -d "$I" ] || miss+=("$I is there: another ni-record.sh is running (or one killed left it: rmdir $I)")
	[ -w "$T/kprobe_events" ] || miss+=("$T/kprobe_events: CONFIG_KPROBE_EVENTS (CONFIG_KPROBES)")
	grep -q '<argname>' "$T/README" 2>/dev/null ||
		miss+=("BTF probe arguments: CONFIG_PROBE_EVENTS_BTF_ARGS (CONFIG_DEBUG_INFO_BTF, CONFIG_BPF_SYSCALL)")
	# shellcheck disable=SC2016 # tracefs's README, verbatim
	grep -q 'return probes support: \$retval, \$arg<N>' "$T/README" 2>/dev/null ||
		miss+=("arguments in return probes: Linux 6.9 or later")
	for f in sched_balance_rq sched_balance_find_src_group can_migrate_task detach_task; do
		grep -qE " [tT] $f\$" /proc/kallsyms 2>/dev/null ||
			miss+=("$f(): not in /proc/kallsyms (inlined away in this build, or before 6.10)")
	done
	e=$(cat /sys/kernel/security/lockdown 2>/dev/null) || e=""
	[[ $e != *'[integrity]'* && $e != *'[confidentiality]'* ]] ||
		miss+=("lockdown $e refuses debugfs writes (confidentiality kprobes too): Secure Boot with CONFIG_LOCK_DOWN_IN_EFI_SECURE_BOOT, or lockdown=")
	if ! e=$(cat "$D/sched/features" 2>&1); then
		miss+=("$D/sched/features cannot be read: ${e##*: } (CONFIG_DEBUG_FS; lockdown)")
	elif ! grep -qwE '(NO_)?NI_RANDOM' <<<"$e"; then
		miss+=("NI_RANDOM in $D/sched/features: v7.3's newidle throttle")
	fi
	[ -w /proc/sys/kernel/sched_schedstats ] || miss+=("kernel.sched_schedstats: CONFIG_SCHEDSTATS")
	if [ ${#miss[@]} = 0 ]; then # each probe as this kernel takes it: are its BTF fields there?
		echo "-:$G/" >>"$T/kprobe_events" 2>/dev/null || true
		while IFS='|' read -r f e def; do
			echo "$def" >>"$T/kprobe_events" 2>/dev/null ||
				miss+=("probe $f refused: $(tail -n 2 "$T/error_log" | tr -s ' \n' ' ')")
		done < <(probes)
		echo "-:$G/" >>"$T/kprobe_events" 2>/dev/null || true
	fi
	[ ${#miss[@]} = 0 ] && return 0
	printf 'ni-record: missing: %s\n' "${miss[@]}" >&2
	return 1
}

usage() { echo "ni-record: ${1:+unknown option $1; }usage: ni-record.sh --check | OUT CMD... | --parse <trace" >&2; exit 2; }
restore() {
	set +e # each step tried
	[ -d "$I" ] && echo 0 >"$I/events/enable" && rmdir "$I"
	echo "-:$G/" >>"$T/kprobe_events" 2>/dev/null || true
	echo "$feat" >"$D/sched/features"
	echo "$stats" >/proc/sys/kernel/sched_schedstats
	unmount
}

up() { cut -d' ' -f1 /proc/uptime | tr -d .; } # centiseconds

case ${1:-} in
--check) [ $# = 1 ] || usage; check && echo "ni-record: ready" ;;
--parse) [ $# = 1 ] || usage; parse ;;
-h|--help) sed -n '2,/^set /s/^# \{0,1\}//p' "$0" ;;
-*) usage "$1" ;;
'') usage ;;
*)
	[ $# -ge 2 ] || usage
	[ ! -d "$I" ] || { echo "ni-record: another ni-record.sh is running ($I; one killed leaves it: rmdir it)" >&2; exit 2; }
	check || exit 1
	# nr_cpu_ids, as the kernel numbers CPUs (and starts each gate), offline ones too
	out=$1 ncpu=$(( $(sed 's/.*[-,]//' /sys/devices/system/cpu/possible) + 1 ))
	shift
	: >"$out" || exit 1
	feat=$(grep -ow 'NO_NI_RANDOM\|NI_RANDOM' "$D/sched/features")
	stats=$(cat /proc/sys/kernel/sched_schedstats)
	# the instance is the lock: a second recorder is refused here
	mkdir "$I" 2>/dev/null || { echo "ni-record: another ni-record.sh is running ($I)" >&2; exit 2; }
	trap restore EXIT
	trap 'exit 130' INT TERM
	# a full CPU keeps its first events; a CPU's own clock times its attempts
	echo 0 >"$I/options/overwrite" && echo local >"$I/trace_clock" && echo 0 >"$I/tracing_on" || exit 1
	echo $((${NI_MB:-64} * 1024 / $(grep -c '^processor' /proc/cpuinfo))) >"$I/buffer_size_kb"
	while IFS='|' read -r f e def; do
		echo "$def" >>"$T/kprobe_events" && echo "$e" >"$I/events/$G/$f/filter" &&
			echo 1 >"$I/events/$G/$f/enable" || exit 1
	done < <(probes)
	echo NO_NI_RANDOM >"$D/sched/features" && echo 1 >/proc/sys/kernel/sched_schedstats
	cat /proc/schedstat >"$out.schedstat.0"
	# every probe at once, after NO_NI_RANDOM: no visit is skipped, no attempt seen in part
	echo 1 >"$I/tracing_on"
	t0=$(up) rc=0
	"$@" || rc=$?
	echo 0 >"$I/tracing_on"
	t1=$(up)
	cat /proc/schedstat >"$out.schedstat.1"
	[ -z "${NI_TRACE:-}" ] || cp "$I/trace" "$NI_TRACE" # the raw events, for a parser's test
	{
		echo "# ni-record: $(uname -r), NO_NI_RANDOM, ${NI_MB:-64} MiB, probes ${NI_PROBES:-all}: $*"
		echo "# seconds=$(( (t1 - t0) / 100 )).$(printf %02d $(( (t1 - t0) % 100 )))"
		echo "# cpus=$ncpu"
		echo "# ni_rate=$(grep -cw NI_RATE "$D/sched/features")"
		grep -H 'entries\|dropped events' "$I"/per_cpu/cpu*/stats | sed "s|^$I/per_cpu/|# |"
		awk -v g="$G/" '{ sub(g, "", $1) } $1 ~ /^(rq|rqx|grp|can|pull)$/ { print "# missed", $1, $3 }' "$T/kprobe_profile"
		parse <"$I/trace"
	} >"$out"
	# a probe a call site bypasses (inlined there) or a full buffer: fewer than schedstat's
	awk 'FNR == 1 { f++; v = $2 } /^domain/ { c[f] += $26; g[f] += $33 } END { if (v != 17) print "# schedstat version " v ": not read"
		else printf "# schedstat over the run: newidle lb_count, lb_gained: %d attempts, %d moved\n", c[2] - c[1], g[2] - g[1] }' \
		"$out.schedstat.0" "$out.schedstat.1" >>"$out"
	echo "ni-record: $(grep -vc '^#' "$out") attempts, $(awk '!/^#/ { m += $10 } END { print m + 0 }' "$out") moved in $out;" \
		"$(sed -n 's/^# schedstat/schedstat/p' "$out"); $(sed -n 's/^# cut/cut/p' "$out")"
	[ "$rc" = 0 ] || { echo "ni-record: $1 exited $rc" >&2; exit 1; }
	;;
esac
