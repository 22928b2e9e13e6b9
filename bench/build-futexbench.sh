#!/bin/sh
# Compile bench/futexbench.c: the one place its compiler and flags are
# written (the lab's initramfs and bench/aba.sh on bare metal use it).
# Usage: bench/build-futexbench.sh OUTPUT [static]    (CC=cc by default)
#   static: a static binary, for the lab's busybox guest
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: bench/build-futexbench.sh OUTPUT [static]}
case ${2:-} in
static) static=-static ;;
"") static="" ;;
*) echo "usage: bench/build-futexbench.sh OUTPUT [static]" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2086
${CC:-cc} -O2 -Wall $static -pthread -o "$out.tmp" "$here/futexbench.c"
mv -f "$out.tmp" "$out"
