#!/bin/bash
# The test runner itself (tests/run.sh) on fake parts.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$top"

# a fake preparation: packages and tree fine, the kernel does not build
script "$scratch/prepare" 'case $1 in deps) exit 0 ;; apply) echo "fake: applied" >&2; echo >>"${0%/*}/applies"; exit 0 ;; guest) echo "fake: the kernel does not build" >&2; exit 1 ;; esac' 'exit 2'
cat >"$scratch/parts" <<'EOF2'
# name need command (a comment, passed over)
a  -       printf 'ok 1 - a\nok 2 - b # SKIP no tool\n1..2\n'
b  tree    printf 'ok 1 - a\n1..2\n'
c  kernel  printf 'ok 1 - c\n1..1\n'
d  tree    printf 'ok 1 - a\nnot ok 2 - b\n1..2\n'
e  -       true
f  -       printf 'ok 1 - f\n1..1\n'; printf '| ok 1 - a console tail\nok 2 - on stderr\n' >&2
g  tree    printf 'ok 1 - after the kernel failed\n1..1\n'
h  -       printf 'ok 1 - h\n1..1\n'; exit 3
i  -       exec perl -e '1 while wait() > 0; print "ok 1 - waits for its children\n1..1\n"'
j  -       read -r x || true; printf 'ok 1 - stdin: %s\n1..1\n' "${x:-none}"
k  -       printf 'ok 1 - the parts after one that reads stdin still run\n1..1\n'
EOF2
# (ONLY may come from the make check that runs this test)
runner() { env -u ONLY OUT="$scratch/$1" CHECK_PARTS="$scratch/parts" CHECK_PREPARE="$scratch/prepare" "${@:2}"; }

runrc "$scratch/run.out" runner out timeout 600 tests/run.sh
t_check "runner: fails when a part fails" test "$rc" != 0
t_check "runner: the closing line counts skips apart, short plans, no TAP, exits and parts not run as failures" \
	test "$(tail -1 "$scratch/run.out")" = "9 passed, 5 failed, 1 skipped"
t_check "runner: the tree prepared once, beside the first parts, its output shown" eval \
	'test "$(wc -l <"$scratch/applies")" = 1 && grep -q "== prepared beside the first parts" "$scratch/run.out" && grep -q "fake: applied" "$scratch/run.out"'
t_check "runner: a part whose kernel does not build is not run, and says why" \
	grep -q "== c: not run: '$scratch/prepare guest patched' failed" "$scratch/run.out"
t_check "runner: a part after it that needs no kernel still runs" grep -q '^ok 1 - after the kernel failed' "$scratch/out/logs/check-g.log"
t_check "runner: each part's TAP is kept" test -s "$scratch/out/logs/check-a.log"
t_check "runner: and its stderr apart" grep -q 'a console tail' "$scratch/out/logs/check-f.err"
t_check "runner: a part exiting non-zero with only passes is a failure, said" grep -q 'h exited 3 without a failing result' "$scratch/run.out"
t_check "runner: a part that waits for all its children finishes (none of them is the runner's)" \
	grep -q '^ok 1 - waits for its children' "$scratch/out/logs/check-i.log"
t_check "runner: a part reads no stdin (the part list is not its)" grep -q '^ok 1 - stdin: none' "$scratch/out/logs/check-j.log"
t_check "runner: and the parts after it run" test -s "$scratch/out/logs/check-k.log"

runrc "$scratch/run.out" runner out2 env ONLY=a tests/run.sh
t_check "runner: ONLY=a runs part a alone" test "$(tail -1 "$scratch/run.out")" = "1 passed, 0 failed, 1 skipped"
t_check "runner: and passes" test "$rc" = 0
t_check "runner: no other part ran" test "$(ls "$scratch/out2/logs")" = "$(printf 'check-a.err\ncheck-a.log\ncheck-settings.txt')"
t_check "runner: the run's settings are stored beside its logs" grep -q '^CHECK_PARTS=' "$scratch/out2/logs/check-settings.txt"
runner out3 make -s check ONLY="f g" >"$scratch/run.out" 2>/dev/null || true
t_check "runner: make check ONLY=\"f g\" runs those two" test "$(tail -1 "$scratch/run.out")" = "2 passed, 0 failed, 0 skipped"
runner out5 env ONLY=c tests/run.sh >"$scratch/run5.out" 2>&1 || true
t_check "runner: ONLY=c, a kernel part alone, waits for the tree's early preparation before the kernel's" \
	eval 'grep -q "fake: applied.*guest patched" <<<"$(grep "fake: applied\|== preparing: .* guest patched" "$scratch/run5.out" | tr "\n" " ")"'
t_check "runner: an unknown part is refused, naming the parts" \
	refuses_with "ONLY: no part 'nosuch' (the parts: a b c d e f g h i j k)" runner out4 env ONLY=nosuch tests/run.sh
t_check "runner: and nothing ran" test ! -e "$scratch/out4/logs"
t_done
