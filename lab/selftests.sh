#!/bin/bash
# Build the kernel tree's sched kselftests statically and install them for
# the guest (out/guest/kselftest, copied into the initramfs as /lab/kselftest).
# Usage: lab/selftests.sh VARIANT
set -eu
. "$(dirname "$0")/lib.sh"
variant=${1:-patched}
src=$(variant_src "$variant")
dst=$OUT/guest/kselftest
rm -rf "$dst"
if [ ! -f "$src/tools/testing/selftests/sched/Makefile" ]; then
	say "no sched selftests in $src"
	exit 0
fi
need make gcc
say "building the sched kselftests of $variant (static)"
b=$OUT/build/selftests-$variant
mkdir -p "$b"
# In-tree: with O= the sched target's install looks for cs_prctl_test in the
# source directory. The binaries are in the target's .gitignore.
make -s -C "$src/tools/testing/selftests" TARGETS=sched \
	KSFT_INSTALL_PATH="$dst" INSTALL_PATH="$dst" LDFLAGS=-static \
	install >"$b/build.log" 2>&1 || { tail -20 "$b/build.log" >&2; die "sched kselftests did not build: see $b/build.log"; }
# The negative controls: the same test with the v7.3 dice and with the plain
# accumulator of the first version in place of the gate (tests/negative/);
# the guest expects each to fail the checks that tell them apart.
t=$src/tools/testing/selftests/sched/newidle_gate_test.c
if [ -f "$t" ]; then
	mkdir -p "$OUT/guest/bin"
	for neg in dice plain; do
		gcc -O2 -static -I"$src/tools/include" -isystem "$src/usr/include" \
			-include "$LAB_TOP/tests/negative/${neg}_gate.h" \
			-o "$OUT/guest/bin/newidle_gate_test.$neg" "$t" ||
			die "the $neg build of newidle_gate_test failed"
	done
fi
say "kselftests installed in $dst"
