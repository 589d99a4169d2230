"""Would another fork summary narrow an A/B's intervals? (issue #30: the nested t tests each pair's difference of
the forks' means of log iterations; a summary robust to single slow iterations was the open question.)

Reads one A/B run's directory as `ab` wrote it (kept by KEEP_RUNS=DIR with aa.sh, regression.sh, program.sh: every
block's harness records, each fork's iterations), pairs each block's baseline fork (a) with its candidate fork (b)
per cell and variant, and prints for each comparison the half-width of its paired-t interval (in %, at LEVEL, for
the comparison alone: the report's "detectable" asks a lone change to pass Benjamini–Hochberg among all, a stricter
level) with each summary of a fork's measured iterations (logs): their mean (what the nested t uses), median, 20 %
trimmed mean, mean of the faster half, minimum. Same pairs, same level: the summaries' widths compare as their
spreads do.

Usage: python3 fork-summaries.py RUN_DIR [LEVEL]   (LEVEL default 0.0417: a last look after one look of six; numpy
and scipy: pip install numpy scipy)
"""
import glob
import json
import math
import os
import sys

import numpy as np
from scipy import stats

SUMMARIES = {
    "mean": lambda s: s.mean(),
    "median": lambda s: float(np.median(s)),
    "trim20": lambda s: stats.trim_mean(s, 0.2),
    "fast half": lambda s: s[: max(1, len(s) // 2)].mean(),
    "min": lambda s: s[0],
}


def forks(run_dir):
    """(cell, variant) -> {pair k: {side: sorted logs of the measured iterations}}"""
    out = {}
    pattern = os.path.join(run_dir, "blocks", "*", "*-*", "raw", "*", "*.records.jsonl")
    for path in glob.glob(pattern):
        parts = path.split(os.sep)
        cell = parts[-5].split(".")[-1]
        k, side = parts[-4].split("-")
        for line in open(path):
            record = json.loads(line)
            iterations = record.get("iterations")
            if iterations:
                logs = np.sort(np.log(iterations["wallMs"][iterations["warmup"]:]))
                out.setdefault((cell, record["variant"]), {}).setdefault(int(k), {})[side] = logs
    return out


def main():
    run_dir = sys.argv[1]
    level = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0417
    rows = []
    for (cell, variant), by_pair in sorted(forks(run_dir).items()):
        pairs = [p for _, p in sorted(by_pair.items()) if "a" in p and "b" in p]
        n = len(pairs)
        if n < 4:
            continue
        t = stats.t.isf(level / 2, n - 1)
        widths = []
        for summary in SUMMARIES.values():
            d = np.array([summary(p["b"]) - summary(p["a"]) for p in pairs])
            widths.append(math.expm1(t * d.std(ddof=1) / math.sqrt(n)) * 100)
        rows.append((f"{cell} {variant}", n, widths))
    print(f"{'comparison':32s} {'pairs':>5s} " + " ".join(f"{name:>9s}" for name in SUMMARIES))
    for name, n, widths in rows:
        print(f"{name:32s} {n:5d} " + " ".join(f"{w:9.1f}" for w in widths))
    medians = [float(np.median([r[2][i] for r in rows])) for i in range(len(SUMMARIES))]
    print(f"{'median':32s} {'':5s} " + " ".join(f"{m:9.1f}" for m in medians))


if __name__ == "__main__":
    main()
