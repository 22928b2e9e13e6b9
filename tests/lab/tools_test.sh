#!/bin/bash
# The lab's tools and the project's rules on fixtures, without a kernel; every
# check is shown failing once, on a fixture that breaks it.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$top"
. tests/lab/rules.sh
fx=$top/tests/fixtures

# --- the TAP counter
tap() { printf "$1" >"$scratch/tap"; tests/tapsum.sh "$scratch/tap" 2>"$scratch/tap.err"; }
t_check "tapsum: a skip counts as skipped, not passed" test "$(tap 'ok 1 - a\nok 2 - b # SKIP no tool\n1..2\n')" = "1 0 1"
t_check "tapsum: a failure counts as failed" test "$(tap 'ok 1 - a\nnot ok 2 - b\n1..2\n')" = "1 1 0"
t_check "tapsum: fewer results than the plan fail" test "$(tap 'ok 1 - a\n1..2\n')" = "1 1 0"
t_check "tapsum: and say so" grep -q 'plan 1..2 but 1 results' "$scratch/tap.err"
t_check "tapsum: no TAP at all fails" test "$(tap '')" = "0 1 0"
t_check "tapsum: results without a plan fail" test "$(tap 'ok 1 - a\nok 2 - b\n')" = "2 1 0"
t_check "tapsum: a result seen twice fails" test "$(tap 'ok 1 - a\nok 1 - a\n1..2\n')" = "2 1 0"
t_check "tapsum: a console tail that re-prints guest results counts nothing" \
	test "$(tap 'ok 1 - a\n1..1\n| ok 1 - a\n| not ok 2 - b\n#ok 3\n    ok 1 nested\n')" = "1 0 0"
t_check "tapsum: a part skipped whole (1..0 # SKIP) is one skip" test "$(tap '1..0 # SKIP no tool\n')" = "0 0 1"
t_check "tapsum: 'not ok # SKIP' is a failure" test "$(tap 'not ok 1 - a # SKIP x\n1..1\n')" = "0 1 0"

# --- the console judge, on saved logs: frame.console with NAME.splat after
# its LAB-BEGIN (none for clean), edited by SED, in $scratch/NAME.console
con() { sed "4r $fx/console/${3:-$1}.splat" "$fx/console/frame.console" | sed "${2:-}" >"$scratch/$1.console"; }
for k in clean warn lockdep rcu kasan ubsan hung trace; do con $k; done
con failed s/rc=0/rc=3/; con noresult '8,$d'; con panic '11,$d'; con nmi s/rc=0/rc=1/; con warn-nostamp 's/^\[ *[0-9.]*\] //' warn
con nmi-and-warn 's/rc=0/rc=1/; 13a [   12.000000] WARNING: CPU: 3 PID: 5 at kernel/sched/topology.c:77 build_sched_domains+0x1/0x9' nmi
judge() { local rc=0; lab/steps/judge.sh "$scratch/$1.console" "${@:2}" >"$scratch/judge.out" 2>&1 || rc=$?; echo "$rc"; }
t_check "judge: a clean console passes" test "$(judge clean)" = 0
t_check "judge: a guest's failing script is its failure (1), not the kernel's" test "$(judge failed)" = 1
for k in warn lockdep rcu kasan ubsan hung trace nmi; do
	t_check "judge: a $k splat fails the boot" test "$(judge $k)" = 3
