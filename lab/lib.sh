# shellcheck shell=bash
# The lab's settings and helpers for its scripts; sourced, never run.

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# lab_settings: every setting of lab/settings gets its default there unless
# the environment gives it a value. Defaults are not exported: a script run
# from this one works its own out (from the OUT it is given, say); what the
# environment gave stays exported as it was.
lab_settings() {
	local line name value
	while IFS= read -r line; do
		case $line in [A-Z]*=*) ;; *) continue ;; esac
		name=${line%%=*}
		value=${line#*=}
		value=${value%%  #*}
		value=${value%"${value##*[![:space:]]}"}
		if [ -z "${!name:-}" ] && [ -n "$value" ]; then
			eval "$name=\"$value\""
		fi
	done <"$LAB_TOP/lab/settings"
}
lab_settings
export CCACHE_DIR CCACHE_BASEDIR
# One compiler cache for every tree, variant and clone (CCACHE_DIR,
# CCACHE_BASEDIR): the kernel is built in a directory inside its source
# tree (SRC/.build-VARIANT), where kbuild names its sources relative to the
# build (srctree is '..'); the compiler's command lines are then the same
# in every tree and clone, and ccache hits.
LINUX=$OUT/linux

# lab_settings_dump: every setting of lab/settings as this run has it, one
# NAME=VALUE a line, on stdout, to store beside the run's results
lab_settings_dump() {
	local name
	echo "# every setting of lab/settings as this run had it, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	for name in $(sed -n 's/^\([A-Z][A-Z0-9_]*\)=.*/\1/p' "$LAB_TOP/lab/settings"); do
		printf '%s=%s\n' "$name" "${!name:-}"
	done
}

say() { printf '[lab] %s\n' "$*" >&2; }
die() { printf '[lab] error: %s\n' "$*" >&2; exit 1; }

# need TOOL...: fail, naming 'make deps', when a required tool is missing.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "'$t' is missing: run 'make deps' (or lab/steps/deps.sh) as root"
	done
}

# have TOOL PACKAGE: whether an optional tool is here; when not, print
# "TOOL is missing (Debian package PACKAGE)" for the caller's SKIP.
have() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "$1 is missing (Debian package $2)"
	return 1
}

# lab_lock: one run at a time on out/ (the kernel trees, builds and guest
# files). Waits for the holder, naming it; LAB_LOCK_WAIT=0 refuses instead.
# Scripts started under the lock (LAB_LOCKED) run within it.
lab_lock() {
	local lock=$OUT/.lock holder
	[ "${LAB_LOCKED:-}" = "$lock" ] && return 0
	mkdir -p "$OUT"
	exec 9>>"$lock"
	if ! flock -n 9; then
		holder=$(cat "$lock" 2>/dev/null || true)
		[ "$LAB_LOCK_WAIT" = 0 ] &&
			die "$OUT is in use by ${holder:-another run}; not waiting (LAB_LOCK_WAIT=0)"
		say "waiting for $OUT: in use by ${holder:-another run}"
		flock 9
	fi
	printf 'pid %s (%s)\n' "$$" "$(tr '\0' ' ' </proc/$$/cmdline | sed 's/ $//')" >"$lock"
	export LAB_LOCKED=$lock
}

# write_to FILE COMMAND...: COMMAND's output becomes FILE only when COMMAND
# succeeds (written to a temporary name and renamed); else FILE is unchanged.
write_to() {
	local f=$1 tmp
	shift
	tmp=$(dirname "$f")/.$(basename "$f").tmp
	rm -f "$tmp".*	# left by a run that was killed
	tmp=$tmp.$$
	if "$@" >"$tmp"; then
		mv -f "$tmp" "$f"
	else
		local rc=$?
		rm -f "$tmp"
		return $rc
	fi
}

# cpio_pack DIR: DIR's files as a newc archive on stdout, owned by root, in
# a fixed order.
cpio_pack() {
	(cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0)
}

# worktree_at NAME [REF]: out/src/NAME, a git worktree of out/linux (made
# under another name and renamed, so that an interrupted checkout is never
# taken for a finished one), with REF checked out there when given: the
# lab's own scratch tree, so changes to tracked files and an unfinished
# 'git am' are dropped (the ignored build directories are kept). Prints its path.
worktree_at() {
	local t=$OUT/src/$1
	if [ ! -e "$t/.git" ]; then
		rm -rf "$t.tmp"
		git -C "$LINUX" worktree prune
		mkdir -p "$OUT/src"
		git -C "$LINUX" worktree add -q --detach "$t.tmp" "$BASE_TAG" >&2
		git -C "$LINUX" worktree move "$t.tmp" "$t"
	fi
	if [ -n "${2:-}" ]; then
		git -C "$t" am --abort >/dev/null 2>&1 || true
		git -C "$t" checkout -q --force --detach "$2"
		git -C "$t" clean -q -fd
	fi
	echo "$t"
}

