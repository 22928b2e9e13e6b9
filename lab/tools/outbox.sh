#!/bin/bash
# 'make outbox': the series as mails, never sent: a directory per set of
# lab/data/letters/sets (NAME, NAME-vN for round N), made by git from the
# sender's commits (git's identity, not the placeholder of patches/), To: and
# Cc: from get_maintainer.pl and lab/data/letters/cc. Cover letters get the
# model's table and a benchmark report from hardware; without one, sets of
# KIND change go out as [RFC PATCH] (test always, fix never). Checked
# (checkpatch, outbox-lint.sh, git am in order, range-diff against the last
# outbox), then swapped in; the old one becomes previous/, a rejected one rejected/.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
v=${LKML_VERSION:-}
case $v in '') ;; *[!0-9]*|0|1) die "LKML_VERSION is a later round's number (2, 3, ...), not '$v'; leave it unset for a new series" ;; esac
need git perl python3
lab_lock
letters=$LAB_TOP/lab/data/letters

# the sender: git's identity, not the project's placeholder
name=$(git -C "$LAB_TOP" config user.name || true)
email=$(git -C "$LAB_TOP" config user.email || true)
proj=$(project_identity)
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
# where testers get the harness: the letters' How to test names it and this commit
harness=${LKML_HARNESS:-}
[ -n "$harness" ] || die "LKML_HARNESS is unset: the letters' How to test must say where testers clone this project (make outbox LKML_HARNESS=https://...); no outbox written"
case $harness in
https://?*|git://?*|ssh://?*) ;;
*) die "LKML_HARNESS '$harness' is not a URL testers can clone (https://, git://, ssh://); no outbox written" ;;
esac
[ -z "$(git -C "$LAB_TOP" status --porcelain -- bench lab/guest/sched.sh)" ] ||
	die "bench/ has changes not committed: testers would get another harness than the letters' commit; no outbox written"

"$LAB_TOP/lab/prepare.sh" apply
dir=$OUTBOX_DIR
prev=$dir/previous
new=$dir/.new
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sets=$(grep -v -e '^#' -e '^[[:space:]]*$' "$letters/sets")
# every patch the sets number: the series, then the experimental set
all_patches() {
	local p
	for p in $(series_list); do echo "$PATCHES/$p"; done
	for p in $(experiment_list); do echo "$EXPERIMENT/$p"; done
}
n=$(all_patches | grep -c .)
seen=" "
while read -r set first last dep kind; do
	[ -f "$letters/$set.txt" ] || [ "$first" = "$last" ] ||
		die "lab/data/letters/sets names '$set', which has more than one patch and no lab/data/letters/$set.txt"
	[ "$first" -ge 1 ] && [ "$last" -ge "$first" ] && [ "$last" -le "$n" ] ||
		die "lab/data/letters/sets: $set's patches $first..$last are not within the $n of patches/series and $EXPERIMENT/series"
	[ "$dep" = - ] || for d in ${dep//,/ }; do
		[[ $seen == *" $d "* ]] || die "lab/data/letters/sets: $set depends on '$d', which is not a set above it"
	done
	case $kind in change|fix|test) ;; *) die "lab/data/letters/sets: $set's KIND is '$kind', not change, fix or test" ;; esac
	seen+="$set "
done <<<"$sets"

# the model must still build against the tree (make check runs its checks)
say "the model: built against the tree, then its table A for the cover letter"
"$LAB_TOP/sim/run.sh" build >"$tmp/sim.raw" 2>"$tmp/sim.err" ||
	{ tail -q -n 5 "$tmp/sim.raw" "$tmp/sim.err" >&2; die "the sim did not run (sim/run.sh build): no outbox written"; }
