#!/bin/bash
# git am patches/series on branch 'patched' of out/linux; out/src/baseline is
# the bare base. Commits made on 'patched' are kept (FORCE=1 drops them).
# out/applied holds "HASH HEAD", or "applying HASH" while under way: an
# interrupted apply is redone from the base by the next run, whatever its settings.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need git
git -C "$LINUX" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null ||
	die "no base tree at $LINUX: run lab/steps/fetch.sh first"
[ -f "$PATCHES/series" ] || die "$PATCHES/series is missing"
lab_lock

if [ ! -e "$OUT/src/baseline/.git" ]; then
	say "checking out the base tree for the baseline kernel: $OUT/src/baseline"
	worktree_at baseline >/dev/null
fi

list=$(series_list)
for p in $list; do
	[ -f "$PATCHES/$p" ] || die "patches/series names $p, which is not in patches/"
done
hash=$(series_hash)
state=$OUT/applied
head=$(git -C "$LINUX" rev-parse -q --verify refs/heads/patched || true)
old_hash="" old_head=""
[ -f "$state" ] && { read -r old_hash old_head <"$state" || true; }
set_state() { write_to "$state" echo "$*"; }

recover=""
if [ "$old_hash" = applying ]; then
	say "an interrupted apply left out/linux half done: applying patches/ again from $BASE_TAG"
	recover=1
elif [ -z "${FORCE:-}" ] && [ -n "$head" ] && [ "$head" != "$old_head" ] && [ -n "$old_head" ]; then
	if [ "$hash" = "$old_hash" ]; then
		say "out/linux branch 'patched' has commits not in patches/: building them as they are ('make export' saves them)"
		git -C "$LINUX" checkout -q patched
		exit 0
	fi
	die "patches/ changed and out/linux branch 'patched' has commits of its own; 'make export' them, or FORCE=1 to discard them"
elif [ -z "${FORCE:-}" ] && [ "$hash" = "$old_hash" ] && [ "$head" = "$old_head" ]; then
	git -C "$LINUX" checkout -q patched
	say "series already applied ($(echo "$list" | grep -c . || true) patches)"
	exit 0
fi

[ -n "$recover" ] || [ -z "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ] ||
	die "out/linux has uncommitted changes; commit them (then 'make export') or discard them"
set_state applying "$hash"
[ ! -d "$LINUX/.git/rebase-apply" ] || git -C "$LINUX" am --abort >/dev/null 2>&1 || rm -rf "$LINUX/.git/rebase-apply"
if [ -n "$recover" ]; then
	# what the interrupted run changed: tracked files, and the files the
	# series adds (nothing else untracked is touched)
	git -C "$LINUX" reset -q --hard
	added=$(for p in $list; do sed -n 's|^diff --git a/.* b/||p' "$PATCHES/$p"; done | sort -u)
	# shellcheck disable=SC2086
	[ -z "$added" ] || git -C "$LINUX" clean -q -f -- $added
fi
git -C "$LINUX" checkout -q -B patched "$BASE_TAG"
n=0
for p in $list; do
	n=$((n + 1))
	say "applying $n: $p"
	if ! git -C "$LINUX" am -q "$PATCHES/$p" >"$OUT/am.log" 2>&1; then
		git -C "$LINUX" am --abort >/dev/null 2>&1 || true
		git -C "$LINUX" checkout -q -B patched "$BASE_TAG"
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
				infile && show && n++ < 30 { print }' "$PATCHES/$p" >&2
		fi
		die "patch $p (number $n in patches/series) does not apply to $BASE_TAG${where:+: hunk at $where}"
	fi
done
set_state "$hash" "$(git -C "$LINUX" rev-parse HEAD)"
say "series applied: $n patches on $BASE_TAG"
