#!/bin/bash
# The lab's state against interruptions, on a throwaway tree: fetch, apply and export killed at
# each git call and run again give the uninterrupted result; export loses nothing git lacks;
# the lock; whole initramfs only.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$top"
throwaway_series b=1 d=1 f=1 +new.c
# A git that counts its calls and kills its caller's process group before or
# after the KILL_AT-th (the script under test runs in a group of its own, setsid).
REALGIT=$(command -v git) KILLS=$scratch
export REALGIT KILLS
script "$scratch/kill/git" 'n=0; read -r n <"$KILLS/kill.count" 2>/dev/null || true; n=$((n + 1)); echo $n >"$KILLS/kill.count"' \
	'k() { [ "$n" != "$KILL_AT" ] || [ "$KILL_WHEN" != "$1" ] || { touch "$KILLS/killed"; kill -KILL 0; }; }' \
	'k before; rc=0; "$REALGIT" "$@" || rc=$?; k after; exit $rc'

# interrupt_each RESET CHECK RERUN COMMAND...: for each git call of COMMAND, RESET, kill
# COMMAND before (then after) it, RERUN, CHECK; prints the points tried and those failing
interrupt_each() {
	local reset=$1 check=$2 rerun=$3 when at calls bad=""
	shift 3
	"$reset"
	rm -f "$scratch/kill.count"
	KILL_AT=0 PATH=$scratch/kill:$PATH setsid -w "$@" >/dev/null 2>&1 || bad=" whole-run"
	read -r calls <"$scratch/kill.count"
	for when in before after; do
		for ((at = 1; at <= calls; at++)); do
			"$reset"
			rm -f "$scratch/kill.count" "$scratch/killed"
			KILL_AT=$at KILL_WHEN=$when PATH=$scratch/kill:$PATH setsid -w "$@" >/dev/null 2>&1 || true
			if [ ! -e "$scratch/killed" ] || ! "$rerun" >"$scratch/rerun.log" 2>&1 || ! "$check"; then
				bad="$bad $when-$at"
			fi
		done
	done
	echo "$((2 * calls))${bad:+ failed at:$bad}"
}

