#!/bin/bash
# make tester-kernels on the small config: the patched package is built and
# checked (named as such, the gate in its image, no candidate), the other
# two kernels' configs made and compared;
# bad input fails clearly and changes nothing. Each check has a negative
# control: the same check run where it must fail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
dest=$OUT/check/tester-kernels
tk=$top/lab/tools/tester-kernels.sh
verify=$top/lab/tools/tester-verify.sh
fails() { if "$@" >"$scratch/log" 2>&1; then return 1; fi; }

# The premise of the gate check: v7.3 has no $GATE_DEBUGFS, the series does.
# One pass over v7.3 for both names (a pass is ~10 s); the series is v7.3
# plus its added lines, so where v7.3 has a name none, those lines tell.
in_base=$(git -C "$LINUX" grep -hwo -e "$GATE_DEBUGFS" -e "$EXPERIMENT_FEATURE" "$BASE_TAG" | sort -u || true)
git -C "$LINUX" diff "$BASE_TAG" patched | grep '^+' >"$scratch/added" || true
t_check "v7.3 has no $GATE_DEBUGFS anywhere" eval '! grep -qxF "$GATE_DEBUGFS" <<<"$in_base"'
t_check "the series adds it to the domains' debugfs files (kernel/sched/debug.c)" \
	git -C "$LINUX" grep -q "SDM(u32, *0444, $GATE_DEBUGFS);" patched -- kernel/sched/debug.c
t_check "neither v7.3 nor the series has $EXPERIMENT_FEATURE" \
	eval '! grep -qxF "$EXPERIMENT_FEATURE" <<<"$in_base" && ! grep -qw "$EXPERIMENT_FEATURE" "$scratch/added"'
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
t_check "a file that is not a kernel config is refused, said" \
	refuses_with "is not a kernel config" env TESTER_OUT="$scratch/t1" "$tk" "$scratch/junk"
t_check "... and creates nothing" test ! -e "$scratch/t1"
t_check "a disk without room is refused before starting, naming the space needed" \
	refuses_with "not enough disk space: the builds need about 97657 GiB (100000000 MiB)" env TESTER_OUT="$scratch/t2" TESTER_SPACE_MB=100000000 "$tk" guest
t_check "... and creates nothing" test ! -e "$scratch/t2"
t_check "the lab's tree is untouched" test "$(git -C "$LINUX" rev-parse patched)" = "$head"

# A series that does not apply, on a throwaway kernel-like tree (tests/lib.sh) whose
# main moved the patch's context after it was written.
(
	throwaway_series c=3
	git -C "$scratch/up" checkout -q main && sed -i 's/^int b;/int B;/' "$scratch/up/kernel/sched/fair.c" &&
		git -C "$scratch/up" commit -qam "sched/fair: Rename b" -m "Moves the patch's context."
	# the disk check is its own test (above): this one must reach the series
	TESTER_OUT=$scratch/out/tk TESTER_SPACE_MB=1 KERNEL_TREE=$scratch/up KERNEL_REF=main "$tk" "$scratch/has.config" >"$scratch/apply.log" 2>&1
) && rc=0 || rc=$?
t_check "a series that does not apply fails, naming the patch and the hunk ($rc)" \
	eval 'test "$rc" != 0 && grep -q "patch 0001-sched-fair-Initialise-c.patch .* does not apply .*hunk at kernel/sched/fair.c:1" "$scratch/apply.log"'
t_check "... and builds no kernel" sh -c "grep -q 'no kernel built' '$scratch/apply.log' && test ! -e '$scratch/out/tk'"

# The real thing, on the small config, one package built (the patched one:
# it has the gate, and lacks the candidate, which the verify checks find);
# the baseline's and the experiment's configs made and compared.
start=$(date +%s)
TESTER_OUT=$dest TESTER_KERNELS=gate "$tk" min >"$scratch/run.log" 2>&1 && rc=0 || rc=$?
grep -E '^\[lab\] (base|gate|exp|config|built|the configs)|error' "$scratch/run.log" || true
t_check "make tester-kernels CONFIG=min TESTER_KERNELS=gate succeeds ($(( $(date +%s) - start ))s)" test "$rc" = 0
[ "$rc" = 0 ] || tail -30 "$scratch/run.log"
gate=$(ls "$dest"/linux-image-*-newidle-gate-*.deb 2>/dev/null || true)
t_check "one patched package: ${gate##*/}" test "$(echo "$gate" | grep -c .)" = 1
t_check "and no other" test "$(ls "$dest"/linux-image-*.deb 2>/dev/null | wc -l)" = 1
[ -n "$gate" ] || { t_done; exit 1; }
gsha=$(git -C "$LINUX" rev-parse --short=12 patched)
t_check "the patched one is named -newidle-gate with the series' commit" \
	test "$(dpkg-deb -f "$gate" Package)" = "linux-image-7.3.4-newidle-gate-g$gsha"
