#!/bin/sh
# The CSV rows bench/aba.sh printed in a guest's console between
# BENCH-CSV-BEGIN and BENCH-CSV-END; a block "BENCH-CSV-BEGIN WORKLOAD TAG"
# has its conditions named TAG:A, TAG:B, TAG:A2. Fails, saying why, on a
# BENCH-FAILED or no measurement.
set -eu
c=${1:?usage: bench/collect.sh CONSOLE}
[ -f "$c" ] || { echo "collect: no console $c" >&2; exit 1; }
if grep -q '^BENCH-FAILED' "$c"; then
	echo "collect: a workload failed in the guest ($c):" >&2
	grep -B5 '^BENCH-FAILED' "$c" | sed 's/^/  /' >&2
	exit 1
fi
rows=$(awk '/^BENCH-CSV-BEGIN/ { in_ = 1; tag = $3; next }
	/^BENCH-CSV-END/ { in_ = 0; next }
	in_ && /^[a-z][a-z0-9_.-]*,[A-Za-z0-9_.:+-]+,[0-9]+,[a-z_0-9]+,[^,]*,[0-9]+$/ {
		if (tag != "") { split($0, f, ","); sub(/^[^,]*,[^,]*,/, f[1] "," tag ":" f[2] ",") }
		print }' "$c")
[ -n "$rows" ] || { echo "collect: no measurements in $c" >&2; exit 1; }
printf '%s\n' "$rows"
