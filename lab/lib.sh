# shellcheck shell=bash
# Common settings and helpers for the lab scripts; sourced, never run.

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$LAB_TOP/out}
LINUX=$OUT/linux
BASE_TAG=${BASE_TAG:-base-v7.3.4}
PATCHES=${PATCHES:-$LAB_TOP/patches}
JOBS=${JOBS:-$(( $(nproc) + 1 ))}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/lab-ccache}

say() { printf '[lab] %s\n' "$*" >&2; }
die() { printf '[lab] error: %s\n' "$*" >&2; exit 1; }

# need TOOL...: fail with the Debian package to install when a tool is missing.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "'$t' is missing: run 'make deps' (or lab/deps.sh) as root"
	done
}

# Source tree of a kernel variant: the patched tree is out/linux itself, the
# baseline is a git worktree of the base tag, so both stay built side by side.
variant_src() {
	case $1 in
	patched|debug) echo "$LINUX" ;;
	baseline|baseline-debug) echo "$OUT/src/baseline" ;;
	bisect-*) echo "$OUT/src/bisect" ;;
	*) die "unknown kernel variant '$1' (baseline, patched, debug, baseline-debug)" ;;
	esac
}

variant_build() { echo "$OUT/build/$1"; }

# The patch files patches/series lists, in order.
series_list() { grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series" || true; }

# A hash of the series file and every patch it lists: what was applied.
series_hash() {
	local p
	(cat "$PATCHES/series"; for p in $(series_list); do cat "$PATCHES/$p"; done) |
		sha256sum | cut -c1-16
}

# git am records a committer: give one where the machine has none configured.
git config user.email >/dev/null 2>&1 ||
	export GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost

# checkpatch_findings PATCH-FILE [NAME]: run checkpatch --strict on a patch
# and print its findings, each marked "(listed exception)" when
# lab/checkpatch-exceptions.txt lists it for a patch whose name starts with
# the listed prefix; returns 1 when a finding is not listed.
checkpatch_findings() {
	local p=$1 name=${2:-$(basename "$1")} msg bad=0
	while IFS= read -r msg; do
		if awk -F'\t' -v p="$name" -v m="$msg" '!/^#/ && index(p, $1) == 1 && $2 == m { f = 1 }
			END { exit !f }' "$LAB_TOP/lab/checkpatch-exceptions.txt"; then
			echo "$msg (listed exception)"
		else
			echo "$msg"
			bad=1
		fi
	done < <("$LINUX/scripts/checkpatch.pl" --strict --no-tree -q --no-summary "$p" 2>&1 |
		grep -E '^(ERROR|WARNING|CHECK):' || true)
	return $bad
}

# The lines every benchmark report starts with: where it ran, and whether
# it ran under emulation.
bench_machine() {
	echo "Machine: host $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)," \
		"$(nproc) CPUs; guest QEMU ${LAB_ACCEL:-tcg}, ${LAB_CPUS:-4} vCPUs (${LAB_SOCKETS:-2} sockets)"
	if [ "${LAB_ACCEL:-tcg}" = tcg ]; then
		echo "EMULATED (QEMU TCG): smoke test of the harness, not a performance claim"
	fi
}

# The gate's debugfs file in each sched domain's directory: a name v7.3 does
# not have, so the tester kernels are told apart by it (lab/tester-*.sh).
GATE_DEBUGFS=${GATE_DEBUGFS:-newidle_gate}
