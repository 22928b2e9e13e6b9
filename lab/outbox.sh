#!/bin/bash
# 'make outbox': the series as mails in out/outbox/vN/: git format-patch with
# -vN, a cover letter from lab/cover-letter.txt (the sim table and a
# benchmark report filled in), the base-commit trailer, threading, and To/Cc
# from scripts/get_maintainer.pl. Checks the mails with checkpatch and git am,
# prints the range-diff against the previous outbox and the command that
# would send it. It never sends anything.
# The benchmark report is OUTBOX_BENCH (out/bench/latest/report.txt); one
# from emulation (QEMU TCG: 'EMULATED') is never pasted into the letter.
# The new outbox is written beside the old one and swapped in at the end;
# the old one becomes out/outbox/previous.
# Settings: LKML_VERSION=5  OUTBOX_BENCH=report.txt  OUTBOX_DIR=out/outbox
set -euo pipefail
. "$(dirname "$0")/lib.sh"
v=${LKML_VERSION:-5}
case $v in ''|*[!0-9]*) die "LKML_VERSION must be a number, not '$v'" ;; esac
need git perl python3
lab_lock
"$LAB_TOP/lab/prepare.sh" apply
dir=${OUTBOX_DIR:-$OUT/outbox}
box=$dir/v$v
prev=$dir/previous
new=$dir/.v$v.new
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say "cover letter: the sim table, the benchmark report"
"$LAB_TOP/sim/run.sh" table >"$tmp/sim.raw" 2>"$tmp/sim.err" ||
	{ tail -5 "$tmp/sim.err" >&2; die "the sim did not run (sim/run.sh table): no outbox written"; }
sed 's/^/  /; s/ *$//' "$tmp/sim.raw" >"$tmp/sim.txt"
report=${OUTBOX_BENCH:-$OUT/bench/latest/report.txt}
if [ ! -f "$report" ]; then
	echo "  (no benchmark report yet: run bench/bare-metal.sh on hardware)" >"$tmp/bench.txt"
elif grep -q 'EMULATED' "$report"; then
	say "not pasting $report: it comes from emulation (a smoke test, not figures)"
	echo "  (no benchmark report from hardware yet: run bench/bare-metal.sh on hardware)" >"$tmp/bench.txt"
else
	sed 's/^/  /; s/ *$//' "$report" >"$tmp/bench.txt"
fi

say "addresses from scripts/get_maintainer.pl"
git -C "$LINUX" format-patch -q -o "$tmp/fp" "$BASE_TAG..patched"
(cd "$LINUX" && ./scripts/get_maintainer.pl --rolestats --no-git --no-git-fallback "$tmp"/fp/*.patch) \
	>"$tmp/get_maintainer.txt" 2>/dev/null || die "get_maintainer.pl failed"
to=() cc=()
while IFS= read -r line; do
	addr=${line% (*}
	case $line in
	*"(maintainer:"*) to+=(--to="$addr") ;;
	*) cc+=(--cc="$addr") ;;
	esac
done <"$tmp/get_maintainer.txt"
[ ${#to[@]} -gt 0 ] || die "get_maintainer.pl named no maintainer"

say "format-patch -v$v --cover-letter"
rm -rf "$new"
mkdir -p "$new"
cp "$tmp/get_maintainer.txt" "$new/"
git -C "$LINUX" format-patch -q -v"$v" --cover-letter --thread=shallow \
	--base="$BASE_TAG" "${to[@]}" "${cc[@]}" -o "$new" "$BASE_TAG..patched"
cover=$(ls "$new"/*0000-cover-letter.patch)
python3 - "$cover" "$LAB_TOP/lab/cover-letter.txt" "$v" \
	"$(git -C "$LINUX" log -1 --format='%h %s' "$BASE_TAG")" "$tmp/sim.txt" "$tmp/bench.txt" <<'PY'
import sys
cover, tmpl, v, base, simf, benchf = sys.argv[1:7]
sim, bench = open(simf).read().rstrip("\n"), open(benchf).read().rstrip("\n")
t = open(tmpl).read().replace("@VERSION@", v).replace("@BASE@", base)
t = t.replace("@SIM_TABLE@", sim).replace("@BENCH_TABLE@", bench)
subject, blurb = t.split("\n", 1)
c = open(cover).read()
c = c.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb.strip("\n"))
open(cover + ".tmp", "w").write(c)
PY
mv "$cover.tmp" "$cover"

say "checks on the mails"
fail=0
for p in "$new"/*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	# the exceptions are listed by patch name, without the -vN prefix
	if checkpatch_findings "$p" "$(basename "$p" | sed 's/^v[0-9]*-//')" >"$tmp/cp.txt"; then
		echo "  checkpatch $(basename "$p"): clean$(grep -q . "$tmp/cp.txt" && echo " but for $(grep -c . "$tmp/cp.txt") listed exception(s)")"
	else
		echo "  checkpatch $(basename "$p"): FAILS"; sed 's/^/    /' "$tmp/cp.txt"; fail=1
	fi
done
mails() { ls "$1"/*.patch | grep -v 0000-cover-letter; }
w=$(worktree_at am "$BASE_TAG")
# shellcheck disable=SC2046
if git -C "$w" am -q $(mails "$new") >/dev/null 2>&1; then
	echo "  git am of the outbox onto $BASE_TAG: applies"
else
	echo "  git am of the outbox onto $BASE_TAG: FAILS"; fail=1
	git -C "$w" am --abort >/dev/null 2>&1 || true
fi
if [ -d "$box" ] && ls "$box"/*.patch >/dev/null 2>&1; then
	w=$(worktree_at am "$BASE_TAG")
	# shellcheck disable=SC2046
	if git -C "$w" am -q $(mails "$box") >/dev/null 2>&1; then
		echo "  range-diff against the previous outbox:"
		git -C "$LINUX" range-diff --no-color "$BASE_TAG..$(git -C "$w" rev-parse HEAD)" "$BASE_TAG..patched" |
			sed 's/^/    /'
	else
		git -C "$w" am --abort >/dev/null 2>&1 || true
	fi
fi

# the swap: the old outbox becomes the previous one
if [ -d "$box" ]; then
	rm -rf "$prev"
	mv "$box" "$prev"
fi
mv "$new" "$box"
echo
echo "Outbox $box:"
ls -1 "$box" | sed 's/^/  /'
echo
echo "To send it (not run here):"
echo "  git send-email --annotate $box/*.patch"
exit $fail
