#!/bin/bash
# The tester's config, the same for every kernel: schedstats and debugfs on,
# no local version, no signing keys this machine lacks. Prints each change.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
in=${1:?usage: lab/tools/tester-config.sh INPUT OUTPUT}
out=${2:?usage: lab/tools/tester-config.sh INPUT OUTPUT}
[ -x "$LINUX/scripts/config" ] || die "no kernel tree at $LINUX (run lab/steps/fetch.sh)"
cp "$in" "$out"
sc() { "$LINUX/scripts/config" --file "$out" "$@"; }

for s in SCHEDSTATS DEBUG_FS; do
	if ! grep -q "^CONFIG_$s=y" "$in"; then
		sc -e "$s"
		echo "switched on CONFIG_$s (the config lacks it; the gate's counters and files need it)"
	fi
done
if grep -qE '^CONFIG_DEBUG_FS_(ALLOW_NONE|DISALLOW_MOUNT)=y' "$in"; then
	sc -d DEBUG_FS_ALLOW_NONE -d DEBUG_FS_DISALLOW_MOUNT -e DEBUG_FS_ALLOW_ALL
	echo "switched on CONFIG_DEBUG_FS_ALLOW_ALL (debugfs could not be mounted)"
fi
lv=$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' "$in")
[ -z "$lv" ] || echo "dropped CONFIG_LOCALVERSION=\"$lv\" (the lab names the kernels)"
! grep -q '^CONFIG_LOCALVERSION_AUTO=y' "$in" ||
	echo "dropped CONFIG_LOCALVERSION_AUTO (the lab names the kernels)"
sc --set-str LOCALVERSION "" -d LOCALVERSION_AUTO
for s in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS; do
	k=$(sed -n "s/^CONFIG_$s=\"\(.*\)\"$/\1/p" "$in")
	if [ -n "$k" ] && [ ! -f "$k" ] && [ ! -f "$LINUX/$k" ]; then
		sc --set-str "$s" ""
		echo "emptied CONFIG_$s=\"$k\" (no such file here: a distribution's keys)"
	fi
done
