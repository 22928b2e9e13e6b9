#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench/stats.py: the bench's statistics, for one boot or many.

Reads CSV rows workload,condition,run,metric,value,boot; compares a condition
with the pool of others (by default B with A+A2), with a 95 % interval of the
delta. A sample (README.md, Terms) is a run on one boot; over boots, a boot's
mean (Welch) or, where both sides ran on the same boots, the per-boot delta
(Student's t). Status 5: no main metric of a workload told the --control
apart; 6: a main metric's CV over --cv-max. dom_LEVEL_* give the regime table.
--summary F[+F2]: instead, a table of at most 72 columns of the main metrics, the
feature's conditions F against the others (the base, the dice), as LKML reads it.
--no-control: runs without a positive control, said once by the caller, not here.
Usage: bench/stats.py CSV... [--title T] [--label C=NAME ...] [--compare C,B[+B2] ...]
         [--control C | --no-control] [--cv-max PCT] [--asked-min PCT] [--json F] [--csv F] [--summary F]
"""
import argparse
import csv
import io
import json
import math
import os
import re
import sys
import textwrap
from statistics import mean, median, stdev

# scipy.stats' own t quantile and tail, imported in half the time
from scipy.special import stdtr, stdtrit

# The workloads' main metrics: the CV limit and the positive control use these
PRIMARY = ["completions_per_s", "steady_per_s", "transient_per_s", "burns_per_s", "seconds",
           "bogo_ops_per_s", "ops_per_s", "usecs_per_op", "mb_per_s", "rps"]
# Counts that explain a result: 'higher' or 'lower', never 'better' or 'worse'
NEUTRAL = {"ni_lb_count", "ni_lb_gained", "lb_gained", "counted_s", "main_migrations_per_1k", "main_csw_per_1k", "msg_cpu_s",
           "main_failed_running_per_1k", "main_failed_hot_per_1k", "main_failed_affine_per_1k", "main_rounds_per_s"}
INF = float("inf")
# --summary marks a CV over it
CV_NOISY = 5.0


def lower_is_better(m):
    return (m.startswith(("seconds", "usecs")) or "_us_" in m or m.endswith(("_us", "_per_1k"))
            or "latency" in m or "delay" in m)


def verdict(lo, hi, m):
    if lo <= 0 <= hi:
        return "within noise"
    if m in NEUTRAL or m.startswith("dom_"):
        return "higher" if lo > 0 else "lower"
    return "better" if (lo > 0) != lower_is_better(m) else "worse"


def load(paths):
    """{(workload, metric): {condition: {boot: [values]}}}, keys and conditions in file order."""
    data, conds = {}, []
    for path in paths:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            sys.exit("stats: %s is empty or missing" % path)
        with open(path, newline="", errors="replace") as f:
            for row in (rd := csv.DictReader(f)):
                try:
                    v, c = float(row["value"]), row["condition"]
                    k, boot = (row["workload"], row["metric"]), int(row["boot"])
                except (TypeError, ValueError, KeyError):
                    sys.exit("stats: %s: not workload,condition,run,metric,value,boot: %r" % (path, row))
                if not math.isfinite(v):
                    print("stats: %s line %d: value %s skipped" % (path, rd.line_num, row["value"]), file=sys.stderr)
                    continue
                conds += [c] if c not in conds else []
                data.setdefault(k, {}).setdefault(c, {}).setdefault(boot, []).append(v)
    if not data:
        sys.exit("stats: %s has no measurements" % " ".join(paths))
    return data, conds


def samples(by_boot):
    """A condition's samples: its runs on one boot, its boot means on several."""
    if len(by_boot) == 1:
        return list(by_boot.values())[0]
    return [mean(by_boot[b]) for b in sorted(by_boot)]


def summary(by_boot):
    s = samples(by_boot)
    sd = stdev(s) if len(s) > 1 else 0.0
    return {"runs": sum(len(v) for v in by_boot.values()), "boots": len(by_boot), "n": len(s),
            "mean": mean(s), "median": median(s), "min": min(s), "max": max(s), "stddev": sd,
            "cv_pct": 100.0 * sd / mean(s) if mean(s) else 0.0}


def compare(d, c, bases, m):
    """Condition c against the pool of bases, on one workload's metric."""
    own, pool = d[c], pooled(d, bases)
    r = {"condition": c, "against": "+".join(bases)}
    # Under icount a boot replays one trajectory: over several boots a boot
    # counts once. Where both sides ran on each boot (A/B/A), the boot's own
    # A and A2 are its baseline and the spread between boots cancels.
    many = len(own) > 1 and all(len(d[b]) > 1 for b in bases)
    if many and set(own) <= set(pool):
        if not all(mean(pool[k]) for k in own):
            return dict(r, verdict="baseline 0")
        x = [100.0 * (mean(own[k]) - mean(pool[k])) / mean(pool[k]) for k in sorted(own)]
        r.update(test="paired over boots", n=len(x), n_base=len(x), per_boot=x)
        scale, diff = 100.0, mean(x)
        se, df = (stdev(x) / math.sqrt(len(x)), len(x) - 1.0) if len(x) > 1 else (0.0, 0.0)
    else:
        x = samples(own) if many else [v for vs in own.values() for v in vs]
        y = [s for b in bases for s in samples(d[b])] if many else [v for vs in pool.values() for v in vs]
        r.update(test="Welch over " + ("boot means" if many else "runs"), n=len(x), n_base=len(y))
        scale, diff = mean(y), mean(x) - mean(y)
        if not scale:
            return dict(r, verdict="baseline 0")
        se, df = 0.0, 0.0
        if len(x) > 1 and len(y) > 1:
            # Welch-Satterthwaite by hand: Debian 12's scipy (1.10) gives no df
            qx, qy = stdev(x) ** 2 / len(x), stdev(y) ** 2 / len(y)
            se = math.sqrt(qx + qy)
            df = (qx + qy) ** 2 / (qx * qx / (len(x) - 1) + qy * qy / (len(y) - 1)) if se else INF
    r["delta_pct"] = 100.0 * diff / scale
    if not df:
        return dict(r, verdict="too few samples")
    h = stdtrit(df, 0.975) * se
    t = diff / se if se else (INF if diff else 0.0)
    r.update(ci_low_pct=100.0 * (diff - h) / scale, ci_high_pct=100.0 * (diff + h) / scale, t=t, df=df,
             p=2.0 * stdtr(df, -abs(t)) if se else float(not diff))
    r["verdict"] = verdict(r["ci_low_pct"], r["ci_high_pct"], m)
    # the drift: how far the baseline moved while the runs went on
    if len(bases) > 1:
        first, last = [[v for vs in d[b].values() for v in vs] for b in (bases[0], bases[-1])]
    elif len(d[bases[0]]) > 1:
        bm = samples(d[bases[0]])
        first, last = bm[:len(bm) // 2], bm[-(len(bm) // 2):]
    else:
        return r
    r["drift_pct"] = 100.0 * (mean(last) - mean(first)) / mean(first) if mean(first) else None
    return r


def pooled(d, cs):
    """The conditions cs of one metric as one: their runs, by boot."""
    p = {}
    for c in cs:
        for boot, v in d[c].items():
            p.setdefault(boot, []).extend(v)
    return p


def fit(v, fmt, width):
    """v in fmt (a %f), fewer decimals while it is wider than width: a figure is never cut off."""
    for d in range(int(re.search(r"\.(\d+)f", fmt).group(1)), -1, -1):
        t = re.sub(r"\.\d+f", ".%df" % d, fmt) % v
        if len(t) <= width:
            return t.rjust(width)
    # past that, an absurd figure: its power of ten (1e5)
    return re.sub(r"e\+?(-?)0*", r"e\1", ("%+.0e" if "+" in fmt else "%.0e") % v).rjust(width)


def brief(data, conds, feat, name, title):
    """The main metrics: the base's mean and CV, the feature's normalised to it, pct and CV, the 95 % interval."""
    base, noisy, shown = [c for c in conds if c not in feat], False, []
    g = lambda v: fit(v, "%.0f", 7) if abs(v) >= 100 else "%.4g" % v  # noqa: E731
    cv = lambda s: "(%s)%s" % (fit(s["cv_pct"], "%.1f", 4), "!" if s["cv_pct"] > CV_NOISY else " ")  # noqa: E731
    row = lambda *x: ("%-11s %-8s %15s %20s %s" % x).rstrip()  # noqa: E731
    short = lambda m: m.replace("_per_s", "/s").replace("_per_", "/").replace("completions", "compl")[:8]  # noqa: E731
    lines = [title, row("workload", "metric", name(base[0])[:12] + " (CV)", name(feat[0])[:12] + " [%](CV)", "95% CI, %")]
    for (wl, m), d in data.items():
        if m not in PRIMARY or not all(c in d for c in base + feat):
            continue
        two = {"F": pooled(d, feat), "Z": pooled(d, base)}
        r, sb, sf = compare(two, "F", ["Z"], m), summary(two["Z"]), summary(two["F"])
        noisy = noisy or max(sb["cv_pct"], sf["cv_pct"]) > CV_NOISY
        shown += [m] if m not in shown else []
        norm = "%s [%s]%s" % (fit(sf["mean"] / sb["mean"], "%.2f", 4), fit(r["delta_pct"], "%+.2f", 6),
                              cv(sf)) if sb["mean"] else "-"
        ci = ("[%s,%s]%s" % (fit(r["ci_low_pct"], "%+.1f", 5), fit(r["ci_high_pct"], "%+.1f", 5),
                             "*" if not r["ci_low_pct"] <= 0 <= r["ci_high_pct"] else "")
              if "ci_low_pct" in r else r["verdict"])
        lines.append(row(wl[:11], short(m), "%s %s" % (g(sb["mean"]).rjust(7), cv(sb)), norm, ci))
    better = [short(m) for m in shown if not lower_is_better(m)]
    worse = [short(m) for m in shown if lower_is_better(m)]
    lines += ["  feature: its mean over the base's [change, %](CV, %); *: CI excludes 0"]
    lines += textwrap.wrap("; ".join(w + " is better: " + ", ".join(ms) for w, ms in (("higher", better), ("lower", worse)) if ms),
                           72, initial_indent="  ", subsequent_indent="    ")
    return lines + ["  !: a CV over %g %%, noisy: more rounds (RUNS) narrow its interval" % CV_NOISY] * noisy


def regime(data, conds, wl, name, asked_min, lines, flags):
    """The telemetry's figures per condition and level, means over every run."""
    reg = {}
    for (w, m), d in data.items():
        if w == wl and m.startswith("dom_") and m.count("_") >= 2:
            lvl, what = m[4:].rsplit("_", 1)
            for c, by_boot in d.items():
                reg.setdefault(c, {}).setdefault(lvl, {})[what] = mean(v for vs in by_boot.values() for v in vs)
    # schedstat's classes alone (no telemetry) have no visits to say a regime by (counters.py's)
    reg = {c: {lvl: x for lvl, x in lv.items() if "visits" in x} for c, lv in reg.items()}
    if not any(reg.values()):
        return
    lines += ["  regime of %s (telemetry, per run; 'asked': visits below ratio 1024, where the gate or dice"
              " decides):" % wl, "  %-36s %5s %13s %9s %9s %7s %8s %7s %6s" % (
                  "condition", "level", "ratio start>end", "visits", "attempts", "pulls", "at 1024", "asked", "skip")]
    for c in (c for c in conds if reg.get(c)):
        for lvl, x in reg[c].items():
            v, full, a = x.get("visits", 0.0), x.get("full", 0.0), x.get("attempts", 0.0)
            pc = (lambda n: 100.0 * n / v) if v else (lambda n: 0.0)
            lines.append("  %-36s %5s %6.0f > %-6.0f %9.0f %9.0f %7.1f %7.1f%% %6.1f%% %5.1f%%" % (
                name(c)[:36], lvl, x.get("ratio0", 0), x.get("ratio1", 0), v, a, x.get("pulls", 0),
                pc(full), pc(v - full), pc(max(v - a, 0))))
        tv, tf, ta = (sum(x.get(k, 0.0) for x in reg[c].values()) for k in ("visits", "full", "attempts"))
        asked, skipped = (100.0 * (tv - tf) / tv, 100.0 * max(tv - ta, 0) / tv) if tv else (0.0, 0.0)
        if tv and (asked < asked_min or skipped < 1.0):
            lines.append("  %-36s FLAG: asked on %.1f%% of the visits, %.1f%% skipped: this says nothing"
                         " about the gate" % (name(c)[:36], asked, skipped))
            flags.append({"workload": wl, "condition": c, "asked_pct": asked, "skipped_pct": skipped})
    lines.append("")


def write(path, text):
    if path:  # written whole or not at all
        try:
            with open(path + ".tmp", "w", newline="") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
        except OSError as e:
            sys.exit("stats: cannot write %s: %s" % (path, e.strerror))


def pair(sep, what):
    """An option's X<sep>Y, split; else argparse's error, naming the option."""
    def split(x):
        if sep not in x:
            raise argparse.ArgumentTypeError("takes %s, not %r" % (what, x))
        return x.split(sep, 1)
    return split


def main():
    ap = argparse.ArgumentParser(description="the bench's statistics, for one boot or many")
    for a, kw in (("csv", dict(nargs="+")), ("--summary", dict(type=lambda x: x.split("+"))), ("--title", dict(default="A/B/A")),
                  ("--label", dict(action="append", default=[], type=pair("=", "CONDITION=NAME"))),
                  ("--compare", dict(action="append", default=[], type=pair(",", "CONDITION,BASE[+BASE2]"))),
                  ("--control", {}), ("--no-control", dict(action="store_true")),
                  ("--cv-max", dict(type=float, default=0.0)), ("--asked-min", dict(type=float, default=50.0)),
                  ("--json", dict(dest="json_out")), ("--csv", dict(dest="csv_out"))):
        ap.add_argument(a, **kw)
    o = ap.parse_args()
    if not 0 <= o.cv_max < INF or not 0 <= o.asked_min < INF:
        ap.error("--cv-max and --asked-min take a number from 0")
    data, conds = load(o.csv)
    labels = dict(o.label)
    name = lambda c: labels.get(c, c)  # noqa: E731
    ci = lambda r: "%+.2f%% [%+.2f%%, %+.2f%%]" % (r["delta_pct"], r["ci_low_pct"], r["ci_high_pct"])  # noqa: E731
    if o.summary:
        if not set(o.summary) < set(conds):
            ap.error("--summary: %s is not some of the conditions %s" % ("+".join(o.summary), ", ".join(conds)))
        sys.exit(print("\n".join(brief(data, conds, o.summary, name, o.title))))
    # by default each B (or X:B) against its A and A2
    comps = [(c, b.split("+")) for c, b in o.compare] or [(c, [c[:-1] + "A", c[:-1] + "A2"]) for c in conds if (
        c == "B" or c.endswith(":B")) and {c[:-1] + "A", c[:-1] + "A2"} <= set(conds)]
    unknown = [x for c, bases in comps for x in [c] + bases if x not in conds]
    if unknown:
        ap.error("--compare: %s has no condition %s (it has %s)" % (" ".join(o.csv), ", ".join(map(repr, unknown)), ", ".join(conds)))
    out = {"title": o.title, "conditions": [], "comparisons": [], "control": [], "flags": [], "cv_over": []}
    lines, unsure = [o.title, ""], []
    w = max([len(name(c)) for c in conds] + [10])
    for wl in dict.fromkeys(k[0] for k in data):
        for (_, m), d in ((k, d) for k, d in data.items() if k[0] == wl and not k[1].startswith("dom_")):
            many = any(len(v) > 1 for v in d.values())
            lines += ["%s: %s (%s); a sample is %s" % (
                wl, m, "explains, neither way is better" if m in NEUTRAL else
                ("lower" if lower_is_better(m) else "higher") + " is better",
                "a boot's mean" if many else "a run (one boot)"),
                "  %-*s %5s %5s %12s %12s %12s %12s %7s" % (w, "condition", "runs", "boots", "mean", "median", "min", "max", "CV")]
            for c in (c for c in conds if c in d):
                s = dict(summary(d[c]), workload=wl, metric=m, condition=c, name=name(c))
                out["conditions"].append(s)
                lines.append("  %-*s %5d %5d %12.4f %12.4f %12.4f %12.4f %6.2f%%" % (
                    w, name(c), s["runs"], s["boots"], s["mean"], s["median"], s["min"], s["max"], s["cv_pct"]))
                if o.cv_max > 0 and m in PRIMARY and s["cv_pct"] > o.cv_max:
                    out["cv_over"].append("%s %s, condition %s: CV %.2f%%" % (wl, m, name(c), s["cv_pct"]))
            for c, bases in comps:
                if c in d and all(b in d for b in bases):
                    r = dict(compare(d, c, bases, m), workload=wl, metric=m, name=name(c))
                    out["comparisons"].append(r)
                    more = (" (%s, %d and %d)" % (r["test"], r["n"], r["n_base"]) if "ci_low_pct" in r else "")
                    if r.get("drift_pct") is not None:
                        more += "; drift of %s: %+.2f%%" % (" against ".join(name(b) for b in bases[::-1][:2]), r["drift_pct"])
                    fig = ci(r) + " " if "ci_low_pct" in r else "%+.2f%% " % r["delta_pct"] if "delta_pct" in r else ""
                    lines.append("  %s vs %s: %s%s%s" % (name(c), " + ".join(name(b) for b in bases), fig,
                                                        r["verdict"], more))
            lines.append("")
        if o.control:
            apart = [r for r in out["comparisons"] if r["workload"] == wl and r["condition"] == o.control
                     and r["metric"] in PRIMARY and r["verdict"] not in ("within noise", "too few samples")]
            out["control"].append({"workload": wl, "told_apart": bool(apart)})
            unsure += [] if apart else [wl]
            lines += ["  positive control (%s): " % name(o.control) + ("told apart (%s)" % ", ".join(
                "%s %s" % (r["metric"], ci(r)) for r in apart if "ci_low_pct" in r) if apart else
                "NOT told apart: %s cannot say \"no difference\" here" % wl), ""]
        regime(data, conds, wl, name, o.asked_min, lines, out["flags"])
    if o.control or not o.no_control:
        lines.append("The positive control was not told apart for %s: no \"within noise\" there means"
                     " \"no difference\"." % ", ".join(unsure) if unsure else
                     "The positive control was told apart for every workload: a \"within noise\" there"
                     " means no difference beyond its interval." if o.control else
                     "No positive control given: a \"within noise\" does not show that the two could be told apart.")
    if o.cv_max > 0:
        lines.append("CV limit %.4g%% on the main metrics: %s" % (o.cv_max, "exceeded by " + "; ".join(
            out["cv_over"]) if out["cv_over"] else "every condition within it"))
    print("\n".join(lines))
    # JSON has no infinity: the t or df of an interval of width 0 is null
    write(o.json_out, json.dumps(json.loads(re.sub(r"-?\bInfinity\b|\bNaN\b", "null", json.dumps(out))), indent=1) + "\n")
    cols = ["workload", "metric", "condition", "name", "runs", "boots", "mean", "median", "min", "max", "stddev",
            "cv_pct", "against", "test", "delta_pct", "ci_low_pct", "ci_high_pct", "t", "df", "p", "verdict", "drift_pct"]
    rows = [dict(s, **{k: v for k, v in r.items() if k in cols[12:]}) for s in out["conditions"]
            for r in [r for r in out["comparisons"] if all(r[k] == s[k] for k in cols[:3])] or [{}]]
    buf = io.StringIO()
    csv.writer(buf).writerows([cols] + [["%.6g" % x[c] if isinstance(x.get(c), float) else x.get(c, "") for c in cols]
                                        for x in rows])
    write(o.csv_out, buf.getvalue())
    for x in out["cv_over"]:
        print("stats: CV over the limit of %.4g%%: %s" % (o.cv_max, x), file=sys.stderr)
    sys.exit(6 if out["cv_over"] else 5 if unsure else 0)


if __name__ == "__main__":
    main()
