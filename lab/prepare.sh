#!/bin/bash
# The lab's pipeline, in its order, written here only: run every step up to
# STEP. Each step is cheap when its output is up to date.
# Usage: lab/prepare.sh STEP [VARIANT]
#   deps    the Debian packages                      lab/steps/deps.sh
#   fetch   + the base tree, out/linux               lab/steps/fetch.sh
#   apply   + patches/ on branch 'patched'           lab/steps/apply.sh
#           (+ the experimental set, for its kernels) lab/steps/experiment.sh
#           (+ the tree of a bench-* kernel)         lab/steps/variant-tree.sh
#   build   + the kernel of VARIANT (patched)        lab/steps/build.sh VARIANT
#   guest   + its kselftests and initramfs           lab/steps/selftests.sh, lab/steps/initramfs.sh
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
		case $variant in experiment*|bench-experiment) "$L/experiment.sh" ;; esac
		case $variant in bench-*) "$L/variant-tree.sh" "$variant" ;; esac
		;;
	build) "$L/build.sh" "$variant" ;;
	guest)
		"$L/selftests.sh" "$variant"
		"$L/initramfs.sh" "$variant"
		;;
	esac
	[ "$s" = "$step" ] && break
done
