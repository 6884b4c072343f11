#!/usr/bin/env python3
"""bench/compare's driver: two builds of boxd/boxctl, A (a baseline revision) and B (this
tree), measured in one invocation with their runs interleaved (A B B A ...), so that a
machine that speeds up or slows down during the run moves both the same way. Prints, per
figure, both medians, the ratio B/A and a bootstrap 95% interval of that ratio, and a
verdict: "slower" or "faster" only when the whole interval is beyond +/- NOISE.

Figures that any revision answers the same way: cold start to READY=1 and RSS after it,
press -> LED through the simulated button, the `boxctl status` process, the `boxctl export`
process over the same ten-year log. Standard library only.
"""
import argparse
import os
import random
import shutil
import subprocess
import tempfile
import time

from bench import Instance, median, now_ns, pct, proc_status, log

NOISE = 0.05  # a ratio within 5% of 1 is never called a change


class Side:
    """One build: its boxd, boxctl, and the bench's attributes `Instance` reads."""

    def __init__(self, name, bindir, tmp):
        self.name = name
        self.boxd = os.path.join(bindir, "boxd")
        self.boxctl = os.path.join(bindir, "boxctl")
        self.config = ""  # both sides run the embedded default (developers' build)
        self.tmp = tmp
        self.python = self.baseline = None
        self.legacy = None  # decided by the first press: which wire names this boxd speaks

    def start(self, **kw):
        return Instance(self, "boxd", **kw)

    def press(self, inst, down_ms=40, gap_ms=50):
        """A press through the simulated button. Before #12 the test command was `inject`
        with `edges`; since, `bench.inject` with `pressed`."""
        c = inst.client
        if self.legacy is None:
            r = c.request("bench.inject", button="dose", pressed=True)
            self.legacy = not r.get("ok")
            if not self.legacy:
                time.sleep(down_ms / 1000)
                c.request("bench.inject", button="dose", pressed=False)
                time.sleep(gap_ms / 1000)
                return
        if self.legacy:
            r = c.request("inject", button="dose", edges="down")
        else:
            r = c.request("bench.inject", button="dose", pressed=True)
        if not r.get("ok"):
            raise RuntimeError("%s refused the simulated press: %s" % (self.name, r.get("message")))
        time.sleep(down_ms / 1000)
        if self.legacy:
            c.request("inject", button="dose", edges="up")
        else:
            c.request("bench.inject", button="dose", pressed=False)
        time.sleep(gap_ms / 1000)

    def metrics(self, inst):
        return inst.client.request("metrics" if self.legacy else "bench.metrics")["metrics"]


def interleaved(n):
    """A B, B A, A B, ...: each side goes first equally often."""
    for i in range(n):
        yield (0, 1) if i % 2 == 0 else (1, 0)


def ratio_interval(a, b, rounds=4000, seed=1):
    """Bootstrap 95% interval of median(b) / median(a)."""
    rng = random.Random(seed)
    rs = []
    for _ in range(rounds):
        ma = median([rng.choice(a) for _ in a])
        mb = median([rng.choice(b) for _ in b])
        rs.append(mb / ma)
    rs.sort()
    return rs[int(0.025 * rounds)], rs[int(0.975 * rounds) - 1]


def verdict(lo, hi):
    if lo > 1 + NOISE:
        return "slower"
    if hi < 1 - NOISE:
        return "faster"
    return "same"


