"""The caregiver link measured: boxd (simulated buttons, real clock) -> boxd-mqtt -> mosquitto ->
mosquitto_sub, against mosquitto_pub -> mosquitto -> mosquitto_sub in the same run.

Latency is from the moment the driver sends the command on boxd's control socket to the moment
the subscriber prints the message (mosquitto_sub's %U, the same wall clock): it holds boxd's
commit, the watch, the publish, the broker and the subscriber. The baseline is the broker alone:
a line written to `mosquitto_pub -l` to its arrival at the same subscriber.
Standard library only."""
import argparse, json, os, signal, socket, statistics, subprocess, sys, tempfile, threading, time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Subscriber:
    """mosquitto_sub printing "epoch topic payload" lines, read on a thread."""

    def __init__(self, port: int, topics: list[str], session: str | None = None):
        args = ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-u", "bench", "-P", "bench", "-q", "1", "-F", "%U %t %p"]
        if session:
            args += ["-c", "-i", session]
        for t in topics:
            args += ["-t", t]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        self.lines: list[tuple[float, str, str]] = []
        self.cv = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        for line in self.proc.stdout:
            at, topic, payload = line.rstrip("\n").split(" ", 2)
            with self.cv:
                self.lines.append((float(at), topic, payload))
                self.cv.notify_all()

    def wait(self, pred, timeout: float = 30):
        with self.cv:
            if not self.cv.wait_for(lambda: pred(self.lines), timeout):
                raise SystemExit(f"mqtt-link: timed out waiting; last lines: {self.lines[-3:]}")

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


