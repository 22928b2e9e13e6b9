#!/bin/sh
# Guest script of 'make': show the sched domains and the newidle gate of each
# CPU, toggle NI_RANDOM and show it taking effect, then run the tests.
# TAP on the console; the exit status says whether every test passed.
F=/sys/kernel/debug/sched/features
D=/sys/kernel/debug/sched/domains

echo Y >/sys/kernel/debug/sched/verbose
echo "== sched domains (sched/verbose=Y) =="
for cpu in $D/cpu*; do
	for dom in "$cpu"/domain*; do
		line="$(basename "$cpu") $(basename "$dom"): $(cat "$dom/name")"
		for f in newidle_call newidle_success newidle_ratio newidle_gate; do
			[ -r "$dom/$f" ] && line="$line $f=$(cat "$dom/$f")"
		done
		echo "  $line flags: $(cat "$dom/flags")"
	done
done
echo "== newidle features =="
tr ' ' '\n' <$F | grep -E '^(NO_)?NI_(RANDOM|RATE)$' | sed 's/^/  /'
exec /lab/tests.sh
