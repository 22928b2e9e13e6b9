# shellcheck shell=bash
# The project's rules for its own scripts, as checks over a source tree
# (tests/lab/tools_test.sh runs them on the project and, as negative
# controls, on fixtures that break them). Each prints what breaks the rule
# and returns 1 when something does. Sourced.

# rule_pipefail ROOT: every bash script of lab/, bench/ and tests/ says
# 'set -euo pipefail', every POSIX sh script of lab/ (but the guest's) and
# bench/ says 'set -eu' (sh has no pipefail: they keep no pipeline whose
# first command's failure matters).
rule_pipefail() {
	local root=$1 f bad=0
	while IFS= read -r f; do
		case $(head -1 "$f") in
		'#!/bin/bash'*|'#!/usr/bin/env bash'*)
			grep -q '^set -euo pipefail$' "$f" || { echo "${f#"$root"/}: no 'set -euo pipefail'"; bad=1; } ;;
		'#!/bin/sh'*)
			case $f in "$root"/lab/guest/*|"$root"/tests/*) continue ;; esac
			grep -q '^set -eu' "$f" || { echo "${f#"$root"/}: no 'set -eu'"; bad=1; } ;;
		esac
	done < <(find "$root/lab" "$root/bench" "$root/tests" -type f \( -name '*.sh' -o -perm -u+x \) 2>/dev/null | LC_ALL=C sort)
	return $bad
}

# rule_no_early_reader ROOT: in a script with pipefail, no pipe into a
# reader that can stop before its input ends (grep -q/-m/-l, head): the
# writer then dies of SIGPIPE or not, by timing, and so does the pipeline.
# Read a command's output whole instead: grep -q X <<<"$(cmd)", sed -n 1p.
rule_no_early_reader() {
	local root=$1 hits
	hits=$(grep -lr --include='*.sh' -e pipefail "$root/lab" "$root/bench" "$root/tests" "$root/sim" 2>/dev/null |
		xargs -r grep -HnE '\|[[:space:]]*(head|grep[[:space:]]+(-[A-Za-z]*[qmlL][A-Za-z]*|--quiet|--max-count|--files-with))([[:space:]]|$)' |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' || true)
	[ -z "$hits" ] || { echo "a pipe into a reader that can stop early:"; echo "$hits" | sed "s|$root/|  |"; return 1; }
}

# rule_one_place ROOT: each step lives once. The pipeline's steps are run by
# lab/prepare.sh only; futexbench is compiled by bench/build-futexbench.sh
# only; TAP results are printed by lab/guest/tap.sh only; cpio archives
# are packed by lab/lib.sh only.
rule_one_place() {
	local root=$1 bad=0 hits
	local files=("$root"/lab/*.sh "$root"/lab/steps/*.sh "$root"/lab/tools/*.sh "$root"/bench/*.sh "$root"/tests/run.sh "$root"/Makefile)
	hits=$(grep -nE '(^|&&|;|\||then|do|if|!)[[:space:]]*"?(\$LAB_TOP/)?lab/(steps/)?(deps|fetch|apply|build|selftests|initramfs)\.sh' \
		"${files[@]}" 2>/dev/null | grep -v "^$root/lab/prepare.sh:" || true)
	[ -z "$hits" ] || { echo "a pipeline step run outside lab/prepare.sh:"; echo "$hits" | sed "s|$root/|  |"; bad=1; }
	hits=$(grep -nE '(cc|gcc|clang|\$CC|CC:-cc\}).*futexbench\.c' "${files[@]}" "$root"/lab/guest/* 2>/dev/null |
		grep -v "^$root/bench/build-futexbench.sh:" || true)
	[ -z "$hits" ] || { echo "futexbench compiled outside bench/build-futexbench.sh:"; echo "$hits" | sed "s|$root/|  |"; bad=1; }
	hits=$(grep -nE 'echo "(not )?ok \$' "${files[@]}" "$root"/lab/guest/* "$root"/tests/*.sh "$root"/tests/lab/*.sh 2>/dev/null |
		grep -v "^$root/lab/guest/tap.sh:" || true)
	[ -z "$hits" ] || { echo "TAP results printed outside lab/guest/tap.sh:"; echo "$hits" | sed "s|$root/|  |"; bad=1; }
	hits=$(grep -nE 'cpio (-[a-zA-Z]* )*-o' "${files[@]}" 2>/dev/null | grep -v "^$root/lab/lib.sh:" || true)
	[ -z "$hits" ] || { echo "cpio archives packed outside lab/lib.sh (cpio_pack):"; echo "$hits" | sed "s|$root/|  |"; bad=1; }
	# one_place WHAT PLACES ERE: ERE (outside comments) only in PLACES
	one_place() {
		local what=$1 places=$2 ere=$3 f h
		h=$(grep -nE "$ere" "${files[@]}" "$root"/lab/guest/* 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' || true)
		for f in $places; do h=$(grep -v "^$root/$f:" <<<"$h" || true); done
		[ -z "$h" ] || { echo "$what outside $places:"; echo "$h" | sed "s|$root/|  |"; bad=1; }
	}
	one_place "a kernel config merged" "lab/lib.sh" 'merge_config\.sh'
	one_place "a series applied with git am" "lab/lib.sh lab/steps/apply.sh lab/steps/experiment.sh lab/steps/variant-tree.sh" \
		'(^|[;&|(]|then|do|if|!)[[:space:]]*git( -C [^ ]+)? am( |$)'
	one_place "sched domains rebuilt" "lab/guest/sched.sh" 'cpuset\.cpus\.partition'
	one_place "sched features read back" "lab/guest/sched.sh" "tr ' ' '\\\\n' *<"
	one_place "a bench guest script written" "bench/lib.sh" '(echo|printf).*BENCH-PARAM'
	return $bad
}

# The bench scripts that also run on their own, on a tester's machine: they
# do not read lab/settings, and name their settings in their head comment.
RULE_STANDALONE="aba.sh bare-metal.sh build-futexbench.sh"

# rule_documented ROOT: every setting the lab's scripts read from the
# environment (\${NAME:-...}, \${NAME-...}, \${NAME:?...}, \${NAME:+...})
# is one of ROOT/lab/settings, which 'make help' prints; the standalone
# scripts name theirs in their own head comment instead.
rule_documented() {
	local root=$1 name f bad=0 settings=$1/lab/settings scripts=()
	for f in "$root"/lab/*.sh "$root"/lab/steps/*.sh "$root"/lab/tools/*.sh "$root"/lab/host/*.sh \
		"$root"/bench/*.sh "$root"/tests/run.sh "$root"/sim/*.sh; do
		case " $RULE_STANDALONE " in *" ${f#"$root"/bench/} "*) ;; *) scripts+=("$f") ;; esac
	done
	for name in $(cat "${scripts[@]}" 2>/dev/null |
		grep -oE '\$\{[A-Z][A-Z0-9_]*(:?[-?+=])' | sed -E 's/^\$\{//; s/:?[-?+=]$//' | LC_ALL=C sort -u); do
		case $name in LAB_TOP|LINUX) continue ;; esac
		grep -q "^$name=" "$settings" 2>/dev/null ||
			{ echo "setting $name is read by the scripts but not in lab/settings"; bad=1; }
	done
	for f in $RULE_STANDALONE; do
		f=$root/bench/$f
		[ -f "$f" ] || continue
		for name in $(grep -oE '\$\{[A-Z][A-Z0-9_]*(:?[-?+=])' "$f" | sed -E 's/^\$\{//; s/:?[-?+=]$//' | LC_ALL=C sort -u); do
			grep -qw -- "$name" <<<"$(sed -n '2,/^[^#]/p' "$f")" ||
				{ echo "${f#"$root"/}: reads $name but its head comment does not name it"; bad=1; }
		done
	done
	return $bad
}

# rule_settings_read ROOT: the other way round, every setting of
# ROOT/lab/settings is read by the lab: as \$NAME or \${NAME...} in a file of
# lab/, bench/ or sim/ or in tests/run.sh, as \$(NAME) in the Makefile, by
# getenv("NAME") in C or os.environ in Python, or exported by name for a
# program that reads it (ccache). Comments, lab/data/ and the standalone
# scripts do not count.
rule_settings_read() {
	local root=$1 name bad=0 code ex=()
	for name in settings $RULE_STANDALONE; do ex+=("--exclude=$name"); done
	code=$(grep -rhv "${ex[@]}" --exclude-dir=data -e '^[[:space:]]*#' -e '^[[:space:]]*/\?\*' \
		"$root/lab" "$root/bench" "$root/sim" "$root/tests/run.sh" "$root/Makefile" 2>/dev/null || true)
	for name in $(sed -n 's/^\([A-Z][A-Z0-9_]*\)=.*/\1/p' "$root/lab/settings"); do
		grep -qE "\\\$\\{?$name([^A-Za-z0-9_]|\$)|\\\$\\($name\\)|getenv\\(\"$name\"\\)|environ(\\.get\\(|\\[)\"$name\"|^[[:space:]]*export( [A-Za-z_][A-Za-z0-9_]*)* $name( |\$)" <<<"$code" ||
			{ echo "setting $name is in lab/settings but no script reads it"; bad=1; }
	done
	return $bad
}

# rule_guest_paths ROOT: every guest script a script names as /lab/NAME.sh
# (what the host writes for the guest to run, and the guest's own scripts)
# is a file of lab/guest/, which lab/steps/initramfs.sh copies to /lab/;
# /lab/run.sh is the one lab/steps/boot.sh writes, /lab/bin/ and
# /lab/kselftest/ hold what the lab builds.
rule_guest_paths() {
	local root=$1 bad=0 p
	for p in $(grep -rhoE '(^|[^A-Za-z0-9_./$-])/lab/[A-Za-z0-9_/.-]+\.sh' "$root"/lab "$root"/bench "$root"/tests/*.sh 2>/dev/null |
		grep -oE '/lab/[A-Za-z0-9_/.-]+\.sh' | grep -vE '^/lab/(run\.sh|bin/|kselftest/)' | LC_ALL=C sort -u); do
		[ -f "$root/lab/guest/${p#/lab/}" ] || { echo "the guest has no $p (no lab/guest/${p#/lab/})"; bad=1; }
	done
	return $bad
}
