#!/bin/bash
# 'make outbox': the series as mails in out/outbox/vN/ (v1 for a new series):
# git format-patch, a cover letter from lab/cover-letter.txt (the model's
# table and a benchmark report from hardware filled in), the base-commit
# trailer, threading, To/Cc from scripts/get_maintainer.pl, From: and
# Signed-off-by: of the sender. Checks the mails (checkpatch, git am,
# lab/outbox-lint.sh), prints the range-diff against the previous outbox and
# the command that would send them. It never sends anything.
# The sender is git's user.name and user.email, as git send-email takes
# them; the outbox is refused when they are unset or are the project's
# placeholder identity (the one patches/ carries).
# The benchmark report is OUTBOX_BENCH (out/bench/latest/report.txt); one
# from emulation ('EMULATED' or 'emulated (icount)') is never pasted.
# The new outbox is written beside the old one and swapped in at the end;
# the old one becomes out/outbox/previous; a rejected one stays in
# out/outbox/rejected.
# Settings: LKML_VERSION=N (none: a new series; 2, 3, ... for later rounds)
#           OUTBOX_BENCH=report.txt  OUTBOX_DIR=out/outbox
#           OUTBOX_SIM_TABLE=file (table A of the model to use, instead of
#           out/sim/A-lockon.txt, which is remade when older than its inputs)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
v=${LKML_VERSION:-}
case $v in '') ;; *[!0-9]*|0|1) die "LKML_VERSION is a later round's number (2, 3, ...), not '$v'; leave it unset for a new series" ;; esac
need git perl python3
lab_lock

# the sender: git's identity, not the project's placeholder
name=$(git -C "$LAB_TOP" config user.name || true)
email=$(git -C "$LAB_TOP" config user.email || true)
proj=$(git mailinfo /dev/null /dev/null <"$PATCHES/$(series_list | head -1)" |
	sed -n 's/^Author: //p; s/^Email: /</p' | paste -sd' ' | sed 's/$/>/')
set_it="set yours: git config --global user.name 'Your Name'; git config --global user.email you@example.org"
[ -n "$name" ] && [ -n "$email" ] || die "git's user.name or user.email is unset; $set_it"
case $proj in
"$name "*|*"<$email>") die "git's identity '$name <$email>' is the project's placeholder in patches/; $set_it" ;;
esac
case $email in
*.example|*.example.*|*.invalid|*.test|*localhost*|*noreply*)
	die "git's user.email '$email' cannot receive mail; $set_it" ;;
esac
sender="$name <$email>"
say "sender: $sender"

"$LAB_TOP/lab/prepare.sh" apply
dir=${OUTBOX_DIR:-$OUT/outbox}
box=$dir/v${v:-1}
prev=$dir/previous
new=$dir/.v${v:-1}.new
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say "the model: its checks, then table A for the cover letter"
"$LAB_TOP/sim/run.sh" check >"$tmp/sim.raw" 2>"$tmp/sim.err" ||
	{ tail -q -n 5 "$tmp/sim.raw" "$tmp/sim.err" >&2; die "the sim did not run (sim/run.sh check): no outbox written"; }
table=${OUTBOX_SIM_TABLE:-$OUT/sim/A-lockon.txt}
if [ -z "${OUTBOX_SIM_TABLE:-}" ] && { [ ! -f "$table" ] ||
	[ -n "$(find "$LAB_TOP/sim/gate_sim.c" "$LAB_TOP/sim/run.sh" "$LINUX/kernel/sched/newidle.h" -newer "$table")" ]; }; then
	say "table A is missing or older than the model's inputs: sim/run.sh table (minutes)"
	"$LAB_TOP/sim/run.sh" table >"$tmp/sim.raw" 2>"$tmp/sim.err" ||
		{ tail -n 5 "$tmp/sim.err" >&2; die "the sim did not run (sim/run.sh table): no outbox written"; }
fi
"$LAB_TOP/sim/cover-table.sh" "$table" >"$tmp/sim.txt" ||
	die "the model's table A ($table) does not back the cover letter (above): no outbox written"
report=${OUTBOX_BENCH:-$OUT/bench/latest/report.txt}
if [ ! -f "$report" ]; then
	echo "  (no benchmark report from hardware yet)" >"$tmp/bench.txt"
elif grep -q -i -E 'EMULATED|emulated \(icount\)|QEMU' "$report"; then
	say "not pasting $report: it comes from emulation (a model machine, not figures)"
	echo "  (no benchmark report from hardware yet)" >"$tmp/bench.txt"
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

say "format-patch ${v:+-v$v }--cover-letter"
rm -rf "$new"
mkdir -p "$new"
cp "$tmp/get_maintainer.txt" "$new/"
git -C "$LINUX" format-patch -q ${v:+-v"$v"} --cover-letter --thread=shallow \
	--base="$BASE_TAG" "${to[@]}" "${cc[@]}" -o "$new" "$BASE_TAG..patched"
cover=$(ls "$new"/*0000-cover-letter.patch)
python3 - "$cover" "$LAB_TOP/lab/cover-letter.txt" \
	"$(git -C "$LINUX" log -1 --format='%h ("%s")' "$BASE_TAG")" "$tmp/sim.txt" "$tmp/bench.txt" <<'PY'
import sys
cover, tmpl, base, simf, benchf = sys.argv[1:6]
sim, bench = open(simf).read().rstrip("\n"), open(benchf).read().rstrip("\n")
t = open(tmpl).read().replace("@BASE@", base)
t = t.replace("@SIM_TABLE@", sim).replace("@BENCH_TABLE@", bench)
subject, blurb = t.split("\n", 1)
c = open(cover).read()
c = c.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb.strip("\n"))
open(cover + ".tmp", "w").write(c)
PY
mv "$cover.tmp" "$cover"

say "From: and Signed-off-by: of the sender"
for m in "$new"/*.patch; do
	SENDER=$sender PROJ=$proj python3 - "$m" <<'PY'
import os, sys
m = sys.argv[1]
sender, proj = os.environ["SENDER"], os.environ["PROJ"]
out, head, folded = [], True, False
for line in open(m).read().split("\n"):
    if head and folded and line[:1] in (" ", "\t"):
        continue            # the rest of a From: folded over lines
    folded = False
    if head and line.startswith("From: "):
        line, folded = "From: " + sender, True
    elif head and line == "":
        head = False
    elif line == "Signed-off-by: " + proj:
        line = "Signed-off-by: " + sender
    elif not head and line.startswith(proj.split(" <")[0] + " ("):
        line = sender.split(" <")[0] + line[len(proj.split(" <")[0]):]  # the shortlog
    out.append(line)
open(m + ".tmp", "w").write("\n".join(out))
PY
	mv "$m.tmp" "$m"
done

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
if "$LAB_TOP/lab/outbox-lint.sh" "$new" "$sender" "$v" >"$tmp/lint.txt"; then
	echo "  lint: no placeholder, no lab path, no emulated figure, the model labelled, only the sender's tags"
else
	cat "$tmp/lint.txt"; fail=1
fi
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

if [ "$fail" != 0 ]; then
	rm -rf "$dir/rejected"
	mv "$new" "$dir/rejected"
	die "the outbox fails its checks (above); not swapped in; the mails are in $dir/rejected"
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
exit 0
