#!/bin/bash
# 'make outbox': the series as mails in out/outbox/vN/: git format-patch with
# -vN, a cover letter from lab/cover-letter.txt (the sim table and the latest
# benchmark report filled in), the base-commit trailer, threading, and To/Cc
# from scripts/get_maintainer.pl. Checks the mails with checkpatch and git am,
# prints the range-diff against the previous outbox and the command that
# would send it. It never sends anything.
# Settings: LKML_VERSION=5
set -eu
. "$(dirname "$0")/lib.sh"
v=${LKML_VERSION:-5}
need git perl
"$LAB_TOP/lab/fetch.sh"
"$LAB_TOP/lab/apply.sh"
box=$OUT/outbox/v$v
prev=$OUT/outbox/previous
[ -d "$box" ] && { rm -rf "$prev"; mv "$box" "$prev"; }
mkdir -p "$box"

say "addresses from scripts/get_maintainer.pl"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$LINUX" format-patch -q -o "$tmp" "$BASE_TAG..patched"
(cd "$LINUX" && ./scripts/get_maintainer.pl --rolestats --no-git --no-git-fallback "$tmp"/*.patch) \
	>"$box/get_maintainer.txt" 2>/dev/null || die "get_maintainer.pl failed"
to=() cc=()
while IFS= read -r line; do
	addr=${line% (*}
	case $line in
	*"(maintainer:"*) to+=(--to="$addr") ;;
	*) cc+=(--cc="$addr") ;;
	esac
done <"$box/get_maintainer.txt"
[ ${#to[@]} -gt 0 ] || die "get_maintainer.pl named no maintainer"

say "format-patch -v$v --cover-letter"
git -C "$LINUX" format-patch -q -v"$v" --cover-letter --thread=shallow \
	--base="$BASE_TAG" "${to[@]}" "${cc[@]}" -o "$box" "$BASE_TAG..patched"

say "cover letter"
sim=$("$LAB_TOP/sim/run.sh" table 2>/dev/null | sed 's/^/  /; s/ *$//') || die "the sim did not run"
if [ -f "$OUT/bench/latest/report.txt" ]; then
	bench=$(sed 's/^/  /; s/ *$//' "$OUT/bench/latest/report.txt")
else
	bench="  (no benchmark report yet: run 'make bench', or bench/aba.sh on hardware)"
fi
base="$(git -C "$LINUX" log -1 --format='%h %s' "$BASE_TAG")"
cover=$(ls "$box"/*0000-cover-letter.patch)
python3 - "$cover" "$LAB_TOP/lab/cover-letter.txt" "$v" "$base" <<PY
import sys
cover, tmpl, v, base = sys.argv[1:5]
sim, bench = '''$sim''', '''$bench'''
t = open(tmpl).read().replace("@VERSION@", v).replace("@BASE@", base)
t = t.replace("@SIM_TABLE@", sim).replace("@BENCH_TABLE@", bench)
subject, blurb = t.split("\n", 1)
c = open(cover).read()
c = c.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb.strip("\n"))
open(cover, "w").write(c)
PY

say "checks on the mails"
fail=0
for p in "$box"/*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	# the exceptions are listed by patch name, without the -vN prefix
	if checkpatch_findings "$p" "$(basename "$p" | sed 's/^v[0-9]*-//')" >"$tmp/cp.txt"; then
		echo "  checkpatch $(basename "$p"): clean$(grep -q . "$tmp/cp.txt" && echo " but for $(grep -c . "$tmp/cp.txt") listed exception(s)")"
	else
		echo "  checkpatch $(basename "$p"): FAILS"; sed 's/^/    /' "$tmp/cp.txt"; fail=1
	fi
done
w=$OUT/outbox/am-tree
rm -rf "$w"; git -C "$LINUX" worktree prune
git -C "$LINUX" worktree add -q --detach "$w" "$BASE_TAG"
if git -C "$w" am -q $(ls "$box"/*.patch | grep -v 0000-cover-letter) >/dev/null 2>&1; then
	echo "  git am of the outbox onto $BASE_TAG: applies"
else
	echo "  git am of the outbox onto $BASE_TAG: FAILS"; fail=1
	git -C "$w" am --abort >/dev/null 2>&1 || true
fi
if [ -d "$prev" ] && ls "$prev"/*.patch >/dev/null 2>&1; then
	git -C "$w" checkout -q --detach "$BASE_TAG"
	if git -C "$w" am -q $(ls "$prev"/*.patch | grep -v 0000-cover-letter) >/dev/null 2>&1; then
		echo "  range-diff against the previous outbox:"
		git -C "$LINUX" range-diff --no-color "$BASE_TAG..$(git -C "$w" rev-parse HEAD)" "$BASE_TAG..patched" |
			sed 's/^/    /'
	fi
fi
git -C "$LINUX" worktree remove --force "$w"

echo
echo "Outbox $box:"
ls -1 "$box" | sed 's/^/  /'
echo
echo "To send it (not run here):"
echo "  git send-email --annotate $box/*.patch"
exit $fail