done
judge warn >/dev/null
t_check "judge: the WARNING is named with its line" grep -q 'line 6: WARNING: CPU: 2 PID: 77 at kernel/sched/fair.c' "$scratch/judge.out"
t_check "judge: its Call Trace is part of it (1 splat)" grep -q '1 kernel splat(s)' "$scratch/judge.out"
t_check "judge: a log without printk timestamps is judged line by line" test "$(judge warn-nostamp)" = 3
t_check "judge: a panic fails" test "$(judge panic)" = 3
t_check "judge: and is named" grep -q 'the guest kernel panicked' "$scratch/judge.out"
t_check "judge: a guest without a result fails" test "$(judge noresult)" = 3
t_check "judge: a declared splat (--expect) is not the kernel's failure" test "$(judge nmi --expect 'NMI backtrace for cpu')" = 1
t_check "judge: and is named as expected" grep -q '2 expected splat(s)' "$scratch/judge.out"
t_check "judge: another splat beside the declared one still fails" test "$(judge nmi-and-warn --expect 'NMI backtrace for cpu')" = 3
t_check "judge: a declared splat that does not come fails" test "$(judge clean --expect 'NMI backtrace for cpu')" = 3
t_check "judge: bad arguments are refused" refuses_with "--expect needs a pattern" lab/steps/judge.sh "$scratch/clean.console" --expect

# --- the Debian mirror from the apt configuration
mirror() { lab/steps/mirror.sh "$fx/apt/$1" "$fx/apt/os-release-bookworm"; }
t_check "mirror: deb822 sources (security and third-party passed over)" test "$(mirror deb822)" = http://192.0.2.10/debian
t_check "mirror: one-line sources.list with options, comments, deb-src" test "$(mirror oneline)" = http://192.0.2.30/debian
t_check "mirror: a disabled stanza is passed over, continued fields read" test "$(mirror disabled)" = file:/srv/mirror/debian
t_check "mirror: no Debian mirror at all is an error" refuses_with "no Debian mirror for bookworm" mirror none
t_check "mirror: without arguments it takes LAB_APT_ETC and LAB_OS_RELEASE from lab/settings" \
	test "$(env -u LAB_OS_RELEASE LAB_APT_ETC="$fx/apt/deb822" lab/steps/mirror.sh 2>/dev/null)" = http://192.0.2.10/debian
script "$scratch/fake/apt-get" 'echo "E: fake apt-get, no network" >&2' 'exit 100'
# fetch FAKES OUT APT: lab/steps/fetch.sh, the programs of $scratch/FAKES first on PATH, apt's configuration fixtures/apt/APT
fetch() { env PATH="$scratch/$1:$PATH" OUT="$scratch/$2" LAB_APT_ETC="$fx/apt/$3" LAB_OS_RELEASE="$fx/apt/os-release-bookworm" lab/steps/fetch.sh; }
fetch fake fetch deb822 >/dev/null 2>&1 || true
t_check "fetch: its apt source is the machine's mirror" grep -q ' http://192.0.2.10/debian trixie-backports main$' "$scratch/fetch/apt/sources.list"
DEB_MIRROR=http://192.0.2.77/debian fetch fake fetch deb822 >/dev/null 2>&1 || true
t_check "fetch: DEB_MIRROR overrides it" grep -q ' http://192.0.2.77/debian trixie-backports main$' "$scratch/fetch/apt/sources.list"
t_check "fetch: no mirror and no DEB_MIRROR: a clear error" refuses_with "set DEB_MIRROR" fetch fake fetch2 none
script "$scratch/moved/apt-get" "case \" \$* \" in *\" download \"*) echo downloaded >\"$scratch/moved/download\" ;; esac"
script "$scratch/moved/apt-cache" 'case " $* " in *" policy "*) echo "  Candidate: 7.3.9-1~bpo13+1"; exit 0 ;; esac' 'exit 100'
t_check "fetch: the pinned version gone from the mirror: refused, naming DEB_VER" refuses_with "DEB_VER in lab/settings" fetch moved fetch3 deb822
t_check "fetch: and nothing downloaded" test ! -e "$scratch/moved/download"
t_check "fetch: no host name written into the project" \
	test -z "$(git grep -lE 'https?://[a-z][a-z0-9.-]*\.(org|com|net)/debian' -- lab bench tests Makefile README.md || true)"

# --- packages: required ones stop the run, optional ones do not
printf '%s\n' 'bash /bin/bash required everything' 'nosuch-req /nonexistent/req required a test' \
	'nosuch-opt /nonexistent/opt optional a part that skips' >"$scratch/packages"
