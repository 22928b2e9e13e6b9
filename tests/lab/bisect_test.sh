#!/bin/bash
# 'make lkml's bisection fails on a patch that does not build, naming the
# compiler's error (one commit on top of the series, from ccache).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
cd "$top"

# a commit on 'patched' that breaks kernel/sched/fair.c, made without touching a branch or the work tree
gi() { GIT_INDEX_FILE=$scratch/index git -C "$LINUX" "$@"; }
gi read-tree patched
blob=$( (gi show patched:kernel/sched/fair.c; echo '#error "lab: this patch does not build"') | gi hash-object -w --stdin)
gi update-index --cacheinfo "100644,$blob,kernel/sched/fair.c"
broken=$(gi commit-tree "$(gi write-tree)" -p patched -m "sched/fair: A patch that does not build")

bisect() { LKML_CHECKS=bisect LKML_BISECT_CONFIGS=guest LKML_RANGE=$1 lab/tools/lkml.sh >"$2" 2>&1 || true; }
bisect "patched..$broken" "$scratch/bad.log"
t_check "bisect: a patch that does not build fails the check" grep -q '^not ok 1 - lkml bisect$' "$scratch/bad.log"
t_check "bisect: naming the patch" grep -q 'A patch that does not build: guest config FAILS' "$scratch/bad.log"
t_check "bisect: with the compiler's error" grep -q 'lab: this patch does not build' "$scratch/bad.log"
t_done
