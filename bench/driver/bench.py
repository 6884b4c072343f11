#!/usr/bin/env python3
"""bench/run's driver: starts boxd and the gpiozero baseline, measures every figure in this
one invocation and prints one table. Standard library only (runs on any python3 >= 3.9).

Every boxd gets its own temporary --state-dir, --socket and NOTIFY_SOCKET; the baseline
the same. Requests go straight over the control socket (no process spawn in the loop),
except figure 7, which times the boxctl binary on purpose.
"""
import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


# -- small helpers ----------------------------------------------------------------------
def pct(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]


def median(values):
    return statistics.median(values)


def now_ns():
    return time.monotonic_ns()


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Client:
    """One connection to a control socket: newline-delimited JSON, one reply per request.
    boxd closes a connection that sends no frame for ControlServer.idleTimeoutSeconds (5 s);
    a request that finds its connection closed that way is sent once more on a new one (the
    closed connection never read it)."""

    def __init__(self, path, timeout=30):
        self.path, self.timeout = path, timeout
        self.connect()

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)  # blocking: waits for room in the listen backlog (a timeout would give EAGAIN)
        self.sock.settimeout(self.timeout)
        self.rfile = self.sock.makefile("rb")
        self.last_used = time.monotonic()

    def request(self, cmd, **fields):
        msg = {"v": 1, "cmd": cmd}
        msg.update(fields)
        frame = (json.dumps(msg) + "\n").encode()
        idle = time.monotonic() - self.last_used
        try:
            self.sock.sendall(frame)
            line = self.rfile.readline()
        except (BrokenPipeError, ConnectionResetError):
            line = b""
        if not line and idle >= 4.5:  # closed for being idle, not by this frame
            self.close()
            self.connect()
            self.sock.sendall(frame)
            line = self.rfile.readline()
        if not line:
            raise RuntimeError("control socket closed during %s" % cmd)
        self.last_used = time.monotonic()
        return json.loads(line)

    def close(self):
        try:
            self.rfile.close()
            self.sock.close()
        except OSError:
            pass


class Instance:
    """A running boxd or baseline, started with its own state directory, control socket
    and notify socket; `ready_ms` is spawn -> READY=1 datagram."""

    def __init__(self, bench, kind, state_dir=None, clock="real", voice=True, config=None):
        self.kind = kind
        self.dir = tempfile.mkdtemp(prefix="%s-" % kind, dir=bench.tmp)
        self.state_dir = state_dir or os.path.join(self.dir, "state")
        self.socket = os.path.join(self.dir, "control.sock")
        notify_path = os.path.join(self.dir, "notify.sock")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(notify_path)
        env = dict(os.environ)
        env["NOTIFY_SOCKET"] = notify_path
        env.pop("WATCHDOG_USEC", None)  # the watchdog stays off (figure 4)
        env.pop("WATCHDOG_PID", None)
        if kind == "boxd":
            argv = [bench.boxd, "--hardware", "sim", "--clock", clock, "--audio", "wav",
                    "--state-dir", self.state_dir, "--socket", self.socket]
            if config:  # figure 4's kernel LED: the same config with [led] class = "dosetap"
                argv += ["--config", config]
            elif not voice:  # figure 9's comparison: the same config with [voice] enabled = false
                argv += ["--config", bench.novoice_config]
            elif bench.config:  # the packaged conffile, as an installed box starts
                argv += ["--config", bench.config]
        else:
            argv = [bench.python, bench.baseline, "--state-dir", self.state_dir, "--socket", self.socket]
        self.stderr = open(os.path.join(self.dir, "stderr.log"), "wb")
        t0 = now_ns()
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=self.stderr, stderr=self.stderr)
        self.pid = self.proc.pid
        self.ready_ms = None
        deadline = time.monotonic() + 20
        while self.ready_ms is None:
            self.notify.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                msg = self.notify.recv(4096)
            except socket.timeout:
                self.stop()
                raise RuntimeError("%s sent no READY=1 within 20 s; see %s" % (kind, self.stderr.name))
            if b"READY=1" in msg.split(b"\n"):
                self.ready_ms = (now_ns() - t0) / 1e6
        self._client = None

    @property
    def client(self):
        if self._client is None:
            self._client = Client(self.socket)
        return self._client

    def close_client(self):
        if self._client is not None:
            self._client.close()
            self._client = None

    def press(self, down_ms=40, gap_ms=50):
        c = self.client
        r = c.request("bench.inject", button="dose", pressed=True)
        if not r.get("ok"):
            raise RuntimeError("inject refused by %s: %s" % (self.kind, r.get("message")))
        time.sleep(down_ms / 1000)
        c.request("bench.inject", button="dose", pressed=False)
        time.sleep(gap_ms / 1000)

    def metrics(self):
        return self.client.request("bench.metrics")["metrics"]

    def rss_kb(self):
        out = proc_status(self.pid)
        out.update(smaps_rollup(self.pid))
        return out

    def stop(self):
        self.close_client()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.notify.close()
        self.stderr.close()


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def proc_status(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "RssAnon", "RssFile", "RssShmem", "Threads"):
                out[k] = int(v.split()[0])
    return out


