#!/bin/bash
# git am a set of patches on a branch of out/linux: patches/series on branch
# 'patched' from the base (out/src/baseline is the bare base), or with
# 'experiment' the experimental set (patches/experiment, not for merging) on
# branch 'experiment' from 'patched', in worktree out/src/experiment. Commits
# made on the branch are kept (FORCE=1 drops them). out/applied and
# out/experiment.lab-state hold what was applied and the branch's head, or
# "applying ..." while under way: an interrupted apply is redone from its
# base by the next run, whatever its settings. Usage: lab/steps/apply.sh [experiment]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need git
git -C "$LINUX" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null ||
	die "no base tree at $LINUX: run lab/steps/fetch.sh first"
case ${1:-} in
'')	[ -f "$PATCHES/series" ] || die "$PATCHES/series is missing"
	what=series name=patches dir=$PATCHES branch=patched onto=$BASE_TAG t=$LINUX
	state=$OUT/applied changed=patches/ ;;
experiment)
	git -C "$LINUX" rev-parse -q --verify refs/heads/patched >/dev/null ||
		die "out/linux has no branch 'patched': run lab/steps/apply.sh first"
	what="experimental set" name=${EXPERIMENT#"$LAB_TOP"/} dir=$EXPERIMENT
	branch=experiment onto=patched t=$OUT/src/experiment state=$OUT/experiment.lab-state
	changed="the series or ${EXPERIMENT#"$LAB_TOP"/}/" ;;
*) die "usage: lab/steps/apply.sh [experiment]" ;;
esac
lab_lock
list=$(series_of "$dir")
for p in $list; do
	[ -f "$dir/$p" ] || die "$name/series names $p, which is not in $name/"
done
want=$(hash_of "$dir")
# the experimental set is made again when 'patched' moved
[ "$branch" = patched ] || want="$want $(git -C "$LINUX" rev-parse patched)"

if [ "$branch" = patched ] && [ ! -e "$OUT/src/baseline/.git" ]; then
	say "checking out the base tree for the baseline kernel: $OUT/src/baseline"
	worktree_at baseline >/dev/null
fi
[ -e "$t/.git" ] || worktree_at "$branch" >/dev/null
head=$(git -C "$LINUX" rev-parse -q --verify "refs/heads/$branch" || true)
# the state: WANT HEAD (WANT: the set's hash, and the experimental set's 'patched')
st=""
[ ! -f "$state" ] || read -r st <"$state" || true
old=${st% *} old_head=${st##* }

recover=""
if [ "${old%% *}" = applying ]; then
	say "an interrupted apply left out/${t#"$OUT"/} half done: applying $name/ again from $onto"
	recover=1
elif [ -z "${FORCE:-}" ] && [ -n "$head" ] && [ "$head" != "$old_head" ] && [ -n "$old_head" ]; then
	if [ "$want" = "$old" ]; then
		say "out/linux branch '$branch' has commits not in $name/: building them as they are ('make export' saves them)"
		git -C "$t" checkout -q "$branch"
		exit 0
	fi
	die "$changed changed and out/linux branch '$branch' has commits of its own; 'make export' them, or FORCE=1 to discard them"
elif [ -z "${FORCE:-}" ] && [ "$want" = "$old" ] && [ "$head" = "$old_head" ]; then
	git -C "$t" checkout -q "$branch"
	say "$what already applied ($(echo "$list" | grep -c . || true) patches)"
	exit 0
fi

[ -n "$recover" ] || [ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ] ||
	die "out/${t#"$OUT"/} has uncommitted changes; commit them (then 'make export') or discard them"
write_to "$state" echo applying "$want"
gd=$(git -C "$t" rev-parse --absolute-git-dir)
[ ! -d "$gd/rebase-apply" ] || git -C "$t" am --abort >/dev/null 2>&1 || rm -rf "$gd/rebase-apply"
if [ -n "$recover" ]; then
	# what the interrupted run changed: tracked files, and the files the
	# set adds (nothing else untracked is touched)
	git -C "$t" reset -q --hard
	added=$(for p in $list; do sed -n 's|^diff --git a/.* b/||p' "$dir/$p"; done | sort -u)
	# shellcheck disable=SC2086
	[ -z "$added" ] || git -C "$t" clean -q -f -- $added
fi
git -C "$t" checkout -q -B "$branch" "$onto"
n=0
for p in $list; do
	n=$((n + 1))
	say "applying $n: $p"
	if ! git -C "$t" am -q "$dir/$p" >"$OUT/am.log" 2>&1; then
		git -C "$t" am --abort >/dev/null 2>&1 || true
		git -C "$t" checkout -q -B "$branch" "$onto"
		rm -f "$state"
		where=$(sed -n '/^error: patch failed: /{s///p;q}' "$OUT/am.log")
		echo "--- git am said:" >&2
		awk '!/^hint:/ && n++ < 20' "$OUT/am.log" >&2
		if [ -n "$where" ]; then
			file=${where%:*} line=${where##*:}
			echo "--- failing hunk of $p ($file, near line $line):" >&2
			awk -v f="$file" -v l="$line" '
				/^diff --git / { infile = (index($0, " b/" f) > 0); next }
				infile && /^@@ / { split($2, a, ","); s = -a[1]; show = (s == l) }
				infile && show && n++ < 30 { print }' "$dir/$p" >&2
		fi
		die "patch $p (number $n in $name/series) does not apply to $onto${where:+: hunk at $where}"
	fi
done
write_to "$state" echo "$want" "$(git -C "$t" rev-parse HEAD)"
say "$what applied: $n patches on $onto"
