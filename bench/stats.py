#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/stats.py: the statistics of an A/B/A benchmark CSV.

Input: the CSV of bench/aba.sh or bench/kernels.sh, columns
workload,condition,run,metric,value (more columns are ignored).

For each workload and metric, per condition: n, mean, median, min, max,
stddev and CV (stddev / mean, sample stddev). For each comparison B:A,A2
(B against the mean of both of its baselines): the delta of B's mean
against the baselines' mean, in percent, with a 95 % confidence interval
from Welch's t-test of B's runs against the runs of both baselines taken
together (their drift counts as noise), the verdict (better, worse, or
within noise when the interval holds 0) and the baselines' drift (A2
against A). The interval in percent is the interval of the difference
divided by the baselines' mean.

Usage: bench/stats.py CSV [--title T] [--label COND=NAME ...]
                      [--compare B:A,A2 ...] [--csv OUT] [--json OUT]
                      [--png OUT] [--cv-max PCT] [--primary METRIC,...]
  Without --compare: B:A,A2 when the conditions A, B and A2 are there.
  --cv-max PCT (default: BENCH_CV_MAX, else 2): a condition whose CV of a
    primary metric is over PCT fails the report: every output is written,
    then the conditions over the limit are named on stderr and the exit
    status is 6 (noisy; README.md). 0 turns the check off.
  --primary: the metrics the CV limit applies to (default: each workload's
    throughput or time: completions_per_s, steady_per_s, transient_per_s,
    burns_per_s, seconds, bogo_ops_per_s, ops_per_s, usecs_per_op, mb_per_s).
Text on stdout. Needs python3 only (no scipy): Student's t from the
regularised incomplete beta function.
"""
import argparse
import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

# The workloads' main metrics (bench/aba.sh's figures), the one list of them
PRIMARY = "completions_per_s,steady_per_s,transient_per_s,burns_per_s,seconds,bogo_ops_per_s,ops_per_s,usecs_per_op,mb_per_s"


# --- Student's t ---------------------------------------------------------
def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """Regularised incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_sf2(t, df):
    """Two-sided p-value of t with df degrees of freedom."""
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p, df):
    """The t with P(T <= t) = p, for p in (0.5, 1): by bisection."""
    lo, hi = 0.0, 1.0
    while 1.0 - t_sf2(hi, df) / 2.0 < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if 1.0 - t_sf2(mid, df) / 2.0 < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def welch(b, a):
    """Welch's t-test of samples b against a: (diff, se, df, t, p)."""
    nb, na = len(b), len(a)
    mb, ma = sum(b) / nb, sum(a) / na
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1)
    va = sum((x - ma) ** 2 for x in a) / (na - 1)
    qb, qa = vb / nb, va / na
    se = math.sqrt(qb + qa)
    diff = mb - ma
    if se == 0.0:
        return diff, 0.0, float("inf"), float("inf") if diff else 0.0, 0.0 if diff else 1.0
    df = (qb + qa) ** 2 / (qb * qb / (nb - 1) + qa * qa / (na - 1)) if qb + qa else float("inf")
    t = diff / se
    return diff, se, df, t, t_sf2(abs(t), df)


# --- summaries -----------------------------------------------------------
def summary(v):
    n = len(v)
    s = sorted(v)
    mean = sum(v) / n
    med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "mean": mean, "median": med, "min": s[0], "max": s[-1],
            "stddev": sd, "cv_pct": 100.0 * sd / mean if mean else 0.0}


# Counts that explain a result rather than rate it: their verdict is
# "higher" or "lower", not "better" or "worse"; so are the per-level
# telemetry figures (dom_LEVEL_...).
NEUTRAL = {"ni_lb_count", "ni_lb_gained", "lb_gained", "main_migrations_per_1k", "main_csw_per_1k"}


def is_neutral(metric):
    return metric in NEUTRAL or metric.startswith("dom_")


# What the summary table shows besides the main metrics: the schedstat deltas.
EXPLAIN = ["ni_lb_count", "ni_lb_gained", "lb_gained", "run_delay_ms"]


def lower_is_better(metric):
    return (metric.startswith("seconds") or "_us_" in metric or metric.endswith("_us")
            or metric.endswith("_per_1k") or metric.startswith("usecs") or "latency" in metric
            or "delay" in metric)


def pct(a, b):
    return 100.0 * (a - b) / b if b else 0.0


