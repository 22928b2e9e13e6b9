#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench/ni-compare.py: does the replay predict? (make ni-validate's table)

Reads DIR of bench/ni-validate.sh: runs.csv (bench/aba.sh -S rows: per boot and
workload A, recorded under NO_NI_RANDOM; B, NI_RANDOM; C, NO_NI_RANDOM without
probes; A2, recorded again) and the recordings WORKLOAD.A.BOOT.rec and
WORKLOAD.A2.BOOT.rec. Per workload and level, for v7.3's dice and the control
that ignores the ratio: the share of NO_NI_RANDOM's attempts and tasks moved,
per visit, that the replay of A and A2 predicts, against B's per visit over C's
(aba.sh's telemetry counts the visits); their quotient, its mean over boots with
a 95 % t interval. Then the waker's migrations, B over C; and per recording the
replayed NO_NI_RANDOM attempts beside the run's telemetry, the visits that do
not follow the last one recorded (none lost: 0), the recorder's cost against C.
Usage: bench/ni-compare.py DIR
"""
import csv
import os
import re
import subprocess
import sys
from statistics import mean, stdev

from scipy import stats

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = {"v7.3-dice": "dice", "every-2nd": "control"}
THROUGHPUT = {"sembench": "burns_per_s", "schbench": "rps", "futex": "completions_per_s"}


def die(msg):
    sys.exit(print("ni-compare: " + msg, file=sys.stderr) or 2)


def replay(path):
    """{(level, rule): (attempts, moved)} and the recording's seconds."""
    out = subprocess.run([HERE + "/ni-replay.sh", "-l", path], capture_output=True, text=True)
    if out.returncode:
        die("bench/ni-replay.sh -l %s: %s" % (path, out.stderr.strip()))
    rows = (re.match(r"\s*(\d+) (.+?) +(\d+) +(\d+) +\d+$", line) for line in out.stdout.splitlines())
    got = {(int(m[1]), m[2].strip()): (float(m[3]), float(m[4])) for m in rows if m}
    with open(path) as f:
        secs = next((float(x.split("=")[1]) for x in f if x.startswith("# seconds=")), None)
    return got, secs


def ci(xs):
    """mean and 95 % t interval's half width (nan with one sample)"""
    if len(xs) < 2:
        return mean(xs), float("nan")
    return mean(xs), stats.t.ppf(0.975, len(xs) - 1) * stdev(xs) / len(xs) ** 0.5


def gaps(path):
    """visits missing: per CPU and level, a line's newidle_call not the last's + 1 (halved at 1024)"""
    with open(path) as f:
        rows = [x for x in (line.split() for line in f if not line.startswith("#")) if len(x) >= 9]
    last, bad = {}, 0
    for x in rows:
        k, call = (x[0], x[2]), int(x[4])
        if k in last:
            want = last[k] + 1
            bad += call != (want // 2 if want >= 1024 else want)
        last[k] = call
    return bad, len(rows)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        die("usage: bench/ni-compare.py DIR (of bench/ni-validate.sh)")
    d = sys.argv[1]
    runs = {}
    with open(os.path.join(d, "runs.csv")) as f:
        for r in csv.reader(f):
            if len(r) == 6 and r[0] != "workload":
                runs.setdefault((r[0], r[1].split(":")[-1], r[5]), {})[r[3]] = float(r[4])
    levels = {m.split("_")[1] for x in runs.values() for m in x if m.startswith("dom_")}
    order = [x for x in ["smt", "cls", "mc", "pkg", "node", "numa"] if x in levels]
    for wl in sorted({k[0] for k in runs}):
        boots = sorted({k[2] for k in runs if k[0] == wl}, key=int)
        paths = {(b, c): os.path.join(d, "%s.%s.%s.rec" % (wl, c, b)) for b in boots for c in ("A", "A2")}
        recs = {k: replay(p) for k, p in paths.items() if os.path.exists(p)}
        # the replay's levels are sd->level: the ones with visits, in order, are the domains'
        used = sorted({lv for got, _ in recs.values() for (lv, rule), v in got.items() if rule == "NO_NI_RANDOM" and v[0]})
        names = dict(zip(order, used))
        print("\n%s, %d boots: per visit, B (NI_RANDOM) against C (NO_NI_RANDOM), and the replay of A and A2" % (wl, len(boots)))
        print("%-5s %-8s %-7s %9s %9s %24s" % ("level", "per visit", "rule", "predicted", "real", "predicted/real [95% CI]"))
        for lvl, lv in names.items():
            for what, col, idx in (("attempts", "attempts", 0), ("moved", "gained", 1)):
                v, k = "dom_%s_visits" % lvl, "dom_%s_%s" % (lvl, col)
                for rule, short in RULES.items():
                    pred, real = [], []
                    for b in boots:
                        p = [got[lv, rule][idx] / got[lv, "NO_NI_RANDOM"][idx] for (bb, c), (got, _) in recs.items()
                             if bb == b and got.get((lv, "NO_NI_RANDOM"), (0, 0))[idx]]
                        B, C = runs.get((wl, "B", b), {}), runs.get((wl, "C", b), {})
                        if p and B.get(v) and C.get(v) and C.get(k):
                            pred.append(mean(p))
                            real.append((B[k] / B[v]) / (C[k] / C[v]))
                    quot = [x / y for x, y in zip(pred, real) if y]
                    if quot:
                        m, h = ci(quot)
                        print("%-5s %-8s %-7s %9.3f %9.3f %10.3f [%.3f, %.3f]" % (
                            lvl, what, short, mean(pred), mean(real), m, m - h, m + h))
        wk = [(runs[wl, "B", b].get("main_migrations_per_1k"), runs[wl, "C", b].get("main_migrations_per_1k")) for b in boots
              if (wl, "B", b) in runs and (wl, "C", b) in runs]
        wk = [b / c for b, c in wk if b is not None and c]
        if wk:
            m, h = ci(wk)
            print("the waker's migrations per 1000 rounds, B / C: %.3f [%.3f, %.3f] (all migrations, not only newidle pulls)" % (m, m - h, m + h))
        print("the recordings (replayed NO_NI_RANDOM attempts beside aba.sh's telemetry of the run, its window shorter):")
        for (b, c), (got, secs) in sorted(recs.items()):
            run, C = runs.get((wl, c, b), {}), runs.get((wl, "C", b), {})
            own = " ".join("%s %d/%d" % (lvl, got.get((lv, "NO_NI_RANDOM"), (0, 0))[0],
                                         run.get("dom_%s_attempts" % lvl, -1)) for lvl, lv in names.items())
            tp = THROUGHPUT.get(re.sub(r"\d+$", "", wl))
            cost = "%+.1f %%" % (100 * (run[tp] / C[tp] - 1)) if tp in run and C.get(tp) else "-"
            bad, n = gaps(paths[b, c])
            print("  boot %s %-2s %s; %d of %d visits follow no visit recorded before them; throughput against C's %s; %s s" % (
                b, c, own, bad, n, cost, secs))


if __name__ == "__main__":
    main()
