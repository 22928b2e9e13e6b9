#!/bin/bash
# VARIANT's sched kselftests, static, in out/guest/VARIANT/kselftest, and the
# negative controls (lab/data/negative-selftest/NAME.patch) in its bin/.
# Usage: lab/steps/selftests.sh VARIANT
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant=${1:?usage: lab/steps/selftests.sh VARIANT}
src=$(variant_src "$variant")
g=$(variant_guest "$variant")
lab_lock
# installed under a temporary name and renamed: never half a set
dst=$g/kselftest
new=$g/kselftest.new
rm -rf "$new" "$g/bin.new"
mkdir -p "$g"
if [ ! -f "$src/tools/testing/selftests/sched/Makefile" ]; then
	say "no sched selftests in $src"
	rm -rf "$dst" "${g:?}/bin"
	exit 0
fi
need make gcc
say "building the sched kselftests of $variant (static)"
log=$g/selftests.log
# In-tree: with O= the sched target's install looks for cs_prctl_test in the
# source directory. The binaries are in the target's .gitignore.
make -s -C "$src/tools/testing/selftests" TARGETS=sched \
	KSFT_INSTALL_PATH="$new" INSTALL_PATH="$new" LDFLAGS=-static \
	install >"$log" 2>&1 || { tail -20 "$log" >&2; die "sched kselftests did not build: see $log"; }
# The negative controls: the test changed by each patch, which the guest
# must see fail; a patch that no longer applies stops the build.
mkdir -p "$g/bin.new"
t=$src/tools/testing/selftests/sched/newidle_gate_test.c
if [ -f "$t" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for neg in "$LAB_TOP"/lab/data/negative-selftest/*.patch; do
		name=$(basename "$neg" .patch)
		rm -rf "$tmp/a"
		mkdir -p "$tmp/a"
		cp "$t" "$tmp/a/"
		patch -s -p1 -d "$tmp/a" <"$neg" || die "lab/data/negative-selftest/$name.patch does not apply to $t"
		# "../kselftest_harness.h" is found through the sched directory
		gcc -O2 -static -I"$src/tools/testing/selftests/sched" -isystem "$src/usr/include" \
			-o "$g/bin.new/newidle_gate_test.$name" "$tmp/a/newidle_gate_test.c" ||
			die "the $name build of newidle_gate_test failed"
		for key in fails run leaves; do sed -n "/^\$/q; s/^$key: //p" "$neg" >"$g/bin.new/newidle_gate_test.$name.$key"; done
	done
	rm -rf "$tmp"
fi
rm -rf "$dst" "${g:?}/bin"
mv "$new" "$dst"
mv "$g/bin.new" "$g/bin"
say "kselftests of $variant installed in $dst"
