#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench/kernels.py: bench/bare-metal.sh's runs on two or three kernels, one table.

One kernel per column, the first the baseline, at most 80 columns. Per
workload's main metric: each kernel as it boots (its NO_NI_DICE, B of the
gate comparison, where it has it, else its NI_RANDOM: A and A2 of
norandom), normalised to the first kernel; then NO_NI_RANDOM against
NI_RANDOM on each kernel, normalised to that kernel's own NI_RANDOM (the
dice, but on the series' kernel: its gate); the runs must be of one machine
and one run length (report.txt says both). A cell is the mean's ratio
[delta in %](CV in %), '*' where the 95 % Welch interval over runs excludes 0.
Usage: bench/kernels.py [NAME=]OUTDIR [NAME=]OUTDIR [[NAME=]OUTDIR]  (NAME: the column's
heading, else the kernel's release from OUTDIR/report.txt)
"""
import os
import re
import signal
import sys
import textwrap

from stats import PRIMARY, compare, load, pooled, summary

WIDTH = 19


def die(msg):
    sys.exit(print("kernels: " + msg, file=sys.stderr) or 2)


def run_dir(name, path):
    """NAME (else the kernel's), {(workload, metric): {condition: {boot: values}}} with the conditions
    'default' (as booted) and 'dice'/'every' (norandom's A+A2 and B), and the machine and run length."""
    runs, rep = os.path.join(path, "runs.txt"), os.path.join(path, "report.txt")
    if not (os.path.isfile(runs) and os.path.isfile(rep)):
        die("%s holds no bench/bare-metal.sh run (runs.txt, report.txt)" % path)
    with open(rep, errors="replace") as f:
        head = f.read(4096)
    # the machine and the run length must match across kernels: tbench's MB/s,
    # for one, falls by half from 10 s runs to 20 s ones
    m, r = re.search(r"^Machine: (.*), (\d+ CPUs)", head, re.M), re.search(r"^Runs: .*?(\d+) s each", head, re.M)
    shape = (m.group(1) if m else "?", m.group(2) if m else "?", r.group(1) + " s runs" if r else "?")
    if not name:
        m = re.search(r"kernel (\S+);", head)
        name = m.group(1) if m else os.path.basename(os.path.normpath(path))
        name = re.sub(r"^.*-newidle-(base|gate|exp)-.*$", r"\1", name)
    cmp = {}
    with open(runs) as f:
        for line in f:
            wl, c = (line.split() + ["", ""])[:2]
            if not c:
                die("%s: not 'WORKLOAD COMPARISON ...': %r" % (runs, line))
            cmp.setdefault(wl, []).append(c)
    out = {}
    for wl, cs in cmp.items():
        for c in (c for c in ("gate", "norandom") if c in cs):
            for (w, m), d in load([os.path.join(path, "%s-%s.csv" % (wl, c))])[0].items():
                if m in PRIMARY and {"A", "A2", "B"} <= set(d):
                    k = out.setdefault((w, m), {})
                    # gate's B, NO_NI_DICE, is the experiment kernel as it boots
                    k.setdefault("default", d["B"] if c == "gate" else pooled(d, ["A", "A2"]))
                    if c == "norandom":
                        k.update(dice=pooled(d, ["A", "A2"]), every=d["B"])
    if not out:
        die("%s: no main metric with A, B and A2" % path)
    return name[:WIDTH - 2], out, shape


def cell(own, base, m):
    """ratio [delta %](CV %) of own against base, '*' where the interval excludes 0; '-' without either."""
    if own is None or base is None or not summary(base)["mean"]:
        return "-"
    r, s, b = compare({"x": own, "y": base}, "x", ["y"], m), summary(own), summary(base)
    apart = "ci_low_pct" in r and (r["ci_low_pct"] > 0 or r["ci_high_pct"] < 0)
    return "%.2f [%+5.1f](%4.1f)%s" % (s["mean"] / b["mean"], r["delta_pct"], s["cv_pct"], "*" if apart else "")


def table(title, kernels, pick):
    """A line per workload's main metric that every kernel has: a cell per kernel of pick(its, the first's)."""
    row = lambda label, cells: "%-19s" % label[:19] + "".join(" %-*s" % (WIDTH, c) for c in cells).rstrip()  # noqa: E731
    lines = [title, row("workload metric", [n for n, _ in kernels])]
    keys = [k for k in kernels[0][1] if all(k in d for _, d in kernels)]
    for wl, m in keys:
        lines.append(row("%s %s" % (wl[:11], m.replace("_per_s", "/s").replace("completions", "compl")[:7]),
                         [cell(*pick(d[(wl, m)], kernels[0][1][(wl, m)]), m) for _, d in kernels]))
    missing = [k for _, d in kernels for k in d if k not in keys]
    if missing:
        lines += textwrap.wrap("(not on every kernel, left out: %s)" % ", ".join(sorted({"%s %s" % k for k in missing})),
                               80, initial_indent="  ", subsequent_indent="  ")
    return lines


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # a reader that stops early: no traceback
    args = sys.argv[1:]
    if args in ([], ["-h"], ["--help"]) or any(a.startswith("-") for a in args):
        print(__doc__.strip(), file=sys.stderr if args and args[0] not in ("-h", "--help") else sys.stdout)
        sys.exit(0 if args in (["-h"], ["--help"]) else 2)
    if not 2 <= len(args) <= 3:
        die("give two or three run directories (80 columns), the baseline's first, not %d" % len(args))
    # NAME=OUTDIR, unless OUTDIR is a directory with a = in its name
    named = [a.rpartition("=")[::2] if "=" in a and not os.path.isdir(a) else ("", a) for a in args]
    if len({os.path.realpath(p) for _, p in named}) < len(args):
        die("one run given twice (%s): give each kernel's own run" % " ".join(args))
    runs = [run_dir(n, p) for n, p in named]
    for what, i in (("machines", 0), ("machines", 1), ("run lengths", 2)):
        if len({r[2][i] for r in runs}) > 1:
            die("the runs are of different %s (%s): compare runs of one machine and one length" % (
                what, "; ".join("%s: %s" % (r[0], r[2][i]) for r in runs)))
    kernels = [r[:2] for r in runs]
    if len({n for n, _ in kernels}) < len(kernels):
        die("two columns have the same name (%s): name them, NAME=OUTDIR" % ", ".join(n for n, _ in kernels))
    lines = table("Each kernel as it boots, normalised to %s" % kernels[0][0], kernels,
                  lambda k, b: (k.get("default"), b.get("default")))
    lines += [""] + table("NO_NI_RANDOM against NI_RANDOM, each kernel against its own dice", kernels,
                          lambda k, b: (k.get("every"), k.get("dice")))
    lines += ["", "ratio [delta %](CV %); *: the 95 % Welch interval over runs excludes 0"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
