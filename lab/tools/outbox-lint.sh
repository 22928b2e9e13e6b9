#!/bin/bash
# Check one set of an outbox before it may be sent: no placeholder, no lab
# path, emulated figures and the model labelled, only the sender's From: and
# tags, no Link:, no version for a new series, an RFC without hardware figures.
# Prints each violation; fails when there is one.
set -euo pipefail
[ $# -ge 2 ] && [ -d "$1" ] || { echo "usage: $0 DIR 'Name <address>' [VERSION]" >&2; exit 2; }
dir=$1 sender=$2 version=${3:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
exec /usr/bin/python3 - "$dir" "$sender" "$version" "$top" <<'PY'
import email, email.policy, glob, os, re, sys
d, sender, version, top = sys.argv[1:5]
bad = []
mails = sorted(glob.glob(os.path.join(d, "*.patch")))
covers = [m for m in mails if "0000-cover-letter" in os.path.basename(m)]
if not covers and len(mails) > 1:
    bad.append("no cover letter in %s" % d)
for m in mails:
    n = os.path.basename(m)
    raw = open(m, encoding="utf-8").read()
    msg = email.message_from_string(raw, policy=email.policy.default)
    body = raw.split("\n\n", 1)[1] if "\n\n" in raw else ""
    for i, line in enumerate(raw.split("\n"), 1):
        if re.search(r"@[A-Z][A-Z_]*@|\*\*\* [A-Z ]+ HERE \*\*\*", line):
            bad.append("placeholder left in %s: line %d: %s" % (n, i, line))
    if top in raw:
        bad.append("%s names this repository's path (%s)" % (n, top))
    frm = str(msg.get("From", ""))
    if frm != sender:
        bad.append("%s: 'From: %s' is not the sender (%s)" % (n, frm, sender))
    for line in body.split("\n"):
        if line.startswith("Signed-off-by: ") and line != "Signed-off-by: " + sender:
            bad.append("%s: '%s' is not the sender (%s)" % (n, line, sender))
        if re.match(r"(Co-developed-by|Tested-by|Acked-by|Reviewed-by): ", line) and sender not in line:
            bad.append("%s: '%s' claims another person's action; only they can give it" % (n, line))
        if line.startswith("Link: "):
            bad.append("%s: '%s': no Link: to a URL the lab cannot check" % (n, line))
    subj = str(msg.get("Subject", ""))
    if not version and re.match(r"\[(RFC )?PATCH v[0-9]+", subj):
        bad.append("%s: 'Subject: %s' numbers a series that is new (no LKML_VERSION given)" % (n, subj))
for c in covers:
    text = open(c, encoding="utf-8").read()
    csubj = str(email.message_from_string(text).get("Subject", ""))
    if "no benchmark report from hardware" in text and not re.match(r"\[RFC PATCH", csubj):
        bad.append("%s: no figures from hardware, and not an [RFC PATCH]: %s" % (os.path.basename(c), csubj))
    how = False  # the testers' commands, from "How to test" to the report or the base
    for i, line in enumerate(text.split("\n"), 1):
        how = line.startswith("How to test") or how and not re.match(
            r"(Base:|base-commit:|There is no benchmark report|Benchmarks on hardware)", line)
        if not how and re.search(r"(^|[ (`\"])(lab|sim|bench|out|patches|tests)/[A-Za-z0-9_.-]", line):
            bad.append("cover letter names a path of the lab: line %d: %s" % (i, line))
    for para in text.split("\n\n")[1:]:
        flat = " ".join(para.split())
        if re.search(r"QEMU|TCG|icount|[Ee]mulat", flat) and re.search(r"[0-9]", flat) and \
                not ("emulated" in flat and "not hardware" in flat):
            bad.append("a figure from emulation without its label ('emulated', 'not hardware'): %s" % flat[:160])
    if re.search(r"^ +[0-9]+ +[0-9]+% +[0-9.]+ / ", text, re.M) and "a model, not a measurement" not in text:
        bad.append("the model's table is not labelled 'a model, not a measurement'")
for b in bad:
    print("  outbox: " + b)
sys.exit(1 if bad else 0)
PY
