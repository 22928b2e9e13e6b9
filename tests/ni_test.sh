#!/bin/bash
# bench/ni-replay.sh and .c on recordings made here, the kernel state of each line v7.3's
# update_newidle_stats() restated in awk: each claim, and a broken variant that fails it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
r=$scratch hdr=$LINUX/kernel/sched/newidle.h

# synth [VAR=VALUE...]: a recording under NO_NI_RANDOM: per CPU, calls walk levels 0 to
# lvls - 1 until a pull (P, probability pp) or a stop (B, pb); the state each line reads is
# v7.3's (a success weighs 1; NI_RATE: delta >> 22 at the attempt's end), from r0, c0, s0
synth() {
	local a=() v
	for v; do a+=(-v "$v"); done
	awk -v seed=1 -v cpus=4 -v lvls=3 -v calls=3000 -v pp=0.1 -v pb=0.01 -v other="G Q A R H F" \
		-v rate=0 -v dt=50 -v cost=3 -v r0=80 -v c0=600 -v s0=40 "${a[@]}" 'BEGIN {
		srand(seed); n = split(other, oth, " "); OFMT = "%.0f"
		print "# ni-record: 7.3.4-test, NO_NI_RANDOM, 64 MiB, probes all: synth"
		printf "# seconds=%.2f\n# cpus=%d\n# ni_rate=%d\n", calls * dt / 1e6, cpus, rate
		for (c = 0; c < cpus; c++) for (l = 0; l < lvls; l++) {
			ca[c, l] = c0; su[c, l] = s0; ra[c, l] = r0; st[c, l] = c * 1000
		}
		for (k = 0; k < calls; k++) for (c = 0; c < cpus; c++) for (l = 0; l < lvls; l++) {
			t = (k + 1) * dt + c + l * cost; x = rand()
			o = x < pp ? "P" : x < pp + pb ? "B" : oth[int(rand() * n) + 1]; p = o == "P"
			print c, t, l, ra[c, l], ca[c, l], su[c, l], st[c, l], cost, o, p,
				p ? 100 + int(rand() * 6) : -1, p && rand() < 0.5, p ? "w" : "-"
			ca[c, l]++; su[c, l] += p	# update_newidle_stats()
			if (ca[c, l] >= 1024) {
				d = (t + cost) * 1000 - st[c, l]; st[c, l] += d
				x = (rate ? int((d < 0 ? 0 : d) / 4194304) : 0) + su[c, l]
				ra[c, l] = x < 1024 ? x : 1024
				ca[c, l] = int(ca[c, l] / 2); su[c, l] = int(su[c, l] / 2)
			}
			if (o == "P" || o == "B") break
		} print "# schedstat over the run: newidle lb_count, lb_gained: (synth)" }'
}
synth >"$r/mix.rec"				# pulls, stops, windows; NI_RATE off
synth seed=2 rate=1 dt=2000 >"$r/rate.rec"	# NI_RATE's bonus large
# constant ratios (no pull, no refusal for NI_FOUND): 0; and 100, NI_RATE's bonus alone
# (a window of 512 visits 823 us apart: 512 * 823000 >> 22 = 100)
synth calls=10000 pp=0 pb=0 other="G Q A F" r0=0 c0=0 s0=0 >"$r/r0.rec"
synth calls=10000 pp=0 pb=0 other="G Q A F" r0=100 c0=512 s0=0 rate=1 dt=823 cost=0 >"$r/r100.rec"

