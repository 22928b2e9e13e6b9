#!/bin/bash
# The lab's patch machinery on a throwaway kernel-like tree.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
throwaway_series d=4
good=$(cat "$PATCHES/series")

# (fetch, and its tag of the base, are checked in tests/lab/state_test.sh)
KERNEL_TREE=$scratch/up KERNEL_REF=main "$top/lab/steps/fetch.sh" 2>"$scratch/log"

# apply: lab/steps/apply.sh, its errors in $scratch/log, its exit in rc
apply() { rc=0; "$top/lab/steps/apply.sh" 2>"$scratch/log" || { rc=$?; sed 's/^/# /' "$scratch/log"; }; }
apply
t_check "a series that applies: branch 'patched' carries it" grep -q 'int d = 4;' "$OUT/linux/kernel/sched/fair.c"

cp -a "$PATCHES" "$scratch/before"
touch "$scratch/now"
"$top/lab/steps/export.sh" 2>"$scratch/log"
t_check "export of the unchanged branch changes no file" diff -r -x .git "$scratch/before" "$PATCHES"
t_check "export says so" grep -q 'already matches' "$scratch/log"
t_check "export kept every file's mtime" \
	test -z "$(find "$PATCHES" -path "$PATCHES/.git" -prune -o -newer "$scratch/now" -type f -print)"

# A commit made in out/linux is exported as a second patch, then re-applies.
sed -i 's/int f;/int f = 6;/' "$OUT/linux/kernel/sched/fair.c"
git -C "$OUT/linux" commit -q -am "sched/fair: Initialise f" -m "Second throwaway change."
"$top/lab/steps/export.sh" 2>"$scratch/log"
t_check "export writes a new commit as a second patch" test "$(grep -c . "$PATCHES/series")" = 2
tree=$(git -C "$OUT/linux" rev-parse 'patched^{tree}')
FORCE=1 apply
t_check "the exported series re-applies to the same tree" \
	test "$(git -C "$OUT/linux" rev-parse 'patched^{tree}')" = "$tree"

# A patch whose context is gone: the error names the patch and the hunk.
sed 's/^ int c;$/ int C;/' "$PATCHES/$good" >"$PATCHES/0009-broken.patch"
echo 0009-broken.patch >"$PATCHES/series"
apply >/dev/null
t_check "a series that does not apply fails" test "$rc" != 0
t_check "the error names the patch" grep -q 'patch 0009-broken.patch .* does not apply' "$scratch/log"
t_check "the error names the hunk" grep -q 'hunk at kernel/sched/fair.c:' "$scratch/log"
t_check "the failing hunk is shown" grep -q '^@@ ' "$scratch/log"
t_check "a failed apply leaves no git am in progress" test ! -d "$OUT/linux/.git/rebase-apply"

# A series naming a missing file.
echo 0042-missing.patch >"$PATCHES/series"
apply >/dev/null
t_check "a series naming a missing patch fails clearly" grep -q '0042-missing.patch, which is not in patches' "$scratch/log"
t_done