t_check "the baseline's and the experiment's configs are made, with schedstats and debugfs" \
	eval 'for v in base exp; do grep -q "^CONFIG_SCHEDSTATS=y" "$dest/$v/config" && grep -q "^CONFIG_DEBUG_FS=y" "$dest/$v/config" || exit 1; done'
t_check "the experiment's config is the patched one's" cmp -s <(grep CONFIG_ "$dest/gate/config") <(grep CONFIG_ "$dest/exp/config")
for v in base exp; do
	t_check "the $v kernel's name in its config log: -newidle-$v- with its commit" \
		grep -q "newidle-$v-g$(git -C "$LINUX" rev-parse --short=12 "$([ $v = base ] && echo "$BASE_TAG" || echo experiment)")" "$scratch/run.log"
done
t_check "bad input: TESTER_KERNELS=nosuch is refused, naming the kernels" \
	refuses_with "TESTER_KERNELS: no kernel 'nosuch' (base, gate, exp)" env TESTER_OUT="$scratch/t3" TESTER_KERNELS=nosuch "$tk" "$scratch/has.config"
"$verify" "$gate" "$gate" "$gate" >"$scratch/verify" 2>&1 || true
sed 's/^/# /' "$scratch/verify"
t_check "verify: the patched image holds the gate" grep -q '^ok: the patched image holds the gate' "$scratch/verify"
t_check "verify: and has no candidate" grep -q '^ok: the gate image has no candidate' "$scratch/verify"
t_check "verify: its package holds its image and config, schedstats and debugfs on" \
	eval 'grep -q "^ok: gate package holds /boot/vmlinuz-" "$scratch/verify" && grep -q "^ok: gate kernel has CONFIG_SCHEDSTATS" "$scratch/verify"'
# the RPMs of the same build (TESTER_RPMS): the kernel, checked as the .deb is
rpm=$(ls "$dest"/kernel-[0-9]*_newidle_gate_*.rpm 2>/dev/null || true)
t_check "one patched RPM: ${rpm##*/}, named by the same release, no kernel-headers" \
	eval 'test "$(echo "$rpm" | grep -c .)" = 1 && test "$(rpm -qp --qf "%{NAME} %{VERSION}" "$rpm")" = "kernel 7.3.4_newidle_gate_g$gsha" &&
		test -z "$(ls "$dest"/kernel-headers-* 2>/dev/null)"'
[ -z "$rpm" ] || "$verify" "$rpm" "$rpm" "$rpm" >"$scratch/verify-rpm" 2>&1 || true
sed 's/^/# /' "$scratch/verify-rpm" 2>/dev/null || true
t_check "verify of the RPM: it holds the gate, no candidate, its image and config" \
	eval 'grep -q "^ok: the patched image holds the gate" "$scratch/verify-rpm" && grep -q "^ok: the gate image has no candidate" "$scratch/verify-rpm" &&
		grep -q "^ok: gate package holds /lib/modules/.*/vmlinuz and " "$scratch/verify-rpm" && grep -q "^ok: gate package kernel 7.3.4_newidle_gate_g" "$scratch/verify-rpm"'
t_check "negative control: the patched RPM as the baseline and as the experiment fails, by name and content" \
	eval 'grep -q "^FAIL: the baseline image holds the gate" "$scratch/verify-rpm" && grep -q "^FAIL: exp package kernel .*: not named" "$scratch/verify-rpm" &&
		grep -q "^FAIL: the experiment image does not hold the candidate" "$scratch/verify-rpm"'
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

# Negative controls: the same checks where they must fail (the patched
# package in the other roles).
t_check "negative control: two packages with the same name fail the name check" \
	grep -q '^FAIL: two packages have the same name' "$scratch/verify"
t_check "negative control: the patched one given as the baseline fails the gate check" \
	grep -q '^FAIL: the baseline image holds the gate' "$scratch/verify"
t_check "negative control: the patched one given as the experiment fails the candidate check" \
	grep -q '^FAIL: the experiment image does not hold the candidate' "$scratch/verify"
t_check "negative control: its name fails the experiment's name check" \
	grep -q '^FAIL: exp package linux-image-.*-newidle-gate-.*: not named' "$scratch/verify"

# The checklist, from the package names (the same one three times)
"$top/lab/tools/tester-checklist.sh" "$gate" "$gate" "$gate" >"$scratch/CHECKLIST.txt"
for s in "${gate##*/}" 'echo Y | sudo tee /sys/kernel/debug/sched/verbose' 'sudo bench/bare-metal.sh' 'thread on LKML' \
	'sudo dnf install ./kernel-[0-9]*newidle*.rpm' 'Secure Boot' 'sudo apt install git gcc make dbench rt-tests python3-scipy' \
	'sudo dnf install git gcc make dbench realtime-tests python3-scipy' 'bench/kernels.py v7.3=OUTDIR'; do
	t_check "checklist: $s" grep -qF -- "$s" "$scratch/CHECKLIST.txt"