# build OUT [HEADER [SED]]: the replay as bench/ni-replay.sh builds it, against HEADER
# (the tree's), its source changed by SED
build() {
	sed "${3:-}" "$top/bench/ni-replay.c" >"$r/src.c"
	[ -z "${3:-}" ] || ! cmp -s "$r/src.c" "$top/bench/ni-replay.c" || { echo "# no change: $3"; return 1; }
	gcc -O2 -Wall -Wextra -Werror -I"$top/lab/host/include" -I"$top/bench/include" \
		-DNEWIDLE_H="\"${2:-$hdr}\"" -o "$1" "$r/src.c"
}
# broken NAME: $r/h-NAME/newidle.h, the tree's with tests/negative/gates/NAME.patch
broken() {
	mkdir -p "$r/h-$1" && cp "$hdr" "$r/h-$1/" &&
		patch -s -p1 -d "$r/h-$1" <"$top/tests/negative/gates/$1.patch"
}
build "$r/replay"
rp() { "$r/replay" "${@:2}" <"$r/$1.rec"; }
# lvl RULE: level, lb_count, lb_gained of RULE in -l's output on stdin
lvl() { awk -v r="$1" '$2 == r { print $1, $3, $4 }'; }
visits() { grep -vc '^#' "$r/$1.rec"; }

t_check "the replay built here is bench/ni-replay.sh's" \
	cmp -s <(rp mix) <("$top/bench/ni-replay.sh" "$r/mix.rec")
# off BIN REC N|some: at N visits (0: none), NO_NI_RANDOM's call, whole successes or ratio are
# not the line's
off() {
	local n
	n=$("$1" <"$r/$2.rec" 2>/dev/null | sed -n "s/.*; \([0-9]*\) off the kernel's$/\1/p")
	case $3 in some) [ "${n:-0}" -gt 0 ] ;; *) [ "$n" = "$3" ] ;; esac
}
t_check "NO_NI_RANDOM's estimate is v7.3's at each of $(visits mix) visits, NI_RATE off" \
	off "$r/replay" mix 0
t_check "... and at each of $(visits rate) with NI_RATE's bonus" off "$r/replay" rate 0
broken unhalved
build "$r/unhalved" "$r/h-unhalved/newidle.h"
t_check "negative control: a window end that halves no success fails it" off "$r/unhalved" mix some
broken rate-bonus
build "$r/bonus" "$r/h-rate-bonus/newidle.h"
t_check "negative control: NI_RATE's bonus per 2^23 ns fails it" off "$r/bonus" rate some
awk '!/^#/ && $3 == 1 && n++ == 500 { $4++ } 1' "$r/mix.rec" >"$r/one.rec"
t_check "negative control: one recorded ratio changed fails it, at that visit" off "$r/replay" one 1

