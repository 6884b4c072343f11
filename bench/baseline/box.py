#!/usr/bin/env python3
"""The baseline for bench/run: the same minimal bedside job, written the way a hobbyist
would on gpiozero (MockFactory pins, since the bench has no GPIO).

- A Button (active low, pull-up) with single, double and hold: gpiozero gives
  when_pressed / when_released / when_held; single vs double is decided with a
  threading.Timer of the double gap after each release, as hobbyist scripts do.
- An LED that acknowledges each press: led.on() in when_pressed, led.off() at release.
- The first single press is "Dose 1" (appended to a text log) and starts a
  threading.Timer that rings when the window opens.
- "Ringing" appends one cycle of the main alarm (four 130 ms A5 beeps, 16 kHz, like boxd's
  standard alarm) to a WAV file, as boxd's WAV sink does. The samples are rendered once at
  start (as a script would load a WAV file), so ringing costs only the write.
- READY=1 goes to $NOTIFY_SOCKET once everything is set up.

A control socket speaks a subset of boxd's protocol (newline-delimited JSON), so the bench
drives both the same way: bench.inject (drives the mock pin), bench.metrics, test.sound, status.
Press -> LED is timed like boxd does it: the edge is stamped (time.monotonic_ns, i.e.
CLOCK_MONOTONIC) just before the pin is driven, the LED after led.on() returns.
"""
import argparse
import json
import math
import os
import socket
import socketserver
import struct
import sys
import threading
import time
import wave

from gpiozero import LED, Button, Device
from gpiozero.pins.mock import MockFactory

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "..", "..", "constants.json")) as f:
    CONSTANTS = json.load(f)
DOUBLE_GAP = CONSTANTS["gestures"]["double_gap_ms"] / 1000
HOLD_TIME = CONSTANTS["gestures"]["hold_ms"] / 1000
WINDOW_OPEN = CONSTANTS["window"]["open_min"] * 60
RATE = 16000


def alarm_cycle():
    """One cycle of the standard main alarm: 4 x 130 ms beeps at A5, 90 ms gaps, 410 ms rest."""
    out = []
    attack, release = int(0.005 * RATE), int(0.015 * RATE)
    for i in range(4):
        if i:
            out.extend([0] * int(0.090 * RATE))
        n = int(0.130 * RATE)
        for k in range(n):
            env = 1.0
            if k < attack:
                env = 0.5 - 0.5 * math.cos(math.pi * k / attack)
            elif k >= n - release:
                env = 0.5 - 0.5 * math.cos(math.pi * (n - k) / release)
            out.append(int(32767 * 0.7 * env * math.sin(2 * math.pi * 880.0 * k / RATE)))
    out.extend([0] * int(0.410 * RATE))
    return struct.pack("<%dh" % len(out), *out)


