#!/bin/sh
# Guest script of 'make': the sched domains and newidle state, what a short
# futex load does under each setting of the NI_* features, then the tests.
F=/sys/kernel/debug/sched/features
D=/sys/kernel/debug/sched/domains
SST=/proc/sys/kernel/sched_schedstats

echo Y >/sys/kernel/debug/sched/verbose
echo "== sched domains (sched/verbose=Y) =="
for cpu in $D/cpu*; do
	for dom in "$cpu"/domain*; do
		line="$(basename "$cpu") $(basename "$dom"): $(cat "$dom/name")"
		for f in newidle_call newidle_success newidle_ratio; do
			[ -r "$dom/$f" ] && line="$line $f=$(cat "$dom/$f")"
		done
		echo "  $line flags: $(cat "$dom/flags")"
	done
done
echo "== newidle features =="
. /lab/sched.sh
feat_lines | sed 's/^/  /'

# every domain's newidle visits, gate, ratio and attempts, one line each
state1() {
	awk '/^domain/ { print $26 }' /proc/schedstat >/tmp/att
	i=0
	while [ -d $D/cpu$i ]; do
		for dom in $D/cpu$i/domain*; do
			echo "$(cat "$dom/newidle_call") $(cat "$dom/newidle_success") $(cat "$dom/newidle_ratio")"
		done
		i=$((i + 1))
	done | paste -d' ' - /tmp/att
}
# the same, read until two reads agree: no CPU went newly idle in between
state() {
	state1 >/tmp/st.a
	for try in 1 2 3 4 5; do
		state1 >/tmp/st.b
		cmp -s /tmp/st.a /tmp/st.b && break
		mv /tmp/st.b /tmp/st.a
	done
	cat /tmp/st.a
}
# effect SETTING...: a second of futex load under SETTING; what moved
effect() {
	for s in "$@"; do echo "$s" >$F; done
	state >/tmp/s0
	futexbench -t 8 -w 4 -r 1 >/dev/null 2>&1
	state >/tmp/s1
	paste -d' ' /tmp/s0 /tmp/s1 | awk -v what="$*" '{
		d = $1 > $5 ? $5 + 512 - $1 : $5 - $1	# a ratio update halves the count
		v += d; a += $8 - $4; n++
		moved += ($2 != $6)	# newidle_success: a pull, or a halving
		if ($7 >= 1024) full++
		r = r " " $7 }
		END { printf "  %-24s %6d visits %6d attempts  successes moved in %d of %d domains, %d at ratio 1024; ratios%s\n",
			what, v, a, moved, n, full, r }'
}
if [ -r "$D/cpu0/domain0/newidle_call" ] && [ -w $SST ] && command -v futexbench >/dev/null; then
	echo "== what each setting does (a second of futexbench -t 8 -w 4 each) =="
	sst=$(cat $SST)
	echo 1 >$SST
	effect NI_RANDOM NI_RATE
	effect NO_NI_RANDOM
	effect NI_RANDOM NO_NI_RATE
	echo "  (NI_RATE lifts a rarely visited domain to ratio 1024, where every visit attempts"
	echo "  and no gate is asked; under emulation that is every domain)"
	for s in NI_RANDOM NI_RATE; do echo $s >$F; done
	echo "$sst" >$SST
fi
exec /lab/tests.sh
