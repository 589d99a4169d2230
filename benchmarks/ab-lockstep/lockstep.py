#!/usr/bin/env python3
"""Would a baseline's and a candidate's forks in lockstep see smaller changes than forks back to back? (issue #30)

An A/B block pair today runs one side's fork, then the other's: the two forks compared ran seconds apart, and on a
shared machine whose speed wanders within a second the pair shares little of its moment. The harness's --turns
lets two forks live together and run one iteration at a time by turns (dev.loommatrix.harness.measure.Turns); this
script is their coordinator. It measures, pair by pair and the two ways alternately (so both see the same hours of
the machine), the difference of a pair's fork means (mean of the logs of the measured iterations, the nested t's
unit) — an A/A pair (both sides the same), and a pair whose candidate does CHANGE more work — and prints, per way,
the pairs' mean difference and its spread: the spread is what a paired test's interval scales with.

Usage (a Python with scipy): lockstep.py HARNESS_JAR JAVA PAIRS WORKLOAD VARIANT PARAMS ITERATIONS [CHANGE_PARAM=VALUE]
  e.g. lockstep.py harness.jar java 20 fib-fanout sequential n=22,calls=200 10:40 calls=210
"""
import json, math, os, random, signal, statistics, subprocess, sys, tempfile, time

import scipy.stats

jar, java, pairs, workload, variant, params, iterations = sys.argv[1:8]
change = sys.argv[8] if len(sys.argv) > 8 else None
pairs = int(pairs)
# an idle gap before each turn (GAP_MS, default none): whether what one side's iteration leaves behind reaches the other's
GAP_S = float(os.environ.get("GAP_MS", "0")) / 1000
warmup, measure = (int(x) for x in iterations.split(":"))
# as a cell's container starts a fork (a 1-CPU cell's heap and collector); both sides the same
JVM = [java, "-XX:+UseSerialGC", "-Xmx614m", "-jar", jar]
# PIN_A / PIN_B: the CPUs (a taskset list) each side's JVM may run on, e.g. both 0, or 0 and 1 (default: any)
PINS = {name: os.environ.get(f"PIN_{name}") for name in ("A", "B")}
# MOVE=CPU: before each turn, move the fork's waiting thread to CPU (the same for both sides), then give it back all
# the CPUs it had — the iteration starts there, its threads' masks unchanged
MOVE = os.environ.get("MOVE")


def waiting_thread(pid):
    """The fork's thread blocked reading its go pipe (the harness's measuring thread)."""
    for _ in range(200):
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                if "pipe" in open(f"/proc/{pid}/task/{tid}/wchan").read():
                    return int(tid)
            except OSError:
                pass
        time.sleep(0.01)
    raise SystemExit(f"no thread of {pid} waits on a pipe")


def command(side_params, out, turns=None, side=None):
    pin = ["taskset", "-c", PINS[side]] if side and PINS[side] else []
    cmd = pin + JVM + [workload, "--variant", variant, "--iterations", iterations, "--out", out]
    for p in side_params.split(","):
        cmd += ["--param", p]
    return cmd + (["--turns", turns] if turns else [])


def candidate_params():
    if change is None:
        return params
    key = change.split("=")[0]
    return ",".join(change if p.split("=")[0] == key else p for p in params.split(","))


def fork_mean(out):
    record = json.load(open(out))
    logs = [math.log(t) for t in record["iterations"]["wallMs"][warmup:]]
    return statistics.mean(logs)


def back_to_back(work, sides):
    """One fork, then the other (balanced random order, as ab's blocks)."""
    outs = {}
    for name, side_params in random.sample(sides, 2):
        outs[name] = f"{work}/{name}.json"
        subprocess.run(command(side_params, outs[name], side=name), check=True, stdout=subprocess.DEVNULL)
    return fork_mean(outs["A"]), fork_mean(outs["B"])


