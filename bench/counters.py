#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench/counters.py: the counters that explain a benchmark run, as a table.

Reads a CSV of bench/aba.sh -S and prints, per workload, a line per condition
and domain level: newidle visits, attempts and pulls per second, attempts per
visit, pulls per attempt, how the attempts that pulled nothing ended (aba.sh's
classes, in %), the ratio and the balance cost at the start and end of a run;
then the waker (futexbench's or sembench's main thread): completions (sembench:
wake rounds), migrations and failed ones (running, hot, affine) per second, CPU
time per completion. Each figure is the mean over the condition's runs (a
ratio: of the means), per second of counted_s, else of --seconds, else a total
per run (said). --brief F[+F2]: instead, at most 72 columns, the feature's
conditions F pooled beside the others': per level newidle lb_count, lb_failed and
lb_gained, then the waker's migrations and failed ones (running, hot) per 1000 rounds.
Usage: bench/counters.py CSV... [--seconds N] [--brief F[+F2] [--label C=NAME ...]]
"""
import argparse
import csv
import math
import os
import sys
from statistics import mean

COLS = ["workload", "condition", "run", "metric", "value", "boot"]
ORDER = ["smt", "cls", "mc", "pkg", "node", "numa"]
# how an attempt that moved nothing ended (bench/aba.sh's classes)
SPLIT = ["balanced", "nobusyg", "nobusyq", "pinned", "failed"]
# the table's columns: condition, level, visits, attempts, pulls, their ratios | SPLIT | ratio | cost; the waker's
ROW = "%-12s %-5s %12s %12s %11s %7s %7s | %8s %8s %8s %8s %8s | %-9s | %s"
WAKER = "  %-12s %13s %11s %11s %8s %8s %17s"


def die(msg):
    sys.exit(print("counters: " + msg, file=sys.stderr) or 2)


def load(paths):
    """{workload: {condition: {(boot, run): {metric: value}}}}, in file order."""
    data = {}
    for path in paths:
        if not os.path.isfile(path) or os.path.getsize(path) == 0:
            die("%s is empty or missing" % path)
        with open(path, newline="", errors="replace") as f:
            rd = csv.reader(f)
            if next(rd, None) != COLS:
                die("%s: its header is not %s" % (path, ",".join(COLS)))
            for n, row in enumerate(rd, 2):
                try:
                    w, c, r, m, v, b = row
                    v = float(v)
                except ValueError:
                    die("%s line %d: not workload,condition,run,metric,value,boot: %s" % (path, n, ",".join(row)))
                if not math.isfinite(v):
                    print("counters: %s line %d: value %s skipped" % (path, n, row[4]), file=sys.stderr)
                    continue
                data.setdefault(w, {}).setdefault(c, {}).setdefault((b, r), {})[m] = v
    if not data:
        die("%s has no measurements" % " ".join(paths))
    return data


def levels(runs):
    """The levels that the runs' dom_LEVEL_WHAT metrics name, in the order the kernel stacks them first."""
    found = {m[4:].rsplit("_", 1)[0] for x in runs.values() for m in x if m.startswith("dom_") and m.count("_") >= 2}
    return sorted(found, key=lambda l: (ORDER.index(l) if l in ORDER else len(ORDER), l))


def avg(runs, metric, per=None):
    """The mean over the runs that have METRIC, each divided by its length per(run)."""
    vs = [x[metric] / (per(x) if per else 1.0) for x in runs.values() if metric in x]
    return mean(vs) if vs else None


def fmt(v, f="%.1f"):
    return "-" if v is None else f % v


def per_of(allruns, seconds):
    """A run's length to divide by (counted_s, else seconds), or None: totals per run."""
    if all("counted_s" in x and x["counted_s"] > 0 or seconds for x in allruns):
        return lambda x: x["counted_s"] if x.get("counted_s", 0) > 0 else seconds
    return None


def brief(data, feat, name, seconds):
    """Per workload and level the base's conditions pooled and the feature's side by side; then the waker."""
    row = "%-11s %-4s %8s %8s  %8s %8s  %8s %8s".__mod__
    lines, waker, units, names = [], [], set(), ("base", "feature")
    for wl, conds in data.items():
        sides = [{(c,) + k: x for c in side for k, x in conds[c].items()}
                 for side in ([c for c in conds if c not in feat], [c for c in feat if c in conds])]
        names = [name(next(iter(r))[0]) if r else n for r, n in zip(sides, names)]
        per = per_of([x for r in sides for x in r.values()], seconds)
        units.add("per second" if per else "PER RUN (no run length)")
        for lvl in levels({k: x for r in sides for k, x in r.items()}) or ["-"]:
            lines.append(row((wl[:11], lvl) + tuple(fmt(avg(r, "dom_%s_%s" % (lvl, w), per)) for w in
                                                    ("attempts", "failed", "gained") for r in sides)))
        w = [fmt(avg(r, "main_%s_per_1k" % k), "%.2f") for k in ("migrations", "failed_running", "failed_hot") for r in sides]
        waker += [row((wl[:11], "", *w))] if set(w) != {"-"} else []
    # cols LVL WHAT...: the two header lines, WHAT over each pair of columns
    cols = lambda lvl, *w: ["%-16s %17s  %17s  %17s" % ("", *w), row(("workload", lvl) + ("base", "feature") * 3)]  # noqa: E731
    waker = ["the waker (the main thread), per 1000 rounds: migrations, failed ones"] + cols(
        "", "migrations", "failed: running", "cache hot") + waker if waker else []
    return ["newidle balance, %s: %s (base) and %s" % (", ".join(sorted(units)), *names)] + cols(
        "lvl", "lb_count", "lb_failed", "lb_gained") + lines + waker