# always_ok BIN: NO_NI_RANDOM's row 1.000, its lb_count and lb_gained per level the recording's
always_ok() {
	[ "$("$1" <"$r/mix.rec" | awk '$1 == "NO_NI_RANDOM" { print $2, $3, $4, $5 }')" = \
		"1.000 1.000 1.000 1.000" ] &&
		[ "$("$1" -l <"$r/mix.rec" | lvl NO_NI_RANDOM)" = "$(awk '!/^#/ { n[$3]++; m[$3] += $10 }
			END { for (l in n) print l, n[l], m[l] }' "$r/mix.rec" | sort -n)" ]
}
t_check "NO_NI_RANDOM's row is 1.000, its attempts and tasks moved per level the recording's" \
	always_ok "$r/replay"
build "$r/throttled" "" 's/return r == ALWAYS || d->visits++ % 2;/return d->visits++ % 2;/'
t_check "negative control: NO_NI_RANDOM skipping every 2nd visit fails it" not always_ok "$r/throttled"

# waker_ok BIN: the waker the task pulled most (the first to lead), named below the table,
# NO_NI_RANDOM's pulls of it per level the recording's
waker_ok() {
	local w
	w=$(awk '!/^#/ && $9 == "P" && ++n[$11] > n[w] + 0 { w = $11 } END { print w }' "$r/mix.rec")
	grep -q "^waker: $w w, the task pulled most" <("$1" <"$r/mix.rec") &&
		[ "$("$1" -l <"$r/mix.rec" | awk '$2 == "NO_NI_RANDOM" { print $1, $5 }')" = \
			"$(awk -v w="$w" '!/^#/ { n[$3] += $11 == w } END { for (l in n) print l, n[l] }' "$r/mix.rec" | sort -n)" ]
}
t_check "the waker: the task pulled most, named, its pulls per level the recording's" waker_ok "$r/replay"
build "$r/flag" "" "s/l->out == 'P' \&\& wpid >= 0 \&\& l->pid == wpid,/l->waker,/"
t_check "negative control: the recorder's flag (it woke others) as the waker fails it" not waker_ok "$r/flag"
awk '!/^#/ && $9 == "P" { $11 = -1 } 1' "$r/mix.rec" >"$r/notask.rec"
t_check "pulls whose task was not recorded (NI_PROBES=rq|rqx) are read, no waker named, none counted" \
	eval 'grep -qx "waker: none, no pull of a task recorded" <(rp notask) && [ "$(rp notask | awk '"'"'$1 == "NO_NI_RANDOM" { print $4 }'"'"')" = - ]'
# met BIN: per level, the attempts ending R or H per pull, the recording's
met() {
	[ "$("$1" <"$r/mix.rec" | sed -n "s/^NI_FOUND's count per pull, by level: //p")" = \
		"$(awk '!/^#/ { m[$3] += $9 == "R" || $9 == "H"; p[$3] += $9 == "P" }
			END { for (l = 0; l in m; l++) printf "%s%d=%.2f", l ? " " : "", l, m[l] / p[l] }' "$r/mix.rec")" ]
}
t_check "running or hot per pull, by level, the recording's (NI_FOUND's successes)" met "$r/replay"
build "$r/metF" "" "s/l->out == 'R' || l->out == 'H';/l->out == 'R' || l->out == 'H' || l->out == 'F';/"
t_check "negative control: F (allowed, not taken) counted too fails it" not met "$r/metF"
awk '!/^#/ && $9 ~ /[ARHF]/ { $9 = "Q" } 1' "$r/mix.rec" >"$r/nocan.rec"
t_check "without can_migrate_task()'s events (NI_PROBES), it is not recorded, not 0" \
	grep -qx "NI_FOUND's count per pull: not recorded (no can_migrate_task())" <(rp nocan)
grep -v '^# schedstat' "$r/mix.rec" >"$r/cut.rec"
t_check "a recording without the recorder's last line is replayed, said cut short" \
	eval '"$r/replay" <"$r/cut.rec" 2>"$r/err" >/dev/null && grep -q "cut short" "$r/err" && rp mix 2>"$r/err" >/dev/null && [ ! -s "$r/err" ]'
t_check "refused: a recording on a pipe (read twice), said" \
	eval '! cat "$r/mix.rec" | "$r/replay" >/dev/null 2>"$r/err"; grep -q "a file, not a pipe" "$r/err"'

# gate CPUS LEVELS VISITS RATIO: per level, newidle_gate()'s attempts, each CPU's gate started
# as the kernel starts it, over VISITS visits at RATIO
cat >"$r/gate.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <linux/bitops.h>
#include NEWIDLE_H
int main(int argc, char **argv)
{
	unsigned int c, l, v, n, cpus = atoi(argv[1]), lvls = atoi(argv[2]), visits = atoi(argv[3]);
	u32 g;

	for (l = 0; l < lvls; l++) {
		for (n = c = 0; c < cpus; c++)
			for (g = newidle_gate_init(c + l * cpus), v = 0; v < visits; v++)
				n += newidle_gate(&g, atoi(argv[4]));
		printf("%u %u 0\n", l, n);
	}
	return argc != 5;
}
EOF
gcc -O2 -Wall -Werror -I"$top/lab/host/include" -I"$top/bench/include" -DNEWIDLE_H="\"$hdr\"" \
	-o "$r/gate" "$r/gate.c"
# gate_ok BIN RATIO: the gate's lb_count per level on rRATIO.rec (4 CPUs, 3 levels, 10000 calls)
gate_ok() { [ "$("$1" -l <"$r/r$2.rec" | lvl gate)" = "$("$r/gate" 4 3 10000 "$2")" ]; }
for k in 0 100; do
	t_check "the gate's attempts per level are newidle_gate()'s at ratio $k:$("$r/gate" 4 3 10000 $k |
		awk '{ printf " %s", $2 }')" gate_ok "$r/replay" $k
done
build "$r/gate-cpu" "" 's/newidle_gate_init(cpu + lvl \* ncpus)/newidle_gate_init(cpu)/'
t_check "negative control: a gate started alike on each level fails it" not gate_ok "$r/gate-cpu" 100

# binomial BIN REC RULE K: RULE's attempts within 4 standard deviations of K / 1024 of the
# visits (at a fixed seed: the same count on every run)
binomial() {
	awk -v a="$("$1" -l <"$r/$2.rec" | awk -v r="$3" '$2 == r { s += $3 } END { print s }')" \
		-v n="$(visits "$2")" -v p="$4" 'BEGIN { p /= 1024; m = n * p; e = 4 * sqrt(m * (1 - p))
		printf "# %d attempts, bound %.0f-%.0f\n", a, m - e, m + e; exit !(a >= m - e && a <= m + e) }'
}
t_check "v7.3's dice attempts on (2 + ratio) / 1024 of the visits at ratio 0" binomial "$r/replay" r0 v7.3-dice 2
t_check "... and at ratio 100" binomial "$r/replay" r100 v7.3-dice 102
t_check "the fixed rate on (1 + ratio) / 1024 at ratio 0" binomial "$r/replay" r0 fixed-rate 1
t_check "... and at ratio 100" binomial "$r/replay" r100 fixed-rate 101
build "$r/nodice" "" 's/<= ratio + (r == DICE);/<= ratio;/'
t_check "negative control: v7.3's dice as the fixed rate fails it" not binomial "$r/nodice" r0 v7.3-dice 2
build "$r/dice" "" 's/<= ratio + (r == DICE);/<= ratio + 1;/'
t_check "negative control: the fixed rate as v7.3's dice fails it" not binomial "$r/dice" r0 fixed-rate 1
t_check "negative control: the wrong rule, every 2nd visit, fails the dice's" \
	not binomial "$r/replay" r100 every-2nd 102

