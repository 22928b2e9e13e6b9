#!/bin/bash
# The source tree of a bench-only kernel variant, a worktree of out/linux:
#   dicefix  v7.3 with only the series' first patch (the dice's off-by-one
#            fixed): out/src/dicefix
#   plain    the series with newidle_gate() replaced by the plain accumulator
#            of bench/plain-gate.patch (lab only, not in patches/): out/src/plain
# Cheap when nothing changed: out/src/VARIANT.lab-state records what the
# tree was made of (the ref's commit and the patches' hash) and its commit.
# Usage: lab/variant-tree.sh dicefix|plain
set -euo pipefail
. "$(dirname "$0")/lib.sh"
variant=${1:?usage: lab/variant-tree.sh dicefix|plain}
need git
lab_lock
case $variant in
dicefix) ref=$BASE_TAG; patches=$PATCHES/$(series_list | head -1) ;;
plain) ref=patched; patches=$LAB_TOP/bench/plain-gate.patch ;;
*) die "lab/variant-tree.sh makes dicefix or plain, not '$variant'" ;;
esac
git -C "$LINUX" rev-parse -q --verify "$ref^{commit}" >/dev/null ||
	die "no $ref in $LINUX: run lab/prepare.sh apply first"
want="$(git -C "$LINUX" rev-parse "$ref^{commit}") $(cat "$patches" | sha256sum | cut -c1-16)"
state=$OUT/src/$variant.lab-state
t=$OUT/src/$variant
if [ -f "$state" ] && [ -e "$t/.git" ] && [ "$(head -1 "$state")" = "$want" ] &&
	[ "$(sed -n 2p "$state")" = "$(git -C "$t" rev-parse HEAD)" ] &&
	[ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ]; then
	say "$variant: source tree up to date: $t"
	exit 0
fi
rm -f "$state"
say "$variant: making $t ($ref + $(basename "$patches"))"
t=$(worktree_at "$variant" "$ref")
# fixed dates: the same inputs give the same commit, so builds stay up to date
GIT_COMMITTER_DATE="2026-11-30T00:00:00Z" git -C "$t" am -q --committer-date-is-author-date "$patches" ||
	{ git -C "$t" am --abort >/dev/null 2>&1 || true; die "$(basename "$patches") does not apply on $ref"; }
write_to "$state" printf '%s\n%s\n' "$want" "$(git -C "$t" rev-parse HEAD)"
say "$variant: $t at $(git -C "$t" log --oneline -1)"
