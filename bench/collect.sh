#!/bin/sh
# The measurements in a benchmark guest's console: the CSV rows that
# bench/aba.sh printed between BENCH-CSV-BEGIN and BENCH-CSV-END, on stdout.
# Fails, saying why, when a workload failed in the guest (BENCH-FAILED) or
# the console holds no measurement.
# Usage: bench/collect.sh CONSOLE
set -eu
c=${1:?usage: bench/collect.sh CONSOLE}
[ -f "$c" ] || { echo "collect: no console $c" >&2; exit 1; }
if grep -q '^BENCH-FAILED' "$c"; then
	echo "collect: a workload failed in the guest ($c):" >&2
	grep -B5 '^BENCH-FAILED' "$c" | sed 's/^/  /' >&2
	exit 1
fi
rows=$(sed -n '/^BENCH-CSV-BEGIN/,/^BENCH-CSV-END/p' "$c" | grep -E '^[a-z][a-z0-9_.-]*,[A-Za-z0-9_]+,[0-9]+,[a-z_0-9]+,' || true)
[ -n "$rows" ] || { echo "collect: no measurements in $c" >&2; exit 1; }
printf '%s\n' "$rows"