# NI_FOUND: the fixed rate (its draws too), an attempt refusing a running or hot task a success
found() { [ "$(rp "$1" -l | lvl NI_FOUND)" = "$(rp "$1" -l | lvl fixed-rate)" ]; }
t_check "NI_FOUND is the fixed rate where no attempt meets a running or hot task" found r100
t_check "negative control: where attempts meet them (R, H), it is not" not found mix

# a tester's build: no out/linux, newidle.h made from patches/ alone
cp -r "$PATCHES" "$r/patches"
tester() { OUT=$r/out PATCHES=$r/patches "$top/bench/ni-replay.sh" "$@" "$r/mix.rec"; }
same() { cmp -s <(tester) <(rp mix) && cmp -s <(tester -l) <(rp mix -l); }
t_check "from patches/ alone, the table and -l's are those from out/linux" same
sed -i 's/^\(+\treturn sd->newidle_call >= NEWIDLE_SCALE\);$/\1 \/ 2;/' "$r"/patches/0007-*
t_check "negative control: from patches/ whose window closes at 512, they are not, its estimate off" \
	eval '! same && tester >"$r/t.rec" && off cat t some'

# refusals, each naming its line; what a line has after its fields is not read
# bad LINE FIELD [VALUE]: bad.rec, the recording with LINE's FIELD VALUE, or LINE cut before it
bad() {
	awk -v l="$1" -v f="$2" -v v="${3-}" 'NR == l { if (v == "") NF = f - 1; else $f = v } 1' \
		"$r/mix.rec" >"$r/bad.rec"
}
# refused LINE [COMMAND...]: bad.rec on stdin refused, naming LINE, exit 2, nothing left behind
refused() {
	local l=$1 rc=0
	shift
	TMPDIR=$r/tmp "${@:-$r/replay}" <"$r/bad.rec" >/dev/null 2>"$r/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "ni-replay: line $l " "$r/err" && [ -z "$(ls -A "$r/tmp")" ]
}
mkdir "$r/tmp"
while IFS='|' read -r l f v what; do
	bad "$l" "$f" "$v"
	t_check "refused: $what, line $l" refused "$l"