def smaps_rollup(pid):
    """PSS (shared pages divided among their users) and USS (pages only this process has:
    Private_Clean + Private_Dirty), kB, from /proc/PID/smaps_rollup."""
    vals = {}
    with open("/proc/%d/smaps_rollup" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("Pss", "Private_Clean", "Private_Dirty"):
                vals[k] = int(v.split()[0])
    return {"Pss": vals.get("Pss", 0), "Uss": vals.get("Private_Clean", 0) + vals.get("Private_Dirty", 0)}


def task_switches(pid):
    """{tid: (voluntary + nonvoluntary, comm)} for every thread of pid."""
    out = {}
    base = "/proc/%d/task" % pid
    for tid in os.listdir(base):
        try:
            n = 0
            with open("%s/%s/status" % (base, tid)) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        n += int(line.split()[1])
            with open("%s/%s/comm" % (base, tid)) as f:
                comm = f.read().strip()
            out[int(tid)] = (n, comm)
        except (FileNotFoundError, ProcessLookupError):
            pass  # the thread ended between listdir and open
    return out


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return int(rest[11]) + int(rest[12])  # utime + stime (fields 14, 15)


def idle_window(inst, seconds=60, parts=5, sample=1.0, result=None):
    """Context switches (voluntary + nonvoluntary, summed over threads) and CPU ticks of an
    idle process over `seconds`, sampled every `sample` s and split into `parts` windows.
    Threads are tracked by tid: one that ends loses at most one sample period of counts."""
    pid = inst.pid
    prev = task_switches(pid)
    threads_seen = set(prev)
    threads_max = len(prev)
    per_thread = {}
    part_len = seconds / parts
    part_counts = [0] * parts
    t_start = time.monotonic()
    c0 = cpu_ticks(pid)
    next_t = t_start
    while True:
        next_t += sample
        end = min(next_t, t_start + seconds)
        time.sleep(max(0, end - time.monotonic()))
        cur = task_switches(pid)
        threads_seen |= set(cur)
        threads_max = max(threads_max, len(cur))
        elapsed = time.monotonic() - t_start
        idx = min(parts - 1, int((elapsed - 1e-6) // part_len))
        for tid, (n, comm) in cur.items():
            d = n - prev[tid][0] if tid in prev else n  # a thread born in the window counts fully
            part_counts[idx] += d
            per_thread[comm] = per_thread.get(comm, 0) + d
        prev = cur
        if elapsed >= seconds - 1e-3:
            break
    c1 = cpu_ticks(pid)
    total = sum(part_counts)
    res = {
        "rate_parts": [c / part_len for c in part_counts],
        "rate_total": total / seconds,
        "cpu_s": (c1 - c0) / CLK_TCK,
        "threads_end": len(prev),
        "threads_max": threads_max,
        "threads_seen": len(threads_seen),
        "per_thread": {k: v / seconds for k, v in sorted(per_thread.items(), key=lambda kv: -kv[1])},
    }
    if result is not None:
        result.update(res)
    return res


# -- the bench --------------------------------------------------------------------------
class Bench:
    def __init__(self, args):
        self.args = args
        self.boxd = args.boxd
        self.config = args.config
        self.boxctl = args.boxctl
        self.nightlogbench = args.nightlogbench
        self.python = args.python
        self.baseline = args.baseline
        self.tmp = tempfile.mkdtemp(prefix="dosetap-bench-")
        self.novoice_config = self.voice_off_config()
        self.kled_config = self.kernel_led_config()
        self.rows = []
        self.notes = []
        self.live = []

    def cleanup(self):
        for inst in self.live:
            try:
                inst.stop()
            except Exception:
                pass
        if not self.args.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            log("kept %s" % self.tmp)

    def voice_off_config(self):
        """The measured config with the voice switched off (figure 9): the packaged conffile
        with `enabled = false` in its [voice] section, or (--dev, the embedded default) a
        file with only that section."""
        path = os.path.join(self.tmp, "voice-off.toml")
        if not self.config:
            text = "[voice]\nenabled = false\n"
        else:
            with open(self.config) as f:
                text = f.read()
            text, n = re.subn(r"(?ms)^(\[voice\].*?^enabled\s*=\s*)true", r"\1false", text, count=1)
            if n != 1:
                raise RuntimeError("%s: no `enabled = true` in a [voice] section to switch off" % self.config)
        with open(path, "w") as f:
            f.write(text)
        return path

    def kernel_led_config(self):
        """The measured config with its LED on an LED class device (figure 4): the [led]
        section's lines replaced by `class = "dosetap"`. Under --hardware sim the device is
        simulated: what is measured is boxd's side, which on a real kernel is the same (the
        kernel plays the pattern; Tests/VirtualBox scenario 12 measures it there)."""
        path = os.path.join(self.tmp, "kernel-led.toml")
        text = ""
        if self.config:
            with open(self.config) as f:
                text = f.read()
        text = re.sub(r"(?ms)^\[led\].*?(?=^\[|\Z)", "", text)
        with open(path, "w") as f:
            f.write(text.rstrip("\n") + '\n\n[led]\nclass = "dosetap"\n')
        return path

    def start(self, kind, **kw):
        inst = Instance(self, kind, **kw)
        self.live.append(inst)
        return inst

    def stop(self, inst):
        inst.stop()
        self.live.remove(inst)

    def row(self, num, name, unit, n, med, spread, goal=None, ok=None, base=None, base_spread=None):
        self.rows.append(dict(num=num, name=name, unit=unit, n=n, med=med, spread=spread, goal=goal, ok=ok,
                              base=base, base_spread=base_spread))

    # Figures 6 and 5a: cold start to READY=1, RSS half a second later; and a restart on the same state.
    def cold_starts(self, runs):
        res = {k: {"ready": [], "rss": [], "anon": [], "file": [], "pss": [], "uss": [], "restart": []} for k in ("boxd", "baseline", "boxd-novoice")}
        res["say"] = {"synthesis": [], "round_trip": [], "rss_after": []}
        for i in range(runs + 1):  # the first round is the warm-up (page cache, pyc files)
            for kind in ("boxd", "baseline", "boxd-novoice"):
                inst = self.start("baseline" if kind == "baseline" else "boxd", voice=kind != "boxd-novoice")
                time.sleep(0.5)
                st = inst.rss_kb()
                inst.client.request("status")  # it answers, too
                if kind == "boxd":
                    # Figure 9: this process's first spoken status (espeak-ng's first synthesis).
                    t0 = now_ns()
                    reply = inst.client.request("say", what="status")
                    trip = (now_ns() - t0) / 1e6
                    m = re.search(r"synthesis (\d+) ms", reply.get("message", ""))
                    if not reply.get("ok") or not m:
                        raise RuntimeError("say status: %s" % reply)
                    if i:
                        res["say"]["synthesis"].append(float(m.group(1)))
                        res["say"]["round_trip"].append(trip)
                        res["say"]["rss_after"].append(inst.rss_kb()["VmRSS"])
                self.stop(inst)
                # The same program started again on the state directory it has just run on, as
                # at every boot but the first (the log is there, the config was vetted before).
                again = self.start("baseline" if kind == "baseline" else "boxd", voice=kind != "boxd-novoice",
                                   state_dir=inst.state_dir)
                self.stop(again)
                if i == 0:
                    continue
                r = res[kind]
                r["ready"].append(inst.ready_ms)
                r["restart"].append(again.ready_ms)
                r["rss"].append(st["VmRSS"])  # kB
                r["anon"].append(st["RssAnon"])
                r["file"].append(st["RssFile"])
                r["pss"].append(st["Pss"])
                r["uss"].append(st["Uss"])
        return res

    def tenyear_starts(self, state_dir, runs):
        ready, rss, anon = [], [], []
        for i in range(runs + 1):
            inst = self.start("boxd", state_dir=state_dir)
            time.sleep(0.5)
            st = inst.rss_kb()
            self.stop(inst)
            if i:
                ready.append(inst.ready_ms)
                rss.append(st["VmRSS"])  # kB
                anon.append(st["RssAnon"])
        return ready, rss, anon

    # Figures 1 and 2a.
    def presses(self, kind, n=1000, warmup=20):
        inst = self.start(kind)
        for _ in range(warmup):
            inst.press()
        time.sleep(0.6)
        inst.metrics()  # drop the warm-up's measurements
        t0 = time.monotonic()
        for _ in range(n):
            inst.press()
        time.sleep(0.6)  # let the last gesture resolve
        m = inst.metrics()
        took = time.monotonic() - t0
        st = inst.rss_kb()
        return inst, m, took, st

    # Figure 3. boxd serves at most 16 control connections at once (ControlServer.maxClients;
    # a 17th is told "busy"), so the timers run in rounds of at most ROUND concurrent ones.
    ROUND = 10

    def alarms(self, inst, delays_ms):
        out = []
        for k in range(0, len(delays_ms), self.ROUND):
            out += self.alarm_round(inst, delays_ms[k:k + self.ROUND])
        return out

    def alarm_round(self, inst, delays_ms):
        results = [None] * len(delays_ms)

        clients = [Client(inst.socket, timeout=ms / 1000 + 30) for ms in delays_ms]  # connected first

        def one(i, ms):
            c = clients[i]
            try:
                r = c.request("test.sound", name="main_alarm", ms=ms)
            finally:
                c.close()
            m = re.search(r"onset error ([+-][0-9.]+) ms", r.get("message", ""))
            results[i] = float(m.group(1)) if m else r.get("message")

        threads = [threading.Thread(target=one, args=(i, ms)) for i, ms in enumerate(delays_ms)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        bad = [r for r in results if not isinstance(r, float)]
        if bad:
            raise RuntimeError("%s test.sound failed: %s" % (inst.kind, bad[0]))
        return results

    # Figure 2b: the Dose 2 window on --clock fast:600 (150 min pass in 15 s; gestures stay real time).
    def window_commits(self, runs, speed=600):
        insts = [self.start("boxd", clock="fast:%d" % speed) for _ in range(runs)]
        for inst in insts:
            inst.press()  # Dose 1
        values, phases = [], []
        for inst in insts:
            inst.metrics()  # drop Dose 1's commit
            deadline = time.monotonic() + 60
            while True:
                phase = inst.client.request("status")["status"]["phase"]
                if phase == "active" or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            phases.append(phase)
            inst.press(gap_ms=0)
            time.sleep(0.6)  # the 400 ms double gap, then the commit
            m = inst.metrics()["single_commit_ms"]
            st = inst.client.request("status")["status"]
            if phase != "active" or len(m) != 1 or not st.get("dose2_at"):
                raise RuntimeError("window press did not commit Dose 2 (phase %s, metrics %s, dose2 %s)"
                                   % (phase, m, st.get("dose2_at")))
            values.append(m[0])
        for inst in insts:
            self.stop(inst)
        return values

    def timed(self, argv, runs, warmup=1):
        out = []
        for i in range(runs + warmup):
            t0 = now_ns()
            r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            dt = (now_ns() - t0) / 1e6
            if r.returncode != 0:
                raise RuntimeError("%s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr.decode()[-500:]))
            if i >= warmup:
                out.append(dt)
        return out

    def run(self):
        t_all = time.monotonic()
        a = self.args
        self.load_start = loadavg()

        # The ten-year log (NightLogBench's generator) and NightLogBench's own table.
        log("[bench] generating the ten-year night log ...")
        tenyear = os.path.join(self.tmp, "tenyear")
        subprocess.run([self.nightlogbench, "generate", tenyear], check=True, stdout=subprocess.DEVNULL)
        log("[bench] NightLogBench ...")
        nlb = subprocess.run([self.nightlogbench], check=True, stdout=subprocess.PIPE).stdout.decode()
        m = re.search(r"export all five CSVs to disk\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)", nlb)
        nlb_export = (float(m.group(1)), float(m.group(3))) if m else None

        # Figure 8: boxctl export of ten years (whole process: start, read-only open with quick_check, five CSVs).
        log("[bench] boxctl export ...")
        export_dir = os.path.join(self.tmp, "export")
        exp = self.timed([self.boxctl, "export", "--out", export_dir, "--force", "--state-dir", tenyear], runs=a.runs)

        # Figures 6 and 5.
        log("[bench] cold starts and RSS ...")
        cold = self.cold_starts(a.runs)
        ty_ready, ty_rss, ty_anon = self.tenyear_starts(tenyear, a.runs)

        # Figure 3: 20 timers 1-3 s ahead, all at once (after a warm-up round of 3).
        log("[bench] alarm onset ...")
        onset = {}
        for kind in ("boxd", "baseline"):
            inst = self.start(kind)
            self.alarms(inst, [1000, 1100, 1200])
            delays = [1000 + round(i * 2000 / (a.timers - 1)) for i in range(a.timers)]
            onset[kind] = self.alarms(inst, delays)
            self.stop(inst)

        # Figure 4 (idle, both at once) with figure 2b (fast-clock boxds, mostly asleep) alongside.
        log("[bench] idle %d s (boxd and baseline side by side), Dose 2 window commits meanwhile ..." % a.idle)
        idle_insts, idle_res, idle_threads = {}, {}, []
        for kind in ("boxd", "baseline", "boxd-novoice", "boxd-kled"):
            inst = self.start("baseline" if kind == "baseline" else "boxd", voice=kind != "boxd-novoice",
                              config=self.kled_config if kind == "boxd-kled" else None)
            inst.press()  # Dose 1: a night in progress
            inst.close_client()
            idle_insts[kind] = inst
        time.sleep(2.0)  # let the acknowledgement flash and the Dose 1 chime finish
        for kind, inst in idle_insts.items():
            idle_res[kind] = {}
            t = threading.Thread(target=idle_window, args=(inst, a.idle, 5, 1.0, idle_res[kind]))
            t.start()
            idle_threads.append(t)
        window = self.window_commits(a.runs)
        for t in idle_threads:
            t.join()
        idle_rss = {kind: inst.rss_kb() for kind, inst in idle_insts.items()}
        for inst in idle_insts.values():
            self.stop(inst)

        # Figures 1 and 2a: 1000 presses each, one implementation at a time.
        press = {}
        for kind in ("boxd", "baseline"):
            log("[bench] %d presses on %s ..." % (a.presses, kind))
            inst, m, took, st = self.presses(kind, n=a.presses)
            press[kind] = (m, took, st)
            if kind == "boxd":
                # Figure 7: boxctl status against this running boxd (a night in progress).
                log("[bench] boxctl status x %d ..." % a.status_calls)
                status_ms = self.timed([self.boxctl, "--socket", inst.socket, "status"], runs=a.status_calls, warmup=5)
            self.stop(inst)

        # ---- the table ----
        MB = 1024 / 1e6  # kB (KiB) -> MB
        b1, p1 = press["boxd"][0]["press_to_led_ms"], press["baseline"][0]["press_to_led_ms"]
        self.row("1", "press -> LED ack (%d presses)" % len(b1), "ms", len(b1), median(b1), ("p99", pct(b1, 99)),
                 "p99 <= 5", pct(b1, 99) <= 5, median(p1), ("p99", pct(p1, 99)))
        self.row("1", "  same, p99", "ms", len(b1), None, ("p99", pct(b1, 99)), "p99 ratio <= 1", pct(b1, 99) <= pct(p1, 99),
                 None, ("p99", pct(p1, 99)))
        self.row("1", "  same, max", "ms", len(b1), None, ("max", max(b1)), None, None, None, ("max", max(p1)))
        # Who wrote the flash: the GPIO reader, before the engine took the press up (its thread
        # hop, then the reducer), or the engine (when it had not caught up with earlier edges).
        t1 = press["boxd"][0].get("press_taken_up_ms", [])
        if len(t1) == len(b1) and t1:
            late = [b - t for b, t in zip(b1, t1) if b > t]
            self.row("1", "  flashed by the reader, before the engine", "presses", len(b1), len(b1) - len(late), None)
            self.row("1", "  the edge reaching the engine (info)", "ms", len(t1), median(t1), ("p99", pct(t1, 99)))
            if late:
                self.row("1", "  the engine's answer, where it wrote it", "ms", len(late), median(late), ("p99", pct(late, 99)))
        s2 = press["boxd"][0]["single_commit_ms"]
        self.row("2a", "single commit, double means nothing", "ms", len(s2), median(s2), ("p99", pct(s2, 99)),
                 "(~0)", None)
        self.row("2b", "single commit, Dose 2 window (fast:600)", "ms", len(window), median(window), ("max", max(window)),
                 "max <= 405", max(window) <= 405)
        ob, oq = onset["boxd"], onset["baseline"]
        self.row("3", "alarm onset error (%d timers, 1-3 s)" % len(ob), "ms", len(ob), median(ob), ("min..max", (min(ob), max(ob))),
                 "max <= 50", max(ob) <= 50, median(oq), ("min..max", (min(oq), max(oq))))
        ib, iq = idle_res["boxd"], idle_res["baseline"]
        parts = len(ib["rate_parts"])
        self.row("4", "idle wake-ups, %d x %g s windows" % (parts, a.idle / parts), "/s", parts, median(ib["rate_parts"]),
                 ("%d s" % a.idle, ib["rate_total"]), "%d s <= 1" % a.idle, ib["rate_total"] <= 1,
                 median(iq["rate_parts"]), ("%d s" % a.idle, iq["rate_total"]))
        ik = idle_res["boxd-kled"]
        self.row("4", "  same, the LED an LED class device", "/s", parts, median(ik["rate_parts"]),
                 ("%d s" % a.idle, ik["rate_total"]), "%d s <= 0.2" % a.idle, ik["rate_total"] <= 0.2)
        def cpu(x):  # utime+stime has a resolution of one clock tick
            return x if x > 0 else "< %g" % (1 / CLK_TCK)
        self.row("4", "idle CPU time over %d s" % a.idle, "s", 1, cpu(ib["cpu_s"]), ("threads", ib["threads_max"]), None, None,
                 cpu(iq["cpu_s"]), ("threads", iq["threads_max"]))
        rb, rq = [x * MB for x in cold["boxd"]["rss"]], [x * MB for x in cold["baseline"]["rss"]]
        self.row("5a", "RSS after start", "MB", len(rb), median(rb), ("max", max(rb)), "med <= 12", median(rb) <= 12,
                 median(rq), ("max", max(rq)))
        self.row("5a", "  of which anonymous (RssAnon)", "MB", len(rb), median(cold["boxd"]["anon"]) * MB, None, None, None,
                 median(cold["baseline"]["anon"]) * MB, None)
        self.row("5a", "  PSS (smaps_rollup)", "MB", len(rb), median(cold["boxd"]["pss"]) * MB, None, None, None,
                 median(cold["baseline"]["pss"]) * MB, None)
        self.row("5a", "  USS (Private_Clean + Private_Dirty)", "MB", len(rb), median(cold["boxd"]["uss"]) * MB, None, None, None,
                 median(cold["baseline"]["uss"]) * MB, None)
        ty = [x * MB for x in ty_rss]
        self.row("5b", "RSS after opening a ten-year log", "MB", len(ty), median(ty), ("max", max(ty)),
                 "med <= 12", median(ty) <= 12)
        self.row("5b", "  of which anonymous (RssAnon)", "MB", len(ty), median(ty_anon) * MB, None, None, None)
        self.row("5c", "RSS after the %d presses (info)" % a.presses, "MB", 1, press["boxd"][2]["VmRSS"] * MB, None, None, None,
                 press["baseline"][2]["VmRSS"] * MB, None)
        rdb, rdq = cold["boxd"]["ready"], cold["baseline"]["ready"]
        self.row("6", "cold start to READY=1", "ms", len(rdb), median(rdb), ("max", max(rdb)), "max <= 200", max(rdb) <= 200,
                 median(rdq), ("max", max(rdq)))
        self.row("6", "  a restart with the ten-year log (info)", "ms", len(ty_ready), median(ty_ready), ("max", max(ty_ready)))
        rsb, rsq = cold["boxd"]["restart"], cold["baseline"]["restart"]
        self.row("6", "  a restart on its state directory (info)", "ms", len(rsb), median(rsb), ("max", max(rsb)), None, None,
                 median(rsq), ("max", max(rsq)))
        self.row("7", "boxctl status round trip (process)", "ms", len(status_ms), median(status_ms), ("p99", pct(status_ms, 99)),
                 "med <= 10", median(status_ms) <= 10)
        self.row("8", "boxctl export, ten years (process)", "ms", len(exp), median(exp), ("max", max(exp)),
                 "med <= 500", median(exp) <= 500)
        if nlb_export:
            self.row("8", "  NightLogBench export (in process)", "ms", 7, nlb_export[0], ("max", nlb_export[1]),
                     "med <= 500", nlb_export[0] <= 500)

        self.load_end = loadavg()
        self.extra = dict(press=press, idle=idle_res, idle_rss=idle_rss, window=window, onset=onset, nlb=nlb, cold=cold)
        return time.monotonic() - t_all

    # ---- printing ----
    def print_table(self, elapsed):
        a = self.args
        cpu = "?"
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        print("DoseTap Box benchmark: boxd (%s, --hardware sim --clock real --audio wav%s) vs gpiozero baseline, same run"
              % (a.build_kind, " --config " + a.config if a.config else ""))
        print("boxd: %s (%.1f MB), boxctl: %s (%.1f MB)" % (a.boxd, os.path.getsize(a.boxd) / 1e6, a.boxctl, os.path.getsize(a.boxctl) / 1e6))
        print("machine: %d CPU(s) (nproc), %s, Linux %s, %s; baseline: Python %s, %s"
              % (os.cpu_count(), cpu, platform.release(), a.swift_version, platform.python_version(), a.baseline_versions))
        if a.build_seconds:
            print("release build: %s s (not in the measuring time below)" % a.build_seconds)
        busy = max(float(self.load_start), float(self.load_end)) >= 0.5
        print("load average (1 min) at start %s, at end %s%s" % (self.load_start, self.load_end,
              ": other processes were busy, figures are noisier" if busy else ""))
        print("")

        def f(v):
            if v is None:
                return ""
            if isinstance(v, str):
                return v
            if isinstance(v, int):
                return str(v)
            if isinstance(v, tuple):
                return "%s..%s" % (f(v[0]), f(v[1]))
            if abs(v) >= 100:
                return "%.0f" % v
            if abs(v) >= 10:
                return "%.1f" % v
            return "%.2f" % v if abs(v) >= 0.1 else "%.3f" % v

        def spread(s):
            return "" if s is None else "%s %s" % (s[0], f(s[1]))

        hdr = ["#", "figure", "unit", "n", "boxd med", "boxd p99/max", "goal", "result", "base med", "base p99/max", "boxd/base"]
        lines = []
        for r in self.rows:
            goal = r["goal"] or ""
            result = "" if r["ok"] is None else ("ok" if r["ok"] else "MISS")
            ratio = ""
            if isinstance(r["med"], (int, float)) and isinstance(r["base"], (int, float)) and r["base"]:
                ratio = "%.2fx" % (r["med"] / r["base"])
            elif r["med"] is None and r["spread"] is not None and r["base_spread"] is not None and r["spread"][0] == r["base_spread"][0] \
                    and not isinstance(r["spread"][1], tuple) and r["base_spread"][1]:
                ratio = "%.2fx (%s)" % (r["spread"][1] / r["base_spread"][1], r["spread"][0])
            lines.append([r["num"], r["name"], r["unit"], str(r["n"]), f(r["med"]), spread(r["spread"]), goal, result,
                          f(r["base"]), spread(r["base_spread"]), ratio])
        widths = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
        right = {3, 4, 8}

        def fmt(cols):
            return "  ".join(c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(cols)).rstrip()

        print(fmt(hdr))
        print("  ".join("-" * w for w in widths))
        for x in lines:
            print(fmt(x))
        print("")
        ex = self.extra
        ib = ex["idle"]["boxd"]
        top = ", ".join("%s %.2f/s" % (k, v) for k, v in list(ib["per_thread"].items())[:5])
        iq = ex["idle"]["baseline"]
        topq = ", ".join("%s %.2f/s" % (k, v) for k, v in list(iq["per_thread"].items())[:5])
        print("idle wake-ups by thread (%d s): boxd: %s; baseline: %s" % (a.idle, top, topq))
        ik = ex["idle"]["boxd-kled"]
        print("idle wake-ups by thread, the LED an LED class device: %s"
              % (", ".join("%s %.2f/s" % (k, v) for k, v in list(ik["per_thread"].items())[:5]) or "none"))
        print("idle sub-window rates /s: boxd %s; baseline %s" % (
            " ".join("%.2f" % x for x in ib["rate_parts"]), " ".join("%.2f" % x for x in iq["rate_parts"])))
        print("2b single commits (ms): %s" % " ".join("%.1f" % x for x in ex["window"]))
        print_voice(self, ex)
        print("press phases: %d presses each, down 40 ms / up / 50 ms gap, 20 warm-up presses first; %s took %.0f s, baseline %.0f s"
              % (a.presses, "boxd", ex["press"]["boxd"][1], ex["press"]["baseline"][1]))
        print("measuring time: %.0f s" % elapsed)


def print_voice(self, ex):
    """Figure 9: what the voice costs, boxd against the same boxd with [voice] enabled = false,
    both started in the same rounds (RSS, READY) and idle side by side (wake-ups)."""
    MB = 1024 / 1e6
    on, off, say = ex["cold"]["boxd"], ex["cold"]["boxd-novoice"], ex["cold"]["say"]
    ion, ioff = ex["idle"]["boxd"], ex["idle"]["boxd-novoice"]

    def pair(name, unit, a, b):
        ratio = "%.2fx" % (a / b) if b else "-"
        print("  %-44s %8.2f %8.2f  %-6s  %+.2f %s" % (name, a, b, ratio, a - b, unit))
    print("")
    print("9  the voice: boxd as measured above (voice on) against the same boxd and config with [voice] enabled = false")
    print("  %-44s %8s %8s  %-6s  %s" % ("figure (medians)", "on", "off", "on/off", "on - off"))
    pair("RSS after start (MB)", "MB", median(on["rss"]) * MB, median(off["rss"]) * MB)
    pair("  PSS (MB)", "MB", median(on["pss"]) * MB, median(off["pss"]) * MB)
    pair("  USS (MB)", "MB", median(on["uss"]) * MB, median(off["uss"]) * MB)
    pair("cold start to READY=1 (ms)", "ms", median(on["ready"]), median(off["ready"]))
    pair("idle wake-ups, %d s (/s)" % self.args.idle, "/s", ion["rate_total"], ioff["rate_total"])
    pair("idle wake-ups, sub-window median (/s)", "/s", median(ion["rate_parts"]), median(ioff["rate_parts"]))
    print("  idle threads (max): on %d, off %d; idle CPU: on %.2f s, off %.2f s"
          % (ion["threads_max"], ioff["threads_max"], ion["cpu_s"], ioff["cpu_s"]))
    syn, trip = say["synthesis"], say["round_trip"]
    print("  first spoken status of a fresh boxd (say status, %d processes): synthesis med %.0f ms, max %.0f ms; "
          "request -> reply (WAV sink) med %.0f ms; RSS after it med %.2f MB"
          % (len(syn), median(syn), max(syn), median(trip), median(say["rss_after"]) * MB))
    print("  goal: hold -> first spoken sample <= 300 ms. The hold's status chirp plays while the sentence is made;"
          " the player starts on espeak-ng's first chunks, so the sentence waits for the chirp and its first chunk,"
          " plus the sound card's buffer: measured on a real card by the virtual box's scenario 10")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--boxd", required=True)
    ap.add_argument("--boxctl", required=True)
    ap.add_argument("--nightlogbench", required=True)
    ap.add_argument("--python", required=True, help="the venv's python (gpiozero installed)")
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--config", default="", help="boxd --config (bench/run: the packaged conffile)")
    ap.add_argument("--build-kind", default="release", help="what the binaries are, for the table's title")
    ap.add_argument("--build-seconds", default="")
    ap.add_argument("--swift-version", default="")
    ap.add_argument("--baseline-versions", default="")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--presses", type=int, default=1000)
    ap.add_argument("--timers", type=int, default=20)
    ap.add_argument("--idle", type=int, default=60)
    ap.add_argument("--status-calls", type=int, default=50)
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    bench = Bench(args)
    try:
        elapsed = bench.run()
    finally:
        bench.cleanup()
    bench.print_table(elapsed)


if __name__ == "__main__":
    main()
