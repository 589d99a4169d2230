#!/usr/bin/env python3
"""How often lockstep.py's 95 % intervals miss the true change, over many short comparisons (a file of its output
lines, one comparison each). Usage (a Python with scipy): coverage.py FILE TRUE_PERCENT"""
import re, statistics, sys

from scipy.stats import binom

rows = [line for line in open(sys.argv[1]) if "interval ±" in line]
truth = float(sys.argv[2])
means = [float(re.search(r"mean ([+-][\d.]+) %", r).group(1)) for r in rows]
halves = [float(re.search(r"±([\d.]+) %", r).group(1)) for r in rows]
sds = [float(re.search(r"sd of a pair ([\d.]+) %", r).group(1)) for r in rows]
pairs = int(re.search(r"(\d+) pairs", rows[0]).group(1))
missed = sum(abs(m - truth) > h for m, h in zip(means, halves))
print(f"{len(rows)} comparisons of {pairs} pairs, true change {truth:+.1f} %: {missed} of the 95 % intervals miss it "
      f"(P(≥ {missed}) at a true 5 %: {binom.sf(missed - 1, len(rows), 0.05):.3f}); mean of the estimates "
      f"{statistics.mean(means):+.2f} %; their sd {statistics.stdev(means):.2f} % against the median sd of a pair / √n "
      f"{statistics.median(sds) / pairs ** 0.5:.2f} %; median half-width ±{statistics.median(halves):.2f} %")
