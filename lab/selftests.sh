#!/bin/bash
# Build a variant's sched kselftests statically and install them for its
# guest: out/guest/VARIANT/kselftest (copied into that variant's initramfs as
# /lab/kselftest), and the negative controls out/guest/VARIANT/bin/newidle_gate_test.{dice,plain}.
# Usage: lab/selftests.sh VARIANT
set -euo pipefail
. "$(dirname "$0")/lib.sh"
variant=${1:?usage: lab/selftests.sh VARIANT}
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
	rm -rf "$dst" "$g/bin"
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
# The negative controls: the same test with the v7.3 dice and with the plain
# accumulator of the first version in place of the gate (tests/negative/);
# the guest expects each to fail the checks that tell them apart.
mkdir -p "$g/bin.new"
t=$src/tools/testing/selftests/sched/newidle_gate_test.c
if [ -f "$t" ]; then
	for neg in dice plain; do
		gcc -O2 -static -I"$src/tools/include" -isystem "$src/usr/include" \
			-include "$LAB_TOP/tests/negative/${neg}_gate.h" \
			-o "$g/bin.new/newidle_gate_test.$neg" "$t" ||
			die "the $neg build of newidle_gate_test failed"
	done
fi
rm -rf "$dst" "$g/bin"
mv "$new" "$dst"
mv "$g/bin.new" "$g/bin"
say "kselftests of $variant installed in $dst"
