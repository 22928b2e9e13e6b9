# shellcheck shell=bash
# The bench's host side, sourced by bench/run.sh, bench/kernels.sh and
# bench/sweep.sh after lab/lib.sh: presets, the kernels it compares, and the
# one script every boot runs.

# bench_preset NAME: load bench/presets/NAME.conf. A setting already in the
# environment wins over the preset's; the preset's names are checked.
bench_preset() {
	local f=$LAB_TOP/bench/presets/$1.conf line key
	[ -f "$f" ] || die "no preset '$1' (bench/presets: $(cd "$LAB_TOP/bench/presets" && ls ./*.conf | sed 's|^\./||; s|\.conf$||' | tr '\n' ' '))"
	while IFS= read -r line; do
		case $line in '#'*|'') continue ;; esac
		key=${line%%=*}
		case $key in
		PRESET_DOC|BENCH_CPUS|BENCH_SOCKETS|BENCH_THREADS|BENCH_FEATURES|BENCH_WORKLOADS|\
		BENCH_SECONDS|BENCH_RUNS|BENCH_WARMUP_RUNS|BENCH_BOOTS|BENCH_REBUILD) ;;
		*) die "$f: unknown setting '$key'" ;;
		esac
		[ -n "${!key:-}" ] || eval "$line"
	done <"$f"
	for key in BENCH_CPUS BENCH_SOCKETS BENCH_THREADS BENCH_WORKLOADS BENCH_SECONDS BENCH_RUNS \
		BENCH_WARMUP_RUNS BENCH_BOOTS BENCH_REBUILD; do
		[ -n "${!key:-}" ] || die "$f does not set $key"
	done
	# an empty setting takes the preset's value: '-' asks for no features
	[ "${BENCH_FEATURES:-}" != - ] || BENCH_FEATURES=""
	BENCH_PRESET=$1
	export LAB_CPUS=$BENCH_CPUS LAB_SOCKETS=$BENCH_SOCKETS LAB_THREADS=$BENCH_THREADS
}

# The kernels the bench compares: NAME -> "VARIANT FEATURE" (- for none).
# Every one is a bench-* build, with the lab's telemetry.
bench_kernel() {
	case $1 in
	v7.3) echo "bench-baseline -" ;;
	fix1) echo "bench-dicefix -" ;;
	gate) echo "bench-patched NI_GATE" ;;
	dice) echo "bench-patched NO_NI_GATE" ;;
	norandom) echo "bench-patched NO_NI_RANDOM" ;;
	*) die "unknown bench kernel '$1' (v7.3, fix1, gate, dice, norandom)" ;;
	esac
}
bench_label() {
	case $1 in
	v7.3) echo "v7.3 (the dice)" ;;
	fix1) echo "v7.3 + the off-by-one fix" ;;
	gate) echo "the series (NI_GATE)" ;;
	dice) echo "the series, NO_NI_GATE (its dice)" ;;
	norandom) echo "the series, NO_NI_RANDOM" ;;
	*) echo "$1" ;;
	esac
}

# bench_seeded N SEED...: a number in 0 .. N-1 from the seed words, the same
# for the same words (the boots' perturbations are drawn from the run's seed)
bench_seeded() {
	local n=$1
	shift
	echo $(( 0x$(printf '%s\n' "$*" | sha256sum | cut -c1-8) % n ))
}

# bench_shuffle SEED WORD...: the words in an order drawn from the seed
bench_shuffle() {
	local seed=$1 w
	shift
	for w in "$@"; do printf '%s %s\n' "$(bench_seeded 1000000 "$seed" "$w")" "$w"; done |
		sort -n | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//'
}

# bench_guest_script FILE LABEL FEATURES WORKLOADS DELAY_US OFFSET ARGS MODES BOOT:
# the script a boot runs. Its first lines, marked BENCH-PARAM, are what one
# boot sets apart from another: its number, the kernel's label and features, and the
# perturbation (the order of the workloads, a delay before the runs, the
# workers' first CPU); the rest is the same for every boot of a run, which
# bench_same_work checks. ARGS are bench/aba.sh's, the same for all. MODES:
# "-c" (kernels mode: the runs as they are, labelled LABEL), or features
# to A/B/A on the boot, each in turn (its CSV block tagged with it).
# BENCH_PLANT (tests only) is a command put into the rest, to show that it
# is caught.
bench_guest_script() {
	local file=$1 label=$2 features=$3 workloads=$4 delay=$5 offset=$6 args=$7 modes=$8 boot=$9 m
	{
		echo '#!/bin/sh'
		echo "boot=$boot	# BENCH-PARAM"
		echo "label=$label	# BENCH-PARAM"
		echo "features=\"$features\"	# BENCH-PARAM"
		echo "workloads=\"$workloads\"	# BENCH-PARAM"
		echo "delay_us=$delay	# BENCH-PARAM"
		echo "offset=$offset	# BENCH-PARAM"
		cat <<'SH'
F=/sys/kernel/debug/sched/features
for f in $features; do
	echo "$f" >$F || { echo "BENCH-FAILED cannot set $f"; exit 1; }
done
. /lab/sched.sh
echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs; features: $(feats)"
echo "# harness $(cat /lab/bin/aba.sh /lab/bin/futexbench /lab/sched.sh | md5sum | cut -c1-16)"
usleep "$delay_us"
SH
		[ -z "${BENCH_PLANT:-}" ] || echo "$BENCH_PLANT"
		echo 'for wl in $workloads; do'
		for m in $modes; do
			if [ "$m" = -c ]; then
				echo '	echo "BENCH-CSV-BEGIN $wl"'
				echo "	aba.sh -w \"\$wl\" -C \"\$offset\" -b \"\$boot\" $args -c \"\$label\" || echo \"BENCH-FAILED \$wl\""
			else
				echo "	echo \"BENCH-CSV-BEGIN \$wl $m\""
				echo "	aba.sh -w \"\$wl\" -C \"\$offset\" -b \"\$boot\" $args -f $m || echo \"BENCH-FAILED \$wl\""
			fi
			echo '	echo "BENCH-CSV-END $wl"'
		done
		echo 'done'
	} >"$file"
}

# bench_same_work SCRIPT...: every boot's script does the same work but for
# its BENCH-PARAM lines; otherwise name the first that differs and fail.
bench_same_work() {
	local first=$1 s
	for s in "$@"; do
		if ! cmp -s <(grep -v 'BENCH-PARAM$' "$first") <(grep -v 'BENCH-PARAM$' "$s"); then
			echo "bench: $(basename "$s") does other work around its runs than $(basename "$first"):" >&2
			diff <(grep -v 'BENCH-PARAM$' "$first") <(grep -v 'BENCH-PARAM$' "$s") | sed 's/^/  /' >&2
			return 1
		fi
	done
}

