#!/bin/bash
# Write branches 'patched' and 'experiment' back into patches/ and
# patches/experiment/. A file is overwritten or deleted only when nothing of
# it would be lost: git has it, or it is as the last export wrote it
# (out/exported). An interrupted export is finished by the next one.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
need git
git -C "$LINUX" rev-parse -q --verify refs/heads/patched >/dev/null ||
	die "out/linux has no branch 'patched': run 'make apply' first"
lab_lock
exp=$OUT/src/experiment
for t in "$LINUX" "$exp"; do
	[ ! -e "$t/.git" ] || [ -z "$(git -C "$t" status --porcelain --untracked-files=no)" ] ||
		die "$t has uncommitted changes: commit them first"
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# git_has FILE: there is no FILE, or git has it as it is
git_has() {
	[ -e "$1" ] || return 0
	local st
	st=$(git -C "$(dirname "$1")" status --porcelain -- "$(basename "$1")" 2>/dev/null) || return 1
	[ -z "$st" ] && git -C "$(dirname "$1")" ls-files --error-unmatch -- "$(basename "$1")" >/dev/null 2>&1
}
# ours FILE SUMS: FILE is as the last export wrote it (its line in SUMS, sha256sum's)
ours() { [ -f "$2" ] && grep -qxF "$(sha256sum <"$1" | cut -d' ' -f1)  $(basename "$1")" "$2"; }

# export_range RANGE DIR STATE: RANGE as DIR/*.patch and DIR/series
export_range() {
	local range=$1 dir=$2 state=$3 f unsafe="" w=$tmp/${2##*/}
	local del=() put=()
	mkdir -p "$w"
	git -C "$LINUX" format-patch -q --no-signature --zero-commit -o "$w" "$range"
	(cd "$w" && { ls -1 ./*.patch 2>/dev/null || true; } | sed 's|^\./||') >"$w/series"
	for f in "$dir"/*.patch; do [ ! -e "$f" ] || [ -e "$w/$(basename "$f")" ] || del+=("$f"); done
	for f in "$w"/*.patch "$w/series"; do [ ! -e "$f" ] || cmp -s "$f" "$dir/$(basename "$f")" || put+=("$f"); done
	for f in ${del[@]+"${del[@]}"} ${put[@]+"${put[@]}"}; do
		f=$dir/$(basename "$f")
		git_has "$f" || ours "$f" "$state" || unsafe="$unsafe $(basename "$f")"
	done
	[ -z "$unsafe" ] ||
		die "not exporting: $dir has changes git does not have in:$unsafe (export would overwrite or delete them); commit or move them first, or 'FORCE=1 make apply' to take them into out/linux"
	# its sums before the files: an interrupted run is finished by the next
	write_to "$state" bash -c 'shopt -s nullglob; cd "$1" && sha256sum -- series *.patch' - "$w"
	mkdir -p "$dir"
	for f in ${put[@]+"${put[@]}"}; do
		write_to "$dir/$(basename "$f")" cat "$f"
		say "wrote ${dir#"$LAB_TOP"/}/$(basename "$f")"
	done
	for f in ${del[@]+"${del[@]}"}; do
		rm -f "$f"
		say "removed $(basename "$f")"
	done
	[ ${#put[@]} -gt 0 ] || [ ${#del[@]} -gt 0 ] ||
		say "${dir#"$LAB_TOP"/} already matches $range ($(grep -c . "$w/series" || true) patches)"
}

export_range "$BASE_TAG..patched" "$PATCHES" "$OUT/exported"
# The applied state now matches patches/: apply.sh need not redo it.
write_to "$OUT/applied" echo "$(series_hash) $(git -C "$LINUX" rev-parse patched)"
if git -C "$LINUX" rev-parse -q --verify refs/heads/experiment >/dev/null; then
	# else the older series' commits would enter the experimental set
	git -C "$LINUX" merge-base --is-ancestor patched experiment ||
		die "branch 'experiment' is not on the current 'patched' (the series changed since it was made): rebase it, git -C $exp rebase --onto patched OLD-PATCHED experiment, then export again (patches/ is written, patches/experiment is not)"
	export_range patched..experiment "$EXPERIMENT" "$OUT/exported-experiment"
	write_to "$OUT/experiment.lab-state" echo "$(experiment_hash) $(git -C "$LINUX" rev-parse patched) $(git -C "$LINUX" rev-parse experiment)"
fi