table=${OUTBOX_SIM_TABLE:-$OUT/sim/A-lockon.txt}
if [ -z "${OUTBOX_SIM_TABLE:-}" ] && { [ ! -f "$table" ] ||
	[ -n "$(find "$LAB_TOP/sim" "$LINUX/kernel/sched/newidle.h" -newer "$table" -name '*.[ch]' -o -newer "$table" -name run.sh)" ]; }; then
	say "table A is missing or older than the model's inputs: sim/run.sh (minutes)"
	"$LAB_TOP/sim/run.sh" >"$tmp/sim.raw" 2>"$tmp/sim.err" ||
		{ tail -n 5 "$tmp/sim.err" >&2; die "the sim did not run (sim/run.sh): no outbox written"; }
fi
"$LAB_TOP/sim/cover-table.sh" "$table" >"$tmp/sim.txt" ||
	die "the model's table A ($table) does not back the cover letter (above): no outbox written"
# How to test: each step's time from bare-metal.sh's defaults, on a kernel with every
# comparison whatever this host runs (a features file it cannot read)
bm_time() { env -u RUNS -u SECONDS_PER_RUN -u COMPARISONS -u WORKLOADS -u SCHBENCH -u CANDIDATES ABA_FEATURES=/nonexistent \
	"$LAB_TOP/bench/bare-metal.sh" "$@" --time | sed -n 's/^\([a-z]*\): about \([0-9]*\) minutes.*/\1 \2/p'; }
s1=$(bm_time --step1) s2=$(bm_time)
# the tbench testers' first run: tbench32, norandom alone (its A and A2: the kernel as it boots)
tb=$(env -u RUNS -u SECONDS_PER_RUN -u SCHBENCH -u CANDIDATES ABA_FEATURES=/nonexistent COMPARISONS=norandom WORKLOADS=tbench32 "$LAB_TOP/bench/bare-metal.sh" --time | sed -n 's/^full: about \([0-9]*\) minutes.*/\1/p')
sed -e "s|@HARNESS@|$harness|; s|@COMMIT@|$(git -C "$LAB_TOP" rev-parse --short=12 HEAD)|" \
	-e "s|@STEP1_QUICK@|$(sed -n 's/^quick //p' <<<"$s1")|; s|@STEP1_FULL@|$(sed -n 's/^full //p' <<<"$s1")|" \
	-e "s|@STEP2_QUICK@|$(sed -n 's/^quick //p' <<<"$s2")|; s|@STEP2_FULL@|$(sed -n 's/^full //p' <<<"$s2")|" \
	-e "s|@TBENCH_FULL@|$tb|" \
	"$letters/how-to-test.txt" >"$tmp/how.txt"
! grep -q '@[A-Z0-9_]*@' "$tmp/how.txt" || die "lab/data/letters/how-to-test.txt: a placeholder left: $(grep -o '@[A-Z0-9_]*@' "$tmp/how.txt" | paste -sd' ')"
report=$OUTBOX_BENCH
# a series that changes scheduling without figures from hardware is an RFC;
# until there are figures the letters say so in a sentence, no heading
rfc=(--rfc)
printf '%s\n' "There is no benchmark report from hardware yet; until there is," "this is an RFC." "" >"$tmp/bench.txt"
if [ -f "$report" ] && grep -q -i -E 'EMULATED|emulated \(icount\)|QEMU' "$report"; then
	say "not pasting $report: it comes from emulation (a model machine, not figures)"
elif [ -f "$report" ]; then
	{ echo "Benchmarks on hardware:"; echo; sed 's/^/  /; s/ *$//' "$report"; echo; } >"$tmp/bench.txt"
	rfc=()
