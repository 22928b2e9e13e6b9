#!/bin/bash
# The experimental set (patches/experiment, not for merging) on the series:
# branch 'experiment', worktree out/src/experiment. Commits of its own are
# kept; when the series or the set changed too it stops (FORCE=1 drops them).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need git
lab_lock
git -C "$LINUX" rev-parse -q --verify refs/heads/patched >/dev/null ||
	die "out/linux has no branch 'patched': run lab/steps/apply.sh first"
list=$(experiment_list)
for p in $list; do
	[ -f "$EXPERIMENT/$p" ] || die "$EXPERIMENT/series names $p, which is not in $EXPERIMENT"
done
state=$OUT/experiment.lab-state
t=$OUT/src/experiment
want="$(experiment_hash) $(git -C "$LINUX" rev-parse patched)"
head=$(git -C "$LINUX" rev-parse -q --verify refs/heads/experiment || true)
old="" old_head=""
[ ! -f "$state" ] || read -r old old_p old_head <"$state" || true
[ -z "${old:-}" ] || old="$old $old_p"
if [ -e "$t/.git" ] && [ -n "$head" ] && [ -z "${FORCE:-}" ]; then
	if [ "$old" = "$want" ] && [ "$head" = "$old_head" ]; then
		say "experiment: up to date ($(echo "$list" | grep -c . || true) patches on the series): $t"
		exit 0
	fi
	if [ -n "$old_head" ] && [ "$head" != "$old_head" ]; then
		[ "$old" = "$want" ] || die "experiment: the series or $EXPERIMENT changed and branch 'experiment' has commits of its own; 'make export' them, or FORCE=1 to drop them"
		say "experiment: branch 'experiment' has commits not in $EXPERIMENT: kept as they are ('make export' saves them)"
		exit 0
	fi
fi
[ ! -e "$t/.git" ] || [ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ] ||
	die "$t has uncommitted changes; commit them (then 'make export') or discard them"
rm -f "$state"
t=$(worktree_at experiment)
git -C "$t" am --abort >/dev/null 2>&1 || true
git -C "$t" checkout -q --force -B experiment patched
for p in $list; do
	say "experiment: applying $p"
	git -C "$t" am -q "$EXPERIMENT/$p" >"$OUT/am-experiment.log" 2>&1 || {
		git -C "$t" am --abort >/dev/null 2>&1 || true
		git -C "$t" checkout -q --force -B experiment patched
		sed 's/^/  /' "$OUT/am-experiment.log" >&2
		die "experiment: $p does not apply on the series"
	}
done
write_to "$state" echo "$want $(git -C "$t" rev-parse HEAD)"
say "experiment: $(echo "$list" | grep -c . || true) patches on the series: $t"
