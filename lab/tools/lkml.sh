#!/bin/bash
# 'make lkml': what the sched maintainers and the build robot would run on
# the series (LKML_CHECKS), each check in a process of its own (--one CHECK)
# where set -e holds; a missing tool SKIPs, naming its package. A TAP summary
# ends the run, which fails if a check failed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
checks=$LKML_CHECKS
need git perl
L=$OUT/lkml
list=$(series_list)

# skip REASON: end this check as skipped (status 4, README.md's table)
skip() {
	echo "$*" >"$L/skip-$one"
	echo "  SKIP: $*"
	exit 4
}

check_checkpatch() {
	local p bad=0
	for p in $list; do
		checkpatch_findings "$PATCHES/$p" >"$L/checkpatch-$p.txt" || bad=1
		sed "s|^|  $p: |" "$L/checkpatch-$p.txt"
	done
	echo "  $(echo "$list" | grep -c .) patches checked"
	return $bad
}

check_am() {
	local w p
	# shellcheck disable=SC2046
	if ! w=$(am_series am "$L/am.log" $(for p in $list; do echo "$PATCHES/$p"; done)); then
		echo "  $(tail -1 "$L/am.log") does not apply:"; sed -n '$!{1,10s/^/    /p}' "$L/am.log"
		return 1
	fi
	if [ "$(git -C "$w" rev-parse 'HEAD^{tree}')" = "$(git -C "$LINUX" rev-parse 'patched^{tree}')" ]; then
		echo "  git am of patches/ onto $BASE_TAG gives the tree of branch 'patched'"
	else
		echo "  git am result differs from branch 'patched': run 'make export'"
		return 1
	fi
}

check_spelling() {
	local p out bad=0
	command -v codespell >/dev/null 2>&1 || skip "codespell is missing (Debian package codespell)"
	for p in $list; do
		# changelog, and the lines the patch adds
		out=$(sed -n '/^Subject:/,/^---$/p; /^+[^+]/p' "$PATCHES/$p" |
			codespell --quiet-level=2 - 2>&1 || true)
		[ -z "$out" ] && continue
		echo "$out" | sed "s|^|  $p: |"
		bad=1
	done
	[ $bad = 0 ] && echo "  codespell: nothing found in changelogs and added lines"
	return $bad
}

# Warnings of the kernel's docs build of Documentation/scheduler, paths and
# line numbers dropped so that base and patched compare.
sphinx_warnings() {
	local src=$1 b=$2
	rm -rf "$b"	# Sphinx only warns about what it reads again: build from scratch
	mkdir -p "$b"
	make -s -C "$src" O="$b" SPHINXDIRS=scheduler htmldocs >"$b/docs.log" 2>&1 || { tail -5 "$b/docs.log" >&2; return 1; }
	{ grep -E 'WARNING|ERROR' "$b/docs.log" || true; } | sed -E "s|$src/||g; s|:[0-9]+: |: |" | sort -u
}

# new_in BASE PATCHED: the warnings of PATCHED that BASE has not; fails on one
new_in() {
	local new
	new=$(comm -13 "$1" "$2")
	[ -n "$new" ] || { echo "  no new warnings"; return 0; }
	echo "  new in the series:"; echo "$new" | sed 's/^/    /'
	return 1
}