grep -v nosuch-req "$scratch/packages" >"$scratch/packages-opt"
deps() { env PATH="$scratch/fake:$PATH" LAB_PACKAGES="$scratch/$1" lab/steps/deps.sh; }
script "$scratch/fake/id" 'echo 1000'
t_check "deps: a missing required package stops a user who is not root, naming it" refuses_with "sudo apt-get install nosuch-req" deps packages
t_check "deps: a missing optional package does not stop it" eval 'deps packages-opt 2>"$scratch/deps.err"'
t_check "deps: and is named with what skips" grep -q 'nosuch-opt (a part that skips)' "$scratch/deps.err"
script "$scratch/fake/id" 'echo 0'
script "$scratch/fake/apt-get" '[ "$2" = update ] && exit 0' 'echo "E: Unable to locate package nosuch-req" >&2' 'exit 100'
t_check "deps: as root, a failed install stops it with apt's error" refuses_with "apt: E: Unable to locate package nosuch-req" deps packages
t_check "deps: as root, an optional package that fails to install does not stop it" eval 'deps packages-opt 2>"$scratch/deps.err"'
rm -f "$scratch/fake/id" "$scratch/fake/apt-get"
# make tester-kernels asks for what fetching, building and packaging a kernel needs, each
# missing here, and no other package (no QEMU, valgrind, the bench's); without apt (Fedora),
# the kernel's own binrpm-pkg said at once
sed -E 's|^([a-z0-9.+-]+) +[^ ]+|\1 /nonexistent/\1|' lab/data/packages >"$scratch/packages-none"
script "$scratch/tkfake/id" 'echo 1000'
put "$scratch/tk.config" CONFIG_X86_64=y
t_check "tester-kernels: deps.sh asked for the packages packaging a kernel needs, no other" \
	refuses_with "missing Debian packages: git make gcc bc flex bison libelf-dev libssl-dev cpio xz-utils ccache perl ca-certificates apt debian-archive-keyring rsync util-linux dpkg-dev debhelper kmod rpm rpm2cpio;" \
	env PATH="$scratch/tkfake:$PATH" OUT="$scratch/tk-out" TESTER_OUT="$scratch/tk" TESTER_SPACE_MB=1 LAB_PACKAGES="$scratch/packages-none" \
	lab/tools/tester-kernels.sh "$scratch/tk.config"
