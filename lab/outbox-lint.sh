#!/bin/bash
# Check an outbox before it may be sent; prints each violation and fails
# when there is one:
#  - a template placeholder left (@NAME@, *** SUBJECT HERE ***, ...);
#  - a path of this repository (its absolute path, or lab/ sim/ bench/ out/
#    patches/ tests/ in the cover letter);
#  - a figure from emulation: a paragraph of the cover letter that speaks of
#    QEMU, TCG, icount or emulation and holds a digit;
#  - the model's table without the words saying it is a model;
#  - From: or Signed-off-by: of anyone but the sender, or a tag that claims
#    another person's action (Co-developed-by, Tested-by, Acked-by,
#    Reviewed-by), or any Link: (a URL the lab cannot check);
#  - a version in the subjects when none was asked for (a new series).
# Usage: lab/outbox-lint.sh DIR 'Name <address>' [VERSION]
set -euo pipefail
[ $# -ge 2 ] && [ -d "$1" ] || { echo "usage: $0 DIR 'Name <address>' [VERSION]" >&2; exit 2; }
dir=$1 sender=$2 version=${3:-}
top=$(cd "$(dirname "$0")/.." && pwd)
bad=0
v() { echo "  outbox: $*"; bad=1; }
cover=$(ls "$dir"/*0000-cover-letter.patch 2>/dev/null | head -1)
[ -n "$cover" ] || v "no cover letter in $dir"

for m in "$dir"/*.patch; do
	n=$(basename "$m")
	grep -n -E '@[A-Z][A-Z_]*@|\*\*\* [A-Z ]+ HERE \*\*\*' "$m" | sed "s|^|placeholder left in $n: |" |
		while IFS= read -r l; do echo "  outbox: $l"; done | grep . && bad=1
	grep -q -F "$top" "$m" && v "$n names this repository's path ($top)"
	# identities: only the sender signs, sends, or claims an action
	while IFS= read -r l; do
		v "$n: '$l' is not the sender ($sender)"
	done < <(grep -E '^(From|Signed-off-by): ' "$m" | grep -v -F -x -e "From: $sender" -e "Signed-off-by: $sender" || true)
	while IFS= read -r l; do
		v "$n: '$l' claims another person's action; only they can give it"
	done < <(grep -E '^(Co-developed-by|Tested-by|Acked-by|Reviewed-by): ' "$m" | grep -v -F -e "$sender" || true)
	while IFS= read -r l; do
		v "$n: '$l': no Link: to a URL the lab cannot check"
	done < <(grep -E '^Link: ' "$m" || true)
	subj=$(grep -m1 '^Subject: ' "$m" || true)
	if [ -z "$version" ] && grep -q -E '^Subject: \[PATCH v[0-9]+' <<<"$subj"; then
		v "$n: '$subj' numbers a series that is new (no LKML_VERSION given)"
	fi
done

if [ -n "$cover" ]; then
	grep -n -E '(^|[ (`"])(lab|sim|bench|out|patches|tests)/[A-Za-z0-9_.-]' "$cover" |
		sed 's/^/cover letter names a path of the lab: line /' |
		while IFS= read -r l; do echo "  outbox: $l"; done | grep . && bad=1
	# paragraphs of the body (after the headers), one per record
	awk 'BEGIN { RS = "" } NR > 1 && /QEMU|TCG|icount|[Ee]mulat/ && /[0-9]/ {
		gsub(/\n/, " "); print substr($0, 1, 160) }' "$cover" |
		while IFS= read -r l; do echo "  outbox: a figure from emulation in the cover letter: $l"; done |
		grep . && bad=1
	if grep -q -E '^ +[0-9]+ +[0-9]+% +[0-9.]+% / ' "$cover" && ! grep -q 'a model, not a measurement' "$cover"; then
		v "the model's table is not labelled 'a model, not a measurement'"
	fi
fi
exit $bad
