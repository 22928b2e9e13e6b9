#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/compare.py: kernels or feature settings compared over boots.

Input: the CSV of bench/kernels.sh or bench/run.sh, columns
workload,condition,run,metric,value,boot. Under emulation a boot replays
one trajectory, so its runs are not independent samples: each boot gives
one value per condition and metric, the mean of its runs, and every
interval is over boots.

Kernels mode (default): condition = kernel. For each --compare K:BASE[,BASE2]
the delta of K's boot means against BASE's (and BASE2's), in percent, with
a 95 % interval from Welch's t-test, and the verdict; BASE's drift (its
later boots against its earlier ones).

Features mode (--features): conditions FEATURE:A, FEATURE:B, FEATURE:A2 of
an A/B/A on each boot; per boot the delta of B against A and A2 together,
and its 95 % interval over the boots (Student's t).

--control X: the positive control, a comparison (kernels: K:BASE; features:
FEATURE) known to differ. When its interval holds 0 on every primary
metric of a workload, the preset did not tell two different kernels apart:
no "within noise" of that workload may be read as "no difference", the
report says so and the exit status is 5 (inconclusive; README.md).

The regime, from the telemetry of the bench kernels (dom_NAME_* metrics of
bench/aba.sh -S): per condition and domain level the ratio at the start and
the end of a run, the visits, attempts and pulls per run, the share of
visits at ratio 1024 (where no gate or dice is asked), the share below it
('asked') and the share of visits that made no attempt ('skip'). A
condition asked on under --asked-min percent of its visits (50: most of
its visits then went past gate and dice, as with NI_RATE in the emulated
guest), or that skipped under 1 % of them (NO_NI_RANDOM, or ratios near
1024), is flagged: it says nothing about the gate.

Usage: bench/compare.py CSV [--features] [--label C=NAME ...]
         [--compare K:BASE[,BASE2] ...] [--control X] [--title T]
         [--primary M,...] [--asked-min PCT] [--json OUT]
Text on stdout.
"""
import argparse
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats import PRIMARY, lower_is_better, t_quantile, welch  # noqa: E402
Q975 = {}


def q975(df):
    if df == float("inf") or df > 1e6:
        return 1.959963984540054
    return Q975.setdefault(round(df, 9), t_quantile(0.975, df))


def mean(v):
    return sum(v) / len(v)


def cv(v):
    if len(v) < 2 or not mean(v):
        return 0.0
    m = mean(v)
    return 100.0 * math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1)) / m


def verdict(lo, hi, metric):
    if lo <= 0 <= hi:
        return "within noise"
    up = lo > 0
    return "better" if up != lower_is_better(metric) else "worse"


def load(path):
    """{(workload, metric): {condition: {boot: [values]}}}, in file order."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        sys.exit("compare: %s is empty or missing" % path)
    data, keys, conds, boots = {}, [], [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            try:
                v = float(row["value"])
                b = row["boot"]
            except (TypeError, ValueError, KeyError):
                sys.exit("compare: %s: a row without a number or a boot: %r" % (path, row))
            k = (row["workload"], row["metric"])
            if k not in data:
                data[k] = {}
                keys.append(k)
            c = row["condition"]
            if c not in conds:
                conds.append(c)
            if b not in boots:
                boots.append(b)
            data[k].setdefault(c, {}).setdefault(b, []).append(v)
    if not keys:
        sys.exit("compare: %s has no measurements" % path)
    return data, keys, conds, boots


def boot_means(by_boot):
    """The boot means in boot order."""
    return [mean(v) for _, v in sorted(by_boot.items(), key=lambda x: int(x[0]))]


def kernels_delta(k, base):
    """Delta of k's boot means against base's, % of base, Welch 95 % CI."""
    if len(k) < 2 or len(base) < 2:
        return None
    diff, se, df, _, p = welch(k, base)
    bm = mean(base)
    q = q975(df)
    return {"delta": 100.0 * diff / bm, "lo": 100.0 * (diff - q * se) / bm,
            "hi": 100.0 * (diff + q * se) / bm, "p": p, "n": len(k), "n_base": len(base)}


def paired_delta(cond):
    """Features mode: per boot, B against A and A2 together, in %; their
    mean and 95 % CI over the boots (Student's t)."""
    a, b, a2 = cond.get("A", {}), cond.get("B", {}), cond.get("A2", {})
    per = []
    for boot in sorted(b, key=int):
        base = a.get(boot, []) + a2.get(boot, [])
        if base and b[boot]:
            per.append(100.0 * (mean(b[boot]) - mean(base)) / mean(base))
    if len(per) < 2:
        return None
    m = mean(per)
    sd = math.sqrt(sum((x - m) ** 2 for x in per) / (len(per) - 1))
    h = q975(len(per) - 1) * sd / math.sqrt(len(per))
    return {"delta": m, "lo": m - h, "hi": m + h, "n": len(per), "per_boot": per}


def fmt_ci(d):
    return "%+6.2f%% [%+.2f, %+.2f]" % (d["delta"], d["lo"], d["hi"])


def regime(data, keys, conds, wl):
    """Per condition and domain level (by name, in the order first seen):
    ratio at start and end, visits, full, attempts and pulls per run, over
    every run of every boot."""
    out = {}
    for (w, metric) in keys:
        if w != wl or not metric.startswith("dom_") or metric.count("_") < 2:
            continue
        lvl, what = metric[4:].rsplit("_", 1)
        for c, by_boot in data[(w, metric)].items():
            vals = [x for v in by_boot.values() for x in v]
            out.setdefault(c, {}).setdefault(lvl, {})[what] = mean(vals)
    return out


def main():
    ap = argparse.ArgumentParser(description="kernels or features compared over boots")
    ap.add_argument("csv")
    ap.add_argument("--features", action="store_true")
    ap.add_argument("--label", action="append", default=[])
    ap.add_argument("--compare", action="append", default=[])
    ap.add_argument("--control")
    ap.add_argument("--title", default="compared over boots")
    ap.add_argument("--primary", default=PRIMARY)
    ap.add_argument("--asked-min", type=float, default=50.0)
    ap.add_argument("--json", dest="json_out")
    o = ap.parse_args()

    data, keys, conds, boots = load(o.csv)
    labels = dict(x.split("=", 1) for x in o.label)
    name = lambda c: labels.get(c, c)
    primary = [m for m in o.primary.split(",")]
    workloads = list(dict.fromkeys(w for w, _ in keys))
    lines = [o.title, ""]
    result = {"title": o.title, "boots": len(boots), "rows": [], "control": [], "flags": []}
    unsure = []

    for wl in workloads:
        metrics = [m for m in primary if (wl, m) in data]
        if o.features:
            feats = list(dict.fromkeys(c.split(":", 1)[0] for c in conds if ":" in c))
            for m in metrics:
                lines.append("%s: %s (%s is better), A/B/A on each boot, B against A and A2" % (
                    wl, m, "lower" if lower_is_better(m) else "higher"))
                lines.append("  %-26s %5s  %-26s %s" % ("B (A = the feature on)", "boots", "delta [95% CI over boots]", "verdict"))
                for f in feats:
                    cond = {c.split(":", 1)[1]: v for c, v in data[(wl, m)].items() if c.startswith(f + ":")}
                    d = paired_delta(cond)
                    if not d:
                        lines.append("  %-26s %5s  too few boots" % ("NO_" + f, "-"))
                        continue
                    v = verdict(d["lo"], d["hi"], m)
                    lines.append("  %-26s %5d  %-26s %s" % ("NO_" + f, d["n"], fmt_ci(d), v))
                    result["rows"].append({"workload": wl, "metric": m, "condition": "NO_" + f,
                                           "against": f, **d, "verdict": v})
                lines.append("")
        else:
            for m in metrics:
                lines.append("%s: %s (%s is better), the mean of each boot's runs" % (
                    wl, m, "lower" if lower_is_better(m) else "higher"))
                bases = []
                for c in o.compare:
                    for b in c.split(":", 1)[1].split(","):
                        if b not in bases:
                            bases.append(b)
                hdr = "  %-36s %5s %12s %6s" % ("kernel", "boots", "mean", "CV")
                for b in bases:
                    hdr += "  %-28s" % ("vs " + b + ", 95% CI")
                lines.append(hdr)
                comp = {c.split(":", 1)[0]: c.split(":", 1)[1].split(",") for c in o.compare}
                for c in conds:
                    if c not in data[(wl, m)]:
                        continue
                    bm = boot_means(data[(wl, m)][c])
                    row = "  %-36s %5d %12.1f %5.2f%%" % (name(c)[:36], len(bm), mean(bm), cv(bm))
                    for b in bases:
                        if b in comp.get(c, []) and b in data[(wl, m)]:
                            d = kernels_delta(bm, boot_means(data[(wl, m)][b]))
                            if d:
                                v = verdict(d["lo"], d["hi"], m)
                                row += "  %-22s %-5s" % (fmt_ci(d), {"within noise": "~"}.get(v, v))
                                result["rows"].append({"workload": wl, "metric": m, "condition": c,
                                                       "against": b, **d, "verdict": v})
                            else:
                                row += "  %-28s" % "too few boots"
                        else:
                            row += "  %-28s" % ""
                    lines.append(row.rstrip())
                for b in bases:
                    if b in data[(wl, m)]:
                        bm = boot_means(data[(wl, m)][b])
                        h = len(bm) // 2
                        if h:
                            lines.append("  drift of %s: its later boots against its earlier ones: %+.2f%%" % (
                                name(b), 100.0 * (mean(bm[-h:]) - mean(bm[:h])) / mean(bm[:h])))
                lines.append("")
        # the positive control of this workload
        if o.control:
            ctl = [r for r in result["rows"] if r["workload"] == wl and
                   (r["against"] == o.control if o.features else
                    "%s:%s" % (r["condition"], r["against"]) == o.control)]
            apart = [r for r in ctl if r["verdict"] != "within noise"]
            told = bool(apart)
            result["control"].append({"workload": wl, "told_apart": told})
            what = ("NO_" + o.control) if o.features else "%s against %s" % tuple(
                name(x) for x in o.control.split(":", 1))
            if told:
                lines.append("  positive control (%s): told apart (%s)" % (what, ", ".join(
                    "%s %s" % (r["metric"], fmt_ci(r)) for r in apart)))
            else:
                lines.append("  positive control (%s): NOT told apart: %s cannot say \"no difference\" here" % (
                    what, wl))
                unsure.append(wl)
            lines.append("")
        # the regime: where the runs were
        reg = regime(data, keys, conds, wl)
        if reg:
            lines.append("  regime of %s (telemetry, per run; 'asked': visits below ratio 1024,"
                         " where the gate or dice decides):" % wl)
            lines.append("  %-36s %5s %13s %9s %9s %7s %8s %7s %6s" % (
                "condition", "level", "ratio start>end", "visits", "attempts", "pulls", "at 1024", "asked",
                "skip"))
            for c in conds:
                if c not in reg:
                    continue
                tv = tf = ta = 0.0
                for lvl in reg[c]:
                    x = reg[c][lvl]
                    v, full, a = x.get("visits", 0.0), x.get("full", 0.0), x.get("attempts", 0.0)
                    tv += v
                    tf += full
                    ta += a
                    pc = lambda n: 100.0 * n / v if v else 0.0
                    lines.append("  %-36s %5s %6.0f > %-6.0f %9.0f %9.0f %7.1f %7.1f%% %6.1f%% %5.1f%%" % (
                        name(c)[:36], lvl, x.get("ratio0", 0), x.get("ratio1", 0), v, a,
                        x.get("pulls", 0), pc(full), pc(v - full), pc(max(v - a, 0))))
                asked = 100.0 * (tv - tf) / tv if tv else 0.0
                skipped = 100.0 * max(tv - ta, 0) / tv if tv else 0.0
                if tv and (asked < o.asked_min or skipped < 1.0):
                    lines.append("  %-36s FLAG: asked on %.1f%% of the visits, %.1f%% skipped: this"
                                 " says nothing about the gate" % (name(c)[:36], asked, skipped))
                    result["flags"].append({"workload": wl, "condition": c, "asked_pct": asked,
                                            "skipped_pct": skipped})
            lines.append("")
    if unsure:
        lines.append("The positive control was not told apart for %s: no \"within noise\" there means"
                     " \"no difference\"." % ", ".join(unsure))
    elif o.control:
        lines.append("The positive control was told apart for every workload: a \"within noise\""
                     " there means no difference beyond its interval.")
    else:
        lines.append("No positive control given: a \"within noise\" does not show that two kernels"
                     " could be told apart.")
    print("\n".join(lines))
    if o.json_out:
        with open(o.json_out + ".tmp", "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
        os.replace(o.json_out + ".tmp", o.json_out)
    if unsure:
        sys.exit(5)


if __name__ == "__main__":
    main()