def command(sock_path: str, frame: dict) -> dict:
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock_path)
        s.sendall((json.dumps({"v": 1, **frame}) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return json.loads(data)


def pct(values: list[float], p: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--outage", type=int, default=100)
    a = ap.parse_args()
    bin_dir = Path(a.bin).resolve()
    work = Path(tempfile.mkdtemp(prefix="mqtt-link-"))
    port = free_port()
    subprocess.run(["mosquitto_passwd", "-b", "-c", str(work / "passwd"), "bench", "bench"], check=True)
    conf = work / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous false\npassword_file {work / 'passwd'}\n"
                    f"persistence true\npersistence_location {work}/\n" + ("user root\n" if os.getuid() == 0 else ""))
    procs: list[subprocess.Popen] = []

    def broker() -> subprocess.Popen:
        p = subprocess.Popen(["mosquitto", "-c", str(conf)], stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                return p
            except OSError:
                time.sleep(0.05)
        raise SystemExit("mqtt-link: mosquitto did not start")

    try:
        b = broker()
        (work / "pw").write_text("bench\n")
        (work / "boxd.toml").write_text(f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\nusername = "bench"\n'
                                        f'password_file = "{work / "pw"}"\nbox_id = "bench"\nkeepalive_seconds = 5\n')
        sock = str(work / "control.sock")
        boxd = subprocess.Popen([bin_dir / "boxd", "--hardware", "sim", "--clock", "real", "--config", work / "boxd.toml",
                                 "--state-dir", work / "state", "--socket", sock], stderr=subprocess.DEVNULL)
        procs.append(boxd)
        for _ in range(200):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        sub = Subscriber(port, ["dosetap/bench/event", "bench/raw"], session="bench-sub")
        bridge = subprocess.Popen([bin_dir / "boxd-mqtt", "--config", work / "boxd.toml", "--socket", sock,
                                   "--state-dir", work / "bridge"], stderr=subprocess.DEVNULL)
        procs.append(bridge)
        for _ in range(200):
            if (command(sock, {"cmd": "status"}).get("status", {}).get("caregiver_link") or {}).get("state") == "up":
                break
            time.sleep(0.05)

        # 1. Latency: take and undo alternate (Dose 1, its undo, ...): one feed entry each.
        lat: list[float] = []
        replies: list[float] = []
        for i in range(a.events):
            n = len(sub.lines)
            t0 = time.time()
            reply = command(sock, {"cmd": "take", "confirm": True} if i % 2 == 0 else {"cmd": "undo"})
            replies.append((time.time() - t0) * 1000)
            if not reply.get("ok"):
                raise SystemExit(f"mqtt-link: boxd said {reply.get('message')}")
            sub.wait(lambda ls: any(t == "dosetap/bench/event" for _, t, _ in ls[n:]))
            lat.append((next(at for at, t, _ in sub.lines[n:] if t == "dosetap/bench/event") - t0) * 1000)

        # The baseline: the broker alone, the same subscriber.
        pub = subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-u", "bench", "-P", "bench", "-q", "1",
                                "-t", "bench/raw", "-l"], stdin=subprocess.PIPE, text=True)
        time.sleep(0.3)  # mosquitto_pub -l connects before it reads stdin
        base: list[float] = []
        for i in range(a.events):
            n = len(sub.lines)
            t0 = time.time()
            pub.stdin.write(f"{i}\n")
            pub.stdin.flush()
            sub.wait(lambda ls: any(t == "bench/raw" for _, t, _ in ls[n:]))
            base.append((next(at for at, t, _ in sub.lines[n:] if t == "bench/raw") - t0) * 1000)
        pub.stdin.close()
        pub.wait()

        # 2. An outage: the broker stops, events happen, the broker comes back.
        before = len(sub.lines)
        b.send_signal(signal.SIGTERM)
        b.wait()
        for i in range(a.outage):
            command(sock, {"cmd": "take", "confirm": True} if (a.events + i) % 2 == 0 else {"cmd": "undo"})
        queued = (command(sock, {"cmd": "status"})["status"].get("caregiver_link") or {}).get("queued")
        t_back = time.time()
        b = broker()
        expect = queued if isinstance(queued, int) and queued > 0 else a.outage
        sub.wait(lambda ls: sum(1 for _, t, _ in ls[before:] if t == "dosetap/bench/event") >= expect, 60)
        replayed = [json.loads(p)["id"] for _, t, p in sub.lines[before:] if t == "dosetap/bench/event"]
        drain = (max(at for at, t, _ in sub.lines[before:] if t == "dosetap/bench/event") - t_back) * 1000
        ids = [json.loads(p)["id"] for _, t, p in sub.lines if t == "dosetap/bench/event"]
        dups = len(ids) - len(set(ids))
        in_order = ids == sorted(ids)
        rss = hwm = "?"
        for line in Path(f"/proc/{bridge.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = line.split()[1]
            if line.startswith("VmHWM:"):
                hwm = line.split()[1]

        bm, bp = statistics.median(lat), pct(lat, 99)
        rm, rp = statistics.median(base), pct(base, 99)
        print(f"{'figure':44} {'n':>5} {'median':>9} {'p99':>9} {'max':>9}")
        print(f"{'event -> subscriber via boxd-mqtt (ms)':44} {len(lat):5} {bm:9.2f} {bp:9.2f} {max(lat):9.2f}")
        print(f"{'baseline: mosquitto_pub -> subscriber (ms)':44} {len(base):5} {rm:9.2f} {rp:9.2f} {max(base):9.2f}")
        print(f"{'ratio bridge / baseline':44} {'':5} {bm / rm:9.2f} {bp / rp:9.2f}")
        cm = statistics.median(replies)
        print(f"{'reply of boxd to the same command (ms)':44} {len(replies):5} {cm:9.2f} {pct(replies, 99):9.2f} {max(replies):9.2f}")
        print(f"  (boxd tells watchers at the commit, then replies: event minus reply, medians: {bm - cm:+.2f} ms)")
        print(f"outage: {a.outage} commands while the broker was down (status said {queued} events queued); "
              f"{len(replayed)} delivered after it came back, in {drain:.0f} ms; ids in order: {in_order}; "
              f"duplicates by id over the whole run: {dups}")
        print(f"boxd-mqtt RSS {int(rss) / 1024:.1f} MB (peak {int(hwm) / 1024:.1f} MB)")
        sub.stop()
        b.terminate()
        return 0 if dups == 0 and in_order and len(replayed) == expect else 1
    finally:
        for p in procs:
            p.kill()
        subprocess.run(["pkill", "-f", str(conf)], check=False)


if __name__ == "__main__":
    sys.exit(main())
