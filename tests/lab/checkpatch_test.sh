#!/bin/bash
# The checkpatch gate: the series passes with its listed exceptions, an unlisted finding fails.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ -x "$LINUX/scripts/checkpatch.pl" ] || { t_notok "no kernel tree at $LINUX"; t_done; }

quiet_findings() { checkpatch_findings "$@" >/dev/null; }
for p in $(series_list); do t_check "checkpatch: $p clean or listed" quiet_findings "$PATCHES/$p"; done
for p in $(experiment_list); do t_check "checkpatch: experiment/$p clean or listed" quiet_findings "$EXPERIMENT/$p"; done
# the first patch with a long C line ending in a space after its first added line of C
p=$(series_list | sed -n 1p)
awk '{ print } /^diff --git .*\.[ch]$/ { c = 1 } c && /^\+[^+]/ && !done {
	print "+\tunsigned long a_variable_with_a_long_name_to_make_the_line_long = 0, b = 0, c_as_well = 0; "; done = 1 }' \
	"$PATCHES/$p" >"$scratch/$p"
t_check "negative control: the bad line is planted" grep -q 'a_variable_with_a_long_name' "$scratch/$p"
if checkpatch_findings "$scratch/$p" >"$scratch/out"; then rc=0; else rc=$?; fi
t_check "negative control: an unlisted finding fails the gate" test "$rc" != 0
t_check "negative control: the finding is named" grep -q -v 'listed exception' "$scratch/out"
t_done
