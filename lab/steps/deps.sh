#!/bin/bash
# Install the missing Debian packages of LAB_PACKAGES (as root; else name them).
# A missing optional one stops nothing: the parts that use it skip.
# Usage: lab/steps/deps.sh [extra-required-package...]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
list=$LAB_PACKAGES
[ -f "$list" ] || die "no package list $list"

installed() { if [ "$2" != - ]; then [ -e "$2" ]; else [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]; fi; }
req="" opt="" optwhat=""
while read -r pkg file tier what; do
	case $pkg in ''|'#'*) continue ;; esac
	installed "$pkg" "$file" && continue
	case $tier in
	required) req="$req $pkg" ;;
	optional) opt="$opt $pkg"; optwhat="$optwhat; $pkg ($what)" ;;
	*) die "$list: '$tier' for $pkg is neither required nor optional" ;;
	esac
done <"$list"
for pkg in "$@"; do
	installed "$pkg" - || req="$req $pkg"
done
[ -z "$req$opt" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	[ -z "$req" ] || die "missing Debian packages:$req; install them as root (sudo apt-get install$req)"
	say "optional packages missing, the parts that use them skip:${optwhat#;}"
	exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
apt() {
	DEBIAN_FRONTEND=noninteractive apt-get -q "$@" >"$log" 2>&1 && return 0
	{ grep -E '^(E|W|Err):' "$log" || tail -n 5 "$log"; } | sed 's/^/[lab]   apt: /' >&2
	return 1
}
say "installing:$req$opt"
if ! apt update; then
	[ -z "$req" ] || die "apt-get update failed (above); the required packages$req cannot be installed"
	say "apt-get update failed (above): optional packages not installed:$opt"
	exit 0
fi
# shellcheck disable=SC2086
[ -z "$req" ] || apt install -y --no-install-recommends $req || die "apt-get install$req failed (apt's error above)"
# one optional package missing from the mirror fails the batch: then one by one
# shellcheck disable=SC2086
if [ -n "$opt" ] && ! apt install -y --no-install-recommends $opt; then
	left=""
	for pkg in $opt; do
		apt install -y --no-install-recommends "$pkg" 2>/dev/null || left="$left $pkg"
	done
	[ -z "$left" ] || say "optional packages not installed (apt's error above); the parts that use them skip:$left"
fi
exit 0
