#!/bin/bash
# The benchmark harness, one half (both without an argument): host (the bench-host
# part, no kernel): the statistics, aba.sh, counters, plans, make compare, collect.sh,
# msgbench, bare-metal.sh's matrix and the tester's times on fixed data and stand-ins;
# guest (the bench part): a smoke of each preset and bare-metal.sh in the guest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
half=${1:-all}
case $half in host|guest|all) ;; *) echo "usage: tests/bench_test.sh [host|guest]" >&2; exit 2 ;; esac

# row FILE ROW...: each ROW a line of the table in FILE, its spaces squeezed
row() { local t r; t=$(tr -s ' ' <"$1" | sed 's/^ //'); for r in "${@:2}"; do grep -qxF -- "$r" <<<"$t" || return 1; done; }
# cols N FILE...: no line of the FILEs is wider than N columns
cols() { ! grep -q ".\{$(($1 + 1))\}" "${@:2}"; }
# refusals CHECK [WORD...]: t_check of each line on stdin, WHAT|TEXT|ARGUMENTS (eval'd): CHECK TEXT
# WORD... ARGUMENTS (refusals refuses_with PROGRAM: PROGRAM refuses ARGUMENTS, its stderr saying TEXT)
refusals() {
	local what err args
	while IFS='|' read -r what err args; do
		eval "args=($args)"
		t_check "$what" "$1" "$err" "${@:2}" "${args[@]}"
	done
}

