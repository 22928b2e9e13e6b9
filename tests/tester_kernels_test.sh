#!/bin/bash
# make tester-kernels on the small config: the three packages are built, their
# names tell baseline, patched and experiment apart, only the patched and
# experiment images hold the gate, only the experiment image the candidate;
# bad input fails clearly and changes nothing. Each check has a negative
# control: the same check run where it must fail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
dest=$OUT/check/tester-kernels
tk=$top/lab/tools/tester-kernels.sh
verify=$top/lab/tools/tester-verify.sh
fails() { if "$@" >"$scratch/log" 2>&1; then return 1; fi; }

# The premise of the gate check: v7.3 has no $GATE_DEBUGFS, the series does.
t_check "v7.3 has no $GATE_DEBUGFS anywhere" \
	test -z "$(git -C "$LINUX" grep -lw "$GATE_DEBUGFS" "$BASE_TAG" || true)"
t_check "the series adds it to kernel/sched/features.h" \
	git -C "$LINUX" grep -q "SCHED_FEAT($GATE_DEBUGFS," patched -- kernel/sched/features.h
t_check "neither v7.3 nor the series has $EXPERIMENT_FEATURE" \
	test -z "$(git -C "$LINUX" grep -lw "$EXPERIMENT_FEATURE" patched "$BASE_TAG" || true)"
"$top/lab/prepare.sh" apply experiment >"$scratch/exp.log" 2>&1 || cat "$scratch/exp.log"
t_check "the experimental set adds it to kernel/sched/features.h" \
	git -C "$LINUX" grep -q "SCHED_FEAT($EXPERIMENT_FEATURE," experiment -- kernel/sched/features.h

# The config the lab builds: what it switches on, and says.
printf 'CONFIG_X86_64=y\nCONFIG_LOCALVERSION="-mine"\nCONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"\n' >"$scratch/lack.config"
"$top/lab/tools/tester-config.sh" "$scratch/lack.config" "$scratch/lack.out" >"$scratch/notes"
t_check "config: a missing CONFIG_SCHEDSTATS is switched on and said" \
	sh -c "grep -q '^CONFIG_SCHEDSTATS=y' '$scratch/lack.out' && grep -q 'switched on CONFIG_SCHEDSTATS' '$scratch/notes'"
t_check "config: a missing CONFIG_DEBUG_FS is switched on and said" \
	sh -c "grep -q '^CONFIG_DEBUG_FS=y' '$scratch/lack.out' && grep -q 'switched on CONFIG_DEBUG_FS' '$scratch/notes'"
t_check "config: its own local version and absent distribution keys are dropped and said" \
	sh -c "grep -q '^CONFIG_LOCALVERSION=\"\"' '$scratch/lack.out' && grep -q '^CONFIG_SYSTEM_TRUSTED_KEYS=\"\"' '$scratch/lack.out' &&
		test \"\$(grep -c -e dropped -e emptied '$scratch/notes')\" = 2"
printf 'CONFIG_X86_64=y\nCONFIG_SCHEDSTATS=y\nCONFIG_DEBUG_FS=y\n' >"$scratch/has.config"
"$top/lab/tools/tester-config.sh" "$scratch/has.config" "$scratch/has.out" >"$scratch/notes"
t_check "config, negative control: a config that has both gets no note" test ! -s "$scratch/notes"

# Bad input: a clear error, and nothing changed.
head=$(git -C "$LINUX" rev-parse patched)
echo 'not a config' >"$scratch/junk"
t_check "a file that is not a kernel config fails" fails env TESTER_OUT="$scratch/t1" "$tk" "$scratch/junk"
t_check "... and says so" grep -q "is not a kernel config" "$scratch/log"
t_check "... and creates nothing" test ! -e "$scratch/t1"
t_check "a disk without room fails before starting" \
	fails env TESTER_OUT="$scratch/t2" TESTER_SPACE_MB=100000000 "$tk" guest
