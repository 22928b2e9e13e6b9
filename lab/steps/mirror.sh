#!/bin/bash
# The Debian mirror this machine's apt uses: the first enabled 'deb' source
# (one-line or deb822) with main and the machine's release or stable, testing,
# unstable, sid; security and third-party suites are passed over.
# Usage: lab/steps/mirror.sh [APT-ETC-DIR [OS-RELEASE-FILE]]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
etc=${1:-$LAB_APT_ETC}
osr=${2:-$LAB_OS_RELEASE}
[ -d "$etc" ] || { echo "mirror: no apt configuration directory $etc" >&2; exit 1; }
codename=$({ sed -n 's/^VERSION_CODENAME=//p' "$osr" 2>/dev/null || true; } | tr -d '"' | sed -n 1p)

files=()
for f in "$etc/sources.list" "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do [ ! -f "$f" ] || files+=("$f"); done
[ ${#files[@]} -gt 0 ] || { echo "mirror: no apt sources in $etc" >&2; exit 1; }

# Every source as one line: URI <tab> suites <tab> components (deb only).
sources() {
	local f
	for f in "${files[@]}"; do
		case $f in
		*.sources)
			# deb822: blank lines split stanzas, a leading space continues a field
			awk '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && tolower(enabled) != "no")
					for (i = 1; i <= nu; i++) printf "%s\t%s\t%s\n", u[i], suites, comps
				types = suites = comps = enabled = ""; nu = 0; key = ""
			}
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { val = $0; sub(/^[ \t]+/, "", val); add(key, val); next }
			{ key = tolower($0); sub(/:.*/, "", key); val = $0; sub(/^[^:]*:[ \t]*/, "", val); add(key, val) }
			function add(k, v) {
				if (k == "types") types = types " " v
				else if (k == "uris") { n = split(v, a, /[ \t]+/); for (j = 1; j <= n; j++) if (a[j] != "") u[++nu] = a[j] }
				else if (k == "suites") suites = suites " " v
				else if (k == "components") comps = comps " " v
				else if (k == "enabled") enabled = v
			}
			END { flush() }' "$f"
			;;
		*)
			awk '
			{ sub(/#.*/, "") }
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
				if (i + 1 > NF) next
				uri = $i; suite = $(i + 1); comps = ""
				for (j = i + 2; j <= NF; j++) comps = comps " " $j
				printf "%s\t%s\t%s\n", uri, suite, comps
			}' "$f"
			;;
		esac
	done
}

want="${codename:+$codename }stable testing unstable sid"
mirror=$(sources | awk -F'\t' -v want="$want" '
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
	$3 ~ /(^| )main( |$)/ && $1 !~ /^cdrom:/ {
		m = split($2, s, /[ \t]+/)
		for (i = 1; i <= m; i++) if (s[i] in ok) { print $1; exit }
	}')
if [ -z "$mirror" ]; then
	echo "mirror: no Debian mirror for ${codename:-this release} (component main) in ${files[*]}; set DEB_MIRROR" >&2
	exit 1
fi
echo "${mirror%/}"
