#!/bin/bash
# Count one part's TAP: prints 'PASSED FAILED SKIPPED'. Usage: tests/tapsum.sh TAP-FILE
# Only 'ok N'/'not ok N' at a line's start count (not nested KTAP, a console tail);
# 'ok ... # SKIP' is a skip. One plan '1..N' and results 1..N, each once; '1..0 # SKIP'
# alone is one skip. Each way it falls short (no plan, two, a result missing, extra
# or twice, 'Bail out!') is one more failure, named on stderr.
set -euo pipefail
f=${1:?usage: tests/tapsum.sh TAP-FILE}
[ -f "$f" ] || { echo "tapsum: no file $f" >&2; exit 2; }
tr -d '\r' <"$f" | awk '
function problem(m) { bad++; printf "tapsum: %s\n", m > "/dev/stderr" }
/^(not )?ok([ \t]|$)/ {
	nres++
	notok = ($0 ~ /^not ok/)
	rest = $0; sub(/^(not )?ok[ \t]*/, "", rest)
	if (match(rest, /^[0-9]+/)) num = substr(rest, 1, RLENGTH) + 0; else num = nres
	if (num in seen) { problem("result " num " is there twice (a line counted twice?)"); dup = 1 }
	seen[num] = 1
	if (rest ~ /#[ \t]*[Ss][Kk][Ii][Pp]([ \t]|$)/ && !notok) skip++
	else if (notok) fail++
	else pass++
	next
}
/^1\.\.[0-9]+/ {
	plans++
	plan = substr($0, 4); sub(/[^0-9].*/, "", plan); plan += 0
	if ($0 ~ /#[ \t]*[Ss][Kk][Ii][Pp]/) planskip = 1
	next
}
/^Bail out!/ { problem("bailed out: " $0) }
END {
	if (plans == 0) problem("no plan (1..N): the part stopped early or printed no TAP")
	else if (plans > 1) problem(plans " plans")
	else if (plan == 0 && nres == 0 && planskip) skip++
	else if (plan == 0 && nres == 0) problem("plan 1..0 and no result, without a SKIP reason")
	else {
		if (nres != plan) problem("plan 1.." plan " but " nres " results")
		else if (!dup) for (i = 1; i <= plan; i++) if (!(i in seen)) { problem("result " i " of 1.." plan " is missing"); break }
	}
	printf "%d %d %d\n", pass, fail + bad, skip
}'
