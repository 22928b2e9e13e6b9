# shellcheck shell=bash
# The lab's settings and helpers for its scripts; sourced, never run.

LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Each setting of lab/settings gets its default unless the environment has one.
# Defaults are not exported: a script run from this one works out its own.
lab_settings() {
	local line name value
	while IFS= read -r line; do
		case $line in [A-Z]*=*) ;; *) continue ;; esac
		name=${line%%=*} value=${line#*=}
		value=${value%%  #*}
		value=${value%"${value##*[![:space:]]}"}
		if [ -z "${!name:-}" ] && [ -n "$value" ]; then eval "$name=\"$value\""; fi
	done <"$LAB_TOP/lab/settings"
}
lab_settings
# Builds sit inside their tree (SRC/.build-VARIANT), so kbuild's paths are
# relative and ccache hits across trees and clones.
export CCACHE_DIR CCACHE_BASEDIR
LINUX=$OUT/linux

# Every setting as this run has it, NAME=VALUE, to store beside the results.
lab_settings_dump() {
	local name
	echo "# every setting of lab/settings as this run had it, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	for name in $(sed -n 's/^\([A-Z][A-Z0-9_]*\)=.*/\1/p' "$LAB_TOP/lab/settings"); do
		printf '%s=%s\n' "$name" "${!name:-}"
	done
}

say() { printf '[lab] %s\n' "$*" >&2; }
die() { printf '[lab] error: %s\n' "$*" >&2; exit 1; }

need() {
	local t
	for t in "$@"; do command -v "$t" >/dev/null 2>&1 || die "'$t' is missing: run 'make deps' (or lab/steps/deps.sh) as root"; done
}


# One run at a time on out/; scripts started under the lock run within it.
lab_lock() {
	local lock=$OUT/.lock holder
	[ "${LAB_LOCKED:-}" = "$lock" ] && return 0
	mkdir -p "$OUT"
	exec 9>>"$lock"
	if ! flock -n 9; then
		holder=$(cat "$lock" 2>/dev/null || true)
		[ "$LAB_LOCK_WAIT" = 0 ] && die "$OUT is in use by ${holder:-another run}; not waiting (LAB_LOCK_WAIT=0)"
		say "waiting for $OUT: in use by ${holder:-another run}"
		flock 9
	fi
	printf 'pid %s (%s)\n' "$$" "$(tr '\0' ' ' </proc/$$/cmdline | sed 's/ $//')" >"$lock"
	export LAB_LOCKED=$lock
}

# write_to FILE COMMAND...: FILE becomes COMMAND's output only if it succeeds.
write_to() {
	local f=$1 tmp rc
	shift
	tmp=$(dirname "$f")/.$(basename "$f").tmp
	rm -f "$tmp".*	# left by a run that was killed
	"$@" >"$tmp.$$" || { rc=$?; rm -f "$tmp.$$"; return $rc; }
	mv -f "$tmp.$$" "$f"
}

# A fixed order and owner: the same files give the same archive.
cpio_pack() { (cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0); }

# worktree_at NAME [REF]: the scratch worktree out/src/NAME, at REF when given
# (its edits dropped, its builds kept). Made under another name and renamed,
# so that an interrupted checkout is never taken for a finished one.
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

# am_series NAME LOG PATCH...: worktree NAME at the base with PATCH... applied;
# prints its path, and fails with git am's words in LOG when one does not apply.
am_series() {
	local name=$1 log=$2 t n
	shift 2
	t=$(worktree_at "$name" "$BASE_TAG")
	echo "$t"
	# one git am for all: a call per patch costs most of a second each
	git -C "$t" am -q "$@" >"$log" 2>&1 && return 0
	n=$(git -C "$t" rev-list --count "$BASE_TAG..HEAD")
	git -C "$t" am --abort >/dev/null 2>&1 || true
	[ "$n" -lt $# ] && shift "$n"
	echo "(applying $(basename "$1"))" >>"$log"
	return 1
}

# Each variant has a tree of its own, so that all stay built side by side.
variant_src() {
	local bench
	bench=$(awk '!/^#/ && NF { print $2 }' "$LAB_TOP/lab/data/bench-kernels" | sort -u | paste -sd' ')
	case $1 in
	patched|debug) echo "$LINUX" ;;
	baseline|baseline-debug) echo "$OUT/src/baseline" ;;
	experiment|experiment-debug) echo "$OUT/src/experiment" ;;
	bisect-*) echo "$OUT/src/bisect" ;;
	bench-record) echo "$OUT/src/bench-baseline" ;; # v7.3's bench tree, the recorder's config
	*) case " $bench " in *" $1 "*) echo "$OUT/src/$1" ;;
	   *) die "unknown kernel variant '$1' (baseline, patched, debug, baseline-debug, experiment, experiment-debug, bench-record, $bench)" ;; esac ;;
	esac
}