class Box:
    def __init__(self, state_dir):
        os.makedirs(state_dir, exist_ok=True)
        Device.pin_factory = MockFactory()
        self.button = Button(17, pull_up=True, hold_time=HOLD_TIME)
        self.led = LED(27)
        self.pin = self.button.pin
        self.lock = threading.Lock()
        self.log = open(os.path.join(state_dir, "doses.log"), "a")
        self.wav = wave.open(os.path.join(state_dir, "sounds.wav"), "wb")
        self.wav.setnchannels(1)
        self.wav.setsampwidth(2)
        self.wav.setframerate(RATE)
        self.wav_lock = threading.Lock()
        self.alarm = alarm_cycle()
        self.dose1 = None
        self.ring_timer = None
        self.click_timer = None
        self.clicks = 0
        self.held = False
        self.edge_ns = 0
        self.release_ns = 0
        self.press_to_led = []
        self.single_commit = []
        self.button.when_pressed = self.pressed
        self.button.when_released = self.released
        self.button.when_held = self.on_held

    # -- the button --------------------------------------------------------------
    def pressed(self):
        self.led.on()
        self.press_to_led.append(time.monotonic_ns() - self.edge_ns)

    def released(self):
        self.led.off()
        with self.lock:
            if self.held:
                self.held = False
                return
            self.clicks += 1
            if self.clicks == 2:
                self.click_timer.cancel()
                self.clicks = 0
                self.double()
                return
            released_at = self.release_ns
            self.click_timer = threading.Timer(DOUBLE_GAP, self.single_timeout, args=(released_at,))
            self.click_timer.daemon = True
            self.click_timer.start()

    def single_timeout(self, released_at):
        with self.lock:
            if self.clicks != 1:
                return
            self.clicks = 0
        self.single_commit.append(time.monotonic_ns() - released_at)
        self.single()

    def on_held(self):
        with self.lock:
            self.held = True
            self.clicks = 0
        self.log.write("%f hold\n" % time.time())
        self.log.flush()

    # -- the night ---------------------------------------------------------------
    def single(self):
        if self.dose1 is None:
            self.dose1 = time.time()
            self.log.write("%f dose1\n" % self.dose1)
            self.ring_timer = threading.Timer(WINDOW_OPEN, self.ring)
            self.ring_timer.daemon = True
            self.ring_timer.start()
        else:
            self.log.write("%f single (too early)\n" % time.time())
        self.log.flush()

    def double(self):
        self.log.write("%f double (snooze)\n" % time.time())
        self.log.flush()

    def ring(self):
        with self.wav_lock:
            self.wav.writeframes(self.alarm)

    # -- control -----------------------------------------------------------------
    def inject(self, down):
        if down:
            self.edge_ns = time.monotonic_ns()
            self.pin.drive_low()
        else:
            self.release_ns = time.monotonic_ns()
            self.pin.drive_high()

    def timed_ring(self, ms):
        deadline = time.monotonic_ns() + ms * 1_000_000
        done = threading.Event()
        result = {}

        def fire():
            self.ring()
            result["error"] = time.monotonic_ns() - deadline
            done.set()

        t = threading.Timer(ms / 1000, fire)
        t.daemon = True
        t.start()
        done.wait()
        return result["error"]

    def handle(self, req):
        cmd = req.get("cmd")
        if cmd == "bench.inject":
            self.inject(req.get("pressed") is True)
            return {"ok": True, "message": "ok"}
        if cmd == "bench.metrics":
            with self.lock:
                m = {"press_to_led_ms": [x / 1e6 for x in self.press_to_led],
                     "single_commit_ms": [x / 1e6 for x in self.single_commit]}
                self.press_to_led, self.single_commit = [], []
            return {"ok": True, "message": "ok", "metrics": m}
        if cmd == "test.sound" and req.get("ms"):
            err = self.timed_ring(int(req["ms"]))
            return {"ok": True, "message": "Played main_alarm; onset error %+.1f ms" % (err / 1e6)}
        if cmd == "status":
            return {"ok": True, "message": "ok", "status": {"dose1": self.dose1, "led": bool(self.led.value)}}
        return {"ok": False, "message": "unknown command %s" % cmd}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--state-dir", required=True)
    ap.add_argument("--socket", required=True)
    args = ap.parse_args()

    box = Box(args.state_dir)

    class Handler(socketserver.StreamRequestHandler):
        def handle(self):
            for line in self.rfile:
                reply = box.handle(json.loads(line))
                self.wfile.write((json.dumps(reply) + "\n").encode())
                self.wfile.flush()

    class Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
        daemon_threads = True
        request_queue_size = 16  # listen() backlog, as boxd's

    if os.path.exists(args.socket):
        os.unlink(args.socket)
    server = Server(args.socket, Handler)

    notify = os.environ.get("NOTIFY_SOCKET")
    if notify:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.sendto(b"READY=1", "\0" + notify[1:] if notify.startswith("@") else notify)
        s.close()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
