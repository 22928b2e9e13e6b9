# shellcheck shell=bash
# The project's rules for its own scripts, as checks over a source tree: each
# prints what breaks it and returns 1 (tests/lab/tools_test.sh). Sourced.

# rule_pipefail ROOT: bash scripts say 'set -euo pipefail', sh ones of lab/
# (but the guest's) and bench/ 'set -eu' (sh has no pipefail).
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

# rule_no_early_reader ROOT: under pipefail, no pipe into grep -q/-m/-l or
# head: the writer dies of SIGPIPE or not, by timing. Use grep -q X <<<"$(cmd)".
rule_no_early_reader() {
	local root=$1 hits
	hits=$(grep -lr --include='*.sh' -e pipefail "$root/lab" "$root/bench" "$root/tests" "$root/sim" 2>/dev/null |
		xargs -r grep -HnE '\|[[:space:]]*(head|grep[[:space:]]+(-[A-Za-z]*[qmlL][A-Za-z]*|--quiet|--max-count|--files-with))([[:space:]]|$)' |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' || true)
	[ -z "$hits" ] || { echo "a pipe into a reader that can stop early:"; echo "$hits" | sed "s|$root/|  |"; return 1; }
}

# rule_one_place ROOT: each of these steps lives in one place.
rule_one_place() {
	local root=$1 bad=0
	local files=("$root"/lab/*.sh "$root"/lab/steps/*.sh "$root"/lab/tools/*.sh "$root"/bench/*.sh "$root"/tests/run.sh "$root"/Makefile)
	# one_place WHAT PLACES ERE [FILE...]: ERE (outside comments) in those files, lab/guest/ and FILEs only in PLACES
	one_place() {
		local what=$1 places=$2 ere=$3 f h
		h=$(grep -nE "$ere" "${files[@]}" "$root"/lab/guest/* "${@:4}" 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' || true)
		for f in $places; do h=$(grep -v "^$root/$f:" <<<"$h" || true); done
		[ -z "$h" ] || { echo "$what outside $places:"; echo "$h" | sed "s|$root/|  |"; bad=1; }
	}
	one_place "a pipeline step run" lab/prepare.sh \
		'(^|&&|;|\||then|do|if|!)[[:space:]]*"?(\$LAB_TOP/)?lab/(steps/)?(deps|fetch|apply|build|selftests|initramfs)\.sh'
	one_place "futexbench compiled" bench/build-futexbench.sh '(cc|gcc|clang|\$CC|CC:-cc\}).*futexbench\.c'
	one_place "TAP results printed" lab/guest/tap.sh 'echo "(not )?ok \$' "$root"/tests/*.sh "$root"/tests/lab/*.sh
	one_place "cpio archives packed" lab/lib.sh 'cpio (-[a-zA-Z]* )*-o'
	one_place "a kernel config merged" "lab/lib.sh" 'merge_config\.sh'
	one_place "a series applied with git am" "lab/lib.sh lab/steps/apply.sh lab/steps/variant-tree.sh" \
		'(^|[;&|(]|then|do|if|!)[[:space:]]*git( -C [^ ]+)? am( |$)'
	one_place "sched domains rebuilt" "lab/guest/sched.sh" 'cpuset\.cpus\.partition'
	one_place "sched features read back" "lab/guest/sched.sh" "tr ' ' '\\\\n' *<"
	one_place "a bench guest script written" "bench/lib.sh" '(echo|printf).*BENCH-PARAM'
	return $bad
}

# Bench scripts that run on a tester's machine too: their settings are in their head comment.
RULE_STANDALONE="aba.sh bare-metal.sh build-futexbench.sh ni-record.sh"

# rule_documented ROOT: every setting read as \${NAME:-...} (-, ?, +, =) is
# in lab/settings, or for a standalone script in its head comment.
rule_documented() {
	local root=$1 name f bad=0 settings=$1/lab/settings scripts=()
	for f in "$root"/lab/*.sh "$root"/lab/steps/*.sh "$root"/lab/tools/*.sh "$root"/lab/host/*.sh \
		"$root"/bench/*.sh "$root"/tests/run.sh "$root"/sim/*.sh; do
		case " $RULE_STANDALONE " in *" ${f#"$root"/bench/} "*) ;; *) scripts+=("$f") ;; esac
	done
	# reads FILE...: the settings the files read as ${NAME:-...}
	reads() { cat "$@" 2>/dev/null | grep -oE '\$\{[A-Z][A-Z0-9_]*(:?[-?+=])' | sed -E 's/^\$\{//; s/:?[-?+=]$//' | LC_ALL=C sort -u; }
	for name in $(reads "${scripts[@]}"); do
		case $name in LAB_TOP|LINUX) continue ;; esac
		grep -q "^$name=" "$settings" 2>/dev/null ||
			{ echo "setting $name is read by the scripts but not in lab/settings"; bad=1; }
	done
	for f in $RULE_STANDALONE; do
		f=$root/bench/$f
		[ -f "$f" ] || continue
		for name in $(reads "$f"); do
			grep -qw -- "$name" <<<"$(sed -n '2,/^[^#]/p' "$f")" ||
				{ echo "${f#"$root"/}: reads $name but its head comment does not name it"; bad=1; }
		done
	done
	return $bad
}

# rule_settings_read ROOT: every setting of lab/settings is read: \$NAME in a
# script, \$(NAME) in the Makefile, getenv or os.environ, or exported by name
# (ccache). Comments, lab/data/ and the standalone scripts do not count.
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

# rule_guest_paths ROOT: every /lab/NAME.sh a script names is a file of
# lab/guest/ (but /lab/run.sh, boot.sh's, and /lab/bin/, /lab/kselftest/).
rule_guest_paths() {
	local root=$1 bad=0 p
	for p in $(grep -rhoE '(^|[^A-Za-z0-9_./$-])/lab/[A-Za-z0-9_/.-]+\.sh' "$root"/lab "$root"/bench "$root"/tests/*.sh 2>/dev/null |
		grep -oE '/lab/[A-Za-z0-9_/.-]+\.sh' | grep -vE '^/lab/(run\.sh|bin/|kselftest/)' | LC_ALL=C sort -u); do
		[ -f "$root/lab/guest/${p#/lab/}" ] || { echo "the guest has no $p (no lab/guest/${p#/lab/})"; bad=1; }
	done
	return $bad
}

# rule_budget ROOT: the folders and files of lab/data/budget within their lines,
# counted (wc -l) over what git tracks; prints each one's count and their total.
rule_budget() {
	local root=$1 bad=0 f p n total
	while read -ra f; do
		case ${f[0]:-#} in '#'*) continue ;; esac
		total=0
		for p in "${f[@]:0:${#f[@]}-1}"; do
			n=$(git -C "$root" ls-files -z -- "$p" | (cd "$root" && xargs -0r cat) | wc -l)
			echo "  $p: $n"
			total=$((total + n))
		done
		echo "${f[*]:0:${#f[@]}-1}: $total lines, budget ${f[-1]}"
		[ "$total" -le "${f[-1]}" ] || { echo "  over the budget (lab/data/budget): cut, or raise it there"; bad=1; }
	done <"$root/lab/data/budget"
	return $bad
}
