#!/bin/bash
# The steps that need the kernel tree but no kernel build: each variant has
# its own kselftests and initramfs (a patched boot never runs the
# baseline's tests); the outbox stops when the sim fails and never pastes a
# report from emulation; the bisection stops at a commit it cannot check
# out instead of building the one before; a step that fails stops
# lab/prepare.sh.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$top"
members() { cpio -t --quiet <"$(variant_guest "$1")/base.cpio"; }

# --- guest files per variant: the baseline's built after the patched one's
lab/prepare.sh guest patched >/dev/null 2>&1 || lab/prepare.sh guest patched
lab/steps/selftests.sh baseline >/dev/null 2>&1
lab/steps/initramfs.sh baseline >/dev/null 2>&1
members patched >"$scratch/patched.list"
members baseline >"$scratch/baseline.list"
t_check "guest: the patched initramfs carries the patched kselftest" grep -qx 'lab/kselftest/sched/newidle_gate_test' "$scratch/patched.list"
t_check "guest: and the step build of it (a negative control)" grep -qx 'lab/bin/newidle_gate_test.step' "$scratch/patched.list"
t_check "guest: building the baseline's after it left it so" test "$(variant_guest patched)/base.cpio" -ot "$(variant_guest baseline)/base.cpio"
t_check "negative control: the baseline (v7.3) initramfs has no such test" eval '! grep -q newidle_gate_test "$scratch/baseline.list"'
t_check "guest: both carry futexbench and aba.sh" \
	eval 'grep -qx lab/bin/futexbench "$scratch/baseline.list" && grep -qx lab/bin/aba.sh "$scratch/patched.list"'

# --- the outbox: scratch places, the sender, a sim that fails, a report
# from emulation, the model's claim, the two sets, the lint on planted faults
# the rows of gate_sim's tables A, C and D that sim/cover-table.sh reads
# (table A without its NI_RATE 8, jitter 1% setting), where the gate misses
# its worst-k claim: the outbox must have a table that backs the letter
export OUTBOX_DIR=$scratch/outbox OUTBOX_SIM_TABLE=$top/tests/lab/A-lockon.sample
export LKML_HARNESS=https://git.kernel-lab.org/newidle-lab.git
ident() { env GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$1" \
	GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$2" "${@:3}"; }