done <<EOF
7|9|X|an outcome X
9|13||a line cut short
12|4|-3|a negative ratio
20|4|1025|ratio 1025
$(awk '$9 == "P" { print NR; exit }' "$r/mix.rec")|10|0|a pull that moved nothing
2|1|# cpus=0|no CPUs
EOF
t_check "... by bench/ni-replay.sh, nothing left behind" refused 2 "$top/bench/ni-replay.sh" "$r/bad.rec"
cp "$r/mix.rec" "$r/bad.rec"
t_check "negative control: the recording itself is not refused" not refused 7
awk '!/^#/ { $0 = $0 " 42 extra" } 1' "$r/mix.rec" >"$r/more.rec"
t_check "fields added at a line's end are not read" cmp -s <(rp mix) <(rp more)
t_check "refused: a recording not there" refuses_with "no recording" "$top/bench/ni-replay.sh" "$r/none.rec"
mkdir "$r/bin" && ln -s "$(command -v dirname)" "$(command -v nproc)" "$r/bin/"
nogcc() { env PATH="$r/bin" TMPDIR="$r/tmp" "$BASH" "$top/bench/ni-replay.sh" "$r/mix.rec"; }
t_check "refused: no gcc, nothing left behind" eval 'refuses_with "gcc is missing" nogcc && [ -z "$(ls -A "$r/tmp")" ]'

# the paste: at most 10 lines of 80 columns, its title saying what it is
paste_ok() {
	[ "$(wc -l <"$1")" -le 10 ] && ! grep -q '.\{73\}' "$1" &&
		grep -qx 'Newidle recording replayed, first order, NI_RATE off, 0.15 s, seed 1' "$1"
}
rp mix >"$r/table" && rp mix -l >"$r/levels"
t_check "the table: $(wc -l <"$r/table") lines, 72 columns at most, its title the recording's" paste_ok "$r/table"
t_check "negative control: -l's $(wc -l <"$r/levels") lines fail it" not paste_ok "$r/levels"
# The recorder's parser (bench/ni-record.sh --parse) on events a 20-vCPU guest recorded
# (make ni-validate, v7.3, sembench815 under NO_NI_RANDOM), and the replay of the
# recording the guest's own parser made: one line per visit, the kernel's state in each
g=$top/tests/fixtures/ni
mkdir "$r/bb" && printf '#!/bin/sh\nexec busybox awk "$@"\n' >"$r/bb/awk" && chmod +x "$r/bb/awk"
parse() { "${@:2}" "$BASH" "$1" --parse <"$g/guest.trace"; }
# visits FILE: per CPU and level, each line's newidle_call the last's + 1, halved at 1024
# (update_newidle_stats()): no visit lost, no CPU's lines taken for another's
visits_ok() {
	awk '!/^#/ { k = $1 " " $3; if (k in c) { e = c[k] + 1; if (e >= 1024) e = int(e / 2)
		bad += $5 != e } c[k] = $5; n++ } END { exit !(n > 20 && !bad) }' "$1"
}
# events FILE: per CPU, its lines are the trace's returns there (read as text), no cost below 0
events_ok() {
	cmp -s <(grep -o '\[[0-9]*\] [^ ]* *[0-9.]*: rqx:' "$g/guest.trace" | sed 's/^\[0*\([0-9]\)/\1/; s/].*//' |
		sort | uniq -c) <(awk '!/^#/ { print $1 }' "$1" | sort | uniq -c) &&
		awk '!/^#/ && $8 < 0 { exit 1 }' "$1"
}
parse "$top/bench/ni-record.sh" >"$r/p-awk"
parse "$top/bench/ni-record.sh" env PATH="$r/bb:$PATH" >"$r/p-bb"
t_check "the parser: one line per visit on the guest's events, $(grep -vc '^#' "$r/p-awk") of them, each its CPU's" \
	eval 'visits_ok "$r/p-awk" && events_ok "$r/p-awk"'
