#!/bin/sh
# Compile bench/futexbench.c or bench/msgbench.c, as OUTPUT's name says: the
# one place their compiler (CC=cc) and flags are written.
# Usage: bench/build-futexbench.sh OUTPUT [static]   (static: the lab's guest)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: bench/build-futexbench.sh OUTPUT [static] (OUTPUT's name: futexbench or msgbench)"
out=${1:?$usage}
prog=$(basename "$out")
case "$prog ${2:-}" in
"futexbench "|"msgbench "|"futexbench static"|"msgbench static") ;;
*) echo "$usage" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$out")"
# shellcheck disable=SC2086
${CC:-cc} -O2 -Wall ${2:+-static} -pthread -o "$out.tmp" "$here/$prog.c"
mv -f "$out.tmp" "$out"
