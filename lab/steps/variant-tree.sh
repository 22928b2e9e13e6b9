#!/bin/bash
# The source tree of a bench kernel, a worktree of out/linux in out/src/:
# each kernel the bench boots carries the lab's telemetry
# (lab/data/telemetry.patch), so that each does the same work for it:
#   bench-baseline  v7.3
#   bench-dicefix   v7.3 with only the series' first patch (the dice's
#                   off-by-one fixed)
#   bench-patched   the series (its dice is NO_NI_GATE, a feature)
# Cheap when nothing changed: out/src/VARIANT.lab-state records what the
# tree was made of (the ref's commit and the patches' hash) and its commit.
# Usage: lab/steps/variant-tree.sh bench-baseline|bench-dicefix|bench-patched
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant=${1:?usage: lab/steps/variant-tree.sh bench-baseline|bench-dicefix|bench-patched}
need git patch
lab_lock
tel=$LAB_TOP/lab/data/telemetry.patch
case $variant in
bench-baseline) ref=$BASE_TAG; series="" ;;
bench-dicefix) ref=$BASE_TAG; series=$PATCHES/$(series_list | head -1) ;;
bench-patched) ref=patched; series="" ;;
*) die "lab/steps/variant-tree.sh makes bench-baseline, bench-dicefix or bench-patched, not '$variant'" ;;
esac
git -C "$LINUX" rev-parse -q --verify "$ref^{commit}" >/dev/null ||
	die "no $ref in $LINUX: run lab/prepare.sh apply first"
want="$(git -C "$LINUX" rev-parse "$ref^{commit}") $(cat ${series:+"$series"} "$tel" | sha256sum | cut -c1-16)"
state=$OUT/src/$variant.lab-state
t=$OUT/src/$variant
if [ -f "$state" ] && [ -e "$t/.git" ] && [ "$(head -1 "$state")" = "$want" ] &&
	[ "$(sed -n 2p "$state")" = "$(git -C "$t" rev-parse HEAD)" ] &&
	[ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ]; then
	say "$variant: source tree up to date: $t"
	exit 0
fi
rm -f "$state"
say "$variant: making $t ($ref${series:+ + $(basename "$series")} + telemetry)"
t=$(worktree_at "$variant" "$ref")
# fixed dates and identity: the same inputs give the same commits, so that
# builds stay up to date
export GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost GIT_COMMITTER_NAME=lab
export GIT_COMMITTER_EMAIL=lab@localhost GIT_AUTHOR_DATE="2026-11-30T00:00:00Z"
export GIT_COMMITTER_DATE="2026-11-30T00:00:00Z"
if [ -n "$series" ]; then
	git -C "$t" am -q --committer-date-is-author-date "$series" ||
		{ git -C "$t" am --abort >/dev/null 2>&1 || true; die "$(basename "$series") does not apply on $ref"; }
fi
# its first hunk has no leading context (the lines above it differ between
# v7.3 and the series): GNU patch, without fuzz
patch -s -p1 -F0 -d "$t" <"$tel" || die "lab/data/telemetry.patch does not apply to $variant"
git -C "$t" commit -q -a -m "lab: newidle telemetry for the bench (lab/data/telemetry.patch)"
write_to "$state" printf '%s\n%s\n' "$want" "$(git -C "$t" rev-parse HEAD)"
say "$variant: $t at $(git -C "$t" log --oneline -1)"