t_check "... the same lines under busybox's awk (the guest's)" cmp -s "$r/p-awk" "$r/p-bb"
sed -e 's/c = dec(substr($i, 2, length($i) - 2))/c = substr($i, 2, length($i) - 2) + 0/' \
	-e 's/t = dec(ts\[1\]) \* 1000000 + dec(ts\[2\])/t = ts[1] * 1000000 + ts[2]/' \
	"$top/bench/ni-record.sh" >"$r/octal.sh"
t_check "(the control's parser: its two reads undone)" \
	[ "$(diff "$top/bench/ni-record.sh" "$r/octal.sh" | grep -c '^>')" = 2 ]
parse "$r/octal.sh" env PATH="$r/bb:$PATH" >"$r/p-oct"
t_check "negative control: without dec(), busybox reads [016] as octal: CPUs mixed" not events_ok "$r/p-oct"
cp "$g/guest.rec" "$r/guest.rec"
t_check "the guest's own recording: one line per visit" visits_ok "$g/guest.rec"
awk '!/^#/ && n[$1 " " $3]++ == 1 && !done++ { next } 1' "$g/guest.rec" >"$r/lost.rec"
t_check "negative control: a visit taken out (a domain's second) fails it" \
	eval '[ "$(visits lost)" = $(($(visits guest) - 1)) ] && ! visits_ok "$r/lost.rec"'
t_check "its replay's NO_NI_RANDOM estimate is the kernel's at each of $(visits guest) visits" \
	off "$r/replay" guest 0
t_check "negative control: a window end that halves no success fails it there too" off "$r/unhalved" guest some
# The recorder's refusals, before anything is changed: tracefs and debugfs stand-ins
# without kprobe events or features (root: make check's CI; as another user, root alone)
mkdir "$r/tfs" "$r/dfs"
rec() { TRACEFS=$r/tfs DEBUGFS=$r/dfs "$BASH" "$top/bench/ni-record.sh" "$@"; }
missing() { local rc=0; rec --check 2>"$r/miss" || rc=$?; [ "$rc" = 1 ] && grep -c '^ni-record: missing: ' "$r/miss"; }
if [ "$(id -u)" = 0 ]; then
	t_check "--check: kprobe events, BTF arguments, return probes, the features, all at once (exit 1)" \
		eval '[ "$(missing)" -ge 4 ] && grep -q kprobe_events "$r/miss" && grep -q PROBE_EVENTS_BTF_ARGS "$r/miss" &&
			grep -q "return probes" "$r/miss" && grep -q "sched/features cannot be read" "$r/miss"'
	t_check "... and a recording is refused so, its OUT not made, the stand-ins untouched" \
		eval '! rec "$r/out.rec" true 2>/dev/null && [ ! -e "$r/out.rec" ] && [ -z "$(find "$r/tfs" "$r/dfs" -mindepth 1)" ]'
	printf 'NI_RANDOM NI_RATE\n' >"$r/feat"
	mkdir -p "$r/dfs/sched" && cp "$r/feat" "$r/dfs/sched/features"
	t_check "negative control: with the features there, they are not named" \
		eval 'missing >/dev/null; ! grep -q "sched/features" "$r/miss"'
fi
usage2() { local rc=0; rec "$@" >/dev/null 2>&1 || rc=$?; [ "$rc" = 2 ]; }
t_check "bad arguments (none, an unknown option, OUT alone): usage, exit 2" \
	eval 'usage2 && usage2 --bogus && usage2 "$r/x.rec"'
t_done