# Fixed build stamps: the same inputs, the same kernel. One kernel make at a
# time on the machine, whatever the clone.
kmake() {
	local src=$1
	shift
	mkdir -p "$CCACHE_DIR"
	flock "$CCACHE_DIR/kmake.lock" make -C "$src" CC="ccache gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2026-11-30" KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab "$@"
}

# kconfig_lab SRC BUILD LOG FRAGMENT...: tinyconfig + lab/data/config/FRAGMENT.config;
# fails when an option asked for did not survive (but symbols SRC lacks).
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

# A build's output cut to a line per 400 objects, and warnings and errors.
kbuild_progress() {
	awk -v v="$1" '/^  (CC|AS|LD|AR)/ { n++; if (n % 400 == 0) { printf "[lab] %s: %d objects, at %s\n", v, n, $2; fflush() } }
		/ warning: | error: / { print; fflush() }'
}

variant_build() { echo "$(variant_src "$1")/.build-$1"; }
variant_guest() { echo "$OUT/guest/$1"; }

# The patches DIR/series lists, in order; a hash of them: what was applied.
series_of() { [ ! -f "$1/series" ] || grep -v -e '^#' -e '^[[:space:]]*$' "$1/series" || true; }
hash_of() {
	local p
	(cat "$1/series" 2>/dev/null || true; for p in $(series_of "$1"); do cat "$1/$p"; done) | sha256sum | cut -c1-16
}
series_list() { series_of "$PATCHES"; }
series_hash() { hash_of "$PATCHES"; }
experiment_list() { series_of "$EXPERIMENT"; }
experiment_hash() { hash_of "$EXPERIMENT"; }

# git am records a committer: give one where the machine has none configured.
git config user.email >/dev/null 2>&1 || export GIT_COMMITTER_NAME=lab GIT_COMMITTER_EMAIL=lab@localhost

# The placeholder author of patches/, "Name <addr>" (make outbox signs as the sender).
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

# checkpatch_findings PATCH [NAME]: checkpatch --strict's findings; fails on one
# lab/data/checkpatch-exceptions.txt does not list for NAME (its number dropped).
checkpatch_findings() {
	local p=$1 name=${2:-$(basename "$1")} msg bad=0 out
	name=$(echo "$name" | sed -E 's/^(v[0-9]+-)?[0-9]{4}-//')
	# on stdin: a patch file git tracks is read as a source file otherwise
	out=$("$LINUX/scripts/checkpatch.pl" --strict --no-tree -q --no-summary - <"$p" 2>&1) || true
	while IFS= read -r msg; do
		[ -n "$msg" ] || continue
		if awk -F'\t' -v p="$name" -v m="$msg" '!/^#/ && index(p, $1) == 1 && $2 == m { f = 1 }
			END { exit !f }' "$LAB_TOP/lab/data/checkpatch-exceptions.txt"; then echo "$msg (listed exception)"
		else echo "$msg"; bad=1; fi
	done < <(printf '%s\n' "$out" | grep -E '^(ERROR|WARNING|CHECK):' || true)
	return $bad
}

# icount is the bench's default (runs repeat within about 1 %); not kvm even
# where /dev/kvm opens: here the guest kernel hangs under it.
bench_accel() {
	local a=$BENCH_ACCEL
	case $a in tcg|icount|kvm) echo "$a" ;; *) die "BENCH_ACCEL must be icount, tcg or kvm, not '$a'" ;; esac
}

# The head of every benchmark report: where it ran, and whether emulated.
bench_machine() {
	local accel=$LAB_ACCEL
	echo "Machine: host $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)," \
		"$(nproc) CPUs; guest QEMU $accel$([ "$accel" = icount ] && echo " shift $LAB_ICOUNT_SHIFT")," \
		"$LAB_CPUS vCPUs ($LAB_SOCKETS sockets, $LAB_THREADS thread(s) per core)"
	case $accel in
	icount) printf '%s\n' "EMULATED (QEMU icount): not a performance claim" \
		"emulated (icount): same cost per instruction, no caches; compares scheduling decisions, not hardware speed" ;;
	kvm) ;;
	*) echo "EMULATED (QEMU $accel): smoke test of the harness, not a performance claim" ;;
	esac
}