t_check "make tester-kernels: no 'make deps' of every package first" test "$(make -s -n tester-kernels CONFIG=c)" = "lab/tools/tester-kernels.sh c"
mkdir -p "$scratch/noapt" && { cp -s /usr/bin/* "$scratch/noapt/" 2>/dev/null || true; } && rm "$scratch/noapt/apt-get"
t_check "tester-kernels: without apt-get (Fedora) refused at once, with the kernel's own binrpm-pkg, nothing made" \
	eval 'refuses_with "make -j\$(nproc) LOCALVERSION=-newidle-gate binrpm-pkg" env PATH="$scratch/noapt" TESTER_OUT="$scratch/tk2" \
		lab/tools/tester-kernels.sh && test ! -e "$scratch/tk2"'

# --- lab/guest/sched.sh's feature lists (make's summary reads the lines)
echo 'GENTLE_FAIR_SLEEPERS NI_RANDOM NO_NI_RATE NI_DICE' >"$scratch/feat-list"
sched() { SCHED_FEATURES="$scratch/feat-list" sh -c ". lab/guest/sched.sh; $1"; }
t_check "sched.sh: feats gives the newidle features on one line" test "$(sched feats)" = "NI_RANDOM NO_NI_RATE NI_DICE"
sched feat_lines >"$scratch/feat-lines"
t_check "sched.sh: feat_lines gives each on a line of its own, the last one ended" \
	eval 'test "$(wc -l <"$scratch/feat-lines")" = 3 && test "$(tail -1 "$scratch/feat-lines")" = NI_DICE'

# --- the rules, on the project and (negative controls) on a tree that breaks them
t_check "rules: every script keeps its errors (set -euo pipefail / set -eu)" rule_pipefail "$top"
t_check "rules: no pipe into grep -q or head under pipefail (SIGPIPE by timing)" rule_no_early_reader "$top"
# broken RULE TREE ERE...: RULE on $scratch/TREE (said in rules.out): how many lines match an ERE
broken() { "$1" "$scratch/$2" >"$scratch/rules.out" || true; grep -cE "$(IFS='|'; echo "${*:3}")" "$scratch/rules.out" || true; }
put "$scratch/early/tests/e.sh" "$(printf '#!/bin/bash\nset -euo pipefail\nseq 9 %s grep -q 1\nx=$(seq 9 %s head -1)\n# seq 9 %s head -1 in a comment' '|' '|' '|')"
t_check "negative control: both pipes found, not the comment" test "$(broken rule_no_early_reader early 'e.sh:[0-9]')" = 2
t_check "rules: each pipeline step, the futexbench compile, TAP output and cpio packing live in one place" rule_one_place "$top"
make -s help >"$scratch/help.txt"
t_check "rules: make help lists the targets" grep -q '^ *make check ' "$scratch/help.txt"
t_check "rules: make help lists every setting of lab/settings" \
	test "$(grep -c '^    [A-Z][A-Z0-9_]*=' "$scratch/help.txt")" = "$(grep -c '^[A-Z][A-Z0-9_]*=' lab/settings)"
t_check "rules: every setting the scripts read is in lab/settings (make help)" rule_documented "$top"
mkdir -p "$scratch/bad/tests" && touch "$scratch/bad/tests/run.sh" "$scratch/bad/Makefile"
put "$scratch/bad/lab/x.sh" '#!/bin/bash' 'set -eu' 'echo "${UNDOCUMENTED_KNOB:-1}"' '"$LAB_TOP/lab/steps/fetch.sh"'
put "$scratch/bad/bench/y.sh" '#!/bin/sh' 'gcc -O2 -o futexbench futexbench.c' '(cd r && find . | cpio -o -H newc)'
put "$scratch/bad/lab/guest/z.sh" "$(printf 'ok() { echo "ok %sn"; }' '$')"
t_check "negative control: a bash script without pipefail, an sh one without -e" \
	test "$(broken rule_pipefail bad 'no .set -eu')" = 2
t_check "negative control: a step, a compile, a TAP printer and a cpio outside their place" \
	test "$(broken rule_one_place bad 'outside lab/prepare.sh' 'outside bench/build-futexbench.sh' 'outside lab/guest/tap.sh' 'cpio archives packed outside lab/lib.sh')" = 4
put "$scratch/bad2/lab/steps/w.sh" '"$src/scripts/kconfig/merge_config.sh" -m a b' 'git -C "$t" am -q x.patch' \
	'echo root >/sys/fs/cgroup/x/cpuset.cpus.partition' "tr ' ' '\n' <\"\$F\" | grep NI_RANDOM" 'echo "x=1	# BENCH-PARAM"'
t_check "negative control: a config merge, a git am, a domain rebuild, a feature read-back and a bench guest script outside their place" \
	test "$(broken rule_one_place bad2 '^a kernel config merged outside' '^a series applied with git am outside' '^sched domains rebuilt outside' '^sched features read back outside' '^a bench guest script written outside')" = 5
t_check "rules: every /lab/NAME.sh a script runs in the guest is a file of lab/guest" rule_guest_paths "$top"
printf '#!/bin/sh\nexec /lab/tools/stress.sh\n' >"$scratch/bad2/lab/steps/g.sh"
t_check "negative control: a guest path that the initramfs does not have" \
	eval '! rule_guest_paths "$scratch/bad2" >"$scratch/rules.out" && grep -q "the guest has no /lab/tools/stress.sh" "$scratch/rules.out"'
# the lab's size: each count said; a clone at its budget passes, one line over fails
rule_budget "$top" | sed 's/^ */# /' || true
t_check "rules: lab/, bench/, sim/, tests/ and README.md within lab/data/budget's lines" eval 'rule_budget "$top" >/dev/null'
git clone -q "$top" "$scratch/bud"
while IFS=: read -r p n; do
	sed -i "s/^\($p  *\)[0-9]*$/\1${n%% lines*}/" "$scratch/bud/lab/data/budget"
done < <(rule_budget "$scratch/bud" | grep ' lines, budget ' || true)
t=$(sed -n 's/^lab bench sim tests  *//p' "$scratch/bud/lab/data/budget")
t_check "rules: a clone whose budget is its own count ($t lines) is within it" eval 'rule_budget "$scratch/bud" >/dev/null'
echo >>"$scratch/bud/bench/aba.sh"
t_check "negative control: one line over the budget fails, said" \
	eval '! rule_budget "$scratch/bud" >"$scratch/rules.out" && has "$scratch/rules.out" "^lab bench sim tests: $((t + 1)) lines, budget $t$" "over the budget"'
mkdir -p "$scratch/bad/lab" && cp lab/settings "$scratch/bad/lab/settings"
t_check "negative control: an undocumented setting" eval '! rule_documented "$scratch/bad" >"$scratch/rules.out"'
t_check "negative control: and it is named" grep -q 'UNDOCUMENTED_KNOB' "$scratch/rules.out"
t_check "rules: every setting of lab/settings is read by a script" rule_settings_read "$top"
put "$scratch/bad3/lab/settings" 'USED_KNOB=1  # read' 'UNREAD_KNOB=2  # only a comment names it' 'ALONE_KNOB=3  # only a standalone script reads it'
put "$scratch/bad3/lab/x.sh" '#!/bin/bash' '# UNREAD_KNOB: $UNREAD_KNOB' 'echo "$USED_KNOB"'
put "$scratch/bad3/bench/aba.sh" '#!/bin/sh' 'echo "${ALONE_KNOB:-3}"'
t_check "negative control: settings read only in a comment or by a standalone script are named, no other" \
	eval 'test "$(broken rule_settings_read bad3 "no script reads it")" = 2 && has "$scratch/rules.out" "UNREAD_KNOB is" "ALONE_KNOB is"'
t_check "make: bench and bench-kernels are the two modes of one runner" \
	test "$(make -s -n bench bench-kernels | paste -sd' ')" = "bench/bench.sh features bench/bench.sh kernels"
t_check "make: PRESET, not a setting, is refused, naming BENCH_PRESET" \
	refuses_with "PRESET is not a setting: say BENCH_PRESET=ni20" make -s -n bench-kernels PRESET=ni20
# --- shellcheck over every script (*.sh, or a shell shebang); SC2034 and SC2154 off: it
# cannot follow lab_settings, so every setting would read as unassigned or unused
sc() { shellcheck -S warning -e SC2034,SC2154 "$@" >"$scratch/sc.out" 2>&1; }
mapfile -t scripts < <(git ls-files -z | xargs -0 awk 'FNR == 1 { if (FILENAME ~ /\.sh$/ || /^#!.*[\/ ](ba)?sh( |$)/) print FILENAME; nextfile }')
t_check "shellcheck: the project's ${#scripts[@]} scripts have no warning" sc "${scripts[@]}"
[ ! -s "$scratch/sc.out" ] || sed -n '1,40s/^/# /p' "$scratch/sc.out"
put "$scratch/sc-bad.sh" '#!/bin/bash' 'set -euo pipefail' 'd=$1' 'rm -rf $d/bin'
t_check "negative control: shellcheck flags an unquoted rm -rf" not sc "$scratch/sc-bad.sh"
t_done
