#!/bin/bash
# Run a command holding the lock on out/, for steps that do not take it (make sim).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: lab/tools/lock.sh COMMAND [ARG...]"
lab_lock
exec "$@"
