#!/bin/bash
# make ni-validate: does the replay predict? v7.3 (the bench-record kernel,
# bench/ni-record.sh's probes in it) in the lab's 20-vCPU guest, NO_NI_RATE, on
# NI_BOOTS boots; on each, per workload: a warm-up, then A: recorded under
# NO_NI_RANDOM, B: a real NI_RANDOM run, C: NO_NI_RANDOM without probes (the
# recorder's overhead, against A; C before B on even boots), A2: recorded again.
# bench/aba.sh -S gives each run's per-level schedstat; bench/ni-compare.py sets
# the replay of A and A2 beside B. Results: NI_OUT/DATE/ (console, CSV,
# recordings, table).
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
need base64 gzip python3 pahole
for n in "$NI_BOOTS" "$NI_SECONDS"; do
	case $n in ''|*[!0-9]*|0) die "NI_BOOTS and NI_SECONDS take positive numbers" ;; esac
done
for w in $NI_WORKLOADS; do
	case $w in sembench*|schbench) [[ " ${LAB_GUEST_BINS:-} " == *"/${w%%[0-9]*} "* ]] ||
		die "$w: give its static build in LAB_GUEST_BINS (a path ending /${w%%[0-9]*})" ;; esac
done
res=$NI_OUT/$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$res"
export LAB_HOST_PROGS="bash $LAB_HOST_PROGS" LAB_CPUS=20 LAB_SOCKETS=1 LAB_THREADS=2
export LAB_ACCEL=icount LAB_TIMEOUT=$NI_TIMEOUT
"$LAB_TOP/lab/prepare.sh" guest bench-record
for b in $(seq "$NI_BOOTS"); do
	order="B C" # B and C alternate over the boots
	[ $((b % 2)) = 1 ] || order="C B"
	cat >"$res/boot$b.sh" <<EOF
#!/bin/sh
set -e
[ -e /bin/bash ] || ln -s /usr/bin/bash /bin/bash
echo NO_NI_RATE >/sys/kernel/debug/sched/features
for w in $NI_WORKLOADS; do
	aba() { aba.sh -w \$w -s $NI_SECONDS -k 1 -S -b $b -o /tmp/\$w.\$1.csv -c "\$@"; }
	aba warm-up -x 1 >/dev/null
	NI_TRACE=/tmp/\$w.raw ni-record.sh /tmp/\$w.A.rec aba.sh -w \$w -s $NI_SECONDS -k 1 -S -b $b -o /tmp/\$w.A.csv -c A
	for c in $order; do
		[ \$c = B ] || echo NO_NI_RANDOM >/sys/kernel/debug/sched/features
		aba \$c
		echo NI_RANDOM >/sys/kernel/debug/sched/features
	done
	ni-record.sh /tmp/\$w.A2.rec aba.sh -w \$w -s $NI_SECONDS -k 1 -S -b $b -o /tmp/\$w.A2.csv -c A2
	for c in A B C A2; do echo "BENCH-CSV-BEGIN"; cat /tmp/\$w.\$c.csv; echo "BENCH-CSV-END"; done
	for c in A A2; do
		echo "NI-REC-BEGIN \$w.\$c rec"; gzip -c /tmp/\$w.\$c.rec | base64; echo "NI-REC-END"
	done
	# the raw events of A's first 1000, for the parser's test
	echo "NI-REC-BEGIN \$w.raw txt"; head -n 1000 /tmp/\$w.raw | gzip -c | base64; echo "NI-REC-END"
done
EOF
	say "ni-validate: boot $b of $NI_BOOTS ($NI_WORKLOADS; log $OUT/logs/ni-validate-$b.console)"
	"$LAB_TOP/lab/steps/boot.sh" bench-record "$res/boot$b.sh" "ni-validate-$b"
	c=$OUT/logs/ni-validate-$b.console
	cp "$c" "$res/"
	"$LAB_TOP/bench/collect.sh" "$c" >>"$res/runs.csv"
	awk -v d="$res" -v b="$b" '/^NI-REC-BEGIN/ { f = d "/" $2 "." b "." $3 ".b64"; next }
		/^NI-REC-END/ { close(f); f = ""; next } f { print >f }' "$c"
	for f in "$res"/*."$b".*.b64; do base64 -d "$f" | gunzip >"${f%.b64}"; rm "$f"; done
done
"$LAB_TOP/bench/ni-compare.py" "$res" | tee "$res/table.txt"
ln -sfn "$res" "$NI_OUT/latest"
say "ni-validate: $res/table.txt"