t_check "... naming the space needed" grep -q "not enough disk space: the builds need about 97657 GiB (100000000 MiB)" "$scratch/log"
t_check "... and creates nothing" test ! -e "$scratch/t2"
t_check "the lab's tree is untouched" test "$(git -C "$LINUX" rev-parse patched)" = "$head"

# A series that does not apply, on a throwaway kernel-like tree.
(
	# the disk check is its own test (above): this one must reach the series
	export OUT=$scratch/out PATCHES=$scratch/patches BASE_TAG=base-test TESTER_OUT=$scratch/out/tk TESTER_SPACE_MB=1
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
	mkdir -p "$scratch/up/kernel/sched" "$PATCHES"
	printf 'int a;\nint b;\nint c;\nint d;\nint e;\n' >"$scratch/up/kernel/sched/fair.c"
	git -C "$scratch/up" init -q -b main && git -C "$scratch/up" add -A && git -C "$scratch/up" commit -q -m base
	cat >"$PATCHES/0001-sched-fair-broken.patch" <<-'EOF'
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: t <t@example.org>
	Subject: [PATCH] sched/fair: A change whose context is gone

	---
	diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
	--- a/kernel/sched/fair.c
	+++ b/kernel/sched/fair.c
	@@ -2,3 +2,3 @@
	 int B;
	-int c;
	+int c = 3;
	 int d;
	EOF
	echo 0001-sched-fair-broken.patch >"$PATCHES/series"
	KERNEL_TREE=$scratch/up KERNEL_REF=main "$tk" "$scratch/has.config" >"$scratch/apply.log" 2>&1
) && rc=0 || rc=$?
t_check "a series that does not apply fails" test "$rc" != 0
t_check "... naming the patch and the hunk" \
	grep -q 'patch 0001-sched-fair-broken.patch .* does not apply .*hunk at kernel/sched/fair.c:2' "$scratch/apply.log"
t_check "... and builds no kernel" sh -c "grep -q 'no kernel built' '$scratch/apply.log' && test ! -e '$scratch/out/tk'"

# The real thing, on the small config (a tester's own config is the same
# steps on a larger one: make tester-kernels CONFIG=path).
start=$(date +%s)
TESTER_OUT=$dest "$tk" min >"$scratch/run.log" 2>&1 && rc=0 || rc=$?
grep -E '^\[lab\] (base|gate|config|the configs)|error' "$scratch/run.log" || true
t_check "make tester-kernels CONFIG=min succeeds ($(( $(date +%s) - start ))s)" test "$rc" = 0
[ "$rc" = 0 ] || tail -30 "$scratch/run.log"
base=$(ls "$dest"/linux-image-*-newidle-base-*.deb 2>/dev/null || true)
gate=$(ls "$dest"/linux-image-*-newidle-gate-*.deb 2>/dev/null || true)
exp=$(ls "$dest"/linux-image-*-newidle-exp-*.deb 2>/dev/null || true)
t_check "one baseline package: ${base##*/}" test "$(echo "$base" | grep -c .)" = 1
t_check "one patched package: ${gate##*/}" test "$(echo "$gate" | grep -c .)" = 1
t_check "one experiment package: ${exp##*/}" test "$(echo "$exp" | grep -c .)" = 1
[ -n "$base" ] && [ -n "$gate" ] && [ -n "$exp" ] || { t_done; exit 1; }
bsha=$(git -C "$LINUX" rev-parse --short=12 "$BASE_TAG")
gsha=$(git -C "$LINUX" rev-parse --short=12 patched)
t_check "the baseline is named -newidle-base with the base commit" \
	test "$(dpkg-deb -f "$base" Package)" = "linux-image-7.3.4-newidle-base-g$bsha"
t_check "the patched one is named -newidle-gate with the series' commit" \
	test "$(dpkg-deb -f "$gate" Package)" = "linux-image-7.3.4-newidle-gate-g$gsha"
esha=$(git -C "$LINUX" rev-parse --short=12 experiment)
t_check "the experiment one is named -newidle-exp with the experiment's commit" \
	test "$(dpkg-deb -f "$exp" Package)" = "linux-image-7.3.4-newidle-exp-g$esha"