# am_series NAME LOG PATCH...: the scratch worktree out/src/NAME at the base
# with PATCH... applied by git am, in order; prints its path. When one does
# not apply: git am's words and the patch's name in LOG, the am aborted, and
# status 1 (the path is printed all the same).
am_series() {
	local name=$1 log=$2 p t
	shift 2
	t=$(worktree_at "$name" "$BASE_TAG")
	for p in "$@"; do
		if ! git -C "$t" am -q "$p" >"$log" 2>&1; then
			git -C "$t" am --abort >/dev/null 2>&1 || true
			echo "(applying $(basename "$p"))" >>"$log"
			echo "$t"
			return 1
		fi
	done
	echo "$t"
}

# Source tree of a kernel variant: the patched tree is out/linux itself, the
# baseline is a git worktree of the base tag, so both stay built side by side.
# The bench's kernels (the VARIANT column of lab/data/bench-kernels) are
# worktrees too, made by lab/steps/variant-tree.sh.
variant_src() {
	local bench
	bench=$(awk '!/^#/ && NF { print $2 }' "$LAB_TOP/lab/data/bench-kernels" | sort -u | paste -sd' ')
	case $1 in
	patched|debug) echo "$LINUX" ;;
	baseline|baseline-debug) echo "$OUT/src/baseline" ;;
	experiment|experiment-debug) echo "$OUT/src/experiment" ;;
	bisect-*) echo "$OUT/src/bisect" ;;
	*) case " $bench " in *" $1 "*) echo "$OUT/src/$1" ;;
	   *) die "unknown kernel variant '$1' (baseline, patched, debug, baseline-debug, experiment, experiment-debug, $bench)" ;; esac ;;
	esac
}

# kmake SRC ARGS...: make in the kernel tree SRC through the compiler
# cache, with the lab's fixed build stamps (the same inputs, the same
# kernel); one kernel make at a time on the machine, whatever the clone
kmake() {
	local src=$1
	shift
	mkdir -p "$CCACHE_DIR"
	flock "$CCACHE_DIR/kmake.lock" make -C "$src" CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2026-11-30" KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab "$@"
}

# kconfig_lab SRC BUILD LOG FRAGMENT...: BUILD/.config from tinyconfig and the
# fragments lab/data/config/FRAGMENT.config (merge_config.sh), then
# olddefconfig; every option the fragments ask for must have survived,
# except symbols SRC does not have (the series' KUnit suite on v7.3). The
# words of each step, and the options that did not survive, go to LOG.
kconfig_lab() {
	local src=$1 b=$2 log=$3 f files="" bad="" line sym want got
	shift 3
	for f in "$@"; do files="$files $LAB_TOP/lab/data/config/$f.config"; done
	mkdir -p "$b"
	kmake "$src" O="$b" -s tinyconfig >"$log" 2>&1 || { echo "tinyconfig failed" >>"$log"; return 1; }
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" $files >>"$log" 2>&1 ||
		{ echo "merge_config failed" >>"$log"; return 1; }
	kmake "$src" O="$b" -s olddefconfig >>"$log" 2>&1 || { echo "olddefconfig failed" >>"$log"; return 1; }
	# the last value a fragment gives each symbol
	# shellcheck disable=SC2086
	for line in $(grep -h '^CONFIG_' $files | awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = ++n; k[o[$1]] = $1 }
			END { for (i = 1; i <= n; i++) print v[k[i]] }'); do
		sym=${line%%=*}
		want=${line#*=}
		got=$(sed -nE "/^$sym=|^# $sym is not set/{p;q}" "$b/.config")
		case $got in
		"$sym=$want") ;;
		"# $sym is not set") [ "$want" = n ] || bad="$bad $sym" ;;
		"") [ "$want" = n ] || ! grep -rqsE --include='Kconfig*' "^(menu)?config ${sym#CONFIG_}\$" "$src" ||
			bad="$bad $sym" ;;
		*) bad="$bad $line(got ${got#*=})" ;;
		esac
	done
	[ -z "$bad" ] || { echo "config options not satisfied:$bad (see $b/.config)" >>"$log"; return 1; }
}

# kbuild_progress NAME: a kernel build's output filtered, a line every 400
# objects and every warning or error (a filter: stdin to stdout)
kbuild_progress() {
	awk -v v="$1" '/^  (CC|AS|LD|AR)/ { n++; if (n % 400 == 0) { printf "[lab] %s: %d objects, at %s\n", v, n, $2; fflush() } }
		/ warning: | error: / { print; fflush() }'
}

# Build directory of a variant: inside its source tree (see CCACHE_BASEDIR
# above); out/build/VARIANT links to it.
variant_build() { echo "$(variant_src "$1")/.build-$1"; }