def main():
    ap = argparse.ArgumentParser(description="statistics of an A/B/A CSV", add_help=True)
    ap.add_argument("csv")
    ap.add_argument("--title", default="A/B/A")
    ap.add_argument("--label", action="append", default=[])
    ap.add_argument("--compare", action="append", default=[])
    ap.add_argument("--csv", dest="csv_out")
    ap.add_argument("--json", dest="json_out")
    ap.add_argument("--png", dest="png_out")
    ap.add_argument("--cv-max", type=float, default=float(os.environ.get("BENCH_CV_MAX") or 2))
    ap.add_argument("--primary", default=PRIMARY)
    o = ap.parse_args()

    if not os.path.isfile(o.csv) or os.path.getsize(o.csv) == 0:
        sys.exit("report: %s is empty or missing" % o.csv)
    labels = dict(x.split("=", 1) for x in o.label)
    primary = set(o.primary.split(","))
    keys, conds, data = [], [], {}
    with open(o.csv, newline="") as f:
        for row in csv.DictReader(f):
            try:
                v = float(row["value"])
            except (TypeError, ValueError, KeyError):
                sys.exit("report: %s: not a number in %r" % (o.csv, row))
            k = (row["workload"], row["metric"])
            if k not in data:
                keys.append(k)
                data[k] = {}
            c = row["condition"]
            if c not in conds:
                conds.append(c)
            data[k].setdefault(c, []).append(v)
    if not keys:
        sys.exit("report: %s has no measurements" % o.csv)
    compares = []
    for c in o.compare:
        b, base = c.split(":", 1)
        compares.append((b, base.split(",")))
    if not compares and {"A", "B", "A2"} <= set(conds):
        compares = [("B", ["A", "A2"])]
    name = lambda c: labels.get(c, c)

    rows, over, lines = [], [], []
    w = max([len(name(c)) for c in conds] + [10])
    lines.append(o.title)
    lines.append("")
    tq_cache = {}
    for k in keys:
        wl, metric = k
        d = data[k]
        better = "lower" if lower_is_better(metric) else "higher"
        neutral = is_neutral(metric)
        lines.append("%s: %s (%s)" % (wl, metric, "explains, neither way is better" if neutral
                                       else better + " is better"))
        lines.append("  %-*s %4s %12s %12s %12s %12s %6s %8s  %-21s %s" % (
            w, "condition", "n", "mean", "median", "min", "max", "CV", "delta", "95% CI (Welch)", "verdict"))
        comp = {b: base for b, base in compares}
        for c in conds:
            if c not in d:
                continue
            s = summary(d[c])
            r = {"workload": wl, "metric": metric, "condition": c, "name": name(c)}
            r.update(s)
            r.update({"baselines": "", "delta_pct": None, "ci_low_pct": None, "ci_high_pct": None,
                      "t": None, "df": None, "p": None, "verdict": "", "drift_pct": None})
            extra = ""
            if c in comp and all(x in d for x in comp[c]):
                base = [v for x in comp[c] for v in d[x]]
                bm = sum(base) / len(base)
                if bm == 0:
                    # a counter that stayed at 0 in the baselines (no pulls at
                    # a level, say): no relative delta to give
                    r.update({"verdict": "baseline 0"})
                    ci = "-"
                elif len(d[c]) > 1 and len(base) > 1:
                    diff, se, df, t, p = welch(d[c], base)
                    if df == float("inf") or se == 0.0:
                        q = 1.959963984540054
                    else:
                        q = tq_cache.setdefault(round(df, 9), t_quantile(0.975, df))
                    lo, hi = diff - q * se, diff + q * se
                    if lo > 0 or hi < 0:
                        up = lo > 0
                        if neutral:
                            verdict = "higher" if up else "lower"
                        else:
                            verdict = "better" if up == (better == "higher") else "worse"
                    else:
                        verdict = "within noise"
                    r.update({"delta_pct": pct(bm + diff, bm), "ci_low_pct": 100.0 * lo / bm,
                              "ci_high_pct": 100.0 * hi / bm, "t": t, "df": df, "p": p,
                              "verdict": verdict})
                    ci = "[%+.2f%%, %+.2f%%]" % (r["ci_low_pct"], r["ci_high_pct"])
                else:
                    r.update({"delta_pct": pct(s["mean"], bm), "verdict": "too few runs"})
                    ci = "-"
                firsts = d[comp[c][0]]
                lasts = d[comp[c][-1]]
                r["drift_pct"] = pct(sum(lasts) / len(lasts), sum(firsts) / len(firsts))
                r["baselines"] = "+".join(comp[c])
                extra = "%8s  %-21s %s" % ("-" if r["delta_pct"] is None else "%+7.2f%%" % r["delta_pct"],
                                           ci, r["verdict"])
            lines.append(("  %-*s %4d %12.4f %12.4f %12.4f %12.4f %5.2f%% %s" % (
                w, name(c), s["n"], s["mean"], s["median"], s["min"], s["max"], s["cv_pct"], extra)).rstrip())
            if o.cv_max > 0 and metric in primary and s["cv_pct"] > o.cv_max:
                over.append("%s %s, condition %s: CV %.2f%%" % (wl, metric, name(c), s["cv_pct"]))
            rows.append(r)
        for b, base in compares:
            if b in d and all(x in d for x in base):
                r = [x for x in rows if x["workload"] == wl and x["metric"] == metric and x["condition"] == b][0]
                if r["delta_pct"] is None:
                    continue
                lines.append("  %s vs mean of %s: %+.2f%% (%s); baseline drift (%s vs %s): %+.2f%%" % (
                    name(b), " and ".join(name(x) for x in base), r["delta_pct"], r["verdict"],
                    name(base[-1]), name(base[0]), r["drift_pct"]))
        lines.append("")
    if len(conds) > 3:
        lines[2:2] = summary_table(rows, keys, conds, name, primary)
    if o.cv_max > 0:
        lines.append("CV limit %.4g%% (BENCH_CV_MAX) on %s: %s" % (
            o.cv_max, ", ".join(sorted(primary & {m for _, m in keys})) or "no metric here",
            "exceeded by " + "; ".join(over) if over else "every condition within it"))
    print("\n".join(lines))

    cols = ["workload", "metric", "condition", "name", "n", "mean", "median", "min", "max", "stddev",
            "cv_pct", "baselines", "delta_pct", "ci_low_pct", "ci_high_pct", "t", "df", "p", "verdict",
            "drift_pct"]
    if o.csv_out:
        with open(o.csv_out + ".tmp", "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(cols)
            for r in rows:
                wr.writerow(["" if r[c] is None else ("%.6g" % r[c] if isinstance(r[c], float) else r[c])
                             for c in cols])
        os.replace(o.csv_out + ".tmp", o.csv_out)
    if o.json_out:
        with open(o.json_out + ".tmp", "w") as f:
            json.dump({"title": o.title, "cv_max_pct": o.cv_max, "cv_over": over,
                       "rows": [{c: (None if isinstance(r[c], float) and math.isinf(r[c]) else r[c])
                                 for c in cols} for r in rows]}, f, indent=1)
            f.write("\n")
        os.replace(o.json_out + ".tmp", o.json_out)
    if o.png_out:
        plot([r for r in rows if r["metric"] in primary or r["metric"] in EXPLAIN], o.png_out, o.title)
    if over:
        for x in over:
            print("report: CV over the limit of %.4g%%: %s" % (o.cv_max, x), file=sys.stderr)
        sys.exit(6)


def summary_table(rows, keys, conds, name, primary):
    """MMTests-style: a column per condition (kernel), a row per workload's
    main metric: mean and CV, then each compared one's delta and verdict."""
    short = {"better": "better", "worse": "worse", "within noise": "~", "higher": "higher",
             "lower": "lower", "too few runs": "few runs"}
    cw = max([len(name(c)) for c in conds] + [17])
    out = ["Summary: mean (CV); delta against its two baselines, verdict (~: within noise)",
           "  %-34s" % "" + "".join(" %*s" % (cw, name(c)) for c in conds)]
    for wl, metric in keys:
        if metric not in primary and metric not in EXPLAIN:
            continue
        by = {r["condition"]: r for r in rows if r["workload"] == wl and r["metric"] == metric}
        out.append("  %-34s" % ("%s %s" % (wl, metric)) + "".join(
            " %*s" % (cw, "%.6g (%.2f%%)" % (by[c]["mean"], by[c]["cv_pct"]) if c in by else "-") for c in conds))
        if any(by[c]["delta_pct"] is not None for c in by):
            out.append(("  %-34s" % "" + "".join(
                " %*s" % (cw, "%+.2f%% %s" % (by[c]["delta_pct"], short.get(by[c]["verdict"], by[c]["verdict"]))
                          if c in by and by[c]["delta_pct"] is not None else "") for c in conds)).rstrip())
    out.append("")
    return out


def plot(rows, png, title):
    """Delta of each compared condition with its 95 % interval (gnuplot)."""
    if not shutil.which("gnuplot"):
        print("report: no chart (gnuplot is missing)", file=sys.stderr)
        return
    pts = [r for r in rows if r["ci_low_pct"] is not None]
    if not pts:
        return
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
        for i, r in enumerate(pts):
            f.write('%d "%s %s %s" %.4f %.4f %.4f\n' % (i, r["workload"], r["metric"], r["name"],
                                                         r["delta_pct"], r["ci_low_pct"], r["ci_high_pct"]))
        dat = f.name
    gp = """set terminal pngcairo size 1100,%d font ",9"
set output "%s"
set termoption noenhanced
set title "%s: delta against the mean of both baselines, 95%% CI (Welch)"
set xlabel "%% of the baselines' mean"
set grid xtics
set ytics font ",8"
set xzeroaxis
set arrow from 0, graph 0 to 0, graph 1 nohead lc rgb "gray"
set yrange [-1:%d]
unset key
plot "%s" using 3:1:4:5:ytic(2) with xerrorbars pt 7
""" % (200 + 18 * len(pts), png, title.replace('"', "'"), len(pts), dat)
    try:
        subprocess.run(["gnuplot"], input=gp, text=True, check=True)
    finally:
        os.unlink(dat)


if __name__ == "__main__":
    main()