# --- fetch
fetched() { git -C "$OUT/linux" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null && [ ! -e "$OUT/linux.tmp" ]; }
unfetch() { rm -rf "$OUT/linux" "$OUT/src"; }
fetch() { env KERNEL_TREE="$scratch/up" KERNEL_REF=main lab/steps/fetch.sh; }
res=$(interrupt_each unfetch fetched fetch env KERNEL_TREE="$scratch/up" KERNEL_REF=main lab/steps/fetch.sh)
t_check "fetch: killed at each of its points ($res), run again: the base tree" test "${res#* }" = "$res"
t_check "fetch: that many points were tried" test "${res%% *}" -ge 4
# a base kept under the .deb's sha256 is cloned, the mirror not asked (an
# apt-get that fails); without that tag it is
git clone -q --bare "$scratch/up" "$BASE_CACHE"
git -C "$BASE_CACHE" tag "deb-$DEB_SHA256" main
script "$scratch/noapt/apt-get" 'exit 100'
kept() { unfetch; env PATH="$scratch/noapt:$PATH" DEB_MIRROR=http://192.0.2.1/debian lab/steps/fetch.sh; }
t_check "fetch: a base kept in BASE_CACHE is cloned, no remote left, no download" eval \
	'kept >/dev/null 2>&1 && fetched && test -z "$(git -C "$OUT/linux" remote)" &&
	test "$(git -C "$OUT/linux" rev-parse "$BASE_TAG")" = "$(git -C "$scratch/up" rev-parse main)"'
git -C "$BASE_CACHE" tag -d "deb-$DEB_SHA256" >/dev/null
t_check "negative control: a kept base without the sha256's tag: the mirror is asked" \
	eval 'out=$(kept 2>&1); [ $? != 0 ] && grep -q "package list" <<<"$out"'

# --- apply: the uninterrupted result, then a FORCE=1 re-apply killed anywhere
fetch >/dev/null 2>&1
lab/steps/apply.sh >/dev/null 2>&1
want=$(git -C "$OUT/linux" log --format='%T %s' "$BASE_TAG..patched")
applied() {
	[ "$(git -C "$OUT/linux" log --format='%T %s' "$BASE_TAG..patched")" = "$want" ] &&
	[ -z "$(git -C "$OUT/linux" status --porcelain)" ] && [ ! -d "$OUT/linux/.git/rebase-apply" ] &&
	grep -q 'series already applied' <<<"$(lab/steps/apply.sh 2>&1)"
}
res=$(interrupt_each true applied lab/steps/apply.sh env FORCE=1 lab/steps/apply.sh)
t_check "apply: a FORCE=1 re-apply killed at each of its points ($res), run again: the series as uninterrupted" \
	test "${res#* }" = "$res"
t_check "apply: that many points were tried" test "${res%% *}" -ge 10

# --- export: killed anywhere, then run again: patches/ as uninterrupted
git -C "$OUT/linux" checkout -q patched
git -C "$OUT/linux" reset -q --hard HEAD~1
git -C "$OUT/linux" commit -q --amend -m "sched/fair: Initialise f, amended" -m "Changed."
lab/steps/export.sh >/dev/null 2>&1
cp -a "$PATCHES" "$scratch/exported"
exported() { diff -r -x .git "$scratch/exported" "$PATCHES" >/dev/null; }
unexport() { git -C "$PATCHES" reset -q --hard && git -C "$PATCHES" clean -q -fd; }
res=$(interrupt_each unexport exported lab/steps/export.sh lab/steps/export.sh)
t_check "export: killed at each of its points ($res), run again: patches/ as uninterrupted" test "${res#* }" = "$res"
t_check "export: the amended patch is written, the dropped one removed" \
	eval 'grep -q "amended" "$PATCHES"/0003-*.patch && test ! -e "$PATCHES"/0004-*.patch && test "$(grep -c . "$PATCHES/series")" = 3'

# --- export never loses changes git does not have
unexport
lab/steps/apply.sh >/dev/null 2>&1 || FORCE=1 lab/steps/apply.sh >/dev/null 2>&1
git -C "$OUT/linux" reset -q --hard HEAD~1
echo "# an edit of my own" >>"$PATCHES"/0004-*.patch
cp -a "$PATCHES" "$scratch/before"
t_check "export: a patch it would delete has uncommitted edits: refused, naming it" \
	refuses_with "changes git does not have in: 0004-" lab/steps/export.sh
t_check "export: and nothing changed" diff -r "$scratch/before" "$PATCHES"
git -C "$PATCHES" checkout -q -- .
echo "an untracked patch" >"$PATCHES/0009-mine.patch"
t_check "export: an untracked patch it would delete: refused" refuses_with "0009-mine.patch" lab/steps/export.sh
rm "$PATCHES/0009-mine.patch"
t_check "negative control: with every file in git, it exports (deletes the dropped patch)" lab/steps/export.sh
t_check "negative control: and the dropped patch is gone" eval '! ls "$PATCHES"/0004-*.patch 2>/dev/null'
git -C "$OUT/linux" commit -q --amend -m "sched/fair: Initialise f, again" -m "Changed again."
t_check "export: over its own output, not yet committed, it exports again" lab/steps/export.sh
t_check "export: and did" grep -q 'Initialise f, again' "$PATCHES"/0003-*again.patch
echo "# an edit of my own" >>"$PATCHES"/0003-*again.patch
git -C "$OUT/linux" commit -q --amend -m "sched/fair: Initialise f, a third time" -m "Changed again."
t_check "export: but not over an edit made to its output since" refuses_with "changes git does not have in: 0003-" lab/steps/export.sh
sed -i '$d' "$PATCHES"/0003-*again.patch
git -C "$OUT/linux" branch experiment patched~1
t_check "export: a branch 'experiment' made on an older 'patched': refused, saying so" \
	refuses_with "'experiment' is not on the current 'patched'" lab/steps/export.sh
t_check "export: and it wrote no experimental set" test ! -e "$PATCHES/experiment"
git -C "$OUT/linux" branch -D experiment >/dev/null
t_check "negative control: without that branch it exports" lab/steps/export.sh

# --- the lock on out/
lab/tools/lock.sh bash -c "touch '$scratch/held'; while [ ! -e '$scratch/release' ]; do sleep 0.1; done" &
holder=$!
until [ -e "$scratch/held" ]; do sleep 0.1; done
t_check "lock: a second run with LAB_LOCK_WAIT=0 refuses, naming the holder's pid and command" \
	refuses_with "in use by pid $holder (/bin/bash lab/tools/lock.sh bash -c" env LAB_LOCK_WAIT=0 lab/tools/lock.sh touch "$scratch/ran"
t_check "lock: and runs nothing" test ! -e "$scratch/ran"
lab/tools/lock.sh touch "$scratch/ran" 2>"$scratch/wait.err" &
waiter=$!
until grep -q 'waiting for' "$scratch/wait.err" 2>/dev/null; do sleep 0.1; done
t_check "lock: a second run waits, naming the holder" grep -q "in use by pid $holder " "$scratch/wait.err"
t_check "lock: and runs nothing while it waits" test ! -e "$scratch/ran"
touch "$scratch/release"
wait "$holder"
wait "$waiter"
t_check "lock: it runs when the holder is done" test -e "$scratch/ran"
t_check "lock: scripts under a holder run within its lock" env LAB_LOCK_WAIT=0 lab/tools/lock.sh lab/tools/lock.sh true

# --- an initramfs is replaced only by a whole one
export LAB_HOST_PROGS=""
lab/steps/initramfs.sh patched >/dev/null 2>&1
cpio=$OUT/guest/patched/base.cpio
sum=$(sha256sum <"$cpio")
script "$scratch/badcpio/cpio" 'echo half an archive' 'exit 1'
t_check "initramfs: a packing that fails fails the step" eval '! env PATH="$scratch/badcpio:$PATH" lab/steps/initramfs.sh patched >/dev/null 2>&1'
t_check "initramfs: and leaves the previous archive whole" test "$(sha256sum <"$cpio")" = "$sum"
t_check "initramfs: and no temporary file" test -z "$(find "$OUT/guest/patched" -maxdepth 1 -name '*.tmp*')"
t_done
