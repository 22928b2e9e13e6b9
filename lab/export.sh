#!/bin/bash
# Write branch 'patched' of out/linux back into patches/ as git format-patch
# files plus a series file. Re-exporting an unchanged branch changes no file.
set -eu
. "$(dirname "$0")/lib.sh"
need git
git -C "$LINUX" rev-parse -q --verify refs/heads/patched >/dev/null ||
	die "out/linux has no branch 'patched': run 'make apply' first"
[ -z "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ] ||
	die "out/linux has uncommitted changes: commit them first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$LINUX" format-patch -q --no-signature --zero-commit \
	-o "$tmp" "$BASE_TAG..patched"
(cd "$tmp" && ls -1 ./*.patch 2>/dev/null | sed 's|^\./||') >"$tmp/series"

changed=0
for f in "$PATCHES"/*.patch; do
	[ -e "$f" ] || continue
	[ -e "$tmp/$(basename "$f")" ] || { rm -f "$f"; changed=1; say "removed $(basename "$f")"; }
done
for f in "$tmp"/*.patch "$tmp/series"; do
	[ -e "$f" ] || continue
	if ! cmp -s "$f" "$PATCHES/$(basename "$f")"; then
		cp "$f" "$PATCHES/"
		changed=1
		say "wrote patches/$(basename "$f")"
	fi
done
[ "$changed" = 1 ] || say "patches/ already matches out/linux ($(grep -c . "$tmp/series" || true) patches)"
# The applied state now matches patches/: apply.sh need not redo it.
echo "$(series_hash) $(git -C "$LINUX" rev-parse patched)" >"$OUT/applied"