done
# its step 3: tester-verify.sh --running on each kernel's features (the
# candidate is off by default: the experiment kernel shows NO_ of it) and release
t_check "checklist: step 3 confirms the kernel with lab/tools/tester-verify.sh --running" \
	grep -qx '     sudo lab/tools/tester-verify.sh --running' "$scratch/CHECKLIST.txt"
# FEATURES holding GATE_DEBUGFS: the gate's file in the domain's stand-in
running() {
	rm -rf "$scratch/domain" && mkdir "$scratch/domain"
	case " $2 " in *" $GATE_DEBUGFS "*) : >"$scratch/domain/$GATE_DEBUGFS" ;; esac
	printf '%s\n' "$2" | sed "s/ $GATE_DEBUGFS//" >"$scratch/features"
	TESTER_FEATURES=$scratch/features TESTER_DOMAIN=$scratch/domain TESTER_RELEASE=$1 "$verify" --running
}
for k in "base:NI_RANDOM NI_RATE:v7.3 or another" "gate:NI_RANDOM NI_RATE $GATE_DEBUGFS:v7.3 + the series (debugfs: $GATE_DEBUGFS)" \
	"exp:NI_RANDOM NI_RATE $GATE_DEBUGFS NO_$EXPERIMENT_FEATURE:v7.3 + the series + the experimental set (NO_$EXPERIMENT_FEATURE)"; do
	IFS=: read -r role feats what <<<"$k"
	runrc "$scratch/run-$role" running "7.3.4-newidle-$role-g0123456789ab" "$feats"
	t_check "verify --running: the $role kernel's features name it, its release agrees ($rc)" \
		eval 'test "$rc" = 0 && grep -q "^running: .*: $what" "$scratch/run-$role" && grep -q "^ok: its release names the same kernel" "$scratch/run-$role"'
done
runrc "$scratch/run-mix" running 7.3.4-newidle-gate-g0123456789ab "NI_RANDOM NI_RATE $GATE_DEBUGFS NO_$EXPERIMENT_FEATURE"
t_check "negative control: a release of the patched package with the experiment's features fails ($rc)" \
	eval 'test "$rc" = 1 && grep -q "^FAIL: its release names another kernel" "$scratch/run-mix"'
runrc "$scratch/run-help" "$verify" --help
t_check "verify --help: the usage, exit 0 ($rc)" eval 'test "$rc" = 0 && grep -q "^usage: lab/tools/tester-verify.sh " "$scratch/run-help"'
# not root, a features file it may not read: told to run it as root. The user
# runs a copy of lab/ in a directory anyone may enter, wherever the clone is.
printf 'NI_RANDOM\n' >"$scratch/features-root" && chmod 600 "$scratch/features-root"
pub=$(mktemp -d) && chmod 755 "$pub" && cp -r "$top/lab" "$pub/" && chmod -R a+rX "$pub"
runrc "$scratch/run-user" setpriv --reuid=65534 --regid=65534 --clear-groups env TESTER_FEATURES="$scratch/features-root" \
	TESTER_RELEASE=7.3.4 "$pub/lab/tools/tester-verify.sh" --running
rm -rf "$pub"
t_check "verify --running: a user who may not read the features is told to run it as root ($rc)" \
	eval 'test "$rc" = 1 && grep -q "cannot read .*features-root (Permission denied): run it as root (sudo)" "$scratch/run-user"'
runrc "$scratch/run-old" running 6.1.0 "TTWU_QUEUE"
t_check "verify --running: a kernel without NI_RANDOM is none of the three, said ($rc)" \
	eval 'test "$rc" != 0 && grep -q "has no NI_RANDOM: this kernel is none of the three" "$scratch/run-old"'
# A config that does not build: the small one with an initramfs that is not
# there (incremental on the build above: what initrd support touches is
# rebuilt, and usr/ fails). The small config has no initrd support, without
# which olddefconfig would drop the source and the kernel would build.
cp "$dest/gate/config" "$scratch/broken.config"
printf 'CONFIG_BLK_DEV_INITRD=y\nCONFIG_INITRAMFS_SOURCE="/nonexistent/lab-initramfs"\n' >>"$scratch/broken.config"
t_check "a config that does not build fails" fails env TESTER_OUT="$dest" TESTER_KERNELS=gate "$tk" "$scratch/broken.config"
t_check "... saying so, with the log" grep -q 'gate: the kernel does not build with this config .*build.log; no packages' "$scratch/log"
t_check "... and leaves no package" test -z "$(ls "$dest"/*.deb "$dest"/*.rpm 2>/dev/null)"
t_done
