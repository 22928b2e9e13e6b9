#!/bin/bash
# 'make check': the parts of tests/parts, each printing TAP (out/logs/check-NAME.log,
# its stderr check-NAME.err), counted by tests/tapsum.sh. What a part needs is
# prepared once (lab/prepare.sh); when that fails, only the parts needing it fail.
# Ends with 'N passed, N failed, N skipped'. Settings: ONLY="NAME ..." (those parts),
# CHECK_PARTS (the part list), CHECK_PREPARE (the preparation command).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. lab/lib.sh
parts=$CHECK_PARTS prep=$CHECK_PREPARE
[ -f "$parts" ] || die "no part list $parts"
names=$(awk '!/^#/ && NF { print $1 }' "$parts")
for o in ${ONLY:-}; do
	grep -qx -- "$o" <<<"$names" || die "ONLY: no part '$o' (the parts: $(echo $names))"
done
lab_lock
t0=$(date +%s)
passed=0 failed=0 skipped=0 failed_parts="" times=""
mkdir -p "$OUT/logs"
lab_settings_dump >"$OUT/logs/check-settings.txt"
declare -A ready=()

# prepared NEED: what a part needs is there (prepared once, on first need;
# the tree's may be under way already, started early)
prepared() {
	local step rc=0
	case $1 in
	-) return 0 ;;
	tree) step="apply" ;;
	kernel) step="guest patched" ;;
	*) die "$parts: unknown need '$1' (-, tree, kernel)" ;;
	esac
	# the tree's, started early, is waited for by the first part needing
	# the tree or the kernel (whose preparation applies the series too)
	if [ -n "$early" ]; then
		wait "$early" || rc=$?
		early=""
		say "== prepared beside the first parts: $prep apply"
		cat "$OUT/logs/check-prepare.log" >&2
		if [ "$rc" = 0 ]; then ready[tree]=ok; else ready[tree]="'$prep apply' failed"; fi
	fi
	if [ -z "${ready[$1]:-}" ]; then
		say "== preparing: $prep $step"
		# shellcheck disable=SC2086
		if "$prep" $step; then ready[$1]=ok; else ready[$1]="'$prep $step' failed"; fi
	fi
	[ "${ready[$1]}" = ok ]
}

# part NAME NEED COMMAND: run a part, count its TAP
part() {
	local name=$1 need=$2 cmd=$3 log=$OUT/logs/check-$1.log err=$OUT/logs/check-$1.err
	local rc=0 p f s t1
	t1=$(date +%s)
	say "== $name"
	if ! prepared "$need"; then
		say "== $name: not run: ${ready[$need]}; 1 failed"
		failed=$((failed + 1))
		failed_parts="$failed_parts $name"
		return 0
	fi
	# stdout to the TAP log, stderr to its own log, both shown; the teeing
	# processes are the part's siblings, never its children (a part may
	# wait for all of its children); no stdin (the part list is on it)
	{ {
		rc=0
		bash -c "$cmd" </dev/null 2>&1 1>&3 3>&- || rc=$?
		echo "$rc" >"$log.rc"
	} | tee "$err" >&2; } 3>&1 | tee "$log" || true
	rc=$(cat "$log.rc")
	rm -f "$log.rc"
	read -r p f s < <(tests/tapsum.sh "$log" 2>"$log.tapsum"; sed 's/^/[lab] /' "$log.tapsum" >&2; rm -f "$log.tapsum")
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		say "$name exited $rc without a failing result: one failure"
		f=1
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	[ "$f" = 0 ] || failed_parts="$failed_parts $name"
	times+=$(printf '  %-15s %5ss  %s passed, %s failed\n' "$name" "$(( $(date +%s) - t1 ))" "$p" "$f")$'\n'
	say "== $name: $p passed, $f failed, $s skipped ($(( $(date +%s) - t0 ))s so far)"
}

if ! "$prep" deps; then
	echo "the required packages are missing (above): no part run"
	echo "0 passed, 1 failed, 0 skipped"
	exit 1
fi
# The tree's preparation (mostly git writing files) runs beside the parts
# that need nothing, when a part to run needs it; its output is shown when
# the first part needing it starts.
early=""
if [ -n "$(awk -v only=" ${ONLY:-} " '!/^#/ && NF && $2 != "-" && (only == "  " || index(only, " " $1 " "))' "$parts")" ]; then
	"$prep" apply >"$OUT/logs/check-prepare.log" 2>&1 </dev/null &
	early=$!
	trap '[ -z "$early" ] || kill "$early" 2>/dev/null || true' EXIT
fi
while read -r name need cmd; do
	case $name in ''|'#'*) continue ;; esac
	grep -qwx -- "$name" <<<"$(printf '%s\n' ${ONLY:-$name})" || continue
	part "$name" "$need" "$cmd"
done <"$parts"

echo "seconds per part (the first part needing the tree or the kernel includes preparing it):"
printf '%s' "$times"
echo "make check took $(( $(date +%s) - t0 ))s${failed_parts:+; failed:$failed_parts}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
