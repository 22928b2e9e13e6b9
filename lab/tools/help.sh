#!/bin/bash
# 'make help': the Makefile's '#:' lines and every setting of lab/settings.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
echo "Targets:"
sed -n 's/^#: /  /p' "$top/Makefile"
echo
echo "Settings (lab/settings): set one with make VAR=value, or VAR=value before a script"
awk '/^## / { sub(/^## /, ""); printf "\n  %s\n", $0; next }
	/^[A-Z][A-Z0-9_]*=/ {
		i = index($0, "  #"); def = i ? substr($0, 1, i - 1) : $0; doc = i ? substr($0, i + 3) : ""
		sub(/[ \t]+$/, "", def); sub(/^[ \t]+/, "", doc)
		printf "    %-34s %s\n", def, doc }' "$top/lab/settings"