# Guest files of a variant: its kselftests, programs and initramfs.
variant_guest() { echo "$OUT/guest/$1"; }

# The patch files patches/series lists, in order.
series_list() { grep -v -e '^#' -e '^[[:space:]]*$' "$PATCHES/series" || true; }

# The experimental set's patch files, in order (patches/experiment/series).
experiment_list() {
	[ ! -f "$EXPERIMENT/series" ] || grep -v -e '^#' -e '^[[:space:]]*$' "$EXPERIMENT/series" || true
}
experiment_hash() {
	local p
	(cat "$EXPERIMENT/series" 2>/dev/null || true; for p in $(experiment_list); do cat "$EXPERIMENT/$p"; done) |
		sha256sum | cut -c1-16
}

# A hash of the series file and every patch it lists: what was applied.
series_hash() {
	local p
	(cat "$PATCHES/series"; for p in $(series_list); do cat "$PATCHES/$p"; done) |
		sha256sum | cut -c1-16
}

# git am records a committer: give one where the machine has none configured.
git config user.email >/dev/null 2>&1 ||
	export GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost

# The project's placeholder identity, the author of patches/: "Name <addr>".
# make outbox signs with the sender's instead.
project_identity() {
	git mailinfo /dev/null /dev/null <"$PATCHES/$(series_list | sed -n 1p)" |
		sed -n 's/^Author: //p; s/^Email: /</p' | paste -sd' ' | sed 's/$/>/'
}

# The base the series applies to, for the cover letters' Base: line.
base_line() {
	echo "v7.3.4 as Debian's linux-source-7.3 7.3.4-1~bpo13+1 imports it," \
		"$(git -C "$LINUX" log -1 --format='commit %h' "$BASE_TAG") of that import (base-commit names it:" \
		"it is not an upstream commit)"
}

# checkpatch_findings PATCH-FILE [NAME]: run checkpatch --strict on a patch
# and print its findings, each marked "(listed exception)" when
# lab/data/checkpatch-exceptions.txt lists it for a patch whose name, without
# its number (and version), starts with the listed prefix; returns 1 when a
# finding is not listed.
checkpatch_findings() {
	local p=$1 name=${2:-$(basename "$1")} msg bad=0 out
	name=$(echo "$name" | sed -E 's/^(v[0-9]+-)?[0-9]{4}-//')
	# on stdin: a patch file git tracks is read as a source file otherwise
	out=$("$LINUX/scripts/checkpatch.pl" --strict --no-tree -q --no-summary - <"$p" 2>&1) || true
	while IFS= read -r msg; do
		[ -n "$msg" ] || continue
		if awk -F'\t' -v p="$name" -v m="$msg" '!/^#/ && index(p, $1) == 1 && $2 == m { f = 1 }
			END { exit !f }' "$LAB_TOP/lab/data/checkpatch-exceptions.txt"; then
			echo "$msg (listed exception)"
		else
			echo "$msg"
			bad=1
		fi
	done < <(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' || true)
	return $bad
}

# bench_accel: the accelerator of the benchmark boots (BENCH_ACCEL): icount
# by default (guest time follows the instructions executed: runs repeat
# within about 1 %), tcg (multi-threaded) or kvm on request. KVM is not the
# default even where /dev/kvm opens: here QEMU starts its firmware under it
# and the guest kernel then hangs.
bench_accel() {
	local a=$BENCH_ACCEL
	case $a in tcg|icount|kvm) echo "$a" ;; *) die "BENCH_ACCEL must be icount, tcg or kvm, not '$a'" ;; esac
}

# The line every emulated report carries, and what it means.
BENCH_ICOUNT_LINE="emulated (icount): same cost per instruction, no caches; compares scheduling decisions, not hardware speed"

# The lines every benchmark report starts with: where it ran, and whether
# it ran under emulation.
bench_machine() {
	local accel=$LAB_ACCEL
	echo "Machine: host $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)," \
		"$(nproc) CPUs; guest QEMU $accel$([ "$accel" = icount ] && echo " shift $LAB_ICOUNT_SHIFT")," \
		"$LAB_CPUS vCPUs ($LAB_SOCKETS sockets, $LAB_THREADS thread(s) per core)"
	# TCG and icount are emulation: the figures are not a performance claim
	case $accel in
	icount)
		echo "EMULATED (QEMU icount): not a performance claim"
		echo "$BENCH_ICOUNT_LINE"
		;;
	kvm) ;;
	*) echo "EMULATED (QEMU $accel): smoke test of the harness, not a performance claim" ;;
	esac
}

# The gate's debugfs file in each sched domain's directory: a name v7.3 does
# not have, so the tester kernels are told apart by it (lab/tester-*.sh).
GATE_DEBUGFS=$GATE_DEBUGFS
