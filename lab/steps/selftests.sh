#!/bin/bash
# VARIANT's sched kselftests, static, in out/guest/VARIANT/kselftest, and the
# negative controls of lab/data/negative-selftest in its bin/ (their changed
# sources in negatives/, to diff with the test). Usage: lab/steps/selftests.sh VARIANT
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant=${1:?usage: lab/steps/selftests.sh VARIANT}
src=$(variant_src "$variant")
g=$(variant_guest "$variant")
defs=$LAB_TOP/lab/data/negative-selftest
lab_lock
# installed under a temporary name and renamed: never half a set
dst=$g/kselftest
new=$g/kselftest.new
rm -rf "$new" "$g/bin.new"
mkdir -p "$g"
if [ ! -f "$src/tools/testing/selftests/sched/Makefile" ]; then
	say "no sched selftests in $src"
	rm -rf "$dst" "${g:?}/bin" "$g/negatives" "$g/.lab-built"
	exit 0
fi
need make gcc
# What the set is made of: when it is installed, nothing is built again. The
# tools' paths too: another make or gcc on PATH builds afresh.
now=$( (command -v make gcc; gcc -dumpfullversion; git -C "$src" rev-parse HEAD
	git -C "$src" --no-optional-locks status --porcelain -- tools/testing/selftests include/uapi
	git -C "$src" diff HEAD -- tools/testing/selftests include/uapi; cat "$defs" "$0") | sha256sum)
if [ -d "$dst" ] && [ -d "$g/bin" ] && [ "$(cat "$g/.lab-built" 2>/dev/null)" = "$now" ]; then
	say "kselftests of $variant up to date: $dst"
	exit 0
fi
say "building the sched kselftests of $variant (static)"
log=$g/selftests.log
# In-tree: with O= the sched target's install looks for cs_prctl_test in the
# source directory. The binaries are in the target's .gitignore.
make -s -C "$src/tools/testing/selftests" TARGETS=sched \
	KSFT_INSTALL_PATH="$new" INSTALL_PATH="$new" LDFLAGS=-static \
	install >"$log" 2>&1 || { tail -20 "$log" >&2; die "sched kselftests did not build: see $log"; }
mkdir -p "$g/bin.new"
t=$src/tools/testing/selftests/sched/newidle_gate_test.c
if [ -f "$t" ]; then
	rm -rf "$g/negatives"
	for name in $(sed -n 's/^name: //p' "$defs"); do
		block=$(sed -n "/^name: $name\$/,/^\$/p" "$defs")
		case " $(sed -n 's/^every: but //p' "$defs") " in
		*" $name "*) ;;
		*) block+=$'\n'$(sed -n '/^every: /,/^$/p' "$defs") ;;
		esac
		s=$(cat "$t"; echo .)
		while IFS= read -r line; do
			case $line in
			'- '*) printf -v old '%b' "${line#- }"
				[[ $s == *"$old"* ]] || die "negative control $name: its edit '${line#- }' no longer applies to $t" ;;
			'+ '*) printf -v add '%b' "${line#+ }"; s=${s//"$old"/"$add"} ;;
			esac
		done <<<"$block"
		mkdir -p "$g/negatives/$name"
		printf '%s' "${s%.}" >"$g/negatives/$name/newidle_gate_test.c"
		# "../kselftest_harness.h" is found through the sched directory
		gcc -O2 -static -I"$src/tools/testing/selftests/sched" -isystem "$src/usr/include" \
			-o "$g/bin.new/newidle_gate_test.$name" "$g/negatives/$name/newidle_gate_test.c" ||
			die "the $name build of newidle_gate_test failed"
		for key in fails run leaves term says; do sed -n "s/^$key: //p" <<<"$block" >"$g/bin.new/newidle_gate_test.$name.$key"; done
	done
fi
rm -rf "$dst" "${g:?}/bin" "$g/.lab-built"
mv "$new" "$dst"
mv "$g/bin.new" "$g/bin"
echo "$now" >"$g/.lab-built"
say "kselftests of $variant installed in $dst"