check_docs() {
	local f bad=0 files
	files=$(git -C "$LINUX" diff --name-only "$BASE_TAG" patched -- '*.rst')
	[ -n "$files" ] || { echo "  no .rst file changed"; return 0; }
	if command -v sphinx-build >/dev/null 2>&1; then
		# the kernel's own docs build of Documentation/scheduler, base vs patched
		sphinx_warnings "$OUT/src/baseline" "$L/docs-base" >"$L/docs-base.txt" || return 1
		sphinx_warnings "$LINUX" "$L/docs-patched" >"$L/docs-patched.txt" || return 1
		echo "  make SPHINXDIRS=scheduler htmldocs (Sphinx $(sphinx-build --version | awk '{print $2}')):" \
			"$(wc -l <"$L/docs-base.txt") warnings on the base, $(wc -l <"$L/docs-patched.txt") with the series"
		new_in "$L/docs-base.txt" "$L/docs-patched.txt"
		return
	fi
	/usr/bin/python3 -c 'import docutils' 2>/dev/null ||
		skip "neither sphinx-build nor docutils is here (Debian packages python3-sphinx, python3-docutils)"
	for f in $files; do
		# no Sphinx here: plain docutils, report level warning
		if /usr/bin/python3 -c 'import sys, docutils.core; docutils.core.publish_doctree(open(sys.argv[1]).read(),
			settings_overrides={"report_level": 2, "halt_level": 2})' "$LINUX/$f" >"$L/docs.log" 2>&1; then
			echo "  $f: parses without warnings (docutils $(/usr/bin/python3 -c 'import docutils; print(docutils.__version__)'); Sphinx not installed)"
		else
			echo "  $f:"; sed 's/^/    /' "$L/docs.log" | tail -5
			bad=1
		fi
	done
	return $bad
}

check_bisect() {
	local w c n=0 bad=0 cfg range=$LKML_RANGE
	w=$(worktree_at bisect)
	for c in $(git -C "$LINUX" rev-list --reverse "$range"); do
		n=$((n + 1))
		[ "$n" -lt "$LKML_BISECT_FROM" ] && continue
		if ! git -C "$w" checkout -q --force --detach "$c" 2>"$L/bisect-$n-checkout.log"; then
			echo "  $n $(git -C "$LINUX" log -1 --format=%s "$c"): CANNOT CHECK OUT:"
			sed 's/^/    /' "$L/bisect-$n-checkout.log"
			return 1
		fi
		[ "$(git -C "$w" rev-parse HEAD)" = "$c" ] || { echo "  $n: the bisection tree is not at $c"; return 1; }
		for cfg in $LKML_BISECT_CONFIGS; do
			if "$LAB_TOP/lab/prepare.sh" build "bisect-$cfg" >"$L/bisect-$n-$cfg.log" 2>&1; then
				echo "  $n $(git -C "$LINUX" log -1 --format=%s "$c"): $cfg config builds"
			else
				echo "  $n $(git -C "$LINUX" log -1 --format=%s "$c"): $cfg config FAILS ($L/bisect-$n-$cfg.log)"
				awk '/error:|Error [0-9]/ && n++ < 5 { print "    " $0 }' "$L/bisect-$n-$cfg.log"
				bad=1
			fi
		done
	done
	[ "$n" -gt 0 ] || { echo "  no commit in $range"; return 1; }
	return $bad
}