def main():
    ap = argparse.ArgumentParser(description="the counters of bench/aba.sh -S, as a table")
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--seconds", type=float, help="a run's length where it has no counted_s")
    ap.add_argument("--brief", type=lambda x: x.split("+"), help="F[+F2]: the feature's conditions, at most 72 columns")
    ap.add_argument("--label", action="append", default=[], type=lambda x: x.split("=", 1) if "=" in x else
                    ap.error("--label takes CONDITION=NAME, not %r" % x))
    o = ap.parse_args()
    if o.seconds is not None and not 0 < o.seconds < math.inf:
        die("--seconds takes a positive number")
    data = load(o.csv)
    if o.brief:
        sys.exit(print("\n".join(brief(data, o.brief, lambda c: dict(o.label).get(c, c), o.seconds))))
    lines = []
    for wl, conds in data.items():
        allruns = [x for runs in conds.values() for x in runs.values()]
        if not any(m.startswith("dom_") for x in allruns for m in x):
            lines += ["%s: no per-level counters in %s (bench/aba.sh -S)" % (wl, " ".join(o.csv)), ""]
            continue
        per = per_of(allruns, o.seconds)
        unit = "/s" if per else "/run"
        nruns = sorted({len(r) for r in conds.values()})
        lines.append("%s: newidle balance per level, the mean of %s run(s) per condition; %s" % (
            wl, "%d" % nruns[0] if len(nruns) == 1 else "%d-%d" % (nruns[0], nruns[-1]),
            ("counts per second of a run (counted_s, else --seconds %g)" % o.seconds if o.seconds else
             "counts per second of a run (counted_s)") if per else
            "TOTALS PER RUN: the run length is unknown (no counted_s; give --seconds N for rates)"))
        lines += ["%-12s %-5s %12s %12s %11s %7s %7s | %-44s | %-9s | %s" % (
            "", "", "visits" + unit, "attempts" + unit, "pulls" + unit, "att/vis", "pul/att", "ended without a pull, % of those:",
            "ratio", "cost, us"), ROW % ("condition", "level", "", "", "", "", "", *SPLIT, "start>end", "start>end")]
        for c, runs in conds.items():
            for lvl in levels(runs):
                g = lambda what, p=per: avg(runs, "dom_%s_%s" % (lvl, what), p)  # noqa: E731
                vis, att, pul = g("visits"), g("attempts"), g("pulls")
                # ratios of the means; the classes split the attempts that pulled nothing (schedstat)
                cls = {k: g(k) for k in SPLIT}
                nopull = sum(v for v in cls.values() if v is not None)
                pct = {k: (100.0 * v / nopull if nopull else 0.0) if v is not None else None for k, v in cls.items()}
                r0, r1, k0, k1 = (g(k, None) for k in ("ratio0", "ratio1", "cost0", "cost1"))
                lines.append(ROW % (
                    c[:12], lvl, fmt(vis), fmt(att), fmt(pul),
                    fmt(att / vis if att is not None and vis else None, "%.3f"),
                    fmt(pul / att if pul is not None and att else None, "%.3f"),
                    *(fmt(pct[k]) for k in SPLIT),
                    "%.0f>%.0f" % (r0, r1) if r0 is not None and r1 is not None else "-",
                    "%.1f>%.1f" % (k0 / 1e3, k1 / 1e3) if k0 is not None and k1 is not None else "-"))
        lines.append("  att/vis, pul/att: of the means; the %: of the attempts that pulled nothing,"
                     " by how they ended (bench/aba.sh -S)")
        if not any(m.startswith("dom_") and m.endswith("_pinned") for x in allruns for m in x):
            lines.append("  pinned: '-' where the kernel has no telemetry of it: its all-pinned attempts"
                         " are in balanced")
        # the waker: per 1000 completions (futexbench's, or sembench's wake rounds) times completions per second
        waker = [(c, runs) for c, runs in conds.items()
                 if any("main_migrations_per_1k" in x or "main_cpu_us_per_completion" in x for x in runs.values())]
        if waker:
            lines += ["  the waker (the main thread), the mean of the runs; its migrations, and the failed ones, per s:",
                      WAKER % ("condition", "completions/s", "migrations", "failed:run", "hot", "affine", "cpu_us/completion")]
            for c, runs in waker:
                # a run's completions per second: futexbench's, else sembench's wake rounds
                rs = [(x, x.get("completions_per_s", x.get("main_rounds_per_s"))) for x in runs.values()]
                rs = [(x, n) for x, n in rs if n is not None]
                per_s = [[x[k] * n / 1000.0 for x, n in rs if k in x] for k in
                         ("main_%s_per_1k" % w for w in ("migrations", "failed_running", "failed_hot", "failed_affine"))]
                lines.append(WAKER % (
                    c[:12], fmt(mean(n for _, n in rs) if rs else None), *(fmt(mean(v) if v else None, "%.2f") for v in per_s),
                    fmt(avg(runs, "main_cpu_us_per_completion"), "%.4f")))
        lines.append("")
    print("\n".join(lines).rstrip("\n"))


if __name__ == "__main__":
    main()
