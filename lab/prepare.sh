#!/bin/bash
# The lab's pipeline, run from here only: every step up to STEP, each cheap
# when its output is up to date. Usage: lab/prepare.sh STEP [VARIANT]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
steps="deps fetch apply build guest"
step=${1:?usage: lab/prepare.sh deps|fetch|apply|build|guest [VARIANT]}
variant=${2:-patched}
case " $steps " in *" $step "*) ;; *) die "unknown step '$step' ($steps)" ;; esac
variant_src "$variant" >/dev/null
lab_lock
L=$LAB_TOP/lab/steps
for s in $steps; do
	case $s in
	deps) "$L/deps.sh" ;;
	fetch) "$L/fetch.sh" ;;
	apply)
		"$L/apply.sh"
		case $variant in experiment*|bench-experiment) "$L/apply.sh" experiment ;; esac
		case $variant in bench-record) "$L/variant-tree.sh" bench-baseline ;;
		bench-*) "$L/variant-tree.sh" "$variant" ;; esac
		;;
	build) "$L/build.sh" "$variant" ;;
	guest)
		"$L/selftests.sh" "$variant"
		"$L/initramfs.sh" "$variant"
		;;
	esac
	[ "$s" = "$step" ] && break
done
