# shellcheck shell=bash
# The bench's host side, sourced after lab/lib.sh by bench/bench.sh and
# bench/sweep.sh: presets, the kernels, and the one script every boot runs.

# bench_preset NAME: load NAME's line of bench/presets; the environment's
# settings win over the preset's
bench_preset() {
	local f=$LAB_TOP/bench/presets line key v i=1
	line=$(awk -v p="$1" '!/^#/ && $1 == p' "$f")
	[ -n "$line" ] || die "no preset '$1' (bench/presets: $(awk '!/^#/ && NF { printf "%s ", $1 }' "$f"))"
	read -r -a v <<<"${line%%|*}"
	[ ${#v[@]} = 11 ] && [ "$line" != "${line#*|}" ] || die "bench/presets: the line of $1 has not 11 columns and '| DOC'"
	for key in CPUS SOCKETS THREADS FEATURES WORKLOADS SECONDS RUNS WARMUP_RUNS BOOTS REBUILD; do
		key=BENCH_$key
		[ -n "${!key:-}" ] || printf -v "$key" '%s' "${v[i]//,/ }"
		i=$((i + 1))
	done
	PRESET_DOC=${line#*| }
	# empty means the preset's value, so '-' asks for no features
	[ "$BENCH_FEATURES" != - ] || BENCH_FEATURES=""
	BENCH_PRESET=$1
	export LAB_CPUS=$BENCH_CPUS LAB_SOCKETS=$BENCH_SOCKETS LAB_THREADS=$BENCH_THREADS
}

# bench_kernel NAME FIELD (variant tree features against label) of
# lab/data/bench-kernels; bench_kernels: every NAME there
bench_kernels() { awk '!/^#/ && NF { print $1 }' "$LAB_TOP/lab/data/bench-kernels"; }
bench_kernel() {
	awk -v k="$1" -v f="$2" '!/^#/ && $1 == k { n = split("variant tree features against", c, " ")
			for (i = 1; i <= n; i++) if (c[i] == f) print $(i + 1)
			if (f == "label") { for (i = 1; i <= 5; i++) sub(/^[ \t]*[^ \t]+[ \t]+/, ""); print }
			found = 1 }
		END { exit !found }' "$LAB_TOP/lab/data/bench-kernels" ||
		die "unknown bench kernel '$1' (lab/data/bench-kernels: $(bench_kernels | paste -sd' '))"
}

# bench_seeded N SEED...: 0 .. N-1 from the seed: a run's seed gives its boots again
bench_seeded() {
	local n=$1 h
	shift && h=$(sha256sum <<<"$*") && echo $(( 0x${h:0:8} % n ))
}

# bench_shuffle SEED WORD...: the words in an order drawn from the seed
bench_shuffle() {
	local seed=$1 w h
	shift	# bench_seeded's, inline: a subshell less for each word
	for w in "$@"; do h=$(sha256sum <<<"$seed $w") && echo "$(( 0x${h:0:8} % 1000000 )) $w"; done | sort -n | cut -d' ' -f2 | paste -sd' '
}

# bench_guest_script FILE BOOT LABEL FEATURES WORKLOADS DELAY_US OFFSET ARGS MODES:
# a boot's script; only its BENCH-PARAM lines may differ between boots. MODES:
# "-c" (runs as they are) or features to A/B/A. BENCH_PLANT: the tests' extra.
bench_guest_script() {
	local file=$1 m tag opt
	{
		echo '#!/bin/sh'
		printf '%s	# BENCH-PARAM\n' "boot=$2" "label=$3" "features=\"$4\"" "workloads=\"$5\"" \
			"delay_us=$6" "offset=$7"
		cat <<'SH'
F=/sys/kernel/debug/sched/features
for f in $features; do
	echo "$f" >$F || { echo "BENCH-FAILED cannot set $f"; exit 1; }
done
. /lab/sched.sh
echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs; features: $(feats)"
echo "# harness $(cat /lab/bin/aba.sh /lab/bin/futexbench /lab/bin/msgbench /lab/sched.sh | md5sum | cut -c1-16)"
usleep "$delay_us"
SH
		[ -z "${BENCH_PLANT:-}" ] || echo "$BENCH_PLANT"
		echo 'for wl in $workloads; do'
		for m in $9; do
			# -c: the runs labelled as the boot's kernel; else A/B/A of feature m, tagged m
			tag=" $m" opt="-f $m"
			[ "$m" != -c ] || tag="" opt='-c "$label"'
			printf '\techo "BENCH-CSV-BEGIN $wl%s"\n\taba.sh -w "$wl" -C "$offset" -b "$boot" %s %s || echo "BENCH-FAILED $wl"\n\techo "BENCH-CSV-END $wl"\n' "$tag" "$8" "$opt"
		done
		echo 'done'
	} >"$file"
}

# bench_same_work SCRIPT...: fails, naming a script that does other work
bench_same_work() {
	local first=$1 s d
	for s in "$@"; do
		d=$(diff <(grep -v 'BENCH-PARAM$' "$first") <(grep -v 'BENCH-PARAM$' "$s")) && continue
		echo "bench: $(basename "$s") does other work around its runs than $(basename "$first"):" >&2
		sed 's/^/  /' <<<"$d" >&2
		return 1
	done
}