class Compare:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="dosetap-compare-")
        self.sides = [Side("A", args.a, self.tmp), Side("B", args.b, self.tmp)]
        self.rows = []

    def row(self, name, unit, a, b, higher_is_worse=True):
        lo, hi = ratio_interval(a, b)
        self.rows.append((name, unit, len(a), median(a), max(a), median(b), max(b), median(b) / median(a), lo, hi,
                          verdict(lo, hi) if higher_is_worse else "info"))

    def cold_starts(self, n):
        ready, rss = ([], []), ([], [])
        for order in interleaved(n + 1):
            for s in order:
                inst = self.sides[s].start()
                time.sleep(0.5)
                kb = proc_status(inst.pid)["VmRSS"]
                inst.client.request("status")
                inst.stop()
                ready[s].append(inst.ready_ms)
                rss[s].append(kb * 1024 / 1e6)
        return [r[1:] for r in ready], [r[1:] for r in rss]  # the first of each is the warm-up

    def presses(self, rounds, per_round):
        insts = [side.start() for side in self.sides]
        for side, inst in zip(self.sides, insts):
            for _ in range(10):
                side.press(inst)
        time.sleep(0.6)
        for side, inst in zip(self.sides, insts):
            side.metrics(inst)  # drop the warm-up's figures
        ms = ([], [])
        for order in interleaved(rounds):
            for s in order:
                side, inst = self.sides[s], insts[s]
                for _ in range(per_round):
                    side.press(inst)
                time.sleep(0.6)  # the last gesture resolves
                ms[s].extend(side.metrics(inst)["press_to_led_ms"])
        return ms, insts

    def timed(self, argvs, n, warmup=1):
        out = ([], [])
        for i, order in enumerate(interleaved(n + warmup)):
            for s in order:
                t0 = now_ns()
                r = subprocess.run(argvs[s], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                dt = (now_ns() - t0) / 1e6
                if r.returncode != 0:
                    raise RuntimeError("%s failed (%d): %s" % (" ".join(argvs[s]), r.returncode, r.stderr.decode()[-300:]))
                if i >= warmup:
                    out[s].append(dt)
        return out

    def run(self):
        a = self.args
        log("[compare] the ten-year night log ...")
        tenyear = os.path.join(self.tmp, "tenyear")
        subprocess.run([a.nightlogbench, "generate", tenyear], check=True, stdout=subprocess.DEVNULL)
        log("[compare] cold starts (%d each) ..." % a.runs)
        ready, rss = self.cold_starts(a.runs)
        self.row("cold start to READY=1", "ms", *ready)
        self.row("RSS 0.5 s after READY", "MB", *rss)
        log("[compare] presses (%d rounds of %d each) ..." % (a.rounds, a.presses))
        press, insts = self.presses(a.rounds, a.presses)
        self.row("press -> LED ack", "ms", *press)
        self.rows.append(("  p99", "ms", len(press[0]), pct(press[0], 99), None, pct(press[1], 99), None,
                          pct(press[1], 99) / pct(press[0], 99), None, None, "info"))
        log("[compare] boxctl status (%d each) ..." % a.status_calls)
        status = self.timed([[s.boxctl, "--socket", i.socket, "status"] for s, i in zip(self.sides, insts)],
                            a.status_calls, warmup=5)
        for inst in insts:
            inst.stop()
        self.row("boxctl status (process)", "ms", *status)
        log("[compare] boxctl export of ten years (%d each) ..." % a.runs)
        out = os.path.join(self.tmp, "export")
        export = self.timed([[s.boxctl, "export", "--out", out, "--force", "--state-dir", tenyear] for s in self.sides],
                            a.runs)
        self.row("boxctl export, ten years (process)", "ms", *export)

    def print_table(self, elapsed):
        a = self.args
        print("bench/compare: A = %s, B = %s; runs interleaved A B / B A; load %s at the end; %.0f s"
              % (a.a_label, a.b_label, open("/proc/loadavg").read().split()[0], elapsed))
        print("ratio B/A of medians with a bootstrap 95%% interval; 'same' unless the whole interval is beyond +/-%d%%"
              % round(NOISE * 100))
        print()
        head = ("figure", "unit", "n", "A med", "A max", "B med", "B max", "B/A", "95% interval", "verdict")
        fmt = "%-36s  %-4s  %4s  %8s  %8s  %8s  %8s  %6s  %-13s  %s"
        print(fmt % head)
        print(fmt % tuple("-" * len(h) if h != "figure" else "-" * 36 for h in head))

        def f(v):
            if v is None:
                return ""
            return "%.3g" % v if v < 100 else "%.0f" % v
        for name, unit, n, am, ax, bm, bx, r, lo, hi, v in self.rows:
            interval = "%.2f..%.2f" % (lo, hi) if lo is not None else ""
            print(fmt % (name, unit, n, f(am), f(ax), f(bm), f(bx), "%.2f" % r, interval, v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="directory holding A's boxd and boxctl")
    ap.add_argument("--b", required=True, help="directory holding B's boxd and boxctl")
    ap.add_argument("--a-label", default="A")
    ap.add_argument("--b-label", default="B")
    ap.add_argument("--nightlogbench", required=True, help="B's NightLogBench (writes the ten-year log both export)")
    ap.add_argument("--runs", type=int, default=15, help="cold starts and exports per side")
    ap.add_argument("--rounds", type=int, default=6, help="rounds of presses per side")
    ap.add_argument("--presses", type=int, default=100, help="presses per round")
    ap.add_argument("--status-calls", type=int, default=50)
    args = ap.parse_args()
    t0 = time.monotonic()
    cmp = Compare(args)
    try:
        cmp.run()
    finally:
        shutil.rmtree(cmp.tmp, ignore_errors=True)
    cmp.print_table(time.monotonic() - t0)


if __name__ == "__main__":
    main()