me() { ident "Ada Tester" "ada.tester@mail.kernel-lab.org" "$@"; }
proj=$(project_identity)
pname=${proj% <*} pmail=${proj##*<}
t_check "outbox: the project's placeholder identity is refused, naming what to set" \
	refuses_with "is the project's placeholder" ident "$pname" "${pmail%>}" lab/tools/outbox.sh
t_check "outbox: an address that cannot receive mail is refused" \
	refuses_with "cannot receive mail" ident "Ada Tester" "ada@users.noreply.github.com" lab/tools/outbox.sh
t_check "outbox: an unset identity is refused, naming user.name" \
	refuses_with "user.name or user.email is unset" ident "" "" lab/tools/outbox.sh
t_check "outbox: a version 1 is refused (a new series has none)" \
	refuses_with "leave it unset for a new series" me env LKML_VERSION=1 lab/tools/outbox.sh
t_check "outbox: without LKML_HARNESS it is refused, naming it (testers would not know where the harness is)" \
	refuses_with "LKML_HARNESS is unset" me env -u LKML_HARNESS lab/tools/outbox.sh
t_check "outbox: a local path as LKML_HARNESS is refused (no tester can clone it)" \
	refuses_with "LKML_HARNESS '$top' is not a URL testers can clone" me env LKML_HARNESS="$top" lab/tools/outbox.sh
script "$scratch/fakegcc/gcc" 'echo "fake gcc: no" >&2' 'exit 1'
t_check "outbox: a sim that fails stops it, said" \
	refuses_with "the sim did not run" me env PATH="$scratch/fakegcc:$PATH" lab/tools/outbox.sh
t_check "outbox: and nothing was written" test ! -e "$scratch/outbox/gate"
sed '0,/gate\/64 .*met$/s/\(gate\/64 .*\)met$/\1MISSED/' tests/lab/A-lockon.sample >"$scratch/A-missed.txt"
t_check "outbox: a model table where the gate misses its claim stops it" \
	refuses_with "does not back the cover letter" me env OUTBOX_SIM_TABLE="$scratch/A-missed.txt" lab/tools/outbox.sh
printf 'Machine: host x\nemulated (icount): same cost per instruction, no caches\nfutex: completions_per_s 424242.4242\n' >"$scratch/emulated.txt"
rc=0
me env OUTBOX_BENCH="$scratch/emulated.txt" lab/tools/outbox.sh >"$scratch/outbox.log" 2>&1 || { rc=$?; tail -20 "$scratch/outbox.log" | sed 's/^/# /'; }
t_check "outbox: with a report from emulation it is written ($rc)" test "$rc" = 0
fixes=$scratch/outbox/fixes gate=$scratch/outbox/gate
cover=$(ls "$gate"/0000-cover-letter.patch 2>/dev/null || echo none)
exp=$scratch/outbox/experiment dbg=$scratch/outbox/debugfs
t_check "outbox: four sets, the debugfs fixes (2 and a letter), the fixes (4 and a letter), the gate (5 and a letter), the experiment (2 and a letter)" \
	test "$(ls "$dbg"/*.patch 2>/dev/null | wc -l) $(ls "$fixes"/*.patch 2>/dev/null | wc -l) $(ls "$gate"/*.patch 2>/dev/null | wc -l) $(ls "$exp"/*.patch 2>/dev/null | wc -l)" = "3 5 6 3"
# How to test: the harness at this commit, each step's command and its time as
# bench/bare-metal.sh --time computes it from its defaults
# bmt quick|full [OPTION]: the minutes bare-metal.sh --time gives
bmt() { env -u RUNS -u SECONDS_PER_RUN -u COMPARISONS -u WORKLOADS -u SCHBENCH -u CANDIDATES ABA_FEATURES=/nonexistent bench/bare-metal.sh "${@:2}" --time |
	sed -n "s/^$1: about \([0-9]*\) minutes.*/\1/p"; }
# says FILE TEXT: FILE's text, its lines joined, has TEXT
says() { local t; t=$(tr '\n' ' ' <"$1" | tr -s ' '); grep -qF -- "$2" <<<"$t"; }
# How to test is written once, in the fixes' letter; the gate's and the experiment's point to it
tb=$(env -u RUNS -u SECONDS_PER_RUN -u SCHBENCH -u CANDIDATES COMPARISONS=norandom WORKLOADS=tbench32 bench/bare-metal.sh --time |
	sed -n "s/^full: about \([0-9]*\) minutes.*/\1/p")
t_check "outbox: the fixes' letter says how to test: first tbench 32 on v7.3 and on the fixes, three boots or more, its command and time" \
	eval 'says "$fixes/0000-cover-letter.patch" "three boots of each or more, the kernels alternating, about $tb minutes a boot" &&
		says "$fixes/0000-cover-letter.patch" "git clone $LKML_HARNESS newidle-lab cd newidle-lab && git checkout $(git rev-parse --short=12 HEAD) sudo env COMPARISONS=norandom WORKLOADS=tbench32 bench/bare-metal.sh"'
t_check "outbox: then step one's commands and times" \
	eval 'says "$fixes/0000-cover-letter.patch" "and about $(bmt quick --step1) minutes, in that checkout" &&
		says "$fixes/0000-cover-letter.patch" "sudo bench/bare-metal.sh --step1 --quick --check sudo bench/bare-metal.sh --step1 --quick"'
for c in "$gate" "$exp"; do
	t_check "outbox: ${c##*/}'s letter points to How to test, not a copy of it" \
		eval 'grep -q "^How to test: in the" "$c/0000-cover-letter.patch" && ! grep -q "step1" "$c/0000-cover-letter.patch"'
done
t_check "outbox: and steps two and three with bare-metal.sh's times ($(bmt quick), $(bmt full --step1) and $(bmt full) minutes)" \
	eval 'says "$fixes/0000-cover-letter.patch" "sudo bench/bare-metal.sh --quick (about $(bmt quick) minutes)" &&
		says "$fixes/0000-cover-letter.patch" "about $(bmt full --step1) minutes for step one, $(bmt full) on the experiment kernel"'
sed 's/(about [0-9]* minutes)/(about 1 minutes)/' "$fixes/0000-cover-letter.patch" >"$scratch/wrongtime.patch"
t_check "negative control: a letter with another time fails that check" \
	not says "$scratch/wrongtime.patch" "sudo bench/bare-metal.sh --quick (about $(bmt quick) minutes)"
t_check "outbox: the debugfs fixes, which change no scheduling, ask no tester" eval '! grep -q "How to test" "$dbg"/*.patch'
t_check "outbox: the experimental set is an RFC for testing, on top of the gate's" \
	eval 'grep -q "^Subject: \[RFC PATCH 0/2\] .*for testing" "$exp/0000-cover-letter.patch" &&
		test "$(grep -c "^prerequisite-patch-id: " "$exp/0000-cover-letter.patch")" = 11'
t_check "outbox: the debugfs fixes stand alone: [PATCH]es made on the base, no prerequisite" \
	eval 'grep -q "^Subject: \[PATCH 1/2\] sched/debug: Remove a CPU" "$dbg"/0001-*.patch &&
		grep -q "^base-commit: $(git -C "$LINUX" rev-parse "$BASE_TAG")" "$dbg"/0000-cover-letter.patch &&
		! grep -q "^prerequisite-patch-id: " "$dbg"/0000-cover-letter.patch'
t_check "outbox: the v4 thread's people are copied on the gate, not on the debugfs fix" \
	eval 'grep -q "Chengfeng Lin" "$cover" && ! grep -q "Chengfeng Lin" "$dbg"/*.patch'
t_check "outbox: each set numbers its own patches" \
	eval 'grep -q "^Subject: \[RFC PATCH 1/4\] sched/fair: Fix the off-by-one" "$fixes"/0001-*.patch &&
		grep -q "^Subject: \[RFC PATCH 1/5\] sched/fair: Move the newidle" "$gate"/0001-*.patch'
t_check "outbox: the gate's set names the fixes as prerequisites, after base-commit" \
	eval 'test "$(grep -c "^prerequisite-patch-id: " "$cover")" = 6 && grep -q "^base-commit: " "$cover"'
t_check "outbox: the fixes' letter has its subject and stable policy" \
	eval 'grep -q "^Subject: \[RFC PATCH 0/4\] sched/fair: Fix the newidle balance success estimate" "$fixes/0000-cover-letter.patch" &&
		grep -q "stable+noautosel" "$fixes/0000-cover-letter.patch"'
t_check "outbox: a new series: no version in the subjects" eval '! grep -q "^Subject: \[\(RFC \)\?PATCH v" "$scratch"/outbox/*/*.patch'
t_check "outbox: without figures from hardware every mail of a set that changes scheduling is an [RFC PATCH]" \
	eval '! grep -h "^Subject: " "$scratch"/outbox/{fixes,gate,experiment}/*.patch | grep -v -q "^Subject: \[RFC PATCH "'
t_check "outbox: the emulated report is not in the cover letter" eval '! grep -q 424242 "$cover"'
t_check "outbox: the letter says there is no report from hardware" grep -q 'no benchmark report from hardware' "$cover"
t_check "outbox: every From: is the sender" eval '! grep -h "^From: " "$scratch"/outbox/*/*.patch | grep -v -q "From: Ada Tester <ada.tester@mail.kernel-lab.org>"'
t_check "outbox: every patch is signed off by the sender, once" \
	test "$(grep -c '^Signed-off-by: Ada Tester <ada.tester@mail.kernel-lab.org>' "$scratch"/outbox/*/00[0-9][1-9]-*.patch | awk -F: '{ s += $2 } END { print s }')" = "$(( $(series_list | wc -l) + $(experiment_list | wc -l) ))"
t_check "outbox: the placeholder identity is gone from the mails" eval '! grep -q -F -e "${pmail%>}" -e "$pname" "$scratch"/outbox/*/*.patch'
t_check "outbox: the base is named as Debian's import of v7.3.4" \
	grep -q '^Base: v7.3.4 as Debian.s linux-source-7.3 7.3.4-1~bpo13+1 imports it' "$cover"
t_check "outbox: the model's table is in the letter, labelled" \
	eval 'grep -q "a model, not a measurement" "$cover" && grep -q -E "^ +0 +0% +[0-9.]+ / " "$cover"'
t_check "outbox: Qing Wang's v4 is credited, the testers by name and the thread's date" \
	eval 'grep -q "Suggested-by: Qing Wang" "$gate"/*.patch && grep -q "PATCH v4" "$cover" &&
		grep -q "Chengfeng" "$cover" && grep -q "Kayra" "$cover" && grep -q "30 Oct 2026" "$cover"'
# the lint, on planted faults in a copy of the good outbox
lint() { cp -r "$gate" "$scratch/lint"; sed -i "$1" "$scratch/lint/$2"; rc=0
	lab/tools/outbox-lint.sh "$scratch/lint" "Ada Tester <ada.tester@mail.kernel-lab.org>" >"$scratch/lint.log" || rc=$?
	rm -rf "$scratch/lint"; [ "$rc" != 0 ] && grep -q "$3" "$scratch/lint.log"; }
t_check "lint: the good outbox passes" lab/tools/outbox-lint.sh "$gate" "Ada Tester <ada.tester@mail.kernel-lab.org>"
c=0000-cover-letter.patch p1=$(cd "$gate" && ls 0001-*.patch)
t_check "lint: a placeholder left fails" lint '$a @BENCH_TABLE@' "$c" "placeholder left"
t_check "lint: a path of the lab fails" lint '$a see sim/model.h' "$c" "names a path of the lab"
t_check "lint: one just before How to test (whose commands may name them) fails" lint '/^How to test/i see sim/model.h' "$c" "names a path of the lab"
t_check "lint: the repository's absolute path fails" lint "\$a $top/out/x" "$p1" "names this repository's path"
t_check "lint: an emulated figure without its label fails" lint '$a\\nUnder QEMU the gate made 11215 ops/s.' "$c" "figure from emulation without its label"
printf '\nUnder QEMU (emulated, not hardware) the gate made 11215 ops/s.\n' >"$scratch/labelled.txt"
cp -r "$gate" "$scratch/lint2" && cat "$scratch/labelled.txt" >>"$scratch/lint2/$c"
t_check "lint: an emulated figure with its label passes" lab/tools/outbox-lint.sh "$scratch/lint2" "Ada Tester <ada.tester@mail.kernel-lab.org>"
t_check "lint: an unlabelled model table fails" lint 's/a model, not a measurement/measured/' "$c" "not labelled"
t_check "lint: a Tested-by of someone else fails" lint '/^Signed-off-by:/i Tested-by: Kayra Cizmeci <k@example.org>' "$p1" "claims another person's action"
t_check "lint: a Link: fails" lint '/^Signed-off-by:/i Link: https://example.org/x' "$p1" "no Link:"
t_check "lint: a version on a new series fails" lint 's/^Subject: \[RFC PATCH /Subject: [RFC PATCH v5 /' "$p1" "numbers a series"
t_check "lint: a letter without figures from hardware that is not an RFC fails" \
	lint 's/^Subject: \[RFC PATCH /Subject: [PATCH /' "$c" "not an \[RFC PATCH\]"
t_check "lint: another person's Signed-off-by fails" lint '/^Signed-off-by:/i Signed-off-by: Qing Wang <q@example.org>' "$p1" "is not the sender"
t_check "lint: another From: fails" lint 's/^From: .*/From: Qing Wang <q@example.org>/' "$p1" "is not the sender"
sed '/emulated/d' "$scratch/emulated.txt" >"$scratch/hardware.txt"
# the second run also has a sender whose name is not ASCII
ident "Zoë Tëster" "zoe.tester@mail.kernel-lab.org" env OUTBOX_BENCH="$scratch/hardware.txt" lab/tools/outbox.sh >"$scratch/outbox.log" 2>&1 || true
t_check "negative control: a report from hardware is pasted" grep -q 424242 "$gate"/0000-cover-letter.patch
t_check "outbox: with figures from hardware, a [PATCH], not an RFC" grep -q '^Subject: \[PATCH 0/5\]' "$gate"/0000-cover-letter.patch
t_check "outbox: and the experimental set still an RFC" grep -q '^Subject: \[RFC PATCH 0/2\]' "$exp"/0000-cover-letter.patch
t_check "outbox: the earlier one became the previous outbox" test -d "$scratch/outbox/previous/gate"
t_check "outbox: out/outbox was not touched" eval '! grep -qs 424242 "$OUT"/outbox/*/*0000-cover-letter.patch'
t_check "outbox: a name that is not ASCII is RFC 2047-encoded in From:" \
	grep -q '^From: =?UTF-8?q?Zo=C3=AB=20T=C3=ABster?= <zoe.tester@mail.kernel-lab.org>' "$fixes"/0001-*.patch
t_check "outbox: and its sign-off is the name as it is" \
	grep -q '^Signed-off-by: Zoë Tëster <zoe.tester@mail.kernel-lab.org>' "$fixes"/0001-*.patch
t_check "outbox: the lint reads the encoded From: (the set passed)" grep -q 'lint fixes: no placeholder' "$scratch/outbox.log"

# --- the bisection stops at a commit it cannot check out
wt=$(worktree_at bisect)	# the bisection's tree, where lab/tools/lkml.sh keeps it
gd=$(git -C "$wt" rev-parse --absolute-git-dir)
touch "$gd/index.lock"
rc=0
LKML_CHECKS=bisect LKML_RANGE=patched~1..patched LKML_BISECT_CONFIGS=guest lab/tools/lkml.sh >"$scratch/bisect.log" 2>&1 || rc=$?
rm -f "$gd/index.lock"
t_check "bisect: a commit that cannot be checked out fails the check ($rc)" grep -q '^not ok 1 - lkml bisect' "$scratch/bisect.log"
t_check "bisect: and says so" grep -q 'CANNOT CHECK OUT' "$scratch/bisect.log"
t_check "bisect: nothing was built in its place" eval '! grep -q "config builds" "$scratch/bisect.log"'

# --- a step that fails stops the pipeline (the kselftests do not build)
script "$scratch/fakemake/make" 'echo "fake make: no" >&2' 'exit 2'
rc=0
env PATH="$scratch/fakemake:$PATH" lab/prepare.sh guest patched >/dev/null 2>"$scratch/prepare.err" || rc=$?
t_check "prepare: a step that fails fails the pipeline ($rc)" test "$rc" != 0
t_check "prepare: naming the step's error" grep -q 'sched kselftests did not build' "$scratch/prepare.err"
t_done