host_checks() {
	# --- bench/stats.py, one boot: its runs are the samples.
	# A: 100 102 101, B: 110 114 111, A2: 104 106 105. Welch's test of B against
	# A and A2 together, worked apart from bench/stats.py (the formula, and the
	# t quantile by Simpson integration of Student's density):
	#   means 111.6667 and 103, variances 4.3333 and 5.6, se 1.5420,
	#   t = 5.6204, df = 4.6441, t(0.975, df) = 2.6310, p = 0.00312,
	#   difference 8.6667 +- 4.0571 -> +8.41 % [+4.48 %, +12.35 %] of 103: better;
	#   drift A2 vs A 105/101 -> +3.96 %.
	echo "workload,condition,run,metric,value,boot" >"$scratch/t.csv"
	for v in 1:100:110:104 2:102:114:106 3:101:111:105; do
		IFS=: read -r r a b a2 <<<"$v"
		printf 'futex,%s,%s,completions_per_s,%s,1\n' A "$r" "$a" B "$r" "$b" A2 "$r" "$a2" >>"$scratch/t.csv"
	done
	stats() { "$top/bench/stats.py" "$@"; }
	stats "$scratch/t.csv" --label "A=A  NI_RANDOM" --label "B=B  NO_NI_RANDOM" --label "A2=A2 NI_RANDOM again" \
		--json "$scratch/t.json" --csv "$scratch/t.out.csv" >"$scratch/t.txt"
	# field KEY [CONDITION [AGAINST [JSON]]]: a comparison's value in the JSON
	# (B's in t.json by default); cfield KEY: condition B's summary
	field() { /usr/bin/python3 -c 'import json, sys
c, a = sys.argv[3], sys.argv[4]
print([r for r in json.load(open(sys.argv[1]))["comparisons"] if r["condition"] == c and a in ("", r["against"])][0][sys.argv[2]])' \
		"${4:-$scratch/t.json}" "$1" "${2:-B}" "${3:-}"; }
	cfield() { /usr/bin/python3 -c 'import json, sys
print([r for r in json.load(open(sys.argv[1]))["conditions"] if r["condition"] == "B"][0][sys.argv[2]])' "$scratch/t.json" "$1"; }
	# near VALUE EXPECTED TOLERANCE
	near() { /usr/bin/python3 -c 'import sys; a, b, e = map(float, sys.argv[1:]); sys.exit(abs(a - b) > e)' "$@"; }
	t_check "stats: Welch t = 5.6204" near "$(field t)" 5.6204 0.0005
	t_check "stats: Welch-Satterthwaite df = 4.6441" near "$(field df)" 4.6441 0.0005
	t_check "stats: two-sided p = 0.00312" near "$(field p)" 0.00312 0.00002
	# scipy's own Welch test, a second opinion on the formula in bench/stats.py:
	# welch t|p B1 B2 B3, against A and A2 pooled
	welch() { /usr/bin/python3 -c 'import sys; from scipy import stats
r = stats.ttest_ind([float(x) for x in sys.argv[2:]], [100, 102, 101, 104, 106, 105], equal_var=False)
print({"t": r.statistic, "p": r.pvalue}[sys.argv[1]])' "$@"; }
	t_check "stats: scipy's Welch t agrees" near "$(field t)" "$(welch t 110 114 111)" 0.0005
	t_check "stats: scipy's two-sided p agrees" near "$(field p)" "$(welch p 110 114 111)" 0.00002
	t_check "negative control: scipy's t on other data does not" not near "$(field t)" "$(welch t 110 114 112)" 0.0005
	t_check "stats: 95% CI [+4.48%, +12.35%]" eval 'near "$(field ci_low_pct)" 4.4754 0.001 && near "$(field ci_high_pct)" 12.3531 0.001'
	t_check "stats: delta against the mean of both baselines +8.41%" near "$(field delta_pct)" 8.4142 0.001
	t_check "stats: verdict better" test "$(field verdict)" = better
	t_check "stats: baseline drift +3.96%" near "$(field drift_pct)" 3.9604 0.001
	t_check "stats: median, min, max, CV of B" test "$(cfield median) $(cfield min) $(cfield max) $(printf %.2f "$(cfield cv_pct)")" = "111.0 110.0 114.0 1.86"
	t_check "stats: one boot, so the runs are the samples" test "$(field test)" = "Welch over runs"
	t_check "report: the text has the delta, interval and verdict" grep -qF \
		'B  NO_NI_RANDOM vs A  NI_RANDOM + A2 NI_RANDOM again: +8.41% [+4.48%, +12.35%] better (Welch over runs, 3 and 6)' "$scratch/t.txt"
	t_check "report: the text has the drift" grep -qF 'drift of A2 NI_RANDOM again against A  NI_RANDOM: +3.96%' "$scratch/t.txt"
	t_check "report: the CSV has a row per condition" test "$(grep -c '^futex,completions_per_s,' "$scratch/t.out.csv")" = 3
	# bad input and options: refused, said, never a traceback; a nan skipped, said
	sed 's/,boot$//; s/,1$//' "$scratch/t.csv" >"$scratch/noboot.csv"
	refusals refuses_with stats <<-EOF
		report: a missing CSV is an error, said|is empty or missing|"$scratch/missing.csv"
		report: a CSV without the boot column is refused|not workload,condition,run,metric,value,boot|"$scratch/noboot.csv"
		report: a --label without = is refused, naming it|argument --label: takes CONDITION=NAME, not 'X'|"$scratch/t.csv" --label X
		report: a --compare without , is refused, naming it|argument --compare: takes CONDITION|"$scratch/t.csv" --compare X
		report: a --compare of conditions the CSV lacks is refused, naming them|has no condition 'X', 'Y' (it has A, B, A2)|"$scratch/t.csv" --compare B,A --compare X,Y
		report: a --cv-max of nan is refused|--cv-max and --asked-min take a number from 0|"$scratch/t.csv" --cv-max nan
		report: a JSON it cannot write is said, no traceback|stats: cannot write $scratch/no/t.json: No such file|"$scratch/t.csv" --json "$scratch/no/t.json"
	EOF
	sed 's/,114,1$/,nan,1/' "$scratch/t.csv" >"$scratch/nan.csv"
	stats "$scratch/nan.csv" --json "$scratch/t.json" >/dev/null 2>"$scratch/nan.err" || true
	t_check "report: a nan value is skipped, said (B over 2 runs)" eval 'grep -q "line 6: value nan skipped" "$scratch/nan.err" && test "$(cfield runs)" = 2'
	# --summary: the paste, the feature against the dice: B against A and A2 as above
	# (+8.41 %, 111.67 / 103 = 1.0841); the feature's A and A2 against B: -8.6667
	# +- 4.0571 of 111.67 (the same se and df) = -7.76 % [-11.40 %, -4.13 %], 0.9224
	# sum_of FEATURE [CSV]: the summary of FEATURE, of t.csv or CSV
	sum_of() { stats "${2:-$scratch/t.csv}" --label A=NI_X --label A2=NI_X --label B=NO_NI_X --title T --summary "$1"; }
	t_check "summary: NO_NI_X against NI_X, normalised, pct, CV and the interval (* excludes 0), in 72 columns" \
		eval 'sum_of B >"$scratch/sum.txt" && row "$scratch/sum.txt" "workload metric NI_X (CV) NO_NI_X [%](CV) 95% CI, %" \
			"futex compl/s 103 ( 2.3) 1.08 [ +8.41]( 1.9) [ +4.5,+12.4]*" "higher is better: compl/s" && cols 72 "$scratch/sum.txt"'
	t_check "summary: a feature on A and A2 against the dice on B, the sign the feature's" \
		eval 'sum_of A+A2 >"$scratch/sum2.txt" && row "$scratch/sum2.txt" "futex compl/s 112 ( 1.9) 0.92 [ -7.76]( 2.3) [-11.4, -4.1]*"'
	# B's first run 140: its CV 13.1 %, over 5 %, marked, and the mark said; B's
	# first run 99000: every figure as wide as it gets (CV 173 %, +32012 %, an
	# interval of -105684 % to +169707 %): fewer decimals, then powers of ten,
	# never a figure cut off
	for v in noisy:140 wide:99000; do
		awk -F, -v OFS=, -v x="${v#*:}" '$2 == "B" && $3 == 1 { $5 = x } 1' "$scratch/t.csv" >"$scratch/${v%:*}.csv"
		sum_of B "$scratch/${v%:*}.csv" >"$scratch/${v%:*}.txt"
	done
	t_check "summary: a CV over 5% is marked, the mark said; none under it (above)" \
		eval 'grep -q "^futex .*\[+18.12\](13.1)! \[-19.8,+56.0\]\$" "$scratch/noisy.txt" && grep -q "^  !: a CV over 5 %" "$scratch/noisy.txt" &&
			! grep -q "!" "$scratch/sum.txt"'
	t_check "summary: a feature the CSV has no condition of is refused, naming it" refuses_with "--summary: X is not some of" sum_of X
	t_check "summary: the widest figures lose decimals, never their ends, in 72 columns" \
		eval 'row "$scratch/wide.txt" "futex compl/s 103 ( 2.3) 321 [+32012]( 173)! [ -1e5, +2e5]" && cols 72 "$scratch/wide.txt"'
	# verdict_of SED: B's verdict on t.csv edited by SED
	verdict_of() { sed "$1" "$scratch/t.csv" >"$scratch/v.csv" && stats "$scratch/v.csv" --json "$scratch/t.json" >/dev/null && field verdict; }
	t_check "stats: an interval that holds 0 (B's runs straddle the baselines) is within noise" \
		test "$(verdict_of 's/,110,1$/,101,1/; s/,114,1$/,106,1/; s/,111,1$/,103,1/')" = "within noise"
	t_check "stats: lower is better for a time, so the same data as seconds is worse" test "$(verdict_of s/completions_per_s/seconds/)" = worse

	# the CV limit: B's CV is 1.86 %
	t_check "CV limit: 1.86% passes a limit of 2%" eval 'stats "$scratch/t.csv" --cv-max 2 >/dev/null'
	rc=0
	stats "$scratch/t.csv" --label "B=B  Y" --cv-max 1.5 --json "$scratch/cv.json" >"$scratch/cv.txt" 2>"$scratch/cv.err" || rc=$?
	t_check "negative control: a CV over its limit fails the report (exit 6)" test "$rc" = 6
	t_check "negative control: the failure names the condition and its CV" grep -q 'futex completions_per_s, condition B  Y: CV 1.86%' "$scratch/cv.err"
	t_check "negative control: the report is still written, saying so" eval 'grep -q "exceeded by" "$scratch/cv.txt" && test -s "$scratch/cv.json"'

	# --- the same engine over boots: a boot's mean is a sample.
	# Kernels across boots: the boot means of v7.3 are the fixture's A and A2
	# (100 102 101 104 106 105), the gate's its B (110 114 111): the same Welch
	# test, +8.41 % [+4.48 %, +12.35 %]. Each boot has two runs around its mean.
	echo "workload,condition,run,metric,value,boot" >"$scratch/k.csv"
	b=0
	for kv in v7.3:100 gate:110 norandom:130 v7.3:102 gate:114 norandom:133 v7.3:101 gate:111 norandom:131 v7.3:104 v7.3:106 v7.3:105; do
		b=$((b + 1)) k=${kv%%:*} v=${kv#*:}
		printf 'futex8,%s,%s,%s,%s,%s\n' "$k" 1 completions_per_s $((v - 1)) $b "$k" 2 completions_per_s $((v + 1)) $b >>"$scratch/k.csv"
		for m in visits:800 full:0 attempts:90 pulls:3 ratio0:40 ratio1:38; do echo "futex8,$k,1,dom_mc_${m%:*},${m#*:},$b"; done >>"$scratch/k.csv"
	done
	# kvar N [SED]: the kernels' report of k.csv edited by SED (as kN.csv) in kN.txt, its exit in rc
	kvar() {
		sed "${2:-}" "$scratch/k.csv" >"$scratch/k$1.csv"
		rc=0
		stats "$scratch/k$1.csv" --compare gate,v7.3 --compare norandom,gate --control norandom --json "$scratch/k.json" >"$scratch/k$1.txt" || rc=$?
	}
	kvar 0
	kfield() { field "$3" "$1" "$2" "$scratch/k.json"; }
	t_check "over boots: the gate against v7.3, +8.41%" near "$(kfield gate v7.3 delta_pct)" 8.4142 0.001
	t_check "over boots: its 95% interval [+4.48%, +12.35%], over 3 and 6 boots" \
		eval 'near "$(kfield gate v7.3 ci_low_pct)" 4.4754 0.001 && near "$(kfield gate v7.3 ci_high_pct)" 12.3531 0.001 &&
			test "$(kfield gate v7.3 n) $(kfield gate v7.3 n_base)" = "3 6"'
	t_check "over boots: kernels on other boots, so Welch over the boot means" test "$(kfield gate v7.3 test)" = "Welch over boot means"
	t_check "over boots: the positive control told apart, the report passes ($rc)" \
		eval 'test "$rc" = 0 && grep -q "positive control (norandom): told apart" "$scratch/k0.txt"'
	t_check "over boots: v7.3's drift, later boots against earlier" grep -q 'drift of v7.3: +3.96%' "$scratch/k0.txt"
	t_check "regime: the telemetry's levels in the report" grep -q '^  v7.3 .* mc .*40 > 38 .*800 .*90 ' "$scratch/k0.txt"
	t_check "regime: a run at ratio 800 of 800 visits is not flagged" eval '! grep -q FLAG "$scratch/k0.txt"'
	kvar 2 's/^\(futex8,norandom,[12],completions_per_s,\)13\([0-9]\)/\111\2/'
	t_check "negative control: a control that is not told apart fails the report (exit 5, $rc)" test "$rc" = 5
	t_check "negative control: saying the preset cannot say 'no difference'" grep -q 'NOT told apart: futex8 cannot say "no difference"' "$scratch/k2.txt"
	# NI_RATE in the emulated guest: three quarters of the visits at 1024 (the
	# rate4 preset's futex815 asked on 17-24 %) are flagged, a quarter is not
	for n in 3:800 4:600 5:200; do kvar "${n%:*}" "s/,dom_mc_full,0,/,dom_mc_full,${n#*:},/"; done
	t_check "negative control: visits all at ratio 1024 are flagged as saying nothing about the gate" \
		grep -q 'gate .*FLAG: asked on 0.0% of the visits.*says nothing about the gate' "$scratch/k3.txt"
	t_check "regime: 600 of 800 visits at ratio 1024 are flagged (asked on 25%)" grep -q 'gate .*FLAG: asked on 25.0% of the visits' "$scratch/k4.txt"
	t_check "regime: 200 of 800 are not (asked on 75%)" eval '! grep -q FLAG "$scratch/k5.txt"'
	# Features A/B/A on each boot: per-boot deltas of B against A and A2 of
	# 2, 3 and 4 %: mean 3 %, sd 1, t(0.975, 2) = 4.3027: 3 +- 2.4842 %.
	echo "workload,condition,run,metric,value,boot" >"$scratch/f.csv"
	for bd in 1:102 2:103 3:104; do
		printf 'futex8,NI_DICE:%s,1,completions_per_s,%s,%s\n' A 100 "${bd%%:*}" B "${bd#*:}" "${bd%%:*}" A2 100 "${bd%%:*}" >>"$scratch/f.csv"
	done
	stats "$scratch/f.csv" --json "$scratch/f.json" >"$scratch/f.txt"
	ffield() { field "$1" NI_DICE:B "" "$scratch/f.json"; }
	t_check "features over boots: NO_NI_DICE +3.00% [+0.52%, +5.48%]" \
		eval 'near "$(ffield delta_pct)" 3 0.0001 && near "$(ffield ci_low_pct)" 0.5158 0.001 && near "$(ffield ci_high_pct)" 5.4842 0.001'
	t_check "features over boots: the same boots on both sides, so paired per boot" test "$(ffield test)" = "paired over boots"
	t_check "features over boots: without a control the report says so" grep -q 'No positive control given' "$scratch/f.txt"

	# --- bench/aba.sh: a features file and workloads stood in for
	echo "NI_RANDOM NI_RATE" >"$scratch/features"
	script "$scratch/fake/futexbench" 'echo "threads=8 wake=4 seconds=1 completions_per_s=100.5 wake_us_p50=3.2"' \
		"[ ! -e '$scratch/crash' ] || exit 3"
	aba() { env PATH="$scratch/fake:$PATH" ABA_FEATURES="$scratch/features" "$top/bench/aba.sh" "$@"; }
	# state NAME: a feature's state in the stand-in (its last write, as sched.sh reads it)
	state() { SCHED_FEATURES="$scratch/features" sh -c '. "$0"; feat "$1"' "$top/lab/guest/sched.sh" "$1"; }
	t_check "aba: an unknown workload is refused for that reason" refuses_with "unknown workload 'nosuch'" aba -w nosuch
	t_check "negative control: a refusal for another reason is not taken for it" not refuses_with "unknown workload" aba -w futex -k x
	aba -k 2 -s 1 -b 7 -o "$scratch/aba.csv" 2>/dev/null
	t_check "aba: two runs of A, B, A2 measured" test "$(grep -c '^futex,A2,[12],completions_per_s,' "$scratch/aba.csv")" = 2
	t_check "aba: the CSV's layout is bench/stats.py's, the boot (-b) last" \
		eval 'test "$(sed -n 1p "$scratch/aba.csv")" = "workload,condition,run,metric,value,boot" &&
			test "$(grep -c "^futex,[AB2]*,[12],completions_per_s,100.5,7$" "$scratch/aba.csv")" = 6'
	t_check "negative control: a boot that is not a number is refused" refuses_with "take positive numbers" aba -b x
	touch "$scratch/crash"
	t_check "aba: a workload that crashes fails the run, naming it" refuses_with "run 1, condition A: futex failed (exit 3)" aba -k 2 -s 1 -o "$scratch/crash.csv"
	t_check "aba: and writes no CSV" test ! -e "$scratch/crash.csv"
	t_check "aba: and restores the feature" test "$(state NI_RANDOM)" = NI_RANDOM
	script "$scratch/fake/futexbench" 'echo "nothing to report"'
	t_check "aba: a workload that reports no figures fails the run" refuses_with "reported no figures" aba -k 1 -s 1 -o "$scratch/none.csv"
	# schbench's rps: its "average rps" line first, else "rps: N"; nothing, refused.
	# sch OUTPUT: the CSV row of aba.sh's run of a schbench that prints OUTPUT
	sch() { script "$scratch/fake/schbench" "printf \"$1\\n\""; aba -w schbench -k 1 -s 1 -c K | grep '^schbench,K,1,rps,'; }
	t_check "aba: schbench's rps from its 'average rps' line, before other rps lines" \
		test "$(sch 'current rps: 5\nAverage RPS:  99.5\nrps: 7' 2>/dev/null)" = "schbench,K,1,rps,99.5,1"
	t_check "aba: else its last 'rps: N' line" test "$(sch 'Rps percentiles (requests)\nrps: 7' 2>/dev/null)" = "schbench,K,1,rps,7,1"
	t_check "aba: schbench with no rps figure is refused, saying what it looked for" \
		refuses_with "schbench printed no rps figure (no \"average rps: N\" line" sch "Rps percentiles (requests) runtime 1 (s)"
	# sembench's rate whenever a run starts: a stand-in begun at .05 and at .6 of a second of
	# its clock (SB_PHASE), that stops at the first whole second past its start and -r ($2),
	# its lines, 400,000 burns a second of its life (its start to its end by /proc/uptime: what
	# aba.sh times)
	cat >"$scratch/fake/sembench" <<-'EOF'
	#!/bin/sh
	sleep "$(awk -v r="$2" 'BEGIN { print r - ENVIRON["SB_PHASE"] }')"
	awk -v st="$(cut -d' ' -f22 /proc/$$/stat)" -v r="$2" '{ t = $1 - st / 100; w = int(400000 * t); print t >ENVIRON["SB_LOG"]
		printf "main thread burns: %d\nworker burn count total %d min 0 max 0\nrun time %d seconds %d worker burns per second\n", w / 4, w, r, w / r
		printf "%d\n", w / r >>ENVIRON["SB_LOG"] }' /proc/uptime
	EOF
	chmod +x "$scratch/fake/sembench"
	for p in 0.05 0.6; do SB_PHASE=$p SB_LOG=$scratch/sb-$p aba -w sembench8 -k 1 -s 2 -c K 2>/dev/null >"$scratch/sb-$p.csv" || true; done
	rate() { sed -n 's/^sembench8,K,1,burns_per_s,\([0-9.]*\),.*/\1/p' "$scratch/sb-$1.csv"; }
	own=$(sed -n 2p "$scratch/sb-0.6")
	t_check "aba: sembench -r 2 begun at .05 and .6 of a second (ran $(head -1 "$scratch/sb-0.05") and $(head -1 "$scratch/sb-0.6") s): burns_per_s $(rate 0.05) and $(rate 0.6), within 5% of 400000" \
		eval 'awk -v a="$(head -1 "$scratch/sb-0.05")" -v b="$(head -1 "$scratch/sb-0.6")" "BEGIN { exit !(a > 1.6 && b < 1.6) }" &&
			near "$(rate 0.05)" 400000 20000 && near "$(rate 0.6)" 400000 20000'
	t_check "negative control: sembench's own rate by whole seconds, begun at .6, fails it ($own)" not near "$own" 400000 20000

	# --- bench/aba.sh -S: the newidle attempts of each level by how they
	# ended, from two snapshots of /proc/schedstat v17 and lab_newidle
	# (tests/fixtures/schedstat/*.0 before the run, *.1 after: the fake
	# workload puts them in place of the stand-ins). Newly-idle deltas per
	# CPU and domain, lb_count balanced failed gained nobusyq nobusyg, and
	# the telemetry's pinned: cpu0 MC 100 60 10 35 5 20, pinned 8; cpu1 MC
	# 50 30 6 15 4 10, pinned 2; cpu0 PKG 20 18 1 1 2 12; cpu1 PKG 10 10 0 0
	# 0 10. So mc: attempts 150, nobusyg 30, nobusyq 9, pinned 10, balanced
	# 90 - 30 - 9 - 10 = 41, failed 16, pulls 150 - 90 - 16 = 44, gained 50;
	# pkg: 30, 22, 2, 0, 4, 1, 1, 1. The other idle types move too, by
	# other amounts: lb_gained of every kind is 51 + 4 domains x (3 + 2).
	sfx=$top/tests/fixtures/schedstat
	echo "NI_RANDOM NI_RATE" >"$scratch/sfeat"
	echo 0 >"$scratch/ssst"
	script "$scratch/sfake/futexbench" 'cp "$SFX_SCHED" "$ABA_SCHEDSTAT"' '[ ! -e "$ABA_TELEMETRY" ] || cp "$SFX_TEL" "$ABA_TELEMETRY"' \
		'echo "threads=8 wake=4 seconds=1 completions_per_s=100.5"'
	# senv [SETTING=VALUE...] COMMAND...: with the fake workload, the features and the sysctl stood in for
	senv() { env PATH="$scratch/sfake:$PATH" ABA_FEATURES="$scratch/sfeat" ABA_SCHEDSTATS_SYSCTL="$scratch/ssst" "$@"; }
	# classes ABA TEL0 TEL1 CSV: one -S run of the aba.sh ABA from the fixture's
	# snapshots, TEL0 and TEL1 its telemetry (- for none), into CSV
	classes() {
		cp "$sfx/schedstat.0" "$scratch/sst0"
		rm -f "$scratch/tel0"
		[ "$2" = - ] || cp "$2" "$scratch/tel0"
		senv ABA_SCHEDSTAT="$scratch/sst0" ABA_TELEMETRY="$scratch/tel0" SFX_SCHED="$sfx/schedstat.1" SFX_TEL="$3" \
			"$1" -k 1 -s 1 -c K -S -o "$4" 2>/dev/null
	}
	# dom CSV LEVEL WHAT...: the level's metrics, in that order ('none' where absent)
	dom() {
		awk -F, -v l="$2" -v w="${*:3}" '$4 ~ "^dom_" l "_" { v[substr($4, length(l) + 6)] = $5 }
			END { n = split(w, m, " "); for (i = 1; i <= n; i++) printf "%s%s", (v[m[i]] == "" ? "none" : v[m[i]]), (i < n ? " " : "\n") }' "$1"
	}
	outcomes=(attempts balanced nobusyg nobusyq pinned failed pulls gained)
	classes "$top/bench/aba.sh" "$sfx/lab_newidle.0" "$sfx/lab_newidle.1" "$scratch/cls.csv"
	t_check "aba -S: mc's attempts by how they ended, over the CPUs" test "$(dom "$scratch/cls.csv" mc "${outcomes[@]}")" = "150 41 30 9 10 16 44 50"
	t_check "aba -S: the schedstats sysctl put back" test "$(cat "$scratch/ssst")" = 0
	t_check "aba -S: pkg's 30: 4 22 2 0 1 1" test "$(dom "$scratch/cls.csv" pkg "${outcomes[@]}")" = "30 4 22 2 0 1 1 1"
	# adds_up CSV: at every level, the classes add up to the attempts
	adds_up() {
		local l a b g q p f u
		for l in mc pkg; do
			read -r a b g q p f u _ < <(dom "$1" $l "${outcomes[@]}")
			[ "$a" = $((b + g + q + p + f + u)) ] || return 1
		done
	}
	t_check "aba -S: the classes add up to the attempts, at every level" adds_up "$scratch/cls.csv"
	t_check "aba -S: the telemetry's visits, those at 1024, the ratios" test "$(dom "$scratch/cls.csv" mc visits full ratio0 ratio1)" = "600 40 96.0 536.0"
	t_check "aba -S: the totals from the newly-idle columns, lb_gained of every kind, run_delay" \
		test "$(awk -F, '$4 ~ /^(ni_lb_count|ni_lb_gained|lb_gained|run_delay_ms)$/ { printf "%s ", $5 }' "$scratch/cls.csv")" = "180 51 71 3.000 "
	t_check "aba -S: counted_s, the seconds between the reads, is in the CSV" grep -qE '^futex,K,1,counted_s,[0-9]+\.[0-9]{2},1$' "$scratch/cls.csv"
	# the per-domain debugfs files (the series' newidle_ratio, v7.3's
	# max_newidle_lb_cost), the fake workload changing them as a run would;
	# sched/verbose switched on for the run and put back
	for c in 0 1; do
		put "$scratch/doms/cpu$c/domain0/name" MC
		echo $((100 + 100 * c)) >"$scratch/doms/cpu$c/domain0/newidle_ratio"
		echo 3000 >"$scratch/doms/cpu$c/domain0/max_newidle_lb_cost"
	done
	echo N >"$scratch/verbose"
	script "$scratch/dfake/futexbench" 'echo 50 >"$ABA_DOMAINS/cpu0/domain0/newidle_ratio"' \
		'echo 5000 >"$ABA_DOMAINS/cpu1/domain0/max_newidle_lb_cost"' 'cat "$ABA_VERBOSE" >"$ABA_DOMAINS/seen"' \
		'echo "threads=8 wake=4 seconds=1 completions_per_s=100.5"'
	senv PATH="$scratch/dfake:$PATH" ABA_SCHEDSTAT="$sfx/schedstat.0" ABA_TELEMETRY="$scratch/none" ABA_DOMAINS="$scratch/doms" \
		ABA_VERBOSE="$scratch/verbose" "$top/bench/aba.sh" -k 1 -s 1 -c K -S -o "$scratch/doms.csv" 2>/dev/null || true
	t_check "aba -S: without the telemetry, the ratios (150 > 125) and costs (3000 > 4000) from the domains' files" \
		test "$(dom "$scratch/doms.csv" mc ratio0 ratio1 cost0 cost1)" = "150.0 125.0 3000 4000"
	t_check "aba -S: sched/verbose on during the run, put back after it" test "$(cat "$scratch/doms/seen") $(cat "$scratch/verbose")" = "Y N"
	t_check "counters: the domains' ratio and balance cost (us), start>end" \
		eval 'grep -qE "^K +mc .*\| 150>125 +\| 3\.0>4\.0$" <<<"$("$top/bench/counters.py" "$scratch/doms.csv")"'
	# the same with a mutant that leaves the pinned attempts in balanced
	mkdir -p "$scratch/mut/bench" "$scratch/mut/lab/guest"
	cp "$top/lab/guest/sched.sh" "$scratch/mut/lab/guest/"
	sed 's/ - (((l in lv) \&\& !(l in nopin)) ? dpi\[l\] : 0)//' "$top/bench/aba.sh" >"$scratch/mut/bench/aba.sh"
	chmod +x "$scratch/mut/bench/aba.sh"
	classes "$scratch/mut/bench/aba.sh" "$sfx/lab_newidle.0" "$sfx/lab_newidle.1" "$scratch/mut.csv"
	t_check "negative control: an aba.sh that leaves pinned in balanced fails that check (mc balanced 51)" \
		eval '! cmp -s "$top/bench/aba.sh" "$scratch/mut/bench/aba.sh" &&
			test "$(dom "$scratch/mut.csv" mc "${outcomes[@]}")" = "150 51 30 9 10 16 44 50"'
	t_check "negative control: nor do its classes add up (the pinned ones counted twice)" not adds_up "$scratch/mut.csv"
	# a telemetry without the pinned field (a kernel built before it): no
	# pinned, and the all-pinned ones stay in balanced, as schedstat counts them
	for i in 0 1; do sed 's/ [0-9]*$//' "$sfx/lab_newidle.$i" >"$scratch/oldtel.$i"; done
	classes "$top/bench/aba.sh" "$scratch/oldtel.0" "$scratch/oldtel.1" "$scratch/old.csv"
	t_check "aba -S: a telemetry without pinned: balanced keeps them" test "$(dom "$scratch/old.csv" mc "${outcomes[@]}")" = "150 51 30 9 none 16 44 50"
	classes "$top/bench/aba.sh" - - "$scratch/notel.csv"
	t_check "aba -S: without the telemetry, the attempts from schedstat's lb_count, and no visits" \
		test "$(dom "$scratch/notel.csv" mc "${outcomes[@]}" visits)" = "150 51 30 9 none 16 44 50 none"
	# version 16 has no domain name and one lb_imbalance column per idle type
	# where 17 has four (Documentation/scheduler/sched-stats.rst)
	sed 's/^version 17$/version 16/' "$sfx/schedstat.0" >"$scratch/v16"
	t_check "aba -S: a schedstat of another version is refused, not misread" \
		refuses_with "reads schedstat version 17, $scratch/v16 is version 16" senv ABA_SCHEDSTAT="$scratch/v16" \
		ABA_TELEMETRY="$scratch/none" SFX_SCHED="$scratch/v16" "$top/bench/aba.sh" -k 1 -s 1 -c K -S -o "$scratch/v16.csv"

	# --- bench/counters.py: the table of tests/fixtures/counters (as CSV). Two runs
	# of v7.3 (10 s each) and of the gate (20 s each), means of the per-run
	# rates: v7.3 mc visits 1000 and 1200 -> 110.0/s, attempts 800 and 1000 ->
	# 90.0/s, pulls 300 and 400 -> 35.0/s; 90/110 = 0.818 attempts per visit,
	# 35/90 = 0.389 pulls per attempt; of the 55/s that pulled nothing,
	# balanced 10 (18.2 %), nobusyg 25 (45.5 %), nobusyq 5 (9.1 %), pinned 5
	# (9.1 %), failed 10 (18.2 %); ratio 962 > 850. The gate's mc: 110.0 11.0
	# 5.5, 0.100 0.500, of 5.5/s 1, 1.5, 0.5, 0.5, 2: 18.2 27.3 9.1 9.1 36.4;
	# its pkg, 100 visits in 20 s: 5.0/s (v7.3's 10.0 in 10 s: each run's own
	# length). The waker: 5 and 10 migrations per 1000 of 1000 and 1200
	# completions/s -> 5 and 12/s, 8.50; CPU 2.0 and 3.0 us -> 2.5000.
	cfx=$scratch/counters.csv
	awk -v OFS=, 'BEGIN { print "workload,condition,run,metric,value,boot"
			split("completions_per_s main_cpu_us_per_completion main_migrations_per_1k ni_lb_count counted_s", run)
			split("visits full attempts pinned ratio0 ratio1 nobusyg nobusyq balanced failed pulls gained", dom) }
		/^#/ { next } $3 ~ /^[a-z]/ { for (i = 4; i <= NF; i++) print "futex8", $1, 1, "dom_" $3 "_" dom[i - 3], $i, $2; next }
		{ for (i = 3; i <= NF; i++) print "futex8", $1, 1, run[i - 2], $i, $2 }' "$top/tests/fixtures/counters" >"$cfx"
	counters() { "$top/bench/counters.py" "$@"; }
	v73mc="v7.3 mc 110.0 90.0 35.0 0.818 0.389 | 18.2 45.5 9.1 9.1 18.2 | 962>850 | -"
	pkg="10.0 10.0 0.0 1.000 0.000 | 10.0 90.0 0.0 0.0 0.0 | 1024>1024 | -"
	counters "$cfx" >"$scratch/cnt.txt"
	t_check "counters: v7.3's mc, rates per second, ratios and the split of the attempts that pulled nothing" row "$scratch/cnt.txt" "$v73mc"
	t_check "counters: the gate's mc" row "$scratch/cnt.txt" "gate mc 110.0 11.0 5.5 0.100 0.500 | 18.2 27.3 9.1 9.1 36.4 | 150>80 | -"
	t_check "counters: the gate's pkg over its own 20 s (5.0/s; v7.3's 10.0 over 10 s)" \
		row "$scratch/cnt.txt" "gate pkg 5.0 5.0 0.0 1.000 0.000 | 10.0 90.0 0.0 0.0 0.0 | 1024>1024 | -" "v7.3 pkg $pkg"
	t_check "counters: the waker's completions, migrations per second and CPU time per completion" \
		row "$scratch/cnt.txt" "v7.3 1100.0 8.50 - - - 2.5000" "gate 2000.0 3.00 - - - 1.2500"
	t_check "counters: the header says the rates are per second of counted_s" \
		grep -qF 'futex8: newidle balance per level, the mean of 2 run(s) per condition; counts per second of a run (counted_s)' "$scratch/cnt.txt"
	grep -v ',counted_s,' "$cfx" >"$scratch/nolen.csv"
	counters "$scratch/nolen.csv" >"$scratch/nolen.txt"
	t_check "counters: without a run length, totals per run, and the header says so" \
		eval 'grep -q "TOTALS PER RUN: the run length is unknown" "$scratch/nolen.txt" &&
			row "$scratch/nolen.txt" "v7.3 mc 1100.0 900.0 350.0 0.818 0.389 | 18.2 45.5 9.1 9.1 18.2 | 962>850 | -"'
	counters "$scratch/nolen.csv" --seconds 10 >"$scratch/sec.txt"
	t_check "counters: --seconds N gives the rates where the runs have no counted_s" row "$scratch/sec.txt" "$v73mc" "gate pkg $pkg"
	# --brief: v7.3's mc lb_count 90.0/s, lb_failed (100 + 100) / 10 / 2 = 10.0/s,
	# lb_gained (32 + 41) / 2 = 36.5/s; the gate's 11.0, 2.0, (5.5 + 6.5) / 2 = 6.0
	counters "$cfx" --brief gate --label gate=series >"$scratch/brief.txt"
	t_check "counters --brief: per level lb_count, lb_failed, lb_gained a second, base and feature side by side, in 72 columns" \
		eval 'row "$scratch/brief.txt" "newidle balance, per second: v7.3 (base) and series" "futex8 mc 90.0 11.0 10.0 2.0 36.5 6.0" &&
			cols 72 "$scratch/brief.txt"'
	counters "$scratch/nolen.csv" --brief gate >"$scratch/brief-nolen.txt"
	t_check "counters --brief: without a run length, totals per run, said, still in 72 columns" \
		eval 'grep -q "^newidle balance, PER RUN (no run length): v7.3 (base) and gate\$" "$scratch/brief-nolen.txt" &&
			cols 72 "$scratch/brief-nolen.txt"'
	# the waker's migrations per 1000 rounds, v7.3's (5 + 10) / 2, the gate's (1 + 2) / 2, beside its failed ones
	{ cat "$cfx"; printf 'futex8,%s,1,main_failed_running_per_1k,%s\n' v7.3 3,1 gate 1,2; } >"$scratch/cwak.csv"
	t_check "counters --brief: the waker's migrations per 1000 rounds (7.50, 1.50) beside its failed ones, in 72 columns" \
		eval 'counters "$scratch/cwak.csv" --brief gate >"$scratch/brief-wak.txt" && row "$scratch/brief-wak.txt" "futex8 7.50 1.50 3.00 1.00 - -" &&
			cols 72 "$scratch/brief-wak.txt"'
	t_check "counters: --seconds nan is refused" refuses_with "--seconds takes a positive number" counters "$scratch/nolen.csv" --seconds nan
	grep -v -e '_visits,' -e '_full,' -e '_pinned,' -e '_ratio[01],' "$cfx" >"$scratch/cnotel.csv"
	counters "$scratch/cnotel.csv" >"$scratch/cnotel.txt"
	t_check "counters: a kernel without the telemetry: no visits, no pinned, said" \
		eval 'row "$scratch/cnotel.txt" "v7.3 mc - 90.0 35.0 - 0.389 | 20.0 50.0 10.0 - 20.0 | - | -" &&
			grep -q "its all-pinned attempts are in balanced" "$scratch/cnotel.txt"'
	# refused (exit 2), said: CSV|ITS STDERR SAYS|WHAT
	{ cat "$cfx"; echo "futex8,gate,1,dom_mc_visits,many,2"; } >"$scratch/badv.csv"
	printf '\377\376\n' >"$scratch/bin.csv"
	while IFS='|' read -r csv err what; do
		runrc "$scratch/cnt.err" counters "$scratch/$csv"
		t_check "counters: $what" eval 'test "$rc" = 2 && grep -qF -- "$err" "$scratch/cnt.err"'
	done <<-'EOF'
		missing.csv|is empty or missing|a missing CSV is exit 2, said
		noboot.csv|its header is not workload,condition,run,metric,value,boot|a CSV of another layout is exit 2, naming the layout
		badv.csv|line 118: not workload|a value that is not a number is exit 2, naming its line
		bin.csv|its header is not|a file that is not text is exit 2, said
	EOF
	sed '19s/,1000,1$/,nan,1/' "$cfx" >"$scratch/cnan.csv"
	runrc "$scratch/cnan.txt" counters "$scratch/cnan.csv"
	t_check "counters: a nan value is skipped, said ($rc; v7.3's mc visits from the other run, 1200 in 10 s)" \
		eval 'test "$rc" = 0 && grep -q "line 19: value nan skipped" "$scratch/cnan.txt" &&
			row "$scratch/cnan.txt" "v7.3 mc 120.0 90.0 35.0 0.750 0.389 | 18.2 45.5 9.1 9.1 18.2 | 962>850 | -"'

	# --- bench/kernels.py: runs of two kernels, one table. Kernel k1 (v7.3: norandom
	# only) boots with the dice, A+A2 = 100 102 101 104 106 105 (mean 103, CV 2.30 %);
	# k2 has the gate comparison, whose B (NO_NI_DICE: 110 114 111) is how it boots: the
	# B of the worked example above, +8.41 % [+4.48, +12.35], 1.08, CV 1.86 %. k1's
	# own NO_NI_RANDOM (B = 110 114 111) against its dice: the same figures. k2's
	# norandom holds a lower A and A2 (99 99 | 100 101, 99.75) than its gate's B: it must
	# not be taken as k2's default; its B (120 121) against them: 1.21, +20.80 %.
	kdir() { # DIR KERNEL WORKLOAD-COMPARISON:A:B:A2...
		mkdir -p "$scratch/$1"
		printf 'Machine: stand-in, 4 CPUs; kernel %s; features: NI_RANDOM\nRuns: per comparison 3 rounds of A B A2, %s s each\n' \
			"$2" "${KDIR_SECS:-10}" >"$scratch/$1/report.txt"
		: >"$scratch/$1/runs.txt"
		local r wc a b a2
		for r in "${@:3}"; do
			IFS=: read -r wc a b a2 <<<"$r"
			echo "${wc%-*} ${wc#*-} X A|B" >>"$scratch/$1/runs.txt"
			{ echo "workload,condition,run,metric,value,boot"
				for c in A:"$a" B:"$b" A2:"$a2"; do for v in ${c#*:}; do echo "${wc%-*},${c%%:*},1,completions_per_s,$v,1"; done; done; } >"$scratch/$1/$wc.csv"
		done
	}
	kdir k1 7.3.4-newidle-base-gabc "futex-norandom:100 102 101:110 114 111:104 106 105"
	kdir k2 7.3.4-newidle-gate-gdef "futex-norandom:99 99:120 121:100 101" "futex-gate:100 100:110 114 111:100"
	kernels() { "$top/bench/kernels.py" "$@"; }
	runrc "$scratch/kern.txt" kernels "$scratch/k1" "$scratch/k2"
	t_check "kernels: each as it boots against the first, the gate's B (NO_NI_DICE) where it has one ($rc)" \
		eval 'test "$rc" = 0 && row "$scratch/kern.txt" "workload metric base gate" "futex compl/s 1.00 [ +0.0]( 2.3) 1.08 [ +8.4]( 1.9)*"'
	cp -r "$scratch/k2" "$scratch/k2n"
	sed -i '/ gate /d' "$scratch/k2n/runs.txt"
	runrc "$scratch/kern-n.txt" kernels "$scratch/k1" "$scratch/k2n"
	t_check "negative control: k2 as if it had no gate comparison (its dice, 0.97) fails that check" \
		eval 'test "$rc" = 0 && not row "$scratch/kern-n.txt" "futex compl/s 1.00 [ +0.0]( 2.3) 1.08 [ +8.4]( 1.9)*"'
	t_check "kernels: NO_NI_RANDOM against each kernel's own dice" \
		eval 'sed -n "/^NO_NI_RANDOM against/,\$p" "$scratch/kern.txt" >"$scratch/kern2.txt" &&
			row "$scratch/kern2.txt" "futex compl/s 1.08 [ +8.4]( 1.9)* 1.21 [+20.8]( 0.6)*"'
	# a kernel that ran more workloads (the experiment's 9 against step one's 4): those left out, said within 80 columns
	for w in sembench8 msg tbench1 tbench8 tbench16 hackbench; do
		sed "s/^futex,/$w,/" "$scratch/k2/futex-gate.csv" >"$scratch/k2/$w-gate.csv"
		echo "$w gate X A|B" >>"$scratch/k2/runs.txt"
	done
	cp -r "$scratch/k2" "$scratch/k2x"
	runrc "$scratch/kern3.txt" kernels v7.3="$scratch/k1" series="$scratch/k2" exp="$scratch/k2x"
	t_check "kernels: the workloads not on every kernel are named ($rc)" \
		eval 'test "$rc" = 0 && tr -s " \n" " " <"$scratch/kern3.txt" >"$scratch/kern3.flat" &&
			grep -q "(not on every kernel, left out: hackbench completions_per_s, msg completions_per_s, sembench8 " "$scratch/kern3.flat"'
	t_check "kernels: three columns named NAME=OUTDIR, in at most 80 columns" \
		eval 'row "$scratch/kern3.txt" "workload metric v7.3 series exp" && cols 80 "$scratch/kern3.txt"'
	KDIR_SECS=20 kdir k20 7.3.4-newidle-gate-gdef "futex-norandom:99 99:120 121:100 101"
	mkdir -p "$scratch/k3"
	cp -r "$scratch/k1" "$scratch/k1x"
	cp "$scratch/k1/report.txt" "$scratch/k1/runs.txt" "$scratch/k3/"
	refusals refuses_with kernels <<-EOF
		kernels: one directory is refused, said|give two or three run directories|"$scratch/k1"
		kernels: four directories is refused, said|give two or three run directories|"$scratch/k1" a="$scratch/k2" b="$scratch/k2" c="$scratch/k2"
		kernels: a directory of no run is refused, said|$scratch/k1/nonexistent holds no bench/bare-metal.sh run|"$scratch/k1" "$scratch/k1/nonexistent"
		kernels: two kernels of one name, unnamed is refused, said|two columns have the same name (base, base)|"$scratch/k1" "$scratch/k1x"
		kernels: the same run twice, named is refused, said|one run given twice|a="$scratch/k1" b="$scratch/k1/"
		kernels: a run without its CSV is refused, said|stats: $scratch/k3/futex-norandom.csv is empty or missing|"$scratch/k1" "$scratch/k3"
		kernels: runs of 10 s and of 20 s (tbench's MB/s halves) is refused, said|runs are of different run lengths (base: 10 s runs; gate: 20 s runs)|"$scratch/k1" "$scratch/k20"
	EOF
	runrc "$scratch/kern-h.txt" kernels --help
	t_check "kernels: --help is the usage, exit 0" eval 'test "$rc" = 0 && grep -q "^Usage: bench/kernels.py " "$scratch/kern-h.txt"'

	# --- make bench-kernels' plan: rounds of every kernel, drawn from the seed
	# plan SEED NAME BOOTS [WHAT [BENCH]]: bench.sh's (or BENCH's) plan of WHAT (kernels) in $scratch/NAME
	plan() { BENCH_SEED=$1 BENCH_PLAN_ONLY=1 BENCH_OUT=$scratch/$2 BENCH_BOOTS=$3 "${5:-$top/bench/bench.sh}" "${4:-kernels}"; }
	for s in 1:42 2:42 3:43; do plan "${s#*:}" plan 3 >"$scratch/p${s%:*}.txt" 2>/dev/null; done
	nk=$(grep -c '^[^#]' "$top/lab/data/bench-kernels")
	t_check "plan: three rounds of the $nk kernels of lab/data/bench-kernels" test "$(wc -l <"$scratch/p1.txt")" = $((3 * nk))
	t_check "plan: each round boots each kernel once" \
		test "$(awk -v n="$nk" '{ r = int(($1 - 1) / n); print r, $2 }' "$scratch/p1.txt" | sort -u | wc -l)" = $((3 * nk))
	t_check "plan: the same seed gives the same boots" cmp -s "$scratch/p1.txt" "$scratch/p2.txt"
	t_check "negative control: another seed gives another order" not cmp -s "$scratch/p1.txt" "$scratch/p3.txt"
	t_check "plan: v7.3, v7.3 + the off-by-one fix, the series and the experiment kernel from their bench kernels" \
		has "$scratch/p1.txt" " v7.3 bench-baseline$" " fix1 bench-dicefix$" " gate bench-patched$" " dice bench-experiment$"
	g=$(ls -d "$scratch"/plan/*-kernels | sed -n 1p)
	t_check "plan: the boots differ in their delay and the workers' first CPU" test "$(grep -h '^delay_us=' "$g"/guest-*.sh | sort -u | wc -l)" -gt 1
	# guest_of LABEL: the guest script of the first boot of LABEL in p1.txt
	guest_of() { echo "$g/guest-$(awk -v l="$1" '$2 == l { print $1; exit }' "$scratch/p1.txt").sh"; }
	t_check "plan: the dice is the experiment kernel with NI_DICE, the control the series with NO_NI_RANDOM" \
		eval 'grep -qx "features=\"NO_NI_RATE NI_DICE\"	# BENCH-PARAM" "$(guest_of dice)" &&
			grep -qx "features=\"NO_NI_RATE NO_NI_RANDOM\"	# BENCH-PARAM" "$(guest_of norandom)"'
	BENCH_PRESET=ni20 plan 42 plan20 1 >/dev/null 2>&1
	s20=$(ls "$scratch"/plan20/*/settings.txt)
	t_check "plan: BENCH_PRESET=ni20 is the preset planned and recorded (settings.txt: ni20, 20 vCPUs)" has -x "$s20" BENCH_PRESET=ni20 LAB_CPUS=20 BENCH_THREADS=2
	t_check "negative control: the default plan records ni4 and 4 vCPUs" has -x "$g/settings.txt" BENCH_PRESET=ni4 LAB_CPUS=4
	BENCH_PLANT_KERNEL=gate BENCH_PLANT='cat /sys/kernel/debug/sched/domains/cpu0/domain0/newidle_ratio' runrc "$scratch/plant.txt" plan 42 plant 1
	t_check "negative control: a kernel that reads more between its runs is refused before any boot ($rc)" \
		eval 'test "$rc" != 0 && grep -q "does other work around its runs" "$scratch/plant.txt"'
	t_check "negative control: and the refusal shows the extra work" grep -q 'newidle_ratio' "$scratch/plant.txt"
	# --- make compare: two stored runs by name. Run B is run A (the kernels
	# fixture above) with the gate 10 higher on every boot, 120 124 121
	# against 110 114 111: Welch over the boot means, variances 4.3333 each,
	# se 1.6997, df 4, t(0.975, 4) = 2.7764: +10 +- 4.7191 of 111.67, +8.96 %
	# [+4.73 %, +13.18 %]; v7.3 and norandom unchanged, +0.00 %.
	for r in ra rb rc; do mkdir -p "$scratch/runs/$r" && cp "$g/settings.txt" "$scratch/runs/$r/"; done
	cp "$scratch/k.csv" "$scratch/runs/ra/aba.csv"
	awk -F, -v OFS=, '$2 == "gate" && $4 == "completions_per_s" { $5 += 10 } 1' "$scratch/k.csv" >"$scratch/runs/rb/aba.csv"
	cp "$scratch/runs/rb/aba.csv" "$scratch/runs/rc/aba.csv"
	sed -i 's/^BENCH_SECONDS=.*/BENCH_SECONDS=3/; s/^LAB_ICOUNT_SHIFT=.*/LAB_ICOUNT_SHIFT=4/' "$scratch/runs/rc/settings.txt"
	compare() { env BENCH_OUT="$scratch/runs" "$top/bench/bench.sh" compare "$@"; }
	runrc "$scratch/cmp.txt" compare ra rb
	t_check "compare: two stored runs by name, each kernel of B against A's ($rc)" \
		eval 'test "$rc" = 0 && grep -qF "B: gate vs A: gate: +8.96% [+4.73%, +13.18%] better (Welch over boot means, 3 and 3)" "$scratch/cmp.txt"'
	t_check "compare: a kernel unchanged is within noise" grep -qF "B: v7.3 vs A: v7.3: +0.00% [-2.96%, +2.96%] within noise" "$scratch/cmp.txt"
	t_check "compare: make compare A=RUN B=RUN is bench.sh's compare" test "$(make -s -C "$top" -n compare A=ra B=rb)" = 'bench/bench.sh compare "ra" "rb"'
	runrc "$scratch/cmp2.txt" compare ra rc
	t_check "negative control: runs of another run length and icount shift are refused (exit 7, $rc)" test "$rc" = 7
	t_check "negative control: naming the settings that differ" \
		grep -qF "LAB_ICOUNT_SHIFT '3' against '4', BENCH_SECONDS '2' against '3'; not compared" "$scratch/cmp2.txt"
	t_check "negative control: a run that is not stored is refused, named" refuses_with "no stored run $scratch/runs/nosuch" compare ra nosuch
	# make bench's plan: the same runner and layout, features A/B/A on each boot
	plan 42 planf 2 features >"$scratch/pf.txt" 2>/dev/null
	gf=$(ls -d "$scratch"/planf/*-features)
	t_check "plan: make bench boots BENCH_VARIANT BENCH_BOOTS times, in the same layout" \
		eval 'test "$(paste -sd" " "$scratch/pf.txt")" = "1 features bench-patched 2 features bench-patched" &&
			test -s "$gf/settings.txt" && test -s "$gf/guest-2.sh"'
	t_check "plan: each of its boots runs A/B/A of BENCH_PAIRS (NI_RANDOM), in the boot's CSV column" \
		eval 'grep -q "aba.sh .* -b \"\$boot\" .* -f NI_RANDOM " "$gf/guest-1.sh" &&
			grep -qx "boot=2	# BENCH-PARAM" "$gf/guest-2.sh"'
	# a kernel added is a line of lab/data/bench-kernels (a copy of the lab)
	mkdir -p "$scratch/tree"
	cp -r "$top/lab" "$top/bench" "$scratch/tree/"
	echo "rate       bench-patched  patched  NI_RATE       gate          the series, NI_RATE on" >>"$scratch/tree/lab/data/bench-kernels"
	BENCH_KERNELS="gate rate" plan 42 planr 1 kernels "$scratch/tree/bench/bench.sh" >"$scratch/pr.txt" 2>/dev/null
	t_check "plan: a kernel added as one line of lab/data/bench-kernels is booted with its features" \
		eval 'grep -q " rate bench-patched$" "$scratch/pr.txt" &&
			grep -qx "features=\"NO_NI_RATE NI_RATE\"	# BENCH-PARAM" "$(ls "$scratch"/planr/*/guest-*.sh | xargs grep -l "^label=rate")"'
	t_check "negative control: a kernel the table does not have is refused, naming those it has" \
		refuses_with "unknown bench kernel 'nosuch' (lab/data/bench-kernels: v7.3 fix1 gate norandom dice found)" \
		env BENCH_KERNELS="gate nosuch" BENCH_PLAN_ONLY=1 BENCH_OUT="$scratch/planx" "$top/bench/bench.sh" kernels
	# --- bench/collect.sh: the measurements in a benchmark console
	printf 'LAB-BEGIN x\nBENCH-CSV-BEGIN futex\nfutex,A,1,completions_per_s,1.5,3\nBENCH-CSV-END futex\nBENCH-CSV-BEGIN futex NI_DICE\nfutex,B,1,completions_per_s,2.5,3\nBENCH-CSV-END futex\nLAB-RESULT rc=0\n' >"$scratch/good.txt"
	t_check "collect: the rows of a console, a features block's conditions tagged with its feature" \
		test "$("$top/bench/collect.sh" "$scratch/good.txt" | paste -sd' ')" = "futex,A,1,completions_per_s,1.5,3 futex,NI_DICE:B,1,completions_per_s,2.5,3"
	printf 'LAB-BEGIN x\nBENCH-CSV-BEGIN futex\nBENCH-CSV-END futex\nLAB-RESULT rc=0\n' >"$scratch/empty.txt"
	t_check "collect: a console without measurements is an error, said" refuses_with "no measurements in" "$top/bench/collect.sh" "$scratch/empty.txt"
	printf 'LAB-BEGIN x\naba: run 1, condition A: futex failed (exit 3)\nBENCH-FAILED futex\nLAB-RESULT rc=0\n' >"$scratch/failed.txt"
	t_check "collect: a workload failed in the guest is an error, shown" refuses_with "futex failed (exit 3)" "$top/bench/collect.sh" "$scratch/failed.txt"
}

bare_metal_checks() {
	# --- bench/msgbench.c: built as bare-metal.sh builds it, 1 s of 2
	# message threads of 2 workers each
	"$top/bench/build-futexbench.sh" "$scratch/mb/msgbench"
	"$scratch/mb/msgbench" -m 2 -t 2 -r 1 >"$scratch/mb.out"
	mb() { sed -n "s/.*\\<$1=\\([0-9.]*\\).*/\\1/p" "$scratch/mb.out"; }
	gt0() { /usr/bin/python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > 0)' "${1:-0}"; }
	t_check "msgbench: 1 s of -m 2 -t 2 completes requests (rps $(mb rps))" gt0 "$(mb rps)"
	t_check "msgbench: its wakeup latencies, p50 $(mb lat_p50_us) <= p99 $(mb lat_p99_us) us, both over 0" \
		eval 'gt0 "$(mb lat_p50_us)" && gt0 "$(mb lat_p99_us)" &&
			/usr/bin/python3 -c "import sys; sys.exit(float(sys.argv[1]) > float(sys.argv[2]))" "$(mb lat_p50_us)" "$(mb lat_p99_us)"'
	t_check "msgbench: the message threads' CPU time ($(mb msg_cpu_s) s)" gt0 "$(mb msg_cpu_s)"
	t_check "msgbench: a count of 0 is refused, naming the option" refuses_with "-m takes a number from 1" "$scratch/mb/msgbench" -m 0
	t_check "msgbench: a count that is not a number is refused" refuses_with "-t takes a number from 1 to 4096, not 'x'" "$scratch/mb/msgbench" -t x
	t_check "msgbench: a run of 0 s is refused" refuses_with "-r takes a number from 1" "$scratch/mb/msgbench" -r 0
	t_check "msgbench: a stray argument is refused" refuses_with "unexpected argument '5'" "$scratch/mb/msgbench" -r 1 5
	t_check "msgbench: more than 16384 workers are refused" refuses_with "more than 16384 workers" "$scratch/mb/msgbench" -m 8 -t 4096

	# --- bench/bare-metal.sh's whole matrix on the host: a copy of the tree
	# (bench/counters.py there or not, as the test says), stand-ins on PATH
	# for sembench, tbench, tbench_srv, hackbench and schbench (the real
	# msgbench, built by the script), the kernel's files stood in for. Each
	# stand-in logs the features as it finds them, and its arguments.
	mkdir -p "$scratch/bmt" "$scratch/sb" "$scratch/sbx"
	cp -r "$top/bench" "$top/lab" "$scratch/bmt/"
	git -C "$scratch/bmt" init -q && git -C "$scratch/bmt" -c user.name=t -c user.email=t@t commit -q --allow-empty -m t
	script "$scratch/bmt/bench/counters.py" 'case "$*" in *--brief*) exit 0 ;; esac' 'echo "COUNTERS of $(basename "$1")"'
	# standin DIR NAME OUTPUT: a stand-in that logs "NAME features... | args", prints OUTPUT;
	# it lasts 20 ms, two ticks of /proc/uptime, so that a run's counted_s is never 0
	# (counters.py's rates per second, not totals per run, on every run of the test)
	standin() {
		cat >"$scratch/$1/$2" <<SB
#!/bin/sh
echo "$2 \$(SCHED_FEATURES=\$ABA_FEATURES sh -c '. "$top/lab/guest/sched.sh"; feats') | \$*" >>"$scratch/sb.log"
n=\$(( \$(cat "$scratch/sb.count" 2>/dev/null || echo 0) + 1 )); echo \$n >"$scratch/sb.count"
[ "\$n" != "\${SB_CRASH_AT:-0}" ] || exit 3
[ "\$n" -lt "\${SB_HANG_FROM:-999999}" ] || { awk '{ print \$5 }' /proc/\$\$/stat >"$scratch/sb.pg"; mv "$scratch/sb.pg" "$scratch/sb.hung"; sleep 60; }
sleep 0.02
$3
SB
		chmod +x "$scratch/$1/$2"
	}
	# sembench: 1 s of the clock aba.sh reads (ABA_UPTIME), moved on
	standin sb sembench 'awk "{ print \$1 + 1 }" "$ABA_UPTIME" >"$ABA_UPTIME.n" && mv "$ABA_UPTIME.n" "$ABA_UPTIME"
echo "main thread burns: 2000"; echo "worker burn count total ${SB_BURNS:-12345} min 1 max 1 avg 1"; echo "run time 1 seconds 12345 worker burns per second"'
	standin sb tbench 'echo "Throughput $(($3 * 10)) MB/sec  $3 clients  $3 procs  max_latency=1.000 ms"'
	standin sb hackbench 'echo "Time: 0.250"'
	standin sb futexbench 'echo "threads=8 wake=4 seconds=1 completions_per_s=200.5"; echo "interval t_ms=250 completions=50"'
	# schbench only where SCHBENCH says, not on PATH: bare-metal.sh copies it
	standin sbx schbench 'echo "Wakeup Latencies percentiles (usec) runtime 1 (s) (10 total samples)"; echo "average rps: 1000.5"'
	script "$scratch/sb/tbench_srv" 'exec sleep 1000'
	# the machine's CPUs: 4 (schbench's least), or SB_NPROC
	script "$scratch/sb/nproc" 'echo "${SB_NPROC:-4}"'
	echo "load" >"$scratch/client.txt"
	echo "   1: 00000000:1B5B 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0" >"$scratch/tcp"
	printf 'version 17\ncpu0 0 0 0 0 0 0 5000000 1000000 0\ndomain0 MC 3 %s\n' "$(seq -s ' ' 1 33 | sed 's/[0-9]*/0/g')" >"$scratch/bm-schedstat"
	echo 0 >"$scratch/bm-sst" && echo "100.00 0" >"$scratch/bm-uptime"
	echo "[none] integrity confidentiality" >"$scratch/lockdown"
	# bmenv [SETTING=VALUE...] COMMAND...: COMMAND with the stand-ins of the
	# kernel's files and of the programs
	bmenv() {
		env -u COMPARISONS -u WORKLOADS -u CANDIDATES PATH="$scratch/sb:$PATH" ABA_FEATURES="$scratch/bm-features" \
			ABA_TELEMETRY="$scratch/none" ABA_SCHEDSTAT="$scratch/bm-schedstat" ABA_SCHEDSTATS_SYSCTL="$scratch/bm-sst" ABA_UPTIME="$scratch/bm-uptime" \
			ABA_TBENCH_LOADFILE="$scratch/client.txt" ABA_NET_TCP="$scratch/tcp" ABA_LOCKDOWN="$scratch/lockdown" ABA_LOCK="$scratch/bm.lock" SEMBENCH="$scratch/sb/sembench" SCHBENCH="$scratch/sbx/schbench" \
			RUNS=2 SECONDS_PER_RUN=1 BENCH_CV_MAX=0 "$@"
	}
	bmsh=$scratch/bmt/bench/bare-metal.sh
	# bm FEATURES OUT [SETTING=VALUE...] [COMMAND]: bare-metal.sh of the copy
	# (run by COMMAND, as setsid) against a features stand-in holding
	# FEATURES, the options of BM_OPT after OUT; its output in OUT.txt (bo), its exit in rc
	bm() {
		local feats=$1 o=$2
		shift 2
		echo "$feats" >"$scratch/bm-features"
		rm -f "$scratch/sb.log" "$scratch/sb.count"
		rc=0 bo=$o.txt
		bmenv BM_OPT= "$@" sh -c 'exec "$0" "$1" $BM_OPT' "$bmsh" "$o" >"$bo" 2>&1 || rc=$?
	}
	# said RC RE [NOT]: the last bm (or runrc into bo) exited RC, a line of its output
	# matching RE (grep's), none NOT
	said() { test "$rc" = "$1" && grep -q -- "$2" "$bo" && { [ -z "${3:-}" ] || ! grep -q -- "$3" "$bo"; }; }
	v73="NI_RANDOM NI_RATE"
	bstate() { SCHED_FEATURES="$scratch/bm-features" sh -c '. "$1"; feats' sh "$top/lab/guest/sched.sh"; }
	# the matrix starts with every feature the other way from its bases, so
	# that each base is seen to be set
	patched="NI_RANDOM NI_RATE NO_NI_DICE NO_NI_FOUND" other="NO_NI_RANDOM NI_RATE NO_NI_DICE NI_FOUND"
	bm "$other" "$scratch/bmm"
	mrc=$rc
	mv "$scratch/sb.log" "$scratch/sb-main.log" 2>/dev/null || : >"$scratch/sb-main.log"
	# and NI_FOUND first, then gate: NI_FOUND's NI_DICE, and gate's NO_NI_FOUND after it;
	# futex8 beside sembench815
	bm "$other" "$scratch/bmc" WORKLOADS="sembench815 futex8" COMPARISONS="NI_FOUND gate"
	cat "$scratch/sb-main.log" "$scratch/sb.log" >"$scratch/sb-both.log" 2>/dev/null || true
	# --runs-only (the lab's guest, no scipy) then --report (the host): the
	# same tables as one run; a directory of no such run is refused
	bm "$other" "$scratch/bmr" WORKLOADS=hackbench COMPARISONS="norandom gate" BM_OPT=--runs-only
	t_check "bare-metal OUTDIR --runs-only (an option after OUTDIR): the runs and their CSVs, no tables ($rc)" \
		eval 'test "$rc" = 0 && test -s "$scratch/bmr/hackbench-gate.csv" && ! grep -q "A/B/A of" "$scratch/bmr/report.txt"'
	runrc "$scratch/bmr-report.txt" "$bmsh" --report "$scratch/bmr"
	t_check "bare-metal --report: then the tables of both comparisons, with the counters ($rc)" \
		eval 'test "$rc" = 0 && grep -q "^hackbench, norandom: A/B/A of NI_RANDOM" "$scratch/bmr/report.txt" &&
			grep -q "^hackbench, gate: A/B/A of NI_DICE" "$scratch/bmr/report.txt" &&
			test "$(grep -c "^COUNTERS of " "$scratch/bmr/report.txt")" = 2'
	t_check "bare-metal --report: twice is refused" refuses_with "has its report already" "$bmsh" --report "$scratch/bmr"
	t_check "bare-metal --report: a directory of no run is refused" refuses_with "holds no --runs-only run" "$bmsh" --report "$scratch"
	r=$scratch/bmm/report.txt
	t_check "bare-metal: the whole matrix runs on stand-ins ($mrc)" test "$mrc" = 0
	[ "$mrc" = 0 ] || tail -20 "$scratch/bmm.txt" | sed 's/^/# /'
	missing=""
	for wl in msg tbench1 hackbench; do
		for c in norandom gate NI_FOUND; do
			grep -q "^$wl, $c: A/B/A of " "$r" 2>/dev/null && grep -q "^  B  NO_NI_[A-Z]* (.*) vs A  .*\\[.*\\]" "$r" &&
				test -s "$scratch/bmm/$wl-$c.csv" || missing="$missing $wl-$c"
		done
	done
	t_check "bare-metal: the report has each of the 9 workloads (schbench with SCHBENCH) x 3 comparisons${missing:+ (missing:$missing)}" test -z "$missing"
	t_check "bare-metal: the report starts with the machine, its CPUs, the kernel and its features" \
		grep -q "^Machine: .*, [0-9]* CPUs; kernel .*; features: $other$" <<<"$(sed -n 1p "$r")"
	t_check "bare-metal: each table has its delta and 95% interval, B against A and A2" \
		test "$(grep -c '^  B  NO_NI_[A-Z]* (.*) vs A  .* + A2 .* again: [-+][0-9.]*% \[[-+][0-9.]*%, [-+][0-9.]*%\]' "$r")" -ge 27
	t_check "bare-metal: bench/counters.py's table after each of the 27" test "$(grep -c '^COUNTERS of .*-.*\.csv$' "$r")" = 27
	# step two's summary (bench/counters.py a stub here: its tables are checked on step one's runs)
	sed -n '/^Summary: /,$p' "$r" >"$scratch/bmm-sum.txt"
	t_check "bare-metal: step two's summary, the 3 comparisons' 9 rows, their legend once: $(wc -l <"$scratch/bmm-sum.txt") lines in 80 columns" \
		eval 'test "$(grep -c "^[a-z0-9]* *[a-z/]* *[0-9.]* (....)[! ] .* \[.*,.*\]" "$scratch/bmm-sum.txt")" = 27 &&
			test "$(grep -c "^  feature: its mean over " "$scratch/bmm-sum.txt")" = 1 && test "$(wc -l <"$scratch/bmm-sum.txt")" -le 42 &&
			! grep -q ".\{81\}" "$scratch/bmm-sum.txt"'
	t_check "bare-metal: msg is the real msgbench, rps over 0" \
		eval 'awk -F, "\$4 == \"rps\" && \$5 > 0 { n++ } END { exit n != 6 }" "$scratch/bmm/msg-gate.csv"'
	T=2
	t_check "bare-metal: schbench is Chris Mason's command, -t 2 x 4 CPUs / 4 = $T, -r SECONDS, its rps parsed" \
		eval 'grep -q "^schbench .* | -L -m 4 -M auto -t $T -n 0 -r 1 -s 0$" "$scratch/sb-main.log" &&
			grep -q "^schbench,B,2,rps,1000.5,1$" "$scratch/bmm/schbench-NI_FOUND.csv"'
	t_check "bare-metal: tbench1, 8, 16 and 32 run at those client counts" \
		test "$(for n in 1 8 16 32; do grep -c "^tbench$n,A,1,mb_per_s,$((n * 10)),1$" "$scratch/bmm/tbench$n-gate.csv" 2>/dev/null || true; done | paste -sd' ')" = "1 1 1 1"
	t_check "bare-metal: one warm-up round per workload, under its first comparison" test "$(grep -c '^hackbench ' "$scratch/sb-main.log")" = $(( (1 + 3 * 2) * 3 ))
	# the base of each comparison, as the workloads found it (the log's lines: "WORKLOAD FEATURES... | ARGUMENTS"):
	# ran_with PATTERN FORM: the lines with PATTERN are all of FORM
	ran_with() { grep -q -- "$1" "$scratch/sb-both.log" && test -z "$(grep -- "$1" "$scratch/sb-both.log" | grep -v -- "$2")"; }
	t_check "bare-metal: norandom's B (NO_NI_RANDOM) ran with NI_DICE and NO_NI_FOUND" ran_with " NO_NI_RANDOM " " NI_DICE NO_NI_FOUND |"
	t_check "bare-metal: gate's B (NO_NI_DICE) ran with NI_RANDOM and NO_NI_FOUND" ran_with " NO_NI_DICE " "^[a-z0-9]* NI_RANDOM NI_RATE NO_NI_DICE NO_NI_FOUND |"
	t_check "bare-metal: NI_FOUND's A ran with NI_RANDOM and NI_DICE" ran_with " NI_FOUND |" "^[a-z0-9]* NI_RANDOM NI_RATE NI_DICE NI_FOUND |"
	t_check "bare-metal: every feature it set put back as it was ($(bstate))" test "$(bstate)" = "$other"
	t_check "bare-metal: futex8 measured beside sembench815" grep -q '^futex8,B,1,completions_per_s,200.5' "$scratch/bmc/futex8-gate.csv"
	t_check "bare-metal: the report names the binary, with its sha256, and both workloads" \
		has "$scratch/bmc/report.txt" "sembench: the tester.s binary, $scratch/sb/sembench, sha256 $(sha256sum "$scratch/sb/sembench" | cut -d' ' -f1)$" \
		"sembench815, gate: A/B/A of NI_DICE" "futex8, gate: A/B/A of NI_DICE"
	t_check "bare-metal: a counter at 0 in the baselines gets no delta, the report goes on" \
		has "$scratch/bmc/report.txt" "ni_lb_count (explains" "A2 NI_DICE (the dice) again: baseline 0$"

	# v7.3: neither NI_DICE nor NI_FOUND; bench/counters.py not there
	rm "$scratch/bmt/bench/counters.py"
	bm "$v73" "$scratch/bmv" WORKLOADS=hackbench
	v=$scratch/bmv/report.txt
	t_check "bare-metal: on v7.3 the comparisons it lacks are skipped, said, and without bench/counters.py ($rc)" \
		eval 'test "$rc" = 0 && has -x "$v" "(the kernel has no NI_DICE: comparison gate skipped)" "(the kernel has no NI_FOUND: comparison NI_FOUND skipped)"'
	t_check "bare-metal: and norandom alone ran" \
		eval 'grep -q "^hackbench, norandom: " "$v" && ! grep -q "^hackbench, \(gate\|NI_FOUND\): " "$v" && ! grep -q COUNTERS "$v"'
	# step one: v7.3, no COMPARISONS or WORKLOADS asked: norandom on sembench815,
	# sembench8, tbench32 and schbench, its time said first. The waker's /proc/PID/sched
	# is tests/fixtures/proc-sched: 40 migrations, 10, 4 and 2 failed (running, hot,
	# affine), 5 ms of CPU over the stand-in's 2000 wake rounds of 1 s: 40.00, 10.00,
	# 4.00 and 2.00 a second, 2.5 us a round
	cp "$top/bench/counters.py" "$scratch/bmt/bench/"
	bm "$v73" "$scratch/bs1" ABA_WAKER_SCHED="$top/tests/fixtures/proc-sched"
	t_check "step one: the default on a kernel without NI_DICE, its time said before it starts ($rc)" \
		test "$rc $(sed -n 1p "$scratch/bs1.txt")" = "0 bare-metal: step one (the kernel has no NI_DICE): norandom on sembench815 sembench8 tbench32 schbench: about 2 minutes (36 runs of 1 s: 4 workloads x (1 warm-up + 1 comparison x 2 rounds) x A B A2)"
	t_check "step one: a norandom table for each of the 4 workloads, nothing else" \
		test "$(sed -n 's/^\([a-z0-9]*, [a-zA-Z_]*\): A\/B\/A of .*/\1/p' "$scratch/bs1/report.txt" | paste -sd' ')" = \
		"sembench815, norandom sembench8, norandom tbench32, norandom schbench, norandom"
	"$top/bench/counters.py" "$scratch/bs1/sembench815-norandom.csv" >"$scratch/bs1-cnt.txt"
	t_check "step one: the counters' second table, the waker's from its /proc/PID/sched, per condition" \
		row "$scratch/bs1-cnt.txt" "A 2000.0 40.00 10.00 4.00 2.00 2.5000" "B 2000.0 40.00 10.00 4.00 2.00 2.5000"
	t_check "step one: and the first, per level the newidle attempts by how they ended" grep -q '^A  *mc  *- ' "$scratch/bs1-cnt.txt"
	# the summary at the end of the report and of stdout: in 80 columns, about 40 lines
	sed -n '/^Summary: /,$p' "$scratch/bs1/report.txt" >"$scratch/bs1-sum.txt"
	t_check "step one: the summary ends report.txt and stdout, $(wc -l <"$scratch/bs1-sum.txt") lines of at most 80 columns" \
		eval 'test "$(wc -l <"$scratch/bs1-sum.txt")" -le 45 && cols 80 "$scratch/bs1-sum.txt" &&
			test "$(tail -n 1 "$scratch/bs1/report.txt")" = "$(grep -v "^bare-metal: " "$scratch/bs1.txt" | tail -n 1)"'
	t_check "step one: its rows, NO_NI_RANDOM against the dice, and the waker's failed running and hot per 1000 rounds" \
		row "$scratch/bs1-sum.txt" "norandom: NO_NI_RANDOM (every visit) against NI_RANDOM (the dice)" \
		"sembench815 burns/s 12345 ( 0.0) 1.00 [ +0.00]( 0.0) [ +0.0, +0.0]" "schbench rps 1000 ( 0.0) 1.00 [ +0.00]( 0.0) [ +0.0, +0.0]" \
		"sembench815 mc 0.0 0.0 0.0 0.0 0.0 0.0" "schbench mc 0.0 0.0 0.0 0.0 0.0 0.0" "sembench815 20.00 20.00 5.00 5.00 2.00 2.00"
	t_check "step one: the counters per second, every run's length measured" \
		grep -qx 'newidle balance, per second: NI_RANDOM (base) and NO_NI_RANDOM' "$scratch/bs1-sum.txt"
	# where a candidate ran, the summary's counters are its own, on sembench815 and schbench
	# alone (the experiment letter's rule), not norandom's
	bm "NI_RANDOM NI_RATE NO_NI_DICE NO_NI_FOUND" "$scratch/bsc" WORKLOADS="sembench815 tbench32" COMPARISONS="norandom NI_FOUND" \
		ABA_WAKER_SCHED="$top/tests/fixtures/proc-sched"
	sed -n '/^Summary: /,$p' "$scratch/bsc/report.txt" >"$scratch/bsc-sum.txt"
	t_check "step two: the summary's counters are the candidate's, on sembench815, not tbench32 ($rc)" \
		eval 'test "$rc" = 0 && has -x "$scratch/bsc-sum.txt" "newidle balance, per second: NO_NI_FOUND (base) and NI_FOUND" \
			"sembench815 *mc .*" "tbench32 *mb/s .*" && ! grep -q "^tbench32 *mc \|NI_RANDOM (base)" "$scratch/bsc-sum.txt"'
	t_check "the paste's first lines: quick or full, rounds x seconds, the CPUs; the kernel and the harness's commit" \
		has "$scratch/bs1-sum.txt" "^Summary: step one, full, 2 rounds x 1 s; $(grep -c ^processor /proc/cpuinfo) CPUs" \
		"^Kernel: $(uname -r); harness $(git -C "$scratch/bmt" rev-parse --short=12 HEAD)$"
	t_check "the paste: every line of step one's and step two's summaries in 72 columns" \
		cols 72 "$scratch/bs1-sum.txt" "$scratch/bsc-sum.txt" "$scratch/bmm-sum.txt"
	t_check "step one: 'no positive control' said once, in the report's head, not under each of the 4 tables" \
		eval 'test "$(grep -ci "no positive control" "$scratch/bs1/report.txt")" = 1 &&
			sed "/^$/q" "$scratch/bs1/report.txt" >"$scratch/bs1-head.txt" && grep -q "^No positive control: " "$scratch/bs1-head.txt"'
	"$top/bench/stats.py" "$scratch/bs1/sembench815-norandom.csv" >"$scratch/bs1-ctl.txt" || true
	t_check "negative control: a table made without --no-control says it itself" grep -q "^No positive control given" "$scratch/bs1-ctl.txt"
	# schbench's -m 4 pins to CPUs 0-3: on 2 CPUs, left out, said, and out of the time
	bm "$v73" "$scratch/bs6" SB_NPROC=2
	t_check "step one on 2 CPUs: schbench left out, said with the time of the 3 others ($rc)" \
		eval 'said 0 "^bare-metal: step one .*: norandom on sembench815 sembench8 tbench32: about 1 minute (27 runs of 1 s: 3 workloads .*; schbench left out: it needs 4 CPUs or more (its -m 4 pins to CPUs 0-3), this machine has 2$" &&
			grep -q "^Comparisons: norandom; workloads: sembench815 sembench8 tbench32; schbench left out" "$scratch/bs6/report.txt" &&
			test ! -e "$scratch/bs6/schbench-norandom.csv"'
	bm "$v73" "$scratch/bs7" SB_NPROC=2 WORKLOADS=schbench BM_OPT=--check
	t_check "step one on 2 CPUs: schbench alone is refused (exit 2), said ($rc)" said 2 "no workload left: schbench left out: it needs 4 CPUs"
	bm "$v73" "$scratch/bs3" WORKLOADS=sembench8 SB_CRASH_AT=2 BM_OPT=--step1
	t_check "step one: a sembench that fails is named, its exit status read as it ended, the results so far said ($rc)" \
		eval 'test "$rc" != 0 && grep -q "run w1, condition B: sembench failed (exit 3)" "$bo" &&
			grep -qx "bare-metal: sembench8, norandom failed (above); results so far: $scratch/bs3/report.txt" "$bo"'
	bm "GENTLE_FAIR_SLEEPERS" "$scratch/bs2"
	t_check "step one: a kernel without NI_RANDOM is refused (exit 1), named, nothing made" \
		eval 'said 1 "^bare-metal: the kernel has no NI_RANDOM: no comparison of .norandom. can run here (boot v7.3, or a kernel of make tester-kernels)$" && test ! -e "$scratch/bs2"'

	# --- step one (--step1: WORKLOADS is set) --record: stand-ins for bench/ni-record.sh and bench/ni-replay.sh
	# (tests/fixtures/ni-step1: the recorder logs into sb.log, beside the workloads, and
	# runs its command under NO_NI_RANDOM; the replay prints the real one's 10 lines).
	# sembench815 alone: 9 runs of step one, then the recorded one, its burns 11728
	# against B's 12345 (-5.0 %)
	fx=$top/tests/fixtures/ni-step1
	# bmr OUT [SETTING=VALUE...]: bm on v7.3 with --record and the stand-ins
	bmr() { bm "$v73" "$1" WORKLOADS=sembench815 NI_RECORD="$fx/ni-record.sh" NI_REPLAY="$fx/ni-replay.sh" NI_LOG="$scratch/sb.log" \
		BM_OPT="--step1 --record" "${@:2}"; }
	bmr "$scratch/br1" NI_BURNS=11728
	cp "$scratch/sb.log" "$scratch/br1-sb.log"
	sed -n '/^Summary: /,$p' "$scratch/br1/report.txt" >"$scratch/br1-sum.txt"
	t_check "--record: after step one's 9 runs, sembench815 once under the recorder, NO_NI_RANDOM, aba.sh -c -k 1 -S ($rc)" \
		eval 'test "$rc" = 0 && test "$(wc -l <"$scratch/br1-sb.log")" = 11 && test "$(sed 9q "$scratch/br1-sb.log" | grep -c "^sembench ")" = 9 &&
			test "$(sed -n 10p "$scratch/br1-sb.log")" = "ni-record NO_NI_RANDOM NI_RATE | $scratch/br1/ni.rec $scratch/bmt/bench/aba.sh -w sembench815 -c NO_NI_RANDOM -k 1 -s 1 -S -o $scratch/br1/ni.run.csv" &&
			test "$(sed -n 11p "$scratch/br1-sb.log")" = "sembench NO_NI_RANDOM NI_RATE | -r 1 -o 2 -t 815 -w 101" && test "$(bstate)" = "$v73"'
	t_check "--record: its minutes in the time said before it starts" \
		grep -q "^bare-metal: step one.*: about 2 minutes (9 runs of 1 s: 1 workload x (1 warm-up + 1 comparison x 2 rounds) x A B A2; then the recording: 1 run of 1 s, and a minute for its trace and to build the replay)$" "$scratch/br1.txt"
	t_check "--record: the replay's table in report.txt, whole, under its title, after the tables" \
		eval 'sed -n "/^Replay, first order, of one recording: sembench815 under NO_NI_RANDOM (ni.rec)$/,/^Recorder overhead: /p" "$scratch/br1/report.txt" |
			sed "1d; \$d" | cmp -s - "$fx/table.txt" &&
			awk "/^sembench815, norandom: A\/B\/A/ { t = NR } /^Replay, first order/ { r = NR } END { exit !(t && r > t) }" "$scratch/br1/report.txt"'
	# the summary's part: from the replay's first line to the overhead's
	sed -n '/^Newidle recording replayed/,/^Recorder overhead: /p' "$scratch/br1-sum.txt" >"$scratch/br1-rep.txt"
	t_check "--record: the summary has the table, $(($(wc -l <"$scratch/br1-rep.txt") - 1)) lines (at most 10) whose first says what it is, in 72 columns" \
		eval 'test "$(sed "\$d" "$scratch/br1-rep.txt" | cmp - "$fx/table.txt" && echo same)" = same && sed -n 1p "$scratch/br1-rep.txt" | grep "replayed.*first order" >/dev/null &&
			test "$(wc -l <"$scratch/br1-rep.txt")" -le 11 && cols 72 "$scratch/br1-sum.txt"'
	t_check "--record: the recorder's overhead, sembench815's burns/s recorded against B's (11728 against 12345)" \
		eval 'grep -qx "Recorder overhead: sembench815 burns/s -5.0 % against B, NO_NI_RANDOM" "$scratch/br1-sum.txt" &&
			grep -qx "  (recorded 11728.0; B: 12345.0, the mean of 2 runs, 12345.0 to 12345.0)" "$scratch/br1/report.txt"'
	t_check "--record: run to its end, no INCOMPLETE; ni.rec and ni.csv kept" \
		eval '! grep -q INCOMPLETE "$scratch/br1/report.txt" && test -s "$scratch/br1/ni.rec" && grep -q "^sembench815,NO_NI_RANDOM,1,burns_per_s,11728.0," "$scratch/br1/ni.csv"'
	t_check "negative control: step one without --record records nothing, its report no replay" \
		eval 'test ! -e "$scratch/bs1/ni.rec" && ! grep -q "^Recording: \|^Replay\|replayed\|^Recorder overhead" "$scratch/bs1/report.txt"'
	# --runs-only, then --report replays it; a table without its own title gets one, and
	# one over 10 lines is cut to 10, said; no recorder's cost: +0.0 %
	seq -f "row %g" 12 >"$scratch/table12"
	bmr "$scratch/br2" NI_TABLE="$scratch/table12" BM_OPT="--step1 --record --runs-only"
	t_check "--record --runs-only: recorded, not replayed ($rc)" eval 'test "$rc" = 0 && test -s "$scratch/br2/ni.csv" && test ! -e "$scratch/br2/ni-replay.txt"'
	runrc "$scratch/br2-report.txt" env NI_REPLAY="$fx/ni-replay.sh" NI_TABLE="$scratch/table12" "$bmsh" --report "$scratch/br2"
	sed -n '/^Summary: /,$p' "$scratch/br2/report.txt" >"$scratch/br2-sum.txt"
	t_check "--report of it: the replay, its 12 lines whole in report.txt ($rc)" \
		eval 'test "$rc" = 0 && test "$(sed "/^Summary: /q" "$scratch/br2/report.txt" | grep -c "^row ")" = 12 && grep -qx "Recorder overhead: .* +0.0 % against B, NO_NI_RANDOM" "$scratch/br2-sum.txt"'
	t_check "--report of it: the summary titles the table and cuts it to 10 lines, saying so" \
		eval 'test "$(sed -n "/^Replay, first order, of one recording (sembench815, NO_NI_RANDOM):$/,/^Recorder overhead: /p" "$scratch/br2-sum.txt" | sed "\$d" |
			paste -sd"|")" = "Replay, first order, of one recording (sembench815, NO_NI_RANDOM):|row 1|row 2|row 3|row 4|row 5|row 6|row 7|row 8|(4 lines more in report.txt)"'
	# a replay that fails (exit 2: a recording not the recorder's): said under the title, in
	# report.txt and the summary, the overhead still there (--report of a copy of the first run)
	cp -r "$scratch/br1" "$scratch/br1f" && echo "x" >>"$scratch/br1f/ni.rec"
	runrc "$scratch/br1f-report.txt" env NI_REPLAY="$fx/ni-replay.sh" "$bmsh" --report "$scratch/br1f"
	t_check "--record: a replay that fails is said where its table would be, in report.txt and the summary ($rc)" \
		eval 'test "$rc" = 0 && test "$(grep -A1 "^Replay, first order, of one recording" "$scratch/br1f/report.txt" | grep -c "^(bench/ni-replay.sh failed on ni.rec: exit 2)$")" = 2 &&
			test "$(grep -c "^Recorder overhead: sembench815 burns/s -5.0 %" "$scratch/br1f/report.txt")" = 2'
	# a recorder that fails: named, the report made without it, INCOMPLETE
	bmr "$scratch/br3" NI_FAIL=1
	t_check "--record: a failing recorder is named, the report made without it, INCOMPLETE: recording ($rc)" \
		eval 'test "$rc" = 1 && grep -q "^bare-metal: the recording failed (exit 1; $fx/ni-record.sh, above): the report without it$" "$bo" &&
			test "$(tail -n 1 "$scratch/br3/report.txt")" = "INCOMPLETE, not run to its end: recording" &&
			test "$(sed -n "/^Summary: /,\$p" "$scratch/br3/report.txt" | sed -n 3p)" = "INCOMPLETE, not run to its end: recording" &&
			! grep -q "^Replay\|^Recorder overhead" "$scratch/br3/report.txt" && test "$(bstate)" = "$v73"'
	# stopped in the recording (HUP to its process group, as a lost terminal sends): the
	# recorder's sembench hangs (its 10th run)
	rm -f "$scratch/sb.hung"
	(bmr "$scratch/br4" SB_HANG_FROM=10 setsid; exit "$rc") &
	pid=$!
	for _ in $(seq 600); do [ -e "$scratch/sb.hung" ] && break; sleep 0.1; done
	hung=$(sed -n 10p "$scratch/sb.log" | cut -d' ' -f1)
	kill -HUP -- -"$(cat "$scratch/sb.hung" 2>/dev/null || echo "$pid")" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	t_check "--record: stopped in the recording ($hung; exit $rc), features and schedstats put back, the lock given back" \
		eval 'test "$hung" = ni-record && test "$rc" != 0 && test "$(bstate)" = "$v73" && test "$(cat "$scratch/bm-sst")" = 0 && test ! -L "$scratch/bm.lock"'
	t_check "--record: and its report.txt ends INCOMPLETE, naming the recording" \
		test "$(tail -n 1 "$scratch/br4/report.txt")" = "INCOMPLETE, not run to its end: recording"
	# --check --record: the recorder's missing pieces with the others, all at once
	miss="BTF probe arguments: CONFIG_PROBE_EVENTS_BTF_ARGS;sched_balance_rq(): not in /proc/kallsyms;kernel.sched_schedstats: CONFIG_SCHEDSTATS"
	bmr "$scratch/br5" NI_MISSING="$miss" ABA_SCHEDSTATS_SYSCTL=/nonexistent/sst BM_OPT="--step1 --record --check"
	t_check "--check --record: the recorder's missing pieces, each, with the others, all at once, none twice (exit 1), nothing made ($rc)" \
		eval 'test "$rc" = 1 && test "$(grep -c "^bare-metal: missing: " "$bo")" = 3 &&
			has -x "$bo" "bare-metal: missing: BTF probe arguments: CONFIG_PROBE_EVENTS_BTF_ARGS (for --record: $fx/ni-record.sh --check)" \
				"bare-metal: missing: sched_balance_rq(): not in /proc/kallsyms (for --record: $fx/ni-record.sh --check)" \
				"bare-metal: missing: CONFIG_SCHEDSTATS, for the counters (no /nonexistent/sst)" && test ! -e "$scratch/br5"'
	bmr "$scratch/br5" NI_MISSING="$miss" ABA_SCHEDSTATS_SYSCTL=/nonexistent/sst BM_OPT=--check
	t_check "negative control: --check without --record does not ask the recorder ($rc)" \
		eval 'test "$rc" = 1 && test "$(grep -c "^bare-metal: missing: " "$bo")" = 1 && ! grep -q "BTF" "$bo"'
	bmr "$scratch/br5" NI_RECORD=/nonexistent/ni-record.sh NI_REPLAY=/nonexistent/ni-replay.sh BM_OPT="--step1 --record --check"
	t_check "--check --record: a recorder and a replay that are not there are named ($rc)" \
		eval 'test "$rc" = 1 && has "$bo" "^bare-metal: missing: /nonexistent/ni-record.sh, for --record" "^bare-metal: missing: /nonexistent/ni-replay.sh, for --record"'
	bmr "$scratch/br5" BM_OPT="--step1 --record --check"
	t_check "--check --record: ready, the recording in its time ($rc)" \
		eval 'said 0 "^bare-metal: step one.*; then the recording: 1 run of 1 s, and a minute for its trace and to build the replay)$" && has -x "$bo" "bare-metal: ready (--check)"'

	# --- the tester's time claims: computed by bare-metal.sh from its defaults, which its
	# head comment states; the same in the README and the checklist (the letters' are
	# made from it by make outbox)
	# bmtime quick|full [--step1]: its --time for that run, from its defaults; bmt: the minutes
	bmtime() { env -u RUNS -u SECONDS_PER_RUN -u COMPARISONS -u WORKLOADS -u SCHBENCH -u CANDIDATES ABA_FEATURES=/nonexistent \
		"$top/bench/bare-metal.sh" "${@:2}" --time | sed -n "s/^$1: //p"; }
	bmt() { bmtime "$@" | sed -n 's/^about \([0-9]*\) minutes.*/\1/p'; }
	full=$(bmtime full) quick=$(bmtime quick)
	read -r fr fs qr qs < <(sed -n 's/.*RUNS=\([0-9]*\) .*SECONDS_PER_RUN=\([0-9]*\) s.*/\1 \2/p' "$top/bench/bare-metal.sh" | paste -sd' ')
	nc=$(sed -n 's/^comparisons=\${COMPARISONS-\(.*\)}$/\1/p' "$top/bench/bare-metal.sh" | wc -w)
	nw=$(sed -n 's/^workloads=\${WORKLOADS-\(.*\)}$/\1/p' "$top/bench/bare-metal.sh" | wc -w)
	# minutes RUNS SECONDS: workloads x (a warm-up + comparisons x RUNS rounds) x A B A2, each run SECONDS + 1
	minutes() { echo "about $(( (nw * (1 + nc * $1) * 3 * ($2 + 1) + 59) / 60 )) minutes"; }
	t_check "bare-metal: the full run's time, from its defaults ($nw x (1 + $nc x $fr) x 3 runs of $fs + 1 s)" \
		eval 'test -n "$full" && test "${full%% (*}" = "$(minutes "$fr" "$fs")"'
	t_check "bare-metal: --quick's, from its defaults ($qr rounds of $qs s): at most 30 minutes" \
		eval 'test "${quick%% (*}" = "$(minutes "$qr" "$qs")" && test "$(echo "$quick" | cut -d" " -f2)" -le 30'
	t_check "negative control: other settings give another time" \
		eval 'test "$(RUNS=20 ABA_FEATURES=/nonexistent "$top/bench/bare-metal.sh" --time | sed -n "s/^full: //p")" != "$full"'
	# --record: one run more, and a minute: (48 x 11 + 11 + 60) s, 10 minutes; the full run's
	# (72 x 21 + 21 + 60) s, 27
	t_check "step one --record: --time says the recording's minutes, quick and full" \
		eval 'test "$(bmtime quick --step1 --record)" = "about 10 minutes (48 runs of 10 s: 4 workloads x (1 warm-up + 1 comparison x 3 rounds) x A B A2; then the recording: 1 run of 10 s, and a minute for its trace and to build the replay)" &&
			test "$(bmt full --step1 --record)" = 27'
	t_check "negative control: without --record, no recording and a minute less" \
		eval 'test "$(bmt quick --step1)" = 9 && ! bmtime quick --step1 | grep recording >/dev/null'
	# step one's quick run, from its defaults: 4 workloads x (1 warm-up + 3 rounds) x 3 runs of 10 + 1 s
	t_check "step one: --quick takes at most 15 minutes ($(bmtime quick --step1))" \
		test "$(bmtime quick --step1)" = "about 9 minutes (48 runs of 10 s: 4 workloads x (1 warm-up + 1 comparison x 3 rounds) x A B A2)"
	readme_times() {
		grep -q -- "--step1 --quick  *# about $(bmt quick --step1) minutes" "$1" &&
			grep -q -- "--step1  *# the full run, when asked for: about $(bmt full --step1) minutes" "$1" &&
			grep -q -- "bare-metal.sh --quick  *# about $(bmt quick) minutes" "$1" &&
			tr '\n' ' ' <"$1" | tr -s ' ' >"$scratch/readme1" && grep -qF -- "about $(bmt full) minutes a kernel; step one's: about $(bmt full --step1) minutes" "$scratch/readme1"
	}
	t_check "README: its four times for testers are bare-metal.sh --time's ($(bmt quick --step1), $(bmt full --step1), $(bmt quick), $(bmt full) minutes)" \
		readme_times "$top/README.md"
	sed 's/--step1 --quick     # about [0-9]*/--step1 --quick     # about 99/' "$top/README.md" >"$scratch/README.wrong"
	t_check "negative control: a README with another time fails that check" not readme_times "$scratch/README.wrong"
	for p in base gate; do
		put "$scratch/deb/$p/DEBIAN/control" "Package: linux-image-7.3.4-$p" 'Version: 1' 'Architecture: all' 'Maintainer: lab <lab@localhost>' 'Description: x'
		dpkg-deb -b "$scratch/deb/$p" "$scratch/$p.deb" >/dev/null
	done
	RUNS=3 "$top/lab/tools/tester-checklist.sh" "$scratch/base.deb" "$scratch/gate.deb" >"$scratch/checklist.txt"
	t_check "tester checklist: both times as bare-metal.sh computes them from its defaults" \
		eval 'grep -qF "$full" "$scratch/checklist.txt" && grep -qF "$quick" "$scratch/checklist.txt"'
	# README's exit table: every status bare-metal.sh exits with, but 0 and 1 (every script's), and its 6
	exits() { local c; for c in $(grep -oE '\<exit [0-9]+' "$top/bench/bare-metal.sh" | cut -d' ' -f2 | sort -un) 6; do
		case $c in 0|1) ;; *) grep -qE "^\| $c \|.*bench/bare-metal\.sh" "$1" || return 1 ;; esac; done; }
	t_check "README: its exit table has each status of bench/bare-metal.sh" exits "$top/README.md"
	# --time: the time --check gives, on v7.3 (step one) and on the series (norandom, gate)
	tq() { echo "$1" >"$scratch/bm-features"; bmenv RUNS= SECONDS_PER_RUN= "$bmsh" --time | sed -n 's/^quick: //p'; }
	cq() { bm "$1" "$scratch/bt" RUNS= SECONDS_PER_RUN= BM_OPT="--quick --check"; sed -n 's/^bare-metal: .* on [^:]*: \(about .*\)/\1/p' "$bo"; }
	for k in "$v73" "NI_RANDOM NI_RATE NI_GATE"; do
		t_check "--time on a kernel of $k: --check --quick's time ($(cq "$k"))" eval 'test -n "$(cq "$k")" && test "$(tq "$k")" = "$(cq "$k")"'
	done

	# --- --check: what is missing, all at once (exit 1), nothing touched; ready, with the time.
	# Kernel lockdown (Secure Boot): debugfs there, root refused: named as the cause (a
	# directory stands in for the file it cannot read); root refused (EPERM) without
	# lockdown (as on a host whose debugfs is restricted otherwise, a cat stand-in
	# refusing the features file): not put down to lockdown
	mkdir -p "$scratch/lockedfeat"
	echo "none [integrity] confidentiality" >"$scratch/lockdown-on"
	script "$scratch/eperm/cat" 'case "$1" in *bm-features) echo "cat: $1: Operation not permitted" >&2; exit 1 ;; esac' 'exec /bin/cat "$@"'
	# check OUT [SETTING=VALUE...]: bm --check on v7.3
	check() { bm "$v73" "$scratch/$1" "${@:2}" BM_OPT=--check; }
	# ready only where the run can start: a program given is a file; one fetched, its URL
	# reachable (offline: a local clone); OUTDIR new, where it can be made
	mkdir -p "$scratch/old"
	: >"$scratch/old/report.txt"
	: >"$scratch/afile"
	# refused by --check (exit 1), said: WHAT|ITS OUTPUT SAYS (grep)|OUT [SETTING=VALUE...] (eval'd)|NOR SAYS
	while IFS='|' read -r what re args no; do
		eval "args=($args)"
		check "${args[@]}" </dev/null
		t_check "$what ($rc)" said 1 "$re" "$no"
	done <<-EOF
		--check: a features file that lockdown keeps from root is said to be lockdown's, no 'no NI_RANDOM'|^bare-metal: missing: debugfs is restricted by kernel lockdown (Secure Boot, $scratch/lockdown-on): turn Secure Boot off in the firmware.s setup for the runs$|bs8 ABA_FEATURES="$scratch/lockedfeat" ABA_LOCKDOWN="$scratch/lockdown-on"|no NI_RANDOM\|Is a directory
		negative control: without lockdown, the file that cannot be read is named, with why|missing: the kernel.s sched features (.*lockedfeat: Is a directory): no comparison|bs9 ABA_FEATURES="$scratch/lockedfeat"|lockdown
		--check: root refused without lockdown is said so, not put down to lockdown|missing: root may not read .*(Operation not permitted): kernel lockdown is off|bs11 PATH="$scratch/eperm:$scratch/sb:$PATH"|restricted by kernel lockdown
		--check: lockdown that cannot be read is said unchecked, not off|lockdown could not be checked (/nonexistent: mount -t securityfs|bs13 PATH="$scratch/eperm:$scratch/sb:$PATH" ABA_LOCKDOWN=/nonexistent|lockdown is off
		negative control: the same refusal with lockdown on is lockdown's|restricted by kernel lockdown|bs12 PATH="$scratch/eperm:$scratch/sb:$PATH" ABA_LOCKDOWN="$scratch/lockdown-on"|
		--check: SEMBENCH= a directory is refused, said|missing: SEMBENCH=$scratch/old is not an executable file|bs14 WORKLOADS=sembench8 SEMBENCH="$scratch/old"|
		--check: sembench's URL out of reach (offline) is missing, with the offline route|missing: sembench from $scratch/nosuch (git ls-remote, 20 s); offline: SEMBENCH=a built sembench, or SEMBENCH_URL=a clone|bs15 WORKLOADS=sembench8 SEMBENCH= SEMBENCH_URL="$scratch/nosuch"|
		--check: an OUTDIR holding an earlier run is refused, said|missing: a new OUTDIR: $scratch/old holds files|old WORKLOADS=hackbench|
	EOF
	# debugfs: --check mounts it where it is not, and unmounts what it mounted
	script "$scratch/mnt/mount" 'echo "mount $*" >>"$MNT_LOG"; cp "$MNT_SRC" "$ABA_FEATURES"'
	script "$scratch/mnt/umount" 'echo "umount $*" >>"$MNT_LOG"; rm "$ABA_FEATURES"'
	mnt() { rm -f "$scratch/mnt.log"; check bs10 PATH="$scratch/mnt:$scratch/sb:$PATH" MNT_LOG="$scratch/mnt.log" MNT_SRC="$scratch/bm-features" ABA_FEATURES="$1"; }
	mnt "$scratch/mnt/features"
	t_check "--check: debugfs mounted for it is unmounted after it ($rc)" \
		eval 'test "$rc" = 0 && test "$(paste -sd" " "$scratch/mnt.log")" = "mount -t debugfs debugfs /sys/kernel/debug umount /sys/kernel/debug" &&
			test ! -e "$scratch/mnt/features"'
	mnt "$scratch/bm-features"
	t_check "--check: debugfs mounted before is left mounted ($rc)" eval 'test "$rc" = 0 && test ! -e "$scratch/mnt.log"'
	check bs4 WORKLOADS="sembench8 tbench32" SEMBENCH=/nonexistent/sembench ABA_SCHEDSTATS_SYSCTL=/nonexistent/sst ABA_TBENCH_LOADFILE=/nonexistent/client.txt
	t_check "--check: what is missing, all at once (exit 1), nothing made or set ($rc)" \
		eval 'test "$rc" = 1 && test "$(grep -c "^bare-metal: missing: " "$bo")" = 3 &&
			has "$bo" "SEMBENCH=/nonexistent/sembench is not an executable" "CONFIG_SCHEDSTATS" "no /nonexistent/client.txt" &&
			test ! -e "$scratch/bs4" && test "$(bstate)" = "$v73"'
	bm "$v73" "$scratch/bs5" BM_OPT="--check --quick"
	t_check "--check: a ready machine, step one's comparison and time said (exit 0, $rc)" \
		eval 'test "$rc" = 0 && has -x "$bo" "bare-metal: step one .*: norandom on .*: about [0-9]* minutes .*" "bare-metal: ready (--check)" &&
			test ! -e "$scratch/bs5"'
	git init -q "$scratch/clone" && git -C "$scratch/clone" -c user.name=t -c user.email=t@x commit -q --allow-empty -m x
	script "$scratch/gl/git" "readlink '$scratch/bm.lock' >'$scratch/lock-seen'" "exec $(command -v git) \"\$@\""
	check bs16 WORKLOADS=sembench8 SEMBENCH= SEMBENCH_URL="$scratch/clone" PATH="$scratch/gl:$scratch/sb:$PATH"
	t_check "negative control: SEMBENCH_URL= a local clone is ready ($rc), its lock meanwhile naming --check" \
		eval 'test "$rc" = 0 && test "$(cut -d" " -f3- "$scratch/lock-seen")" = --check'
	bo=$scratch/bs17.txt
	runrc "$bo" bmenv WORKLOADS=hackbench "$bmsh" --check "$scratch/afile/out"
	t_check "--check: an OUTDIR that cannot be made is refused, said ($rc)" said 1 "missing: a writable OUTDIR: $scratch/afile is not a directory it can write"

	# a workload that fails in the second comparison (named: as step one's sembench), after the
	# first set NI_DICE (aba.sh puts back only its own feature, as the comparison found it)
	bm "$patched" "$scratch/bmf" WORKLOADS=hackbench SB_CRASH_AT=11
	t_check "bare-metal: and every feature it set is put back ($(bstate))" test "$(bstate)" = "$patched"
	inc="INCOMPLETE, not run to its end: hackbench-gate hackbench-NI_FOUND"
	t_check "bare-metal: its report.txt ends INCOMPLETE, naming the runs it lacks" test "$(tail -n 1 "$scratch/bmf/report.txt")" = "$inc"
	runrc "$scratch/bmf-report.txt" "$bmsh" --report "$scratch/bmf"
	t_check "bare-metal --report of a run that failed: the tables of what it finished, once ($rc)" \
		eval 'test "$rc" = 0 && test "$(grep -c "^hackbench, norandom: A/B/A" "$scratch/bmf/report.txt")" = 1'
	t_check "bare-metal --report of it: its summary says INCOMPLETE under its first two lines" \
		test "$(sed -n '/^Summary: /,$p' "$scratch/bmf-report.txt" | sed -n 3p)" = "$inc"
	# a run that hangs in gate's first B; meanwhile a second copy, and --check, are
	# refused; then a HUP to its process group, as a lost terminal sends (one trap
	# has INT, TERM and HUP; sh ignores INT in a background job)
	rm -f "$scratch/sb.hung"
	(bm "$patched" "$scratch/bmk" WORKLOADS=hackbench SB_HANG_FROM=11 setsid; exit "$rc") &
	pid=$!
	for _ in $(seq 600); do [ -e "$scratch/sb.hung" ] && break; sleep 0.1; done
	# the stand-in wrote its process group, setsid's: bare-metal.sh's pid
	cp "$scratch/bm-features" "$scratch/bmk-features"
	rm -f "$scratch/mnt.log"
	runrc "$scratch/bmk2.txt" bmenv WORKLOADS=hackbench PATH="$scratch/mnt:$scratch/sb:$PATH" MNT_LOG="$scratch/mnt.log" \
		MNT_SRC="$scratch/bm-features" ABA_FEATURES="$scratch/mnt/features" "$bmsh" "$scratch/bmk2"
	running="another run is going on: pid $(cat "$scratch/sb.hung"), OUTDIR $scratch/bmk ("
	t_check "bare-metal: a second copy while one runs is refused (exit 2), naming its pid and OUTDIR; nothing made, mounted or set ($rc)" \
		eval 'test "$rc" = 2 && grep -qF "$running" "$scratch/bmk2.txt" &&
			test ! -e "$scratch/bmk2" && test ! -e "$scratch/mnt.log" && cmp -s "$scratch/bm-features" "$scratch/bmk-features"'
	runrc "$scratch/bmk3.txt" bmenv WORKLOADS=hackbench "$bmsh" --check
	t_check "bare-metal: and --check says it, not ready (exit $rc)" eval 'test "$rc" = 2 && grep -qF "$running" "$scratch/bmk3.txt"'
	kill -HUP -- -"$(cat "$scratch/sb.hung" 2>/dev/null || echo "$pid")" 2>/dev/null || true
	rc=0
	wait "$pid" || rc=$?
	t_check "bare-metal: stopped mid-run (HUP, exit $rc), every feature and schedstats put back ($(bstate)), the lock given back" \
		eval 'test -e "$scratch/sb.hung" && test "$rc" != 0 && test "$(bstate)" = "$patched" && test "$(cat "$scratch/bm-sst")" = 0 &&
			test ! -L "$scratch/bm.lock"'
	t_check "bare-metal: and its report.txt ends INCOMPLETE, naming the runs it lacks" test "$(tail -n 1 "$scratch/bmk/report.txt")" = "$inc"
	# a lock that names a process that is gone does not block the next
	sh -c 'exit 0' &
	dead=$!
	wait "$dead" || true
	# one whose process group lives on (killed with -9, its workload running) does
	setsid sleep 60 &
	grp=$!
	ln -s "$dead $grp OUTDIR $scratch/gone" "$scratch/bm.lock"
	check bs19
	kill "$grp"
	t_check "bare-metal: a dead run's lock whose processes live on is refused, naming their group ($rc)" said 2 "left processes running (process group $grp;"
	rm -f "$scratch/bm.lock"
	ln -s "$dead $dead OUTDIR $scratch/gone" "$scratch/bm.lock"
	check bs18
	t_check "bare-metal: a lock left by a run that is gone does not block the next ($rc)" eval 'test "$rc" = 0 && test ! -L "$scratch/bm.lock"'
	# one naming the caller's own process group (a script's earlier run, killed): taken over
	ln -s "$dead $(cut -d' ' -f5 /proc/$$/stat) OUTDIR $scratch/gone" "$scratch/bm.lock"
	check bs17
	t_check "bare-metal: a dead run's lock naming the caller's own process group is taken over ($rc)" eval 'test "$rc" = 0 && test ! -L "$scratch/bm.lock"'
	# its reader gone before it writes (--check | head): the lock given back, the features as they were
	echo "$v73" >"$scratch/bm-features"
	rc=0
	( exec 5> >(:); wait $!; bmenv "$bmsh" --check "$scratch/bs16" 2>&5 >&5 ) || rc=$?
	t_check "bare-metal: its reader gone (exit $rc), the lock given back, the features as they were" \
		eval 'test "$rc" = 141 && test ! -L "$scratch/bm.lock" && test "$(bstate)" = "$v73"'

	# bad settings and arguments: refused (exit 2) before anything is touched, saying so
	cp "$scratch/bm-features" "$scratch/bm-features.before"
	# bm_bad TEXT [SETTING=VALUE...] COMMAND...: refused, exit 2, saying TEXT, nothing touched
	bm_bad() {
		local rc=0
		bmenv WORKLOADS=hackbench "${@:2}" >/dev/null 2>"$scratch/bad.err" || rc=$?
		test "$rc" = 2 && grep -qF -- "$1" "$scratch/bad.err" && cmp -s "$scratch/bm-features" "$scratch/bm-features.before" && test ! -e "$scratch/bmbad"
	}
	# WHAT|TEXT|[SETTING=VALUE...] ARGUMENTS
	refusals bm_bad <<-EOF
		bare-metal: COMPARISONS=norandom nosuch is refused (exit 2), saying so, and changes nothing|unknown comparison 'nosuch' (norandom, gate, NI_FOUND)|COMPARISONS="norandom nosuch" "$bmsh" "$scratch/bmbad"
		bare-metal: CANDIDATES=found is refused (exit 2), saying so, and changes nothing|CANDIDATES: 'found' is not a feature name|CANDIDATES=found "$bmsh" "$scratch/bmbad"
		bare-metal: RUNS=x is refused (exit 2), saying so, and changes nothing|RUNS takes a whole number from 2, not 'x'|RUNS=x "$bmsh" "$scratch/bmbad"
		step one: RUNS=1 is refused (exit 2)|RUNS takes a whole number from 2, not '1'|RUNS=1 "$bmsh" "$scratch/bmbad" --step1
		step one: SECONDS_PER_RUN=10s is refused (exit 2)|SECONDS_PER_RUN takes a whole number from 1, not '10s'|SECONDS_PER_RUN=10s "$bmsh" --step1 "$scratch/bmbad"
		bare-metal: BENCH_CV_MAX=1.2.3 is refused (exit 2), saying so, and changes nothing|BENCH_CV_MAX takes a number (%), not '1.2.3'|BENCH_CV_MAX=1.2.3 "$bmsh" "$scratch/bmbad"
		bare-metal: COMPARISONS= is refused (exit 2), saying so, and changes nothing|COMPARISONS and WORKLOADS must not be empty|COMPARISONS= "$bmsh" "$scratch/bmbad"
		bare-metal: WORKLOADS=  is refused (exit 2), saying so, and changes nothing|COMPARISONS and WORKLOADS must not be empty|WORKLOADS=" " "$bmsh" "$scratch/bmbad"
		bare-metal: a second OUTDIR is refused (exit 2), and changes nothing|one OUTDIR only, not '$scratch/bmbad' and 'more'|"$bmsh" "$scratch/bmbad" more
		bare-metal: an unknown option is refused (exit 2)|unknown option --step2|"$bmsh" --step2 "$scratch/bmbad"
		bare-metal: --check with --time is refused (exit 2)|--check, --time and --report go one at a time|"$bmsh" --check --time
		bare-metal: --report without OUTDIR is refused (exit 2)|--report takes the OUTDIR of a run|"$bmsh" --report
		--record: elsewhere than step one is refused (exit 2)|--record goes with step one: add --step1|COMPARISONS=norandom WORKLOADS=sembench815 "$bmsh" --record "$scratch/bmbad"
		--record: without sembench815 is refused (exit 2), its overhead is measured on it|--record needs norandom among COMPARISONS and sembench815 among WORKLOADS|"$bmsh" --step1 --record "$scratch/bmbad"
		--record: --time where the kernel is not read, without --step1, is refused (exit 2)|--record goes with step one|ABA_FEATURES=/nonexistent WORKLOADS=sembench815 "$bmsh" --time --record
		--record: with --report is refused (exit 2)|--report takes no --record|"$bmsh" --report --record "$scratch/bmbad"
	EOF
	t_check "bare-metal: WORKLOADS=hackbench nosuch is refused (exit 2) in every mode (a run, --check, --time), nothing changed" \
		eval 'r=0; for m in "" --check --time; do bm_bad "unknown workload '"'nosuch'"'" "WORKLOADS=hackbench nosuch" "$bmsh" $m "$scratch/bmbad" || r=1; done; test "$r" = 0'
	t_check "bare-metal: RUNS=5 as an argument (sudo drops the environment) is refused (exit 2), with the form that works; nothing made" \
		eval 'bm_bad "sudo env RUNS=5 bench/bare-metal.sh" sh -c "cd \"\$0\" && exec \"\$1\" RUNS=5" "$scratch" "$bmsh" && test ! -e "$scratch/RUNS=5"'
	t_check "bare-metal: an option without its dashes is refused, not taken for OUTDIR" \
		eval 'bm_bad "'"'step1' is taken for an option: --step1"'" "$bmsh" step1 && test ! -e step1'
	t_check "bare-metal: --help and -h give the usage of the head comment (exit 0), in 80 columns" \
		eval '"$bmsh" --help >"$scratch/help.txt" && "$bmsh" -h >"$scratch/h.txt" && cmp -s "$scratch/help.txt" "$scratch/h.txt" &&
			grep -qx "Usage: sudo bench/bare-metal.sh \[--step1\] \[--quick\] \[--runs-only\] \[OUTDIR\]" "$scratch/help.txt" &&
			cols 80 "$scratch/help.txt"'
	t_check "one answer: --help, README and the mail ask for the quick run first, none calls the full run the one to report" \
		eval '! grep -qi "the \(one\|run\|ones\) to report" "$scratch/help.txt" "$top/README.md" "$top/lab/data/letters/how-to-test.txt" &&
			grep -q "sudo env RUNS=5" "$scratch/help.txt" && grep -q "SEMBENCH_URL=a local clone" "$top/lab/data/letters/how-to-test.txt"'
}

guest_checks() {
	# --- a smoke of the preset ni4 in the guest: the patched kernel (the
	# bench kernels are not built here), two boots, one run of 1 s of futex8
	# after a warm-up; a scratch place, so that out/bench/latest is left
	# alone. Nothing is asserted on the figures. QEMU is a stand-in that
	# keeps its command line (and the initrd) and runs the real one only
	# with QEMU_REAL: ni20 (20 vCPUs, 90 s of TCG) is not booted, its
	# topology and script are checked where they reach QEMU.
	latest_before=$(readlink "$OUT/bench/latest" 2>/dev/null || echo none)
	q=$scratch/qemu
	mkdir -p "$q"
	cat >"$q/qemu-system-x86_64" <<-EOF
	#!/bin/bash
	echo "\$*" >>"$q/args-\$QEMU_AS"
	[ -z "\${QEMU_REAL:-}" ] || exec $(command -v qemu-system-x86_64) "\$@"
	while [ \$# -gt 1 ]; do [ "\$1" != -initrd ] || cp "\$2" "$q/initrd"; shift; done
	exit 1
	EOF
	chmod +x "$q/qemu-system-x86_64"
	# smp PRESET TOPOLOGY: every QEMU of PRESET's run was given -smp TOPOLOGY
	smp() { test -s "$q/args-$1" && ! grep -q -v -- "-smp $2 " "$q/args-$1"; }
	# the part needs the patched kernel and guest files (tests/parts): made
	# once by make check, not again by each run (LAB_KERNEL; half a minute)
	smoke() { BENCH_OUT=$scratch/bench-$1 BENCH_PRESET=$1 BENCH_VARIANT=patched BENCH_BOOTS=$2 BENCH_RUNS=1 BENCH_SECONDS=1 \
		BENCH_WARMUP_RUNS=1 BENCH_WORKLOADS=futex8 LAB_KERNEL=$OUT/build/patched/arch/x86/boot/bzImage QEMU_AS=$1 \
		PATH="$q:$PATH" "$top/bench/bench.sh" features >"$scratch/run-$1.log" 2>&1; }
	rc=0
	QEMU_REAL=1 smoke ni4 2 || { rc=$?; tail -20 "$scratch/run-ni4.log" | sed 's/^/# /'; }
	t_check "smoke ni4: make bench's runner in the guest succeeds (exit $rc; 5 is the control's verdict)" eval 'test "$rc" = 0 || test "$rc" = 5'
	d=$scratch/bench-ni4/latest
	for c in NI_RANDOM:A NI_RANDOM:B NI_RANDOM:A2; do
		t_check "smoke ni4: $c measured in each of 2 boots" \
			test "$(awk -F, -v c="$c" '$2 == c && $4 == "completions_per_s" { b[$6] = 1 } END { print length(b) }' "$d/aba.csv" 2>/dev/null)" = 2
	done
	t_check "smoke ni4: the warm-up run is not in the CSV" eval '! grep -q ",w1," "$d/aba.csv"'
	t_check "smoke ni4: the warm-up was run" grep -q '^# warm-up futex8 A 1: completions_per_s' "$d/console-1.txt"
	t_check "smoke ni4: the guest has the preset's features" grep -q "CPUs; features:.*NO_NI_RATE" "$d/console-1.txt"
	t_check "smoke ni4: the guest has the 4 CPUs QEMU was given in both boots (-smp 4,sockets=2,cores=2,threads=1)" \
		eval 'smp ni4 4,sockets=2,cores=2,threads=1 && test "$(grep -c "^# kernel .*, 4 CPUs;" "$d"/console-[12].txt | grep -c :1$)" = 2'
	t_check "smoke ni4: the report says it is emulated" grep -q 'EMULATED' "$d/report.txt"

	rc=0
	smoke ni20 1 || rc=$?
	d=$(ls -d "$scratch"/bench-ni20/*-ni20-features)	# no latest: the run failed
	t_check "smoke ni20: bench.sh starts QEMU once and stops at a guest that prints nothing, said ($rc)" \
		eval 'test "$rc" != 0 && test "$(wc -l <"$q/args-ni20")" = 1 && grep -q "boot 1 (features) failed" "$scratch/run-ni20.log" &&
			grep -q "bench-1: failed (lab/steps/judge.sh" "$d/console-1.txt"'
	t_check "smoke ni20: QEMU is given the preset's topology (-smp 20,sockets=1,cores=10,threads=2)" smp ni20 20,sockets=1,cores=10,threads=2
	t_check "negative control: ni4's QEMU command lines fail that check" not smp ni4 20,sockets=1,cores=10,threads=2
	delay=$(grep '^delay_us=' "$d/guest-1.sh")
	t_check "smoke ni20: the initrd QEMU is given carries the boot's script ($delay)" grep -qaF "$delay" "$q/initrd"
	t_check "negative control: the initramfs without the boot's part does not" not grep -qaF "$delay" "$OUT/guest/patched/base.cpio"
	t_check "smoke ni20: the script sets the preset's features" grep -qx 'features="NO_NI_RATE"	# BENCH-PARAM' "$d/guest-1.sh"
	t_check "smoke ni20: and runs BENCH_PAIRS (NI_RANDOM) A/B/A, a warm-up and a run of 1 s" \
		test "$(grep -c 'aba.sh .*-k 1 -s 1 -x 1 .*-f NI_RANDOM ' "$d/guest-1.sh")" = 1
	t_check "smoke ni20: nothing is measured from the failed boot, no report" \
		eval 'test "$(wc -l <"$d/aba.csv")" = 1 && test ! -e "$d/report.txt"'

	# --- bench/bare-metal.sh's whole matrix in the guest, on the experiment
	# kernel (every comparison there): runs only, as the guest has no scipy
	# (lab/guest/bare-metal.sh), then the report on the host from the files
	# it printed. Untimed; nothing is asserted on the figures.
	rc=0
	"$top/lab/prepare.sh" guest experiment >"$scratch/bmg.log" 2>&1 || { rc=$?; tail -20 "$scratch/bmg.log" | sed 's/^/# /'; }
	t_check "bare-metal in the guest: the experiment kernel and its guest files are made ($rc)" test "$rc" = 0
	[ "$rc" != 0 ] || "$top/lab/steps/boot.sh" experiment "$top/lab/guest/bare-metal.sh" check-bare-metal >>"$scratch/bmg.log" 2>&1 ||
		{ rc=$?; tail -20 "$scratch/bmg.log" | sed 's/^/# /'; }
	t_check "bare-metal in the guest: the three comparisons run on it ($rc)" test "$rc" = 0
	mkdir -p "$scratch/bmg"
	awk -v d="$scratch/bmg" '/^BM-FILE / { f = d "/" $2; printf "" >f; next } /^BM-END$/ { f = ""; next }
		f != "" { print >>f }' "$scratch/bmg.log"
	rc=0
	"$top/bench/bare-metal.sh" --report "$scratch/bmg" >"$scratch/bmg-report.txt" 2>&1 || rc=$?
	for c in norandom gate NI_FOUND; do
		t_check "bare-metal in the guest: the report, made on the host, has futex8, $c (exit $rc; 6 is a CV verdict)" \
			eval 'grep -q "^futex8, $c: A/B/A of " "$scratch/bmg/report.txt" && { test "$rc" = 0 || test "$rc" = 6; }'
	done
	t_check "bare-metal in the guest: the counters of each, per level" test "$(grep -c 'newidle balance per level' "$scratch/bmg/report.txt" 2>/dev/null)" = 3
	t_check "bare-metal in the guest: the features as they were after it" \
		grep -q '^# bare-metal.sh exit 0; features after it: NI_RANDOM NI_RATE NO_NI_DICE NO_NI_FOUND$' "$scratch/bmg.log"
	t_check "smoke: out/bench/latest left alone" test "$(readlink "$OUT/bench/latest" 2>/dev/null || echo none)" = "$latest_before"
}

[ "$half" = guest ] || host_checks
[ "$half" = guest ] || bare_metal_checks
[ "$half" = host ] || guest_checks
t_done
