#!/bin/bash
# The steps that need the kernel tree but no kernel build: each variant has
# its own kselftests and initramfs (a patched boot never runs the
# baseline's tests); the outbox stops when the sim fails and never pastes a
# report from emulation; the bisection stops at a commit it cannot check
# out instead of building the one before; a step that fails stops
# lab/prepare.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. tests/lib.sh
. lab/lib.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
members() { cpio -t --quiet <"$(variant_guest "$1")/base.cpio"; }

# --- guest files per variant: the baseline's built after the patched one's
lab/prepare.sh guest patched >/dev/null 2>&1 || lab/prepare.sh guest patched
lab/selftests.sh baseline >/dev/null 2>&1
lab/initramfs.sh baseline >/dev/null 2>&1
members patched >"$w/patched.list"
members baseline >"$w/baseline.list"
t_check "guest: the patched initramfs carries the patched kselftest" grep -qx 'lab/kselftest/sched/newidle_gate_test' "$w/patched.list"
t_check "guest: and the dice build of it (the negative control)" grep -qx 'lab/bin/newidle_gate_test.dice' "$w/patched.list"
t_check "guest: building the baseline's after it left it so" test "$(variant_guest patched)/base.cpio" -ot "$(variant_guest baseline)/base.cpio"
t_check "negative control: the baseline (v7.3) initramfs has no such test" eval '! grep -q newidle_gate_test "$w/baseline.list"'
t_check "guest: both carry futexbench and aba.sh" \
	eval 'grep -qx lab/bin/futexbench "$w/baseline.list" && grep -qx lab/bin/aba.sh "$w/patched.list"'

# --- the outbox: scratch places, a sim that fails, a report from emulation
export OUTBOX_DIR=$w/outbox
mkdir -p "$w/fakegcc"
printf '#!/bin/sh\necho "fake gcc: no" >&2\nexit 1\n' >"$w/fakegcc/gcc"
chmod +x "$w/fakegcc/gcc"
t_check "outbox: a sim that fails stops it, said" \
	refuses_with "the sim did not run" env PATH="$w/fakegcc:$PATH" lab/outbox.sh
t_check "outbox: and nothing was written" test ! -e "$w/outbox/v5"
printf 'Machine: host x\nEMULATED (QEMU tcg): smoke test of the harness, not a performance claim\nfutex: completions_per_s 424242.4242\n' >"$w/emulated.txt"
rc=0
OUTBOX_BENCH=$w/emulated.txt lab/outbox.sh >"$w/outbox.log" 2>&1 || rc=$?
t_check "outbox: with a report from emulation it is written ($rc)" test "$rc" = 0
cover=$(ls "$w"/outbox/v5/*0000-cover-letter.patch 2>/dev/null || echo none)
t_check "outbox: the emulated figures are not in the cover letter" eval '! grep -q 424242 "$cover"'
t_check "outbox: the letter says there is no report from hardware" grep -q 'no benchmark report from hardware' "$cover"
sed '/EMULATED/d' "$w/emulated.txt" >"$w/hardware.txt"
OUTBOX_BENCH=$w/hardware.txt lab/outbox.sh >"$w/outbox.log" 2>&1 || true
t_check "negative control: a report from hardware is pasted" grep -q 424242 "$w"/outbox/v5/*0000-cover-letter.patch
t_check "outbox: the earlier one became the previous outbox" test -d "$w/outbox/previous"
t_check "outbox: out/outbox was not touched" eval '! grep -qs 424242 "$OUT"/outbox/v*/*0000-cover-letter.patch'

# --- the bisection stops at a commit it cannot check out
wt=$(worktree_at bisect)	# the bisection's tree, where lab/lkml.sh keeps it
gd=$(git -C "$wt" rev-parse --absolute-git-dir)
touch "$gd/index.lock"
rc=0
LKML_CHECKS=bisect LKML_RANGE=patched~1..patched LKML_BISECT_CONFIGS=guest lab/lkml.sh >"$w/bisect.log" 2>&1 || rc=$?
rm -f "$gd/index.lock"
t_check "bisect: a commit that cannot be checked out fails the check ($rc)" grep -q '^not ok 1 - lkml bisect' "$w/bisect.log"
t_check "bisect: and says so" grep -q 'CANNOT CHECK OUT' "$w/bisect.log"
t_check "bisect: nothing was built in its place" eval '! grep -q "config builds" "$w/bisect.log"'

# --- a step that fails stops the pipeline (the kselftests do not build)
mkdir -p "$w/fakemake"
printf '#!/bin/sh\necho "fake make: no" >&2\nexit 2\n' >"$w/fakemake/make"
chmod +x "$w/fakemake/make"
rc=0
env PATH="$w/fakemake:$PATH" lab/prepare.sh guest patched >/dev/null 2>"$w/prepare.err" || rc=$?
t_check "prepare: a step that fails fails the pipeline ($rc)" test "$rc" != 0
t_check "prepare: naming the step's error" grep -q 'sched kselftests did not build' "$w/prepare.err"
t_done
