#!/bin/bash
# 'make clean': what the lab made under OUT but the kernel trees and the
# download; 'make distclean' (all): all of OUT. Usage: lab/tools/clean.sh [all]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
case ${1:-} in ''|all) ;; *) die "usage: lab/tools/clean.sh [all]" ;; esac
[ -d "$OUT" ] || { say "nothing to clean: no $OUT"; exit 0; }
lab_lock
if [ "${1:-}" = all ]; then
	say "removing $OUT"
	find "$OUT" -mindepth 1 -maxdepth 1 ! -name .lock -exec rm -rf {} +
	exit 0
fi
say "removing the builds, guest files, logs and results under $OUT"
rm -rf "$OUT"/build "$OUT"/run "$OUT"/logs "$OUT"/guest "$OUT"/bench "$OUT"/sim "$OUT"/outbox \
	"$OUT"/tester-kernels "$OUT"/lkml
find "$LINUX" "$OUT/src" -mindepth 1 -maxdepth 2 -type d -name '.build-*' -prune -exec rm -rf {} + 2>/dev/null || true
