#!/bin/bash
# Write branch 'patched' of out/linux back into patches/ as git format-patch
# files plus a series file. Re-exporting an unchanged branch changes no file.
# A file of patches/ is overwritten or deleted only when nothing of it would
# be lost: git has it (committed, unmodified), or it is as the last export
# wrote it (out/exported keeps their sha256). Otherwise nothing is written
# and the file is named.
# Each file is written under a temporary name and renamed; an interrupted
# export is finished by the next one.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need git
git -C "$LINUX" rev-parse -q --verify refs/heads/patched >/dev/null ||
	die "out/linux has no branch 'patched': run 'make apply' first"
lab_lock
[ -z "$(git -C "$LINUX" status --porcelain --untracked-files=no)" ] ||
	die "out/linux has uncommitted changes: commit them first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$LINUX" format-patch -q --no-signature --zero-commit \
	-o "$tmp" "$BASE_TAG..patched"
(cd "$tmp" && { ls -1 ./*.patch 2>/dev/null || true; } | sed 's|^\./||') >"$tmp/series"

# What would change: files to delete, files to write.
del=() put=()
for f in "$PATCHES"/*.patch; do
	[ -e "$f" ] || continue
	[ -e "$tmp/$(basename "$f")" ] || del+=("$f")
done
for f in "$tmp"/*.patch "$tmp/series"; do
	[ -e "$f" ] || continue
	cmp -s "$f" "$PATCHES/$(basename "$f")" || put+=("$f")
done

# git_has FILE: FILE is absent, or tracked by git with no change git lacks.
git_has() {
	[ -e "$1" ] || return 0
	local st
	st=$(git -C "$(dirname "$1")" status --porcelain -- "$(basename "$1")" 2>/dev/null) || return 1
	[ -z "$st" ] && git -C "$(dirname "$1")" ls-files --error-unmatch -- "$(basename "$1")" >/dev/null 2>&1
}
# ours FILE: FILE is as the last export wrote it
ours() {
	local sum
	[ -f "$OUT/exported" ] || return 1
	sum=$(sha256sum <"$1" | cut -d' ' -f1)
	grep -qx "$sum  $(basename "$1")" "$OUT/exported"
}
safe() { git_has "$1" || ours "$1"; }
unsafe=""
for f in ${del[@]+"${del[@]}"}; do safe "$f" || unsafe="$unsafe $(basename "$f")"; done
for f in ${put[@]+"${put[@]}"}; do safe "$PATCHES/$(basename "$f")" || unsafe="$unsafe $(basename "$f")"; done
[ -z "$unsafe" ] ||
	die "not exporting: patches/ has changes git does not have in:$unsafe (export would overwrite or delete them); commit or move them first, or 'FORCE=1 make apply' to take them into out/linux"

# what this export writes, known before it writes it (an interrupted run
# is finished by the next one)
write_to "$OUT/exported" bash -c 'shopt -s nullglob; cd "$1" && sha256sum -- series *.patch' - "$tmp"
for f in ${put[@]+"${put[@]}"}; do
	write_to "$PATCHES/$(basename "$f")" cat "$f"
	say "wrote patches/$(basename "$f")"
done
for f in ${del[@]+"${del[@]}"}; do
	rm -f "$f"
	say "removed $(basename "$f")"
done
[ ${#put[@]} -gt 0 ] || [ ${#del[@]} -gt 0 ] ||
	say "patches/ already matches out/linux ($(grep -c . "$tmp/series" || true) patches)"
# The applied state now matches patches/: apply.sh need not redo it.
write_to "$OUT/applied" echo "$(series_hash) $(git -C "$LINUX" rev-parse patched)"
