#!/bin/bash
# The verdict on a guest's console log, for every boot and for saved logs.
# A kernel line (printk-stamped, or every line of a log without stamps)
# matching lab/guest/splats is a splat; a Call Trace within 40 lines of one
# is part of it; with --expect, splats matching ERE are planted and must come.
# Exits 0 clean and passed, 1 clean but the script failed, 3 on a splat, a
# missing expected splat or no result. Usage: lab/steps/judge.sh CONSOLE-LOG [--expect ERE]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
usage="usage: lab/steps/judge.sh CONSOLE-LOG [--expect ERE]"
log=${1:?$usage}
shift
expect=""
while [ $# -gt 0 ]; do
	case $1 in
	--expect) [ $# -ge 2 ] && [ -n "$2" ] || die "--expect needs a pattern ($usage)"; expect=$2; shift 2 ;;
	*) die "unknown argument '$1' ($usage)" ;;
	esac
done
[ -f "$log" ] || die "no console log $log"
pats=$LAB_TOP/lab/guest/splats
stamp='^\[ *[0-9]+\.[0-9]+\]( \[ *[TC][0-9]+\])? '
all=0
grep -qE "$stamp" "$log" || all=1

# kind <tab> line number <tab> text, a line per splat
found=$(tr -d '\r' <"$log" | PATS=$pats EXPECT=$expect STAMP=$stamp awk -v all="$all" '
	BEGIN {
		while ((getline l < ENVIRON["PATS"]) > 0) if (l !~ /^#/ && l != "") p[++np] = l
		stamp = ENVIRON["STAMP"]; expect = ENVIRON["EXPECT"]
	}
	{
		if (all == 0) {
			if (!match($0, stamp)) next
			text = substr($0, RLENGTH + 1)
		} else {
			if ($0 ~ /^#/) next
			text = $0
		}
		for (i = 1; i <= np; i++) if (text ~ p[i]) break
		if (i > np) next
		if (text ~ /Call Trace:/ && last && NR - last <= 40) next
		last = NR
		printf "%s\t%d\t%s\n", (expect != "" && text ~ expect) ? "expected" : "splat", NR, text
	}')
count() { grep -c "^$1	" <<<"$found" || true; }
list() { awk -F'\t' -v k="$1" '$1 == k { if (++n <= 10) printf "  line %d: %s\n", $2, $3 }
	END { if (n > 10) printf "  ... and %d more\n", n - 10 }' <<<"$found"; }
nsplat=$(count splat)
nexp=$(count expected)
rc=$(sed -n 's/^LAB-RESULT rc=\([0-9]*\).*/\1/p' "$log" | tail -1)

verdict=0
[ "$nexp" = 0 ] || { echo "judge: $nexp expected splat(s) (matching /$expect/):"; list expected; }
if [ "$nsplat" -gt 0 ]; then
	! grep -q '^splat	.*	.*Kernel panic' <<<"$found" || echo "judge: the guest kernel panicked"
	echo "judge: $nsplat kernel splat(s) in $log:"
	list splat
	verdict=3
fi
if [ -n "$expect" ] && [ "$nexp" = 0 ]; then
	echo "judge: the expected splat (/$expect/) did not appear"
	verdict=3
fi
if [ -z "$rc" ]; then
	echo "judge: no result: the guest stopped before its script ended (no LAB-RESULT line)"
	verdict=3
elif [ "$rc" != 0 ] && [ "$verdict" = 0 ]; then
	echo "judge: the guest's script failed (exit $rc)"
	verdict=1
fi
[ "$verdict" = 0 ] && echo "judge: clean: no kernel splat, the guest's script passed"
exit $verdict