"$verify" "$base" "$gate" "$exp" >"$scratch/verify" 2>&1 && rc=0 || rc=$?
sed 's/^/# /' "$scratch/verify"
t_check "verify passes on the three" test "$rc" = 0
t_check "the patched image holds the gate" grep -q '^ok: the patched image holds the gate' "$scratch/verify"
t_check "the baseline image does not" grep -q '^ok: the baseline image has no gate' "$scratch/verify"
t_check "the experiment image holds the candidate" grep -q '^ok: the experiment image holds the candidate' "$scratch/verify"
t_check "the patched image does not" grep -q '^ok: the gate image has no candidate' "$scratch/verify"
t_check "the names differ" grep -q '^ok: the packages have different names' "$scratch/verify"
# same config: they differ in no option v7.3 has (the small config has none
# of the series' own either: no KUnit)
series_only() {
	local s
	for s in $(sed -E 's/^[<>] (# )?CONFIG_([A-Za-z0-9_]+).*/\2/' "$1" | sort -u); do
		git -C "$LINUX" grep -qE "^config $s\$" patched -- '*Kconfig*' || return 1
		! git -C "$LINUX" grep -qE "^config $s\$" "$BASE_TAG" -- '*Kconfig*' || return 1
	done
}
t_check "the configs differ in no option v7.3 has (differences: $(paste -sd ' ' "$dest/config.diff" | grep . || echo none))" \
	series_only "$dest/config.diff"
echo '> CONFIG_SCHED_MC=y' >"$scratch/other.diff"
t_check "negative control: a difference in an option v7.3 has fails that check" \
	fails series_only "$scratch/other.diff"

# Negative controls: the same checks where they must fail.
fails "$verify" "$base" "$base"
t_check "negative control: two packages with the same name fail the name check" \
	grep -q '^FAIL: two packages have the same name' "$scratch/log"
fails "$verify" "$base" "$gate" "$gate"
t_check "negative control: the patched one given as the experiment fails the candidate check" \
	grep -q '^FAIL: the experiment image does not hold the candidate' "$scratch/log"
fails "$verify" "$base" "$exp" "$exp"
t_check "negative control: the experiment one given as the patched fails it too" \
	grep -q '^FAIL: the gate image holds the candidate' "$scratch/log"
fails "$verify" "$gate" "$base"
t_check "negative control: the baseline given as the patched one fails the gate check" \
	grep -q '^FAIL: the patched image does not hold the gate' "$scratch/log"
t_check "negative control: the patched one given as the baseline fails it too" \
	grep -q '^FAIL: the baseline image holds the gate' "$scratch/log"

for s in "${base##*/}" "${gate##*/}" "${exp##*/}" 'uname -r' 'echo Y | sudo tee /sys/kernel/debug/sched/verbose' \
	"sudo grep -ow -e $GATE_DEBUGFS -e $EXPERIMENT_FEATURE /sys/kernel/debug/sched/features" 'sudo bench/bare-metal.sh' 'thread on LKML'; do
	t_check "checklist: $s" grep -qF -- "$s" "$dest/CHECKLIST.txt"
done

# A config that does not build: the small one with an initramfs that is not
# there (incremental on the build above: what initrd support touches is
# rebuilt, and usr/ fails). The small config has no initrd support, without
# which olddefconfig would drop the source and the kernel would build.
cp "$dest/base/config" "$scratch/broken.config"
printf 'CONFIG_BLK_DEV_INITRD=y\nCONFIG_INITRAMFS_SOURCE="/nonexistent/lab-initramfs"\n' >>"$scratch/broken.config"
t_check "a config that does not build fails" fails env TESTER_OUT="$dest" "$tk" "$scratch/broken.config"
t_check "... saying so, with the log" grep -q 'base: the kernel does not build with this config .*build.log; no packages' "$scratch/log"
t_check "... and leaves no package" test -z "$(ls "$dest"/*.deb 2>/dev/null)"
t_done
