#!/bin/bash
# Apply patches/series with 'git am' on branch 'patched' from the base tag in
# out/linux, and keep a worktree of the bare base in out/src/baseline.
#
# Cheap when nothing changed. Commits made in out/linux on top of the applied
# series are kept (export them with 'make export'); FORCE=1 re-applies anyway.
set -eu
. "$(dirname "$0")/lib.sh"
need git
git -C "$LINUX" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null ||
	die "no base tree at $LINUX: run lab/fetch.sh first"
[ -f "$PATCHES/series" ] || die "$PATCHES/series is missing"

if [ ! -e "$OUT/src/baseline/.git" ]; then
	say "checking out the base tree for the baseline kernel: $OUT/src/baseline"
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$OUT/src/baseline" "$BASE_TAG"
fi

list=$(series_list)
for p in $list; do
	[ -f "$PATCHES/$p" ] || die "patches/series names $p, which is not in patches/"
done
hash=$(series_hash)
state=$OUT/applied
head=$(git -C "$LINUX" rev-parse -q --verify refs/heads/patched || true)
read -r old_hash old_head 2>/dev/null <"$state" || { old_hash=""; old_head=""; }

if [ -z "${FORCE:-}" ] && [ -n "$head" ] && [ "$head" != "$old_head" ] && [ -n "$old_head" ]; then
	if [ "$hash" = "$old_hash" ]; then
		say "out/linux branch 'patched' has commits not in patches/: building them as they are ('make export' saves them)"
		git -C "$LINUX" checkout -q patched
		exit 0
	fi
	die "patches/ changed and out/linux branch 'patched' has commits of its own; 'make export' them, or FORCE=1 to discard them"
fi
if [ -z "${FORCE:-}" ] && [ "$hash" = "$old_hash" ] && [ "$head" = "$old_head" ]; then
	git -C "$LINUX" checkout -q patched
	say "series already applied ($(echo "$list" | grep -c . || true) patches)"
	exit 0
fi

[ -z "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ] ||
	die "out/linux has uncommitted changes; commit them (then 'make export') or discard them"
[ -d "$LINUX/.git/rebase-apply" ] && git -C "$LINUX" am --abort
git -C "$LINUX" checkout -q -B patched "$BASE_TAG"
n=0
for p in $list; do
	n=$((n + 1))
	say "applying $n: $p"
	if ! git -C "$LINUX" am -q "$PATCHES/$p" >"$OUT/am.log" 2>&1; then
		git -C "$LINUX" am --abort >/dev/null 2>&1 || true
		git -C "$LINUX" checkout -q -B patched "$BASE_TAG"
		rm -f "$state"
		where=$(sed -n 's/^error: patch failed: //p' "$OUT/am.log" | head -1)
		echo "--- git am said:" >&2
		grep -v '^hint:' "$OUT/am.log" | head -20 >&2
		if [ -n "$where" ]; then
			file=${where%:*}
			line=${where##*:}
			echo "--- failing hunk of $p ($file, near line $line):" >&2
			awk -v f="$file" -v l="$line" '
				/^diff --git / { infile = (index($0, " b/" f) > 0); next }
				infile && /^@@ / { split($2, a, ","); s = -a[1]; show = (s == l) }
				infile && show { print }' "$PATCHES/$p" | head -30 >&2
		fi
		die "patch $p (number $n in patches/series) does not apply to $BASE_TAG${where:+: hunk at $where}"
	fi
done
echo "$hash $(git -C "$LINUX" rev-parse HEAD)" >"$state"
say "series applied: $n patches on $BASE_TAG"