fi
[ ${#rfc[@]} = 0 ] || say "no benchmark report from hardware: the sets go out as [RFC PATCH]"

say "the series as the sender's commits (git commit-tree, git interpret-trailers)"
# shellcheck disable=SC2046
w=$(am_series outbox "$tmp/am.log" $(all_patches)) || { cat "$tmp/am.log" >&2; die "the series does not apply (above)"; }
# the same trees, committed again by the sender with their sign-off for the
# placeholder's: no checkout per commit (a rebase took ~1 s each)
tip=$(git -C "$w" rev-parse "$BASE_TAG^{commit}")
for c in $(git -C "$w" rev-list --reverse "$BASE_TAG..HEAD"); do
	git -C "$w" log -1 --format=%B "$c" | grep -v -x -F "Signed-off-by: $proj" |
		git -C "$w" interpret-trailers --trailer "Signed-off-by: $sender" | git stripspace >"$tmp/msg"
	tip=$(GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
		git -C "$w" commit-tree "$c^{tree}" -p "$tip" -F "$tmp/msg") || die "the sender's commits could not be made (git commit-tree)"
done
git -C "$w" reset -q --soft "$tip"
commit() { git -C "$w" rev-parse "$tip~$((n - $1))"; }

rm -rf "$new"
mkdir -p "$new" "$OUT/logs"
lab_settings_dump >"$OUT/logs/outbox-settings.txt"
while read -r set first last dep kind; do
	out=$new/$set${v:+-v$v}
	mkdir -p "$out"
	range="$(commit $((first - 1)))..$(commit "$last")"
	[ "$first" -gt 1 ] || range="$BASE_TAG..$(commit "$last")"
	if [ "$dep" = - ] && [ "$first" -gt 1 ]; then
		# a set that stands alone is made on the base itself, so that its
		# mails name no prerequisite
		git -C "$w" checkout -q --detach "$BASE_TAG"
		git -C "$w" -c user.name="$name" -c user.email="$email" cherry-pick "$range" >"$tmp/pick.log" 2>&1 ||
			{ cat "$tmp/pick.log" >&2; die "$set does not apply on $BASE_TAG alone, as its DEPENDS '-' says"; }
		range="$BASE_TAG..$(git -C "$w" rev-parse HEAD)"
	fi
	say "$set: patches $first..$last, addresses from scripts/get_maintainer.pl"
	rm -rf "$tmp/fp"
	git -C "$w" format-patch -q -o "$tmp/fp" "$range"
	(cd "$LINUX" && ./scripts/get_maintainer.pl --rolestats --no-git --no-git-fallback "$tmp"/fp/*.patch) \
		>"$out/get_maintainer.txt" 2>/dev/null || die "get_maintainer.pl failed"
	to=() cc=()
	while IFS= read -r line; do
		addr=${line% (*}
		case $line in
		*"(maintainer:"*) to+=(--to="$addr") ;;
		*) cc+=(--cc="$addr") ;;
		esac
	done <"$out/get_maintainer.txt"
	[ ${#to[@]} -gt 0 ] || die "get_maintainer.pl named no maintainer for $set"
	# the newidle thread's people: not on a fix of something else
	[ "$kind" = fix ] || while IFS= read -r line; do
		case $line in '#'* | '') continue ;; esac
		cc+=(--cc="$line")
	done <"$letters/cc"
	case $kind in change) r=("${rfc[@]}") ;; fix) r=() ;; test) r=(--rfc) ;; esac
	cl=(--cover-letter)
	[ -f "$letters/$set.txt" ] || cl=()
	git -C "$w" -c user.name="$name" -c user.email="$email" format-patch -q ${v:+-v"$v"} \
		${r[@]+"${r[@]}"} ${cl[@]+"${cl[@]}"} --thread=shallow --base="$BASE_TAG" "${to[@]}" "${cc[@]}" \
		-o "$out" "$range"
	[ ${#cl[@]} -gt 0 ] || continue
	cover=$(ls "$out"/*0000-cover-letter.patch)
	emu=$letters/emulated-$set.txt
	[ -f "$emu" ] || emu=/dev/null
	/usr/bin/python3 - "$cover" "$letters/$set.txt" "$(base_line)" "$tmp/sim.txt" "$tmp/bench.txt" "$emu" \
		"EMU_$(echo "$set" | tr a-z A-Z)" "$tmp/how.txt" <<'PY'
import sys
cover, tmpl, base, simf, benchf, emuf, emukey, howf = sys.argv[1:9]
t = open(tmpl).read().replace("@BASE@", base)
t = t.replace("@HOW_TO_TEST@\n", open(howf).read())
t = t.replace("@SIM_TABLE@", open(simf).read().rstrip("\n"))
t = t.replace("@BENCH_TABLE@\n", open(benchf).read())
t = t.replace("@" + emukey + "@", open(emuf).read().strip("\n"))
subject, blurb = t.split("\n", 1)
c = open(cover).read()
c = c.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", blurb.strip("\n"))
open(cover + ".tmp", "w").write(c)
PY
	mv "$cover.tmp" "$cover"
done <<<"$sets"

say "checks on the mails"
fail=0
for p in "$new"/*/*.patch; do
	case $p in *0000-cover-letter.patch) continue ;; esac
	m="  checkpatch $(basename "$(dirname "$p")")/$(basename "$p")"
	if checkpatch_findings "$p" >"$tmp/cp.txt"; then
		echo "$m: clean$(grep -q . "$tmp/cp.txt" && echo " but for $(grep -c . "$tmp/cp.txt") listed exception(s)")"
	else echo "$m: FAILS"; sed 's/^/    /' "$tmp/cp.txt"; fail=1; fi
done
for d in "$new"/*/; do
	if "$LAB_TOP/lab/tools/outbox-lint.sh" "$d" "$sender" "$v" >"$tmp/lint.txt"; then
		echo "  lint $(basename "$d"): no placeholder, no lab path, emulated figures labelled, the model labelled, only the sender's tags"
	else cat "$tmp/lint.txt"; fail=1; fi
done
mails() {
	local s f
	while read -r s _; do
		for f in "$1/$s${v:+-v$v}"/*.patch; do
			case $f in *0000-cover-letter.patch) ;; *) echo "$f" ;; esac
		done
	done <<<"$sets"
}
# shellcheck disable=SC2046
if am_series am "$tmp/am.log" $(mails "$new") >/dev/null; then echo "  git am of every set in order onto $BASE_TAG: applies"
else echo "  git am of every set in order onto $BASE_TAG: FAILS"; sed 's/^/    /' "$tmp/am.log"; fail=1; fi
# shellcheck disable=SC2046
if [ -d "$prev" ] && mails "$prev" >/dev/null 2>&1 && w2=$(am_series am "$tmp/am.log" $(mails "$prev")); then
	echo "  range-diff against the previous outbox:"
	tip=patched
	[ -z "$(experiment_list)" ] || tip=experiment
	git -C "$LINUX" range-diff --no-color "$BASE_TAG..$(git -C "$w2" rev-parse HEAD)" "$BASE_TAG..$tip" |
		sed 's/^/    /'
fi

if [ "$fail" != 0 ]; then
	rm -rf "$dir/rejected"
	mv "$new" "$dir/rejected"
	die "the outbox fails its checks (above); not swapped in; the mails are in $dir/rejected"
fi
# the swap: the old outbox becomes the previous one
old=$(for d in "$dir"/*/; do
	case $(basename "$d") in previous|rejected|'*') ;; *) echo "$d" ;; esac
done)
if [ -n "$old" ]; then
	rm -rf "$prev"
	mkdir -p "$prev"
	# shellcheck disable=SC2086
	mv $old "$prev/"
fi
mv "$new"/* "$dir/"
rmdir "$new"
echo
echo "Outbox $dir; to send it (not run here), each set its own thread, in this order:"
while read -r s _; do
	m=("$dir/$s${v:+-v$v}"/*.patch)
	echo "  ${#m[@]} mails: git send-email --annotate $dir/$s${v:+-v$v}/*.patch"
done <<<"$sets"
exit 0
