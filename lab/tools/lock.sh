#!/bin/bash
# Run a command holding the lab's lock on out/ (lab_lock, lab/lib.sh): for
# the steps that do not take it themselves (make sim).
# Usage: lab/tools/lock.sh COMMAND [ARG...]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
[ $# -gt 0 ] || die "usage: lab/tools/lock.sh COMMAND [ARG...]"
lab_lock
exec "$@"
