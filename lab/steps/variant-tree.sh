#!/bin/bash
# A bench kernel's tree, out/src/VARIANT, by its TREE in lab/data/bench-kernels,
# with lab/data/telemetry.patch: every kernel the bench boots does that work.
# out/src/VARIANT.lab-state records what it was made of, and its commit.
# Usage: lab/steps/variant-tree.sh VARIANT
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant=${1:?usage: lab/steps/variant-tree.sh VARIANT}
need git patch
lab_lock
tel=$LAB_TOP/lab/data/telemetry.patch
recipe=$(awk -v v="$variant" '!/^#/ && $2 == v { print $3; exit }' "$LAB_TOP/lab/data/bench-kernels")
series=()
case $recipe in
base) ref=$BASE_TAG ;;
base+[1-9]*) ref=$BASE_TAG; mapfile -t series < <(series_list | sed -n "1,${recipe#base+}p" | sed "s|^|$PATCHES/|") ;;
patched) ref=patched ;;
experiment) ref=experiment ;;
*) die "no bench kernel $variant with a known TREE in lab/data/bench-kernels (base, base+N, patched, experiment)" ;;
esac
git -C "$LINUX" rev-parse -q --verify "$ref^{commit}" >/dev/null || die "no $ref in $LINUX: run lab/prepare.sh apply first"
want="$(git -C "$LINUX" rev-parse "$ref^{commit}") $(cat "${series[@]}" "$tel" | sha256sum | cut -c1-16)"
state=$OUT/src/$variant.lab-state
t=$OUT/src/$variant
if [ -f "$state" ] && [ -e "$t/.git" ] && [ "$(head -1 "$state")" = "$want" ] &&
	[ "$(sed -n 2p "$state")" = "$(git -C "$t" rev-parse HEAD)" ] &&
	[ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ]; then
	say "$variant: source tree up to date: $t"
	exit 0
fi
rm -f "$state"
say "$variant: making $t ($ref${series[*]:+ + ${series[*]##*/}} + telemetry)"
t=$(worktree_at "$variant" "$ref")
# fixed dates and identity: the same commits, so builds stay up to date
export GIT_AUTHOR_NAME=lab GIT_AUTHOR_EMAIL=lab@localhost GIT_COMMITTER_NAME=lab
export GIT_COMMITTER_EMAIL=lab@localhost GIT_AUTHOR_DATE="2026-11-30T00:00:00Z"
export GIT_COMMITTER_DATE="2026-11-30T00:00:00Z"
if [ ${#series[@]} -gt 0 ]; then
	git -C "$t" am -q --committer-date-is-author-date "${series[@]}" ||
		{ git -C "$t" am --abort >/dev/null 2>&1 || true; die "${series[*]##*/} do not apply on $ref"; }
fi
# its hunk at update_newidle_stats() has no leading context (the lines above
# it differ between v7.3 and the series): GNU patch, without fuzz
patch -s -p1 -F0 -d "$t" <"$tel" || die "lab/data/telemetry.patch does not apply to $variant"
git -C "$t" commit -q -a -m "lab: newidle telemetry for the bench (lab/data/telemetry.patch)"
write_to "$state" printf '%s\n%s\n' "$want" "$(git -C "$t" rev-parse HEAD)"
say "$variant: $t at $(git -C "$t" log --oneline -1)"
