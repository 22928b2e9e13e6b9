#!/bin/sh
# Compile the lab's own benchmarks, bench/futexbench.c and bench/msgbench.c:
# the one place their compiler and flags are written (the lab's initramfs
# and bench/aba.sh on bare metal use it). The output's name says which:
# .../futexbench from futexbench.c, .../msgbench from msgbench.c.
# Usage: bench/build-futexbench.sh OUTPUT [static]    (CC=cc by default)
#   static: a static binary, for the lab's busybox guest
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: bench/build-futexbench.sh OUTPUT [static] (OUTPUT's name: futexbench or msgbench)"
out=${1:?$usage}
case $(basename "$out") in
futexbench|msgbench) src=$here/$(basename "$out").c ;;
*) echo "$usage" >&2; exit 2 ;;
esac
case ${2:-} in
static) static=-static ;;
"") static="" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2086
${CC:-cc} -O2 -Wall $static -pthread -o "$out.tmp" "$src"
mv -f "$out.tmp" "$out"