def lockstep(work, sides, frozen=False):
    """Both forks alive; iteration i of each by turns, the first to go alternating (ABBA...). Frozen: the side not
    taking its turn is stopped (SIGSTOP: every thread, its JIT compilers and collector too) until its next turn."""
    procs, go, done, outs = {}, {}, {}, {}
    for name, side_params in sides:
        turns = f"{work}/{name}"
        os.mkdir(turns)
        os.mkfifo(f"{turns}/go")
        os.mkfifo(f"{turns}/done")
        outs[name] = f"{work}/{name}.json"
        procs[name] = subprocess.Popen(command(side_params, outs[name], turns, name), stdout=subprocess.DEVNULL)
    for name, _ in sides:  # go before done, as the harness opens them
        go[name] = open(f"{work}/{name}/go", "wb", buffering=0)
        done[name] = open(f"{work}/{name}/done", "rb", buffering=0)
    first = random.choice(["A", "B"])
    order = [first, "B" if first == "A" else "A"]
    threads = {name: waiting_thread(procs[name].pid) for name, _ in sides} if MOVE else {}
    for i in range(warmup + measure):
        for name in (order if i % 2 == 0 else order[::-1]):
            time.sleep(GAP_S)
            if MOVE:
                mask = os.sched_getaffinity(threads[name])
                os.sched_setaffinity(threads[name], {int(MOVE)})
                os.sched_setaffinity(threads[name], mask)
            if frozen:
                procs[name].send_signal(signal.SIGCONT)
            go[name].write(b".")
            if done[name].read(1) != b".":
                raise SystemExit(f"fork {name} ended before its turn's end")
            if frozen:
                procs[name].send_signal(signal.SIGSTOP)
    for name in order if frozen else ():
        procs[name].send_signal(signal.SIGCONT)
    for name in order:  # each fork's tail, one at a time, until it exits (it says "t" and waits for a last byte)
        go[name].write(b".")
        if done[name].read(1) != b"t":
            raise SystemExit(f"fork {name} ended before its tail")
        go[name].write(b".")
        if procs[name].wait() != 0:
            raise SystemExit(f"fork {name} failed")
        go[name].close()
        done[name].close()
    return fork_mean(outs["A"]), fork_mean(outs["B"])


def summary(label, diffs):
    n = len(diffs)
    mean, sd = statistics.mean(diffs), statistics.stdev(diffs)
    half = scipy.stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return (f"{label}: {n} pairs, mean {math.expm1(mean) * 100:+.2f} %, sd of a pair {math.expm1(sd) * 100:.2f} %, "
            f"95 % interval ±{math.expm1(half) * 100:.2f} %")


random.seed(int.from_bytes(os.urandom(4), "little"))
sides = [("A", params), ("B", candidate_params())]
# "frozen": lockstep with the waiting side stopped — does its JIT or collector, running while the other side's
# iteration uses both CPUs, add to a pair's spread?
ways = {"back-to-back": back_to_back, "lockstep": lockstep,
        "frozen": lambda work, sides: lockstep(work, sides, frozen=True)}
# WAYS=lockstep measures one way only (a longer look at lockstep's estimate in the same time); WAYS=lockstep,frozen
# lockstep with and without the waiting side stopped
ways = {w: ways[w] for w in os.environ.get("WAYS", "back-to-back,lockstep").split(",")}
means = {w: [] for w in ways}
for k in range(pairs):
    for way in (list(ways) if k % 2 == 0 else list(ways)[::-1]):
        with tempfile.TemporaryDirectory() as work:
            means[way].append(ways[way](work, sides))
diffs = {w: [b - a for a, b in means[w]] for w in ways}
what = f"{workload} {variant} {params}" + (f", candidate {change}" if change else " (A/A)")
if GAP_S:
    what += f", {GAP_S * 1000:.0f} ms between turns"
if MOVE:
    what += f", each turn's thread moved to CPU {MOVE} first"
if any(PINS.values()):
    what += ", CPUs " + " / ".join(f"{name} {PINS[name] or 'any'}" for name in PINS)
for way in ways:
    levels = " / ".join(f"{math.exp(statistics.mean(m[i] for m in means[way])):.2f}" for i in (0, 1))
    print(f"{what}: " + summary(way, diffs[way]) + f"; forks A / B {levels} ms (geometric means)")
if {"back-to-back", "lockstep"} <= set(ways):
    print(f"{what}: lockstep's sd / back-to-back's: "
          f"{statistics.stdev(diffs['lockstep']) / statistics.stdev(diffs['back-to-back']):.2f}")