# sched_warnings VARIANT: kernel/sched/'s W=1 (and sparse) warnings, without
# paths and line numbers, built apart in out/lkml/w1-VARIANT, every file again.
sched_warnings() {
	local src b w c=""
	src=$(variant_src "$1")
	b=$(variant_build "$1")
	w=$L/w1-$1
	"$LAB_TOP/lab/prepare.sh" build "$1" >"$L/build-$1.log" 2>&1 ||
		{ tail -5 "$L/build-$1.log" >&2; echo "  the $1 kernel does not build ($L/build-$1.log)" >&2; return 1; }
	[ "$sparse" = yes ] && c="C=2"
	mkdir -p "$w"
	cmp -s "$b/.config" "$w/.config" || cp "$b/.config" "$w/.config"
	rm -f "$w"/kernel/sched/*.o
	# shellcheck disable=SC2086
	kmake "$src" O="$w" olddefconfig >"$L/w1-$1.log" 2>&1 &&
		kmake "$src" O="$w" -j"$JOBS" W=1 $c kernel/sched/ >>"$L/w1-$1.log" 2>&1 ||
		{ tail -5 "$L/w1-$1.log" >&2; echo "  the W=1 build of kernel/sched/ ($1) failed" >&2; return 1; }
	{ grep -E 'warning:|error:' "$L/w1-$1.log" || true; } |
		sed -E "s|$src/||g; s|^(\.\./)+||; s|^([^:]+):[0-9]+:[0-9]+:|\1:|" | sort -u
}

check_warnings() {
	sparse=no
	if command -v sparse >/dev/null 2>&1 &&
		[ "$("$LINUX/scripts/checker-valid.sh" sparse -m64 2>/dev/null)" = 1 ]; then
		sparse=yes
	else
		echo "  sparse: NOT RUN: $(sparse --version 2>/dev/null || echo 'not installed') fails the kernel's" \
			"scripts/checker-valid.sh (no __typeof_unqual__); W=1 only"
	fi
	sched_warnings baseline >"$L/warnings-base.txt"
	sched_warnings patched >"$L/warnings-patched.txt"
	echo "  base: $(wc -l <"$L/warnings-base.txt") warnings, patched: $(wc -l <"$L/warnings-patched.txt")" \
		"(W=1$([ $sparse = yes ] && echo ' + sparse'), kernel/sched/)"
	new_in "$L/warnings-base.txt" "$L/warnings-patched.txt"
}

# The KUnit suite as bots run it: kunit.py (UML), its parser's result per case.
check_kunit() {
	local k=$L/kunit
	[ -f "$LINUX/kernel/sched/tests/.kunitconfig" ] || { echo "  the series has no kernel/sched/tests/.kunitconfig"; return 1; }
	mkdir -p "$k"
	echo "  kunit.py run --kunitconfig=kernel/sched/tests (UML, build in $k)"
	if ! (cd "$LINUX" && ./tools/testing/kunit/kunit.py run --kunitconfig=kernel/sched/tests \
		--build_dir="$k" --jobs="$JOBS" --timeout=600 --json="$k/results.json") >"$L/kunit.log" 2>&1; then
		grep -E '\[(FAILED|CRASHED|SKIPPED)\]|ERROR|error:|Testing complete' "$L/kunit.log" | sed 's/^/    /' | tail -20
		echo "  kunit.py failed ($L/kunit.log)"
		return 1
	fi
	grep -E '\[(PASSED|FAILED|SKIPPED|CRASHED)\]' "$L/kunit.log" | sed 's/^/    /'
	grep -E 'Testing complete' "$L/kunit.log" | sed 's/^/  /'
}

if [ "${1:-}" = --one ]; then
	one=${2:?usage: lab/tools/lkml.sh --one CHECK}
	mkdir -p "$L"
	rm -f "$L/skip-$one"
	"check_$one"
	exit 0
fi

for c in $checks; do
	declare -F "check_$c" >/dev/null || die "unknown check '$c' (checkpatch am spelling docs bisect warnings kunit)"
done
lab_lock
"$LAB_TOP/lab/prepare.sh" apply
mkdir -p "$L"
lab_settings_dump >"$L/settings.txt"
declare -A result
fail=0
for c in $checks; do
	say "lkml: $c"
	rc=0
	"$0" --one "$c" || rc=$?
	# a skip is status 4 with skip()'s reason written: a command of the check
	# that happens to exit 4 stays a failure
	if [ "$rc" = 0 ]; then result[$c]=pass
	elif [ "$rc" = 4 ] && [ -f "$L/skip-$c" ]; then result[$c]=skip
	else result[$c]=FAIL; fail=1; fi
done
echo
echo "# lkml summary ($(echo "$list" | grep -c .) patches on $BASE_TAG):"
. "$LAB_TOP/lab/guest/tap.sh"
for c in $checks; do
	case ${result[$c]} in
	pass) t_ok "lkml $c" ;;
	skip) t_skip "lkml $c" "$(cat "$L/skip-$c")" ;;
	*) t_notok "lkml $c" ;;
	esac
done
t_done || true
exit $fail
