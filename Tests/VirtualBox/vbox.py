#!/usr/bin/env python3
"""The virtual bedside box: boxd on a real Debian kernel, systemd and udev under qemu.

Entry point: scripts/vbox-test (installs the host packages, then runs this file).
Everything lives in Tests/VirtualBox; the cache is .build-vbox/ (git-ignored).
See Tests/VirtualBox/README.md for what each scenario proves.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import select
import shlex
import shutil
import socket
import subprocess
import threading
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# The dose window opens this long after Dose 1: read from constants.json, never written here.
CONSTANTS = json.loads((REPO / "constants.json").read_text())
WINDOW_OPEN_S = CONSTANTS["window"]["open_min"] * 60
# A press held this long is treated as released (a lost release edge), and the button is a fault.
STUCK_GUARD_S = CONSTANTS["gestures"]["stuck_guard_s"]
# A press still held this long is a hold, recognised while the button is down.
HOLD_S = CONSTANTS["gestures"]["hold_ms"] / 1000
DEBOUNCE_MS = CONSTANTS["gestures"]["debounce_ms"]
CONFIRM_HOLD_S = CONSTANTS["gestures"]["confirm_hold_ms"] / 1000
# Held this long in the window, the dose button skips Dose 2 (#32).
SKIP_HOLD_S = CONSTANTS["gestures"]["skip_hold_ms"] / 1000
CONFIRMATION_WINDOW_S = CONSTANTS["gestures"]["confirmation_window_s"]
UNDO_S = CONSTANTS["undo"]["default_s"]
CACHE = Path(os.environ.get("VBOX_CACHE", REPO / ".build-vbox"))
PACKAGE_OUT = REPO / ".build-package" / "out"
RUN = CACHE / "run"
T_START = time.monotonic()
VERBOSE = False
# What qemu runs under (--qemu-priority): the guest's clock is the host's, so a guest that
# waits for a host core sees that wait as boxd's latency. With work beside the rig (CI runs
# the builds beside the guests), the emulator is given the cores first.
QEMU_PRIORITIES = {
    "normal": [],
    # CPU: ahead of every default-nice process; disk: first in the best-effort class.
    "high": ["nice", "-n", "-19", "ionice", "-c2", "-n0"],
    # CPU: a real-time round-robin thread preempts any normal one at once (the kernel's RT
    # throttle still leaves the host 5%); disk: the real-time class.
    "realtime": ["chrt", "--rr", "1", "ionice", "-c1", "-n4"],
}
QEMU_PREFIX: list[str] = []

# Modules the initrd loads (with their dependencies) to mount the root filesystem.
INITRD_MODULES = ["virtio_blk", "crc32c_generic", "ext4"]
# Modules the guest gets (with their dependencies); gpio-sim is built here from source.
GUEST_MODULES = INITRD_MODULES + ["virtio_net", "snd-aloop", "configfs", "loop", "ledtrig-pattern"]


def log(msg: str) -> None:
    print(f"[vbox {time.monotonic() - T_START:7.1f}s] {msg}", flush=True)


def debug(msg: str) -> None:
    if VERBOSE:
        log(msg)


def sh(cmd, check=True, capture=False, cwd=None, env=None, timeout=None, input=None) -> subprocess.CompletedProcess:
    if isinstance(cmd, str):
        args = ["bash", "-o", "pipefail", "-c", cmd]
    else:
        args = [str(c) for c in cmd]
    debug("$ " + (cmd if isinstance(cmd, str) else shlex.join(args)))
    return subprocess.run(args, check=check, cwd=cwd, env=env, timeout=timeout, text=True, input=input,
                          stdout=subprocess.PIPE if capture else None, stderr=subprocess.STDOUT if capture else None)


def read_env(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            k, v = line.split("=", 1)
            out[k.strip()] = v.strip()
    return out


VERSIONS = read_env(HERE / "versions.env")
# The guest's architecture (Debian's name; also its kernel flavour): this machine's, amd64,
# unless --arch names another.
HOST_ARCH = "amd64"
ARCH = HOST_ARCH
KVER = VERSIONS["KERNEL_ABI"] + "-" + ARCH
# The guest's Debian release: versions.env's (bookworm) unless --suite names another, whose
# pinned inputs are versions-<suite>.env and whose cache is a directory of its own.
DEFAULT_SUITE = VERSIONS["SUITE"]

# What each architecture's guest runs on. `console`: the first serial port (kernel messages);
# `results`: the port the guest reports on (vbox-helper say), a socket on the host. On amd64's
# pc machine both are 16550 UARTs (ttyS0, ttyS1). arm64's virt machine has one PL011 UART
# (ttyAMA0; qemu 7.2 gives a second only to the secure world), so the reports go to a virtio
# console (hvc0) instead: the guest reads its name from the kernel command line word
# vbox.results= (vbox-helper), and the amd64 guests, without the word, keep ttyS1.
MACHINES = {
    # kernel: words for the guest kernel's command line. tsc=reliable: the emulated TSC follows
    # the host's clock, but a loaded host makes the clocksource watchdog call it unstable; the
    # switch away from it rewrites sched_clock's code while the other vCPU runs it, and under
    # TCG that is an int3 oops and a panic while booting (two boots in a row in one CI run).
    "amd64": {"qemu": ["qemu-system-x86_64", "-accel", "tcg", "-M", "pc", "-cpu", "qemu64"],
              "console": "ttyS0", "results": "ttyS1", "boot_s": 120, "restart_s": 25, "kernel": "tsc=reliable"},
    # -cpu cortex-a72: the Raspberry Pi 4's core (ARMv8.0). Faster under TCG than -cpu max,
    # whose pointer authentication and BTI (trixie's arm64 kernel and userland use both) are
    # emulated instruction by instruction; on the A72 they are NOPs. Boot to READY at a host
    # load of 2.3-2.5: 53 s, against 65 s with max,pauth-impdef=on. The kernel's entropy pool is ready
    # at once all the same (qemu's virt machine passes an rng-seed in the device tree).
    # boot_s: how long a boot may take to READY (amd64: 9-40 s). restart_s: how long `vbox seed`
    # (boxd stopped, a night written by a seeding boxd, boxd started to READY) may take; on arm64
    # it took 40 s (daemon-reload 6 s, the seeding boxd 16 s, the start 12 s), past amd64's 25.
    "arm64": {"qemu": ["qemu-system-aarch64", "-accel", "tcg", "-M", "virt", "-cpu", "cortex-a72"],
              "console": "ttyAMA0", "results": "hvc0", "boot_s": 300, "restart_s": 90, "kernel": ""},
}


def select_suite(suite: str, arch: str = HOST_ARCH) -> None:
    """--suite SUITE: versions-SUITE.env instead of versions.env, the cache and the run's files in
    .build-vbox/SUITE/ (so neither suite's cache prunes the other's). The default suite keeps
    versions.env and .build-vbox/ as they were. --arch ARCH (another than this machine's) also
    reads versions-SUITE-ARCH.env over it (the same kernel and packages, what differs by
    architecture) and keeps its cache in .build-vbox/SUITE-ARCH/."""
    global VERSIONS, KVER, CACHE, RUN, ARCH
    if arch not in MACHINES:
        raise SystemExit(f"vbox: --arch {arch}: known are {', '.join(MACHINES)}")
    if suite == DEFAULT_SUITE and arch == HOST_ARCH:
        return
    path = HERE / ("versions.env" if suite == DEFAULT_SUITE else f"versions-{suite}.env")
    if not path.exists():
        raise SystemExit(f"vbox: --suite {suite}: no {path.relative_to(REPO)}")
    VERSIONS = read_env(path)
    if VERSIONS.get("SUITE") != suite:
        raise SystemExit(f"vbox: {path.name} says SUITE={VERSIONS.get('SUITE')}, not {suite}")
    name = suite
    if arch != HOST_ARCH:
        path = HERE / f"versions-{suite}-{arch}.env"
        if not path.exists():
            raise SystemExit(f"vbox: --suite {suite} --arch {arch}: no {path.relative_to(REPO)}")
        VERSIONS.update(read_env(path))
        if VERSIONS.get("ARCH") != arch:
            raise SystemExit(f"vbox: {path.name} says ARCH={VERSIONS.get('ARCH')}, not {arch}")
        name = f"{suite}-{arch}"
    ARCH = arch
    KVER = VERSIONS["KERNEL_ABI"] + "-" + ARCH
    CACHE = CACHE / name
    RUN = CACHE / "run"


def suite_sources() -> list[str]:
    """The guest suite's apt sources (one-line format), for a suite other than this machine's:
    this machine's debian.sources (its archive and security mirrors) with the suite names
    changed (bookworm-security -> trixie-security), main only. Nothing of /etc/apt is changed."""
    suite, lines = VERSIONS["SUITE"], []
    conf = Path("/etc/apt/sources.list.d/debian.sources")
    text = conf.read_text() if conf.exists() else ""
    for stanza in re.split(r"\n\s*\n", text):
        f = {}
        for line in stanza.splitlines():
            if ":" in line and not line.lstrip().startswith("#"):
                k, v = line.split(":", 1)
                f[k.strip().lower()] = v.strip()
        if "deb" not in f.get("types", "").split() or "uris" not in f:
            continue
        suites = [s.replace(DEFAULT_SUITE, suite) for s in f.get("suites", "").split() if DEFAULT_SUITE in s]
        key = f.get("signed-by", "/usr/share/keyrings/debian-archive-keyring.gpg")
        for uri in f["uris"].split():
            for s in suites:
                lines.append(f"deb [signed-by={key}] {uri} {s} main")
    return lines or [f"deb http://deb.debian.org/debian {suite} main",
                     f"deb http://deb.debian.org/debian {suite}-updates main",
                     f"deb http://deb.debian.org/debian-security {suite}-security main"]


def apt_options() -> list[str]:
    """apt-get options that read the guest suite's packages: none for the default suite (this
    machine's sources, as before); otherwise lists and a package cache of the rig's own in
    CACHE/apt, updated here. For another architecture those lists are of that architecture
    only, so the kernel's and busybox's names need no :arch."""
    if VERSIONS["SUITE"] == DEFAULT_SUITE and ARCH == HOST_ARCH:
        return []
    d = CACHE / "apt"
    (d / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (d / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    (d / "sources.list").write_text("\n".join(suite_sources()) + "\n")
    opts = ["-o", f"Dir::Etc::SourceList={d / 'sources.list'}", "-o", "Dir::Etc::SourceParts=/dev/null",
            "-o", f"Dir::State::Lists={d / 'lists'}", "-o", f"Dir::Cache={d / 'cache'}",
            "-o", "APT::Sandbox::User=root"]
    if ARCH != HOST_ARCH:
        opts += ["-o", f"APT::Architecture={ARCH}", "-o", f"APT::Architectures::={ARCH}"]
    sh(["apt-get", "-q", "-q"] + opts + ["update"])
    return opts


def tree_hash(*paths: Path, extra: str = "") -> str:
    """A short hash of files (names, modes and contents) and an extra string."""
    h = hashlib.sha256(extra.encode())
    for root in paths:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file() or p.is_symlink())
        for p in files:
            h.update(str(p.relative_to(HERE) if p.is_relative_to(HERE) else p).encode())
            h.update(oct(p.lstat().st_mode).encode())
            h.update(os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
    return h.hexdigest()[:12]


def prune(pattern: str, keep: Path) -> None:
    for p in CACHE.glob(pattern):
        if p != keep:
            debug(f"prune {p}")
            shutil.rmtree(p) if p.is_dir() else p.unlink()


# ----------------------------------------------------------------------------------------
# Cache: kernel, gpio-sim module, initrd, rootfs, clean image


# Runs in bash with scripts/lib/suite-root.bash sourced: SUITE ROOT LOG ARCH SRC CMD... makes
# the root of SUITE for ARCH if it is missing, then runs CMD in it with SRC at /src. A
# suite-root.bash that does not know other architectures yet (no suite_root_foreign) would
# take a foreign root for a stale one and make it again: then the root must exist already.
IN_SUITE_ROOT = r"""
. scripts/lib/suite-root.bash
suite=$1 root=$2 log=$3 arch=$4
shift 4
if [ "$arch" = "$(dpkg --print-architecture)" ]; then
  suite_root_make "$suite" "$root" "$log"
elif declare -F suite_root_foreign >/dev/null; then
  suite_root_make "$suite" "$root" "$log" "$arch"
elif [ ! -f "$root/.suite-root" ]; then
  echo "vbox: no $arch root of $suite in $root (make it with suite_root_make $suite $root LOG $arch)" >&2
  exit 1
fi
suite_root_run "$root" "$@"
"""


def in_suite_root(src: Path, *cmd) -> None:
    """Runs cmd in the root of the guest's suite and architecture (scripts/lib/suite-root.bash,
    .build-roots/SUITE-ARCH, the one scripts/package builds in) with `src` as its /src. A root of
    another architecture runs under qemu-user: it gets the package mirrors but not this
    machine's Swift toolchain, which is amd64's."""
    suite = VERSIONS["SUITE"]
    root = REPO / ".build-roots" / f"{suite}-{ARCH}"
    env = dict(os.environ)
    if ARCH != HOST_ARCH:
        env["SUITE_ROOT_BINDS"] = "/opt/swift-packages:/opt/swift-packages"
    sh(["bash", "-euc", IN_SUITE_ROOT, "vbox", suite, root, src / "root.log", ARCH, src] + list(cmd), cwd=REPO, env=env)


def build_kernel() -> Path:
    """Kernel, the guest's module subset (with gpio-sim and uleds built out of tree) and the initrd."""
    key = tree_hash(HERE / "initrd", HERE / "helper" / "gpio-sim.sed",
                    extra=f"{VERSIONS['KERNEL_ABI']} {VERSIONS['KERNEL_PKG_VERSION']} {GUEST_MODULES} v2"
                    + (f" {VERSIONS['GPIO_SIM_BUILD']}" if "GPIO_SIM_BUILD" in VERSIONS else "")
                    + (f" {ARCH}" if ARCH != HOST_ARCH else ""))
    out = CACHE / f"kernel-{VERSIONS['KERNEL_ABI']}-{key}"
    if (out / "done").exists():
        return out
    t = time.monotonic()
    log(f"building kernel cache {out.name} (download, gpio-sim module, initrd)")
    prune("kernel-*", out)
    work = Path(tempfile.mkdtemp(prefix="vbox-kernel-", dir=CACHE))
    work.chmod(0o755)  # apt-get download drops to user _apt
    abi, pv = VERSIONS["KERNEL_ABI"], VERSIONS["KERNEL_PKG_VERSION"]
    pkgs = [f"linux-image-{abi}-{ARCH}={pv}", f"linux-headers-{abi}-{ARCH}={pv}", f"linux-headers-{abi}-common={pv}",
            f"linux-kbuild-{abi}={pv}", f"linux-source-6.12={pv}"]
    if ARCH != HOST_ARCH:
        pkgs.append("busybox-static")  # the initrd's shell, of the guest's architecture
    sh(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root"] + apt_options() + pkgs, cwd=work)
    x = work / "x"
    x.mkdir()
    for deb in work.glob("linux-*.deb"):
        if "linux-source" not in deb.name:
            sh(["dpkg-deb", "-x", deb, x])
    busybox = Path("/bin/busybox")
    if ARCH != HOST_ARCH:
        sh(["dpkg-deb", "-x", next(work.glob("busybox-static_*.deb")), work / "busybox"])
        busybox = next(p for p in [work / "busybox/usr/bin/busybox", work / "busybox/bin/busybox"] if p.exists())
    if (x / "usr/lib/modules").is_dir() and not (x / "lib/modules").exists():
        # Debian 13's kernel package ships /usr/lib/modules (merged /usr); depmod and modprobe
        # -d of this machine's kmod look in <base>/lib/modules.
        (x / "lib").mkdir(exist_ok=True)
        (x / "lib/modules").symlink_to("../usr/lib/modules")
    # gpio-sim and irq_sim from the source package (nothing else of the tree is needed).
    src = work / "src"
    src.mkdir()
    deb = next(work.glob("linux-source-6.12_*.deb"))
    sh(f"dpkg-deb --fsys-tarfile {shlex.quote(str(deb))} | tar -xO ./usr/src/linux-source-6.12.tar.xz"
       f" | tar -xJ -C {shlex.quote(str(src))} --strip-components=1"
       " linux-source-6.12/drivers/gpio/gpio-sim.c linux-source-6.12/kernel/irq/irq_sim.c"
       " linux-source-6.12/drivers/leds/uleds.c")
    mod = work / "mod"
    mod.mkdir()
    shutil.copy(src / "drivers/gpio/gpio-sim.c", mod / "gpio-sim-main.c")
    # irq_to_desc() is not exported to modules; generic_handle_irq() does the same here.
    irq = sh(["sed", "-f", HERE / "helper" / "gpio-sim.sed", src / "kernel/irq/irq_sim.c"], capture=True).stdout
    if "generic_handle_irq(irqnum)" not in irq:
        raise SystemExit("vbox: irq_sim.c did not take the gpio-sim.sed patch (kernel source changed?)")
    (mod / "irq_sim.c").write_text(irq)
    # uleds: an LED class device made from user space (vbox-helper uled), for the LED that the
    # kernel's pattern trigger plays (scenario 12); Debian's kernel leaves CONFIG_LEDS_USER off.
    shutil.copy(src / "drivers/leds/uleds.c", mod / "uleds.c")
    (mod / "Kbuild").write_text("obj-m := gpio-sim.o uleds.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n")
    headers = x / f"usr/src/linux-headers-{abi}-{ARCH}"
    mk = headers / "Makefile"
    if VERSIONS.get("GPIO_SIM_BUILD") == "suite-root":
        # In a root of the guest's suite, with its compiler (the work directory is its /src).
        # For another architecture that root is the guest's architecture too (qemu-user): the
        # headers' kbuild tools (fixdep, modpost) are its binaries, and so is its strip.
        mk.write_text(mk.read_text().replace("include /usr/src/", "include /src/x/usr/src/"))
        in_suite_root(work, "make", "-s", "-C", "/src" / headers.relative_to(work),
                      f"M=/src/{mod.relative_to(work)}", "CONFIG_DEBUG_INFO_BTF_MODULES=", "modules")
        if ARCH != HOST_ARCH:
            for ko in ("gpio-sim.ko", "uleds.ko"):
                in_suite_root(work, "strip", "--strip-debug", f"/src/{mod.relative_to(work)}/{ko}")
    else:
        mk.write_text(mk.read_text().replace("include /usr/src/", f"include {x}/usr/src/"))
        sh(["make", "-s", "-C", headers, f"M={mod}", "CONFIG_DEBUG_INFO_BTF_MODULES=", "modules"])
    if ARCH == HOST_ARCH:
        sh(["strip", "--strip-debug", mod / "gpio-sim.ko", mod / "uleds.ko"])

    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(x / f"boot/vmlinuz-{KVER}", out / "vmlinuz")
    kmods = x / "lib/modules" / KVER
    extra = kmods / "extra"
    extra.mkdir()
    shutil.copy(mod / "gpio-sim.ko", extra / "gpio-sim.ko")
    shutil.copy(mod / "uleds.ko", extra / "uleds.ko")
    sh(["depmod", "-b", x, KVER])

    def closure(names):
        paths = []
        for n in names:
            lines = sh(["modprobe", "-d", x, "-S", KVER, "--show-depends", n], capture=True).stdout.splitlines()
            for line in lines:
                if line.startswith("insmod "):
                    p = line.split()[1]
                    if p not in paths:
                        paths.append(p)
        return paths

    # The guest's modules: the subset, then depmod again in the image tree.
    gm = out / "modules" / "usr/lib/modules" / KVER
    for p in closure(GUEST_MODULES + ["gpio-sim", "uleds"]):
        rel = Path(p).relative_to(kmods)
        (gm / rel.parent).mkdir(parents=True, exist_ok=True)
        shutil.copy(p, gm / rel)
    for f in ["modules.builtin", "modules.builtin.modinfo", "modules.order"]:
        shutil.copy(kmods / f, gm / f)
    sh(["depmod", "-b", out / "modules/usr", KVER])

    # The initrd: busybox, the root filesystem's modules (uncompressed), /init.
    ird = work / "initrd"
    for d in ["bin", "dev", "proc", "sys", "newroot", "lib/modules"]:
        (ird / d).mkdir(parents=True, exist_ok=True)
    shutil.copy(busybox, ird / "bin/busybox")
    order = []
    for p in closure(INITRD_MODULES):
        name = Path(p).name.removesuffix(".xz")
        if name.startswith("crc32c-intel"):
            continue  # needs SSE4.2, which -cpu qemu64 lacks; crc32c_generic serves
        if p.endswith(".xz"):
            sh(f"xz -dc {shlex.quote(p)} > {shlex.quote(str(ird / 'lib/modules' / name))}")
        else:
            shutil.copy(p, ird / "lib/modules" / name)
        order.append(name)
    (ird / "modules.order").write_text("\n".join(order) + "\n")
    shutil.copy(HERE / "initrd/init", ird / "init")
    os.chmod(ird / "init", 0o755)
    sh(f"cd {shlex.quote(str(ird))} && find . | cpio -o -H newc --quiet | gzip -1 > {shlex.quote(str(out / 'initrd.gz'))}")
    shutil.rmtree(work)
    (out / "done").write_text(f"{time.monotonic() - t:.1f}\n")
    log(f"kernel cache ready in {time.monotonic() - t:.0f} s")
    return out


def build_rootfs() -> Path:
    key = tree_hash(extra=f"{VERSIONS['SUITE']} {VERSIONS['GUEST_PACKAGES']} v1" + (f" {ARCH}" if ARCH != HOST_ARCH else ""))
    out = CACHE / f"rootfs-{key}.tar"
    if out.exists():
        return out
    t = time.monotonic()
    log(f"building the Debian root filesystem {out.name} (mmdebstrap)")
    prune("rootfs-*.tar", out)
    tmp = out.with_suffix(".tmp")
    # Another architecture's root is made under qemu-user (binfmt_misc, as for its build root).
    sh(["mmdebstrap", "--quiet", "--variant=minbase", f"--include={VERSIONS['GUEST_PACKAGES']}"]
       + ([f"--arch={ARCH}"] if ARCH != HOST_ARCH else []) + [
        "--aptopt=APT::Install-Recommends \"false\"",
        "--dpkgopt=path-exclude=/usr/share/man/*", "--dpkgopt=path-exclude=/usr/share/doc/*",
        "--dpkgopt=path-exclude=/usr/share/locale/*", "--dpkgopt=path-include=/usr/share/locale/locale.alias",
        "--format=tar", VERSIONS["SUITE"], tmp]
       + (suite_sources() if VERSIONS["SUITE"] != DEFAULT_SUITE else []))
    tmp.rename(out)
    log(f"root filesystem ready in {time.monotonic() - t:.0f} s")
    return out


def ssh_key() -> Path:
    key = CACHE / "ssh" / "id_ed25519"
    if not key.exists():
        key.parent.mkdir(parents=True, exist_ok=True)
        sh(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "vbox-test", "-f", key])
    return key


def build_helper(dest: Path) -> None:
    if ARCH != HOST_ARCH:
        # The guest's architecture: compiled in its suite's root under qemu-user (its gcc and
        # libasound2-dev), from a copy of helper/ that is the root's /src.
        work = Path(tempfile.mkdtemp(prefix="vbox-helper-", dir=CACHE))
        shutil.copytree(HERE / "helper", work / "helper")
        in_suite_root(work, "bash", "-euc", "cd /src/helper; "
                      "gcc -O2 -Wall -Wextra -o vbox-helper vbox-helper.c -lasound -lm; "
                      "gcc -O2 -Wall -shared -fPIC -o nosync.so nosync.c; "
                      "gcc -O2 -Wall -shared -fPIC -o slowsync.so slowsync.c -ldl")
        for f in ["vbox-helper", "nosync.so", "slowsync.so"]:
            shutil.copy(work / "helper" / f, dest / f)
        shutil.rmtree(work)
        return
    sh(["gcc", "-O2", "-Wall", "-Wextra", "-o", dest / "vbox-helper", HERE / "helper/vbox-helper.c", "-lasound", "-lm"])
    sh(["gcc", "-O2", "-Wall", "-shared", "-fPIC", "-o", dest / "nosync.so", HERE / "helper/nosync.c"])
    sh(["gcc", "-O2", "-Wall", "-shared", "-fPIC", "-o", dest / "slowsync.so", HERE / "helper/slowsync.c", "-ldl"])


def build_clean_image(kernel: Path, rootfs: Path) -> Path:
    key = tree_hash(HERE / "guest", HERE / "helper", extra=f"{kernel.name} {rootfs.name} {VERSIONS['IMAGE_SIZE']} "
                    f"{ssh_key().with_suffix('.pub').read_text()} v1")
    out = CACHE / f"clean-{key}.img"
    if out.exists():
        return out
    t = time.monotonic()
    log(f"building the clean image {out.name}")
    prune("clean-*.img", out)
    work = Path(tempfile.mkdtemp(prefix="vbox-image-", dir=CACHE))
    root = work / "root"
    root.mkdir()
    sh(["tar", "-x", "-f", rootfs, "-C", root, "--numeric-owner"])
    sh(["cp", "-a", f"{kernel}/modules/.", root])
    sh(["cp", "-a", f"{HERE}/guest/rootfs/.", root])
    sh(["chown", "-R", "root:root", root / "etc/systemd/system", root / "usr/local/lib/vbox"])
    build_helper(root / "usr/local/bin")
    (root / "usr/local/lib/vbox").mkdir(parents=True, exist_ok=True)
    for lib in ["nosync.so", "slowsync.so"]:
        shutil.move(root / "usr/local/bin" / lib, root / "usr/local/lib/vbox" / lib)
    env = dict(os.environ, VBOX_SSH_PUBKEY=str(ssh_key().with_suffix(".pub")), VBOX_RESULTS_TTY=MACHINES[ARCH]["results"])
    sh([HERE / "guest/image-setup.sh", root], env=env)
    tmp = out.with_suffix(".tmp")
    sh(["mkfs.ext4", "-q", "-F", "-L", "vbox-root", "-d", root, tmp, VERSIONS["IMAGE_SIZE"]])
    tmp.rename(out)
    shutil.rmtree(work)
    log(f"clean image ready in {time.monotonic() - t:.0f} s")
    return out


def ensure_debs(given: Path | None = None, need_next: bool = True) -> tuple[Path, Path | None]:
    """The Debian packages a user installs: debian/changelog's version and the next Debian
    revision of the same code (for the upgrade, scenario 7; None when it does not run). Reused
    from .build-package/out when scripts/package built them from this source (its .inputs
    stamp; CI's `scripts/package-test --upgrade` leaves both there), otherwise built with
    scripts/package. `given` (--deb PATH) is installed whatever its stamp says, and the log says
    how it stands. Another architecture's package (an hour under qemu-user) is never built here."""
    version = sh(["dpkg-parsechangelog", "-l", REPO / "debian/changelog", "-SVersion"], capture=True).stdout.strip()
    arch = ARCH
    upstream, rev = version.rsplit("-", 1)
    want = sh([REPO / "scripts/package", "--inputs-hash"], capture=True, cwd=REPO).stdout.strip()
    # Another suite's packages: `scripts/package --suite SUITE`, built in a root of that suite,
    # version <v>~debN (scripts/lib/suite-root.bash's suite_number).
    suite, tail, cmd = VERSIONS["SUITE"], "", [REPO / "scripts/package"]
    if suite != DEFAULT_SUITE:
        n = sh(["bash", "-euc", '. scripts/lib/suite-root.bash; suite_number "$1"', "vbox", suite],
               capture=True, cwd=REPO).stdout.strip()
        tail, cmd = f"~deb{n}", cmd + ["--suite", suite]
    if arch != HOST_ARCH:
        cmd += ["--arch", arch]
    debs: list[Path | None] = []
    for v in [version, f"{upstream}-{int(rev) + 1}"]:
        if debs and not need_next:
            debs.append(None)
            break
        deb = PACKAGE_OUT / f"dosetap-box_{v}{tail}_{arch}.deb"
        if given and not debs:
            deb = given.resolve()
        stamp = deb.with_suffix(".inputs")
        have = stamp.read_text().strip() if stamp.exists() else None
        if given and not debs:
            if not deb.exists():
                raise SystemExit(f"vbox: --deb {given}: no such file")
            if not deb.name.endswith(f"_{arch}.deb"):
                raise SystemExit(f"vbox: --deb {deb.name} is not a package for {arch}")
            log(f"installing {deb} as given (--deb): "
                + ("built from this source" if have == want else "has no .inputs stamp" if have is None
                   else f"BUILT FROM OTHER SOURCE (inputs {have}, this checkout {want})"))
        elif deb.exists() and have == want:
            log(f"reusing {deb.relative_to(REPO)} (built from this source, inputs {want})")
        else:
            why = "absent" if not deb.exists() else ("has no .inputs stamp" if have is None
                                                      else f"built from other source (inputs {have}, now {want})")
            if arch != HOST_ARCH:
                raise SystemExit(f"vbox: {deb.name} {why}: build it with "
                                 f"{shlex.join(str(c.relative_to(REPO)) if isinstance(c, Path) else c for c in cmd)}"
                                 + (f" (DOSETAP_DEB_VERSION={v})" if v != version else "")
                                 + " (about an hour) or name one with --deb PATH")
            extra = f"DOSETAP_DEB_VERSION={v} " if v != version else ""
            log(f"{deb.name} {why}: {extra}{shlex.join(str(c.relative_to(REPO)) if isinstance(c, Path) else c for c in cmd)}")
            t = time.monotonic()
            env = dict(os.environ, **({"DOSETAP_DEB_VERSION": v} if v != version else {}))
            r = sh(cmd, check=False, capture=True, cwd=REPO, env=env)
            if r.returncode != 0 or not deb.exists():
                print(r.stdout[-4000:])
                raise SystemExit(f"vbox: scripts/package ({v}) failed")
            log(f"built {deb.name} in {time.monotonic() - t:.0f} s")
        debs.append(deb)
    return debs[0], debs[1]


def build_payload(deb: Path, next_deb: Path | None) -> Path:
    """What a person installing the box has: the .deb (and, for the upgrade, the next one)
    and the README whose install steps are run.

    Attached to the guest as a raw read-only disk (/dev/vdb) holding a tar archive."""
    stage = RUN / "payload"
    if stage.exists():
        shutil.rmtree(stage)
    d = stage / "dosetap"
    (d / "next").mkdir(parents=True)
    shutil.copy(deb, d / deb.name)
    if next_deb:
        shutil.copy(next_deb, d / "next" / next_deb.name)
    shutil.copy(REPO / "README.md", d / "README.md")
    tar = RUN / "payload.tar"
    sh(["tar", "-c", "-f", tar, "-C", stage, "--owner=0", "--group=0", "dosetap"])
    shutil.rmtree(stage)
    return tar


# ----------------------------------------------------------------------------------------
# The guest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


LIVE: list["Guest"] = []
BOOT_PANICS: list[str] = []  # guests whose kernel panicked while booting (booted again)


class Guest:
    """One qemu process on the run image. Killing it is a power cut."""

    def __init__(self, kernel: Path, disk: Path, payload: Path | None, tag: str):
        self.kernel, self.disk, self.payload, self.tag = kernel, disk, payload, tag
        self.port = free_port()
        self.console = RUN / f"{tag}-console.log"
        self.results = RUN / f"{tag}-ttyS1.log"
        # ttyS1 arrives on a socket; a thread appends it to `results` and wakes wait_line.
        self.serial_cond = threading.Condition()
        self.serial_copy: threading.Thread | None = None
        self.proc: subprocess.Popen | None = None
        self.started = 0.0
        self.ready_at: float | None = None
        self.ctl = RUN / f"ssh-{tag}-%r"

    def start(self, cmdline: str = "") -> None:
        for f in [self.console, self.results]:
            if f.exists() and f.stat().st_size:  # keep the last boot's logs (power-cut cycles)
                f.replace(f.with_suffix(".prev.log"))
            f.write_text("")
        if self not in LIVE:
            LIVE.append(self)
        machine = MACHINES[ARCH]
        # The results port: a second UART where there is one (ttyS1), else a virtio console.
        results = (["-serial", "chardev:ttyS1"] if machine["results"] == "ttyS1" else
                   ["-device", "virtio-serial-pci,id=vser0", "-device", "virtconsole,bus=vser0.0,chardev=ttyS1"])
        words = "" if machine["results"] == "ttyS1" else f" vbox.results={machine['results']}"
        args = machine["qemu"] + ["-m", "1024", "-smp", "2",
                "-nodefaults", "-display", "none", "-no-reboot", "-monitor", "none",
                "-serial", f"file:{self.console}", "-chardev", f"socket,id=ttyS1,path={self.listen_serial()}",
                *results,
                "-drive", f"file={self.disk},if=virtio,format=raw,cache=none",
                "-netdev", f"user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:{self.port}-:22",
                "-device", "virtio-net-pci,netdev=n0,romfile=",
                "-kernel", self.kernel / "vmlinuz", "-initrd", self.kernel / "initrd.gz",
                "-append", f"console={machine['console']} root=/dev/vda rw quiet loglevel=4 systemd.show_status=0"
                f" {machine['kernel']}{words} {cmdline}".strip()]
        if self.payload:
            args[args.index("-netdev"):args.index("-netdev")] = [
                "-drive", f"file={self.payload},if=virtio,format=raw,readonly=on"]
        debug(shlex.join(str(a) for a in args))
        self.started = time.monotonic()
        self.ready_at = None
        self.proc = subprocess.Popen(QEMU_PREFIX + [str(a) for a in args], stdin=subprocess.DEVNULL,
                                     stdout=open(RUN / f"{self.tag}-qemu.log", "w"), stderr=subprocess.STDOUT)

    def listen_serial(self) -> Path:
        """A socket qemu connects to at start (before the guest runs, so nothing is lost); a
        thread copies what arrives into `results` and notifies `serial_cond`, also at the end."""
        path = RUN / f"{self.tag}-ttyS1.sock"
        path.unlink(missing_ok=True)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(path))
        server.listen(1)

        def copy() -> None:
            with server:
                conn, _ = server.accept()
            with conn, open(self.results, "ab") as out:
                while chunk := conn.recv(65536):
                    out.write(chunk)
                    out.flush()
                    with self.serial_cond:
                        self.serial_cond.notify_all()
            with self.serial_cond:
                self.serial_cond.notify_all()
        self.serial_copy = threading.Thread(target=copy, daemon=True)
        self.serial_copy.start()
        return path

    def drain_serial(self) -> None:
        """After qemu has exited: waits until everything it sent on ttyS1 is in `results` (the
        power-cut cycles count the acknowledgements in it right after the kill)."""
        if self.serial_copy:
            self.serial_copy.join(timeout=10)

    def lines(self) -> list[str]:
        try:
            return self.results.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []

    def wait_line(self, pattern: str, timeout: float, after: int = 0) -> re.Match | None:
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        with self.serial_cond:
            while True:
                for line in self.lines()[after:]:
                    m = rx.search(line)
                    if m:
                        return m
                left = end - time.monotonic()
                if left <= 0 or (self.proc and self.proc.poll() is not None):
                    return None
                # Woken by each chunk on ttyS1 and when qemu closes it; the timeout bounds a
                # guest that never writes.
                self.serial_cond.wait(left)

    def boot(self, cmdline: str = "", timeout: float | None = None) -> float:
        """start + wait_ready. A guest kernel that panics while booting under emulation (an
        int3 oops in sched_clock_cpu, before any of boxd ran: see MACHINES' kernel words) is the
        emulator's trouble, not the box's: it is booted again, up to twice, and each panic is
        counted and printed."""
        timeout = timeout or MACHINES[ARCH]["boot_s"]
        for attempt in range(3):
            self.start(cmdline)
            try:
                return self.wait_ready(timeout)
            except GuestError:
                if attempt == 2 or "Kernel panic" not in self.console.read_text(errors="replace"):
                    raise
                BOOT_PANICS.append(self.tag)
                oops = [l for l in self.console.read_text(errors="replace").splitlines() if "RIP: 0010" in l or "Workqueue" in l]
                log(f"guest {self.tag}: kernel panic while booting ({'; '.join(oops[:2]) or 'see the console'}); booting it again")
                self.kill()
        raise AssertionError("unreachable")

    def wait_ready(self, timeout: float | None = None) -> float:
        timeout = timeout or MACHINES[ARCH]["boot_s"]
        m = self.wait_line(r"VBOX READY uptime=([\d.]+)", timeout)
        if not m:
            tail = "\n".join(self.console.read_text(errors="replace").splitlines()[-30:])
            raise GuestError(f"guest {self.tag} did not reach multi-user in {timeout:.0f} s; console tail:\n{tail}")
        self.ready_at = time.monotonic()
        # vbox-ready.service runs after ssh.service, which is Type=notify: sshd listens.
        self.ssh("true", timeout=30)
        return self.ready_at - self.started

    def ssh_args(self, user: str = "root") -> list[str]:
        return ["ssh", "-i", str(ssh_key()), "-p", str(self.port), "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=10",
                "-o", "BatchMode=yes", "-o", "ControlMaster=auto", "-o", f"ControlPath={self.ctl}",
                "-o", "ControlPersist=120", f"{user}@127.0.0.1"]

    def ssh(self, command: str, user: str = "root", check: bool = True, timeout: float = 120,
            input: str | None = None) -> subprocess.CompletedProcess:
        debug(f"ssh {user}: {command}")
        r = subprocess.run(self.ssh_args(user) + [command], text=True, capture_output=True, timeout=timeout, input=input)
        if check and r.returncode != 0:
            raise GuestError(f"ssh {user}@guest `{command}` exited {r.returncode}:\n{r.stdout}{r.stderr}")
        return r

    def kill(self) -> None:
        """Power cut: SIGKILL to qemu. Whatever the guest had not written to the disk is gone."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.drain_serial()
        self.close_ssh()

    def close_ssh(self) -> None:
        for user in ["root", "sleeper"]:
            subprocess.run(["ssh", "-o", f"ControlPath={self.ctl}", "-O", "exit", f"{user}@127.0.0.1"],
                           capture_output=True)

    def poweroff(self, timeout: float = 60) -> None:
        if self.proc and self.proc.poll() is None:
            self.ssh("systemctl poweroff --no-block", check=False, timeout=20)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                log(f"guest {self.tag} did not power off in {timeout:.0f} s: killing it")
                self.proc.kill()
                self.proc.wait()
        self.drain_serial()
        self.close_ssh()


class GuestError(Exception):
    pass


def kill_all() -> None:
    for g in LIVE:
        g.kill()


def fresh_disk(clean: Path, name: str = "disk.img") -> Path:
    disk = RUN / name
    if disk.exists():
        disk.unlink()
    sh(["cp", "--sparse=always", clean, disk])
    return disk


# ----------------------------------------------------------------------------------------
# What the guest reports: tones from the loopback, LED line levels, button edges

NOTES = {"E3": 164.81, "E4": 329.63, "A4": 440.0, "C5": 523.25, "E5": 659.26, "G5": 783.99, "A5": 880.0,
         "C6": 1046.5, "D6": 1174.66, "F6": 1396.91}
LED_COLORS = {"000": "off", "100": "red", "010": "green", "001": "blue", "110": "yellow/amber", "111": "white",
              "011": "cyan?", "101": "magenta?"}


def note_name(hz: float) -> str:
    for name, f in NOTES.items():
        if abs(hz - f) / f < 0.02:
            return name
    return f"{hz:.0f}Hz"


def parse_kv(line: str) -> dict:
    out = {}
    for word in line.split():
        if "=" in word:
            k, v = word.split("=", 1)
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    return out


def parse_tones(text: str) -> list[dict]:
    tones = []
    for line in text.splitlines():
        if line.startswith("TONE "):
            t = parse_kv(line)
            t["note"] = note_name(t["hz"])
            tones.append(t)
    return tones


def parse_speech(text: str) -> list[dict]:
    """The capture's SPEECH lines: runs of sound the helper told from tones (irregular zero
    crossings). A sentence is several of them, split at the pauses between words."""
    return [parse_kv(line) for line in text.splitlines() if line.startswith("SPEECH ")]


def utterances(speech: list[dict], gap: float = 0.7) -> list[dict]:
    """SPEECH runs joined into sentences: runs less than `gap` s apart are one sentence (the
    helper's QUIET_MS is the same 0.7 s: its QUIET line marks a sentence's end)."""
    out: list[dict] = []
    for run in speech:
        if out and run["on"] - out[-1]["off"] < gap:
            last = out[-1]
            last["rms"] = max(last["rms"], run["rms"])
            last["peak"] = max(last["peak"], run["peak"])
            last["off"], last["runs"] = run["off"], last["runs"] + 1
        else:
            out.append({"on": run["on"], "off": run["off"], "rms": run["rms"], "peak": run["peak"], "runs": 1})
    for u in out:
        u["ms"] = (u["off"] - u["on"]) * 1000
    return out


def spoken_words(text: str) -> int:
    """How many words espeak-ng says for `text`, roughly: a clock time is three or four
    ("twelve forty seven A M"), a number one or two."""
    n = 0
    for word in re.findall(r"[\w:]+", text):
        n += 3 if ":" in word else 2 if word.isdigit() and len(word) > 1 else 1
    return n


def speech_line(after: float) -> Callable[[str], bool]:
    """For `follow` on a capture: true for a SPEECH line starting after `after`."""
    def done(line: str) -> bool:
        return line.startswith("SPEECH ") and isinstance(parse_kv(line).get("on"), float) and parse_kv(line)["on"] > after
    return done


def parse_led(text: str) -> list[tuple[float, str]]:
    return [(float(m.group(1)), m.group(2)) for m in re.finditer(r"LED t=([\d.]+) v=(\d+)", text)]


def parse_edges(text: str) -> list[tuple[float, str]]:
    return [(float(m.group(1)), m.group(2)) for m in re.finditer(r"EDGE t=([\d.]+) .* ([du])$", text, re.M)]


def boxd_journal(g: Guest, cursor: str) -> str:
    return g.ssh(f"journalctl -u boxd --after-cursor='{cursor}' -o cat --no-pager", check=False).stdout


def kernel_edges(g: Guest, cursor: str, button: str = "dose", text: str | None = None) -> list[tuple[float, str]]:
    """The edges boxd read from `button` since `cursor` (or in `text`, its journal), in order,
    with the kernel's own timestamps (CLOCK_MONOTONIC, s) and d or u: boxd logs each at debug
    level ("edge dose down t=..."), which a boxd started with --verbose writes to its journal."""
    text = boxd_journal(g, cursor) if text is None else text
    return [(float(m.group(2)), m.group(1)[0])
            for m in re.finditer(rf"^edge {button} (down|up) t=([\d.]+)", text, re.M)]


def answer_account(g: Guest, cursor: str, gesture: str = "single", button: str = "dose") -> str:
    """boxd's own account (--verbose) of its first `gesture` on `button` since `cursor`: how long
    after the edge its engine took it up, how long the answer took, and the commits since the
    gesture before it (the answer's own: the dose, then its notices after the light and sound).
    A figure, not a verdict: it tells a slow acknowledgement's wait for the engine from its
    disk writes."""
    text = g.ssh(f"journalctl -u boxd --after-cursor='{cursor}' -o cat --no-pager", check=False).stdout
    commits: list[str] = []
    for line in text.splitlines():
        if m := re.match(r"committed (\d+) record\(s\) in ([\d.]+) ms", line):
            commits.append(f"{m.group(2)} ms ({m.group(1)} records)")
        elif m := re.match(rf"gesture {gesture} {button}: taken up ([\d.-]+) ms after its edge, answered in ([\d.]+) ms", line):
            return f"taken up {m.group(1)} ms after the edge, answered in {m.group(2)} ms, commits {', '.join(commits) or 'none'}"
        elif line.startswith("gesture "):
            commits = []
    return "not in the journal"


def chatter_spans(edges: list[tuple[float, str]]) -> list[float]:
    """The span in ms of each burst of edges: a burst starts at an edge after a steady level
    of 100 ms or more. A burst within the debounce time is one press or one release to boxd;
    a longer one is two, whatever boxd does."""
    spans: list[float] = []
    for i, (t, _) in enumerate(edges):
        if i == 0 or t - edges[i - 1][0] >= 0.1:
            start = t
            spans.append(0.0)
        spans[-1] = (t - start) * 1000
    return spans


def one_press(edges: list[tuple[float, str]]) -> bool:
    """Whether the kernel's edges are one press to a leading-edge debounce: a burst that
    starts down, a burst that ends up, each within the debounce time. A loaded guest may
    deliver fewer edges than were written (seen: 6 to 11 of 12 with the host's two cores
    busy); that is still one press."""
    spans = chatter_spans(edges)
    return len(spans) == 2 and max(spans) < DEBOUNCE_MS and edges[0][1] == "d" and edges[-1][1] == "u"


def split_watch(text: str) -> tuple[str, str]:
    cap, _, led = text.partition("--- led")
    return cap, led


def led_runs(led: list[tuple[float, str]], start: float, end: float) -> list[tuple[str, float, bool]]:
    """(value, duration ms, whole) of each LED state between start and end; whole is False
    for a state clipped by the window's edges."""
    runs = []
    for i, (t, v) in enumerate(led):
        t_next = led[i + 1][0] if i + 1 < len(led) else end
        if t_next <= start or t >= end:
            continue
        runs.append((v, (min(t_next, end) - max(t, start)) * 1000, t >= start and t_next <= end))
    return runs


def first(items, pred):
    return next((x for x in items if pred(x)), None)


class Results:
    def __init__(self):
        self.lines: list[tuple[str, bool, str]] = []
        self.last = time.monotonic()

    def add(self, name: str, ok: bool, figures: str) -> bool:
        # The time since the last line (or the start): what the scenario took, boots included.
        now = time.monotonic()
        line = f"VBOX {'PASS' if ok else 'FAIL'} {name}: {figures} [{now - self.last:.0f} s]"
        self.last = now
        print(line, flush=True)
        self.lines.append((name, ok, line))
        with open(RUN / "results.txt", "a") as f:
            f.write(line + "\n")
        return ok


R = Results()

# Time a guest architecture is given beyond a scenario's timing bound: per bound, with why and
# what was measured. amd64 has none: its bounds are as written. Under TCG every arm64
# instruction is translated for this amd64 host (the amd64 guest's are too, but qemu's x86 on
# x86 is the cheaper translation), so a path a bound measures that runs boxd's code, SQLite and
# the kernel takes longer than on the amd64 guest; a Pi runs it natively. An allowance is
# printed with the figure it loosens, never applied silently.
ALLOWANCES: dict[str, dict[str, tuple[float, str]]] = {
    "arm64": {
        # Dose 1's green acknowledgement comes after its commit (the log and its witness, a few
        # fsyncs). boxd's own account (--verbose) on the arm64 guest, 2026-11-26, quiet host:
        # taken up 23.8 ms after the release edge, as on amd64 (8.9-22 ms), but the commit took
        # 321 ms against 115-122 ms on the amd64 guests: the emulated disk path, not the stamp.
        "s1 dose1 stamped": (250.0, "the commit's fsyncs on emulated aarch64: 321 ms against 115-122 ms on amd64"),
    },
}


def allowance(bound: str) -> tuple[float, str]:
    """(ms, words for the figures) this guest's architecture gets beyond `bound`; (0, "") on amd64."""
    ms, _ = ALLOWANCES.get(ARCH, {}).get(bound, (0.0, ""))
    return ms, (f" (+{ms:.0f} ms {ARCH}/TCG allowance: ALLOWANCES[{ARCH!r}][{bound!r}])" if ms else "")


def status_json(g: Guest, user: str = "root") -> dict:
    r = g.ssh("boxctl status --json", user=user)
    return json.loads(r.stdout)


def wait_until(ask: Callable[[], object], timeout: float, interval: float = 0.25):
    """Asks `ask()` until it returns something true or `timeout` seconds pass: that value, or
    the last (false) one. For a condition only a question answers (a status, a unit's state);
    what the guest writes as it happens (the journal, a capture) is followed instead (`follow`).
    The sleep here is the poll's interval, never a settle: the deadline is what bounds it."""
    end = time.monotonic() + timeout
    while True:
        value = ask()
        if value or time.monotonic() >= end:
            return value
        time.sleep(interval)


def status_until(g: Guest, done: Callable[[dict], bool], timeout: float) -> dict:
    """Polls `boxctl status --json` until `done(status)` holds or `timeout` seconds pass (boxd
    not answering yet counts as not done); the last status, or {} if none came. Waits on the
    state itself instead of a fixed sleep that is too short under load and too long without."""
    last: dict = {}

    def ask() -> bool:
        nonlocal last
        r = g.ssh("boxctl status --json", check=False)
        if r.returncode == 0:
            try:
                last = json.loads(r.stdout)
            except ValueError:
                last = {}
            return bool(last) and done(last)
        return False
    wait_until(ask, timeout)
    return last


def guest_mono(g: Guest) -> float:
    """The guest's CLOCK_MONOTONIC now (the clock of its EDGE, LED and TONE lines)."""
    return parse_kv(g.ssh("vbox-helper clocks").stdout)["mono"]


def sleep_until_guest(g: Guest, mono: float) -> None:
    """Until the guest's CLOCK_MONOTONIC reaches `mono`: a point in the night a scenario needs
    (a minute of a fast clock, the end of an undo window), computed from the guest's own stamps,
    never a settle. The guest's clock runs at the host's rate (qemu), so one reading of it and
    a host sleep for the difference land there (a few ms late: the ssh that read it)."""
    time.sleep(max(0.0, mono - guest_mono(g)))


def watched(g: Guest, name: str, done: Callable[[str], bool], timeout: float, kind: str = "cap") -> str | None:
    """Follows the running `vbox watch NAME` capture (kind "cap": TONE, SPEECH, QUIET lines) or
    LED watcher ("led": LED lines) from its first line, without ending it, until a line makes
    `done` true: that line, or None after `timeout` s. Both write each line as it happens."""
    return follow(g, f"tail -n +1 -f /run/vbox/{name}.{kind}", done, timeout)


def led_blinks(value: str, after: float, count: int) -> Callable[[str], bool]:
    """For `watched(..., kind="led")`: true once `count` whole runs of LED `value` (on, then
    ended by the next reading), each starting at or after `after`, have been seen: what
    pattern_stats counts as whole runs."""
    on: list[float] = []
    seen = [0]

    def done(line: str) -> bool:
        m = re.match(r"LED t=([\d.]+) v=(\d+)", line)
        if not m:
            return False
        t, v = float(m.group(1)), m.group(2)
        if on and v != value:
            seen[0] += 1
            on.clear()
        if v == value and t >= after:
            on[:] = [t]
        return seen[0] >= count
    return done


def led_line(after: float, value: str) -> Callable[[str], bool]:
    """For `watched(..., kind="led")`: true for the LED turning `value` at or after `after`."""
    def done(line: str) -> bool:
        m = re.match(r"LED t=([\d.]+) v=(\d+)", line)
        return bool(m) and float(m.group(1)) >= after and m.group(2) == value
    return done


def tones_seen(after: float, notes: tuple[str, ...], count: int, wave: str | None = None) -> Callable[[str], bool]:
    """For `watched` on a capture: true once `count` TONE lines of `notes` (and `wave`, if
    given) starting after `after` have come."""
    seen = [0]

    def done(line: str) -> bool:
        if tone_line(after, notes)(line) and (wave is None or parse_kv(line).get("wave") == wave):
            seen[0] += 1
        return seen[0] >= count
    return done


def fault_codes(st: dict) -> list[str]:
    return [f["code"] for f in st.get("faults", [])]


def health_text(part: dict) -> str:
    """One part of status --json's health ({"state", "detail"}) as the status line words it."""
    return part["state"] + (f" ({part['detail']})" if part.get("detail") else "")


def check(cond: bool, problems: list[str], text: str) -> bool:
    if not cond:
        problems.append(text)
    return cond


# ----------------------------------------------------------------------------------------
# Scenarios


def scenario_install(g: Guest) -> bool:
    """README "With the Debian package", run as written (guest: `vbox install`)."""
    r = g.ssh("vbox install", check=False, timeout=600)
    (RUN / "install.log").write_text(r.stdout + r.stderr)
    steps = re.findall(r"^STEP (\d+) (ok|FAIL)(?: \((\d+) ms\))?[^:]*: (.*)$", r.stdout, re.M)
    fails = [f"step {n} `{line}`" for n, st, _, line in steps if st == "FAIL"]
    m = re.search(r"INSTALL steps=(\d+) failed=(\d+) version=(\S*)", r.stdout)
    ok = bool(m) and m.group(2) == "0" and r.returncode == 0 and len(steps) >= 4
    show = dict(line.split("=", 1) for line in g.ssh(
        "systemctl show boxd -p ActiveState,FragmentPath,MainPID,ExecStart").stdout.splitlines() if "=" in line)
    exe = g.ssh(f"readlink /proc/{show.get('MainPID', '0')}/exe", check=False).stdout.strip()
    local = g.ssh("ls /usr/local/bin/boxd /usr/local/bin/boxctl /etc/systemd/system/boxd.service 2>/dev/null | tr '\\n' ' '",
                  check=False).stdout.strip()
    active = show.get("ActiveState", "")
    # Where the suite's package puts the unit: /lib on Debian 12, /usr/lib on 13 (systemd.pc).
    unit = VERSIONS.get("UNIT_PATH", "/lib/systemd/system/boxd.service")
    # /usr/bin/boxd is a link to the package's one program (#34); the process runs that file.
    where_ok = (exe == "/usr/lib/dosetap-box/dosetap-box" and "path=/usr/bin/boxd " in show.get("ExecStart", "")
                and show.get("FragmentPath") == unit and not local)
    doctor = re.findall(r"^\s+\| (PASS|FAIL)\s+([^:]+):", r.stdout, re.M)
    figs = [f"{len(steps)} steps of README.md's 'With the Debian package' run as written"]
    for n, st, ms, line in steps:
        word = line.split("#")[0].strip()
        figs.append(f"{n} {st}{f' {int(ms) / 1000:.1f} s' if ms else ''} `{word}`")
    figs.append(f"dosetap-box {m.group(3) if m else '?'} installed; boxd {active} as {exe} from {show.get('FragmentPath')}"
                + (f"; LEFT FROM A FROM-SOURCE INSTALL: {local}" if local else ""))
    figs.append("boxctl doctor as sleeper: " + (", ".join(f"{c.strip()} {v}" for v, c in doctor) or "no output"))
    if fails:
        figs.append(f"failed: {', '.join(fails)}")
    R.add("install (README 'With the Debian package', literally)", ok and active == "active" and where_ok,
          "; ".join(figs))
    return active == "active"


def scenario_systemd(g: Guest) -> bool:
    problems: list[str] = []
    show = dict(line.split("=", 1) for line in g.ssh(
        "systemctl show boxd -p Type,ActiveState,SubState,StatusText,MainPID,NRestarts,"
        "InactiveExitTimestampMonotonic,ActiveEnterTimestampMonotonic").stdout.splitlines() if "=" in line)
    check(show.get("ActiveState") == "active" and show.get("SubState") == "running", problems,
          f"boxd {show.get('ActiveState')}/{show.get('SubState')}")
    check(show.get("Type") == "notify", problems, f"Type={show.get('Type')}")
    ready_ms = (int(show.get("ActiveEnterTimestampMonotonic", 0)) - int(show.get("InactiveExitTimestampMonotonic", 0))) / 1000
    # READY=1: a Type=notify unit is "active" only after it; the status text is boxd's own.
    check(show.get("StatusText", "").startswith("boxd running") or "Phase" in show.get("StatusText", ""), problems,
          f"status text {show.get('StatusText')!r}")
    pid = show.get("MainPID", "0")
    sec = g.ssh("systemd-analyze security boxd --no-pager --threshold=11", check=False)  # tenths: 1.1
    m = re.search(r"Overall exposure level for boxd.service: ([\d.]+)", sec.stdout)
    exposure = float(m.group(1)) if m else 99
    # 1.1: adjtimex (reading the clock's sync state) and setpriority (the voice's thread lowers
    # its own priority) are the unit's two allowed calls from filtered groups, 0.1 each.
    check(sec.returncode == 0 and exposure <= 1.1, problems, f"exposure {exposure}")
    (RUN / "security.txt").write_text(sec.stdout)
    proc = g.ssh(f"grep -E '^(Uid|Gid|Groups|Cap[A-Za-z]+|NoNewPrivs)' /proc/{pid}/status; ps -o user= -p {pid}").stdout
    caps = dict(re.findall(r"^(Cap\w+):\s+([0-9a-f]+)$", proc, re.M))
    user = proc.strip().splitlines()[-1].strip()
    check(user == "boxd", problems, f"runs as {user}")
    # Inside the sandbox the voice's thread still gets its lower priority: one thread at 10.
    nices = sorted(int(n) for n in g.ssh(f"ps -L -o nice= -p {pid}").stdout.split())
    check(nices.count(10) == 1 and nices.count(0) == len(nices) - 1, problems, f"thread nice values {nices}")
    check(caps and all(int(v, 16) == 0 for v in caps.values()), problems, f"capabilities {caps}")
    dev = g.ssh("stat -c '%n %U:%G %a' /dev/gpiochip*").stdout.strip()
    check(all(re.search(r" root:gpio 660$", line) for line in dev.splitlines()), problems, f"gpiochip {dev}")
    # The clock: the kernel's own sync state, both ways, as boxd reports it through systemd's sandbox.
    clock = {}
    for state in ["unsync", "sync"]:
        g.ssh(f"vbox-helper adjtimex {state}")
        clock[state] = status_json(g)["health"]["clock"]["state"]
    check(clock == {"unsync": "not_synced", "sync": "synced"}, problems,
          f"clock: kernel unsynced -> {clock['unsync']!r}, synced -> {clock['sync']!r}")
    # What ProtectClock=yes does to a read-only adjtimex (why the unit does not set it).
    probe = g.ssh("printf '[Service]\\nType=oneshot\\nUser=boxd\\nProtectClock=yes\\nSystemCallErrorNumber=EPERM\\n"
                  "ExecStart=/usr/local/bin/vbox-helper adjtimex read\\n' > /run/systemd/system/vbox-probe.service; "
                  "systemctl daemon-reload; systemctl start vbox-probe; "
                  "journalctl -u vbox-probe -o cat --no-pager | grep 'adjtimex rc' | tail -1").stdout.strip()
    unit_pc = g.ssh("systemctl show boxd -p ProtectClock --value").stdout.strip()
    return R.add("3 systemd for real", not problems,
                 f"active, READY=1 {ready_ms:.0f} ms after start, exposure {exposure} (systemd-analyze security, threshold 1.1), "
                 f"user {user}, CapEff/Prm/Bnd/Amb 0, threads' nice {nices}, /dev/gpiochip* root:gpio 660 by the udev rule, "
                 f"clock status unsynced->{clock.get('unsync')!r} synced->{clock.get('sync')!r} "
                 f"(unit ProtectClock={unit_pc}; with ProtectClock=yes a read-only adjtimex gives: {probe.replace('adjtimex ', '')})"
                 + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def scenario_night(g: Guest, speed: int = 120) -> bool:
    """(1) A good night on real edges: Dose 1 by a press, the wake alarm from the loopback, Dose 2 by a press."""
    problems: list[str] = []
    per_min = 60 / speed  # real seconds per box minute
    # `vbox fresh` returns once boxd said READY=1 (Type=notify), `vbox watch` once the capture runs.
    # --verbose: boxd's journal says where the acknowledgement's time went (see answer_account).
    g.ssh(f"vbox fresh --flags '--clock fast:{speed} --verbose'")
    cursor = journal_cursor(g, "boxd")
    g.ssh("vbox watch s1 120")
    e1 = parse_edges(g.ssh("vbox press 150").stdout)
    st1 = status_json(g)
    account1 = answer_account(g, cursor)
    check(st1["dose1_at"] is not None and st1["phase"] == "beforeWindow", problems, f"after press 1: {st1['phase']}, dose1 {st1['dose1_at']}")
    # Until the main alarm (target 165 min) rings: its notice in boxd's feed, followed as it
    # comes; then the press that takes Dose 2, while the alarm rings.
    rang = follow(g, "boxctl watch --after 0 --json",
                  lambda l: feed_entry(l).get("kind") == "alarm_rang" and feed_entry(l).get("event_type") == "main_alarm",
                  int(170 * per_min) + 30)
    check(rang is not None, problems, "the main alarm's notice did not reach the feed")
    e2 = parse_edges(g.ssh("vbox press 150").stdout)
    # The capture says when it holds what is checked: the Dose 2 chime's last note (G5) as its
    # TONE line comes, then any alarm tone after it, which must not come, for two alarm cycles.
    chimed = follow(g, "tail -n +1 -f /run/vbox/s1.cap", tone_line(after=e2[-1][0], notes=("G5",)), 15)
    check(chimed is not None, problems, "the Dose 2 chime's last note did not reach the capture")
    if chimed:
        follow(g, "tail -n +1 -f /run/vbox/s1.cap", tone_line(after=parse_kv(chimed)["off"], notes=("C6", "F6", "A5", "E5")), 3)
    cap, led_text = split_watch(g.ssh("vbox unwatch s1").stdout)
    (RUN / "s1-capture.txt").write_text(cap + "--- led" + led_text + f"\nedges1 {e1}\nedges2 {e2}\n")
    st2 = json.loads(subprocess.run(g.ssh_args("sleeper") + ["boxctl status --json"], capture_output=True, text=True).stdout or "{}")
    tones, led = parse_tones(cap), parse_led(led_text)
    t_up1, t_up2 = e1[-1][0], e2[-1][0]
    # Dose 1 is committed at the release edge (leading-edge debounce, double means nothing
    # yet); the engine stamps it when it handles that edge, and the LED's green confirmation
    # flash is written after the commit. The schedule lies between the two instants + offset.
    green = first(led, lambda x: x[0] > t_up1 and x[1] == "010")
    commit_hi = green[0] if green else t_up1
    chime1 = first(tones, lambda t: t["note"] == "C5" and t["on"] > t_up1)
    steps = [("window_open", 150, lambda t: t["note"] == "E5" and t["wave"] == "sine"),
             ("pre_alarm", 160, lambda t: t["note"] == "A5" and t["wave"] == "sine"),
             ("main_alarm", 165, lambda t: t["note"] == "C6" and t["wave"] == "square")]
    # The stored Dose 1 instant lies between the release edge and the green flash, so each
    # onset's lateness is known only to that interval [lo, hi]: it must overlap [-2, +50] ms.
    # The alarms' spacing does not depend on that instant (one Dose 1, three offsets), so the
    # onsets against each other are checked exactly, to 50 ms.
    stamp_ms, stamp_note = allowance("s1 dose1 stamped")
    onset_ms, onset_note = allowance("s1 onset")
    gap_ms, gap_note = allowance("s1 spacing")
    # The green flash bounds the stamp from above, commit included; the stamp itself is the
    # instant the engine took the release up, which boxd's account gives on the kernel's clock.
    # A guest whose disk is slow under the host's load (a 201 ms commit beside CI's builds)
    # pushes the flash past the bound while the stamp is on time: judged on the stamp then,
    # with the flash told in the figures.
    bound = 0.25 + stamp_ms / 1000
    taken = re.search(r"taken up ([\d.-]+) ms after the edge", account1)
    stamp_hi = commit_hi - t_up1 if commit_hi - t_up1 <= bound or not taken else float(taken.group(1)) / 1000
    check(stamp_hi <= bound, problems,
          f"Dose 1 stamped within {stamp_hi * 1000:.0f} ms of the release{stamp_note}")
    figs, peaks, onsets = [], [], []
    figs.append(f"Dose 1 stamped within {stamp_hi * 1000:.0f} ms of the release (bound 250 ms{stamp_note}"
                + ("" if stamp_hi == commit_hi - t_up1 else f"; by boxd's account: its green flash, after the commit, came {(commit_hi - t_up1) * 1000:.0f} ms after the release")
                + f"; boxd's account: {account1})")
    for name, minute, pred in steps:
        t = first(tones, lambda x: x["on"] > t_up1 + (minute - 5) * per_min and pred(x))
        if not t:
            problems.append(f"{name} not heard")
            continue
        lo = (t["on"] - (commit_hi + minute * per_min)) * 1000
        hi = (t["on"] - (t_up1 + minute * per_min)) * 1000
        figs.append(f"{name} {t['note']} {t['wave']} peak {t['peak']:.2f} onset <= {hi:+.0f} ms (>= {lo:+.0f})")
        peaks.append(t["peak"])
        check(hi >= -2 and lo <= 50 + onset_ms, problems, f"{name} onset {lo:+.0f}..{hi:+.0f} ms after its schedule{onset_note}")
        if onsets:
            name0, minute0, on0 = onsets[0]
            gap = (t["on"] - on0 - (minute - minute0) * per_min) * 1000
            figs.append(f"{name} {gap:+.0f} ms against {name0} + {minute - minute0} min")
            check(-50 - gap_ms <= gap <= 50 + gap_ms, problems, f"{name} {gap:+.0f} ms off its spacing from {name0}{gap_note}")
        onsets.append((name, minute, t["on"]))
    check(len(peaks) == 3 and peaks[0] < peaks[1] < peaks[2], problems, f"levels not rising: {peaks}")
    # Dose 2: the press while the alarm rings (a double would snooze, so the single commits
    # after the 400 ms double gap); the alarm stops, the chime plays.
    last_alarm = max((t["off"] for t in tones if t["note"] in ("C6", "F6") and t["on"] < t_up2 + 0.5), default=None)
    chime2 = first(tones, lambda t: t["note"] == "C5" and t["on"] > e2[0][0])
    check(chime2 is not None, problems, "no chime after the Dose 2 press")
    after = [t for t in tones if t["on"] > (chime2["off"] if chime2 else t_up2) + 0.2 and t["note"] in ("C6", "F6", "A5", "E5")]
    check(not after, problems, f"alarm tones after Dose 2: {len(after)}")
    check(st2.get("dose2_at") is not None and st2.get("phase") == "completed", problems,
          f"ssh sleeper@box boxctl status --json: phase {st2.get('phase')}, dose2_at {st2.get('dose2_at')}")
    chime_lat = (chime1["on"] - t_up1) * 1000 if chime1 else float("nan")
    fast = (f"fast:{speed}; press 1: Dose 1, chime {chime_lat:.0f} ms after the release edge; "
            + "; ".join(figs)
            + f"; press 2 (alarm ringing): alarm silent {((last_alarm or t_up2) - e2[0][0]) * 1000:+.0f} ms after the press edge, "
              f"chime {((chime2['on'] if chime2 else 0) - t_up2) * 1000:.0f} ms after the release; "
              f"`ssh sleeper@box boxctl status --json`: phase {st2.get('phase')}, dose2_at {st2.get('dose2_at')}")

    # The same alarm on the real clock, against a schedule known to the microsecond: Dose 1
    # recorded (by boxd, on a simulated clock) 150 min - restart_s ago; the window opens at that
    # wall-clock instant; the capture is on CLOCK_MONOTONIC, mapped through `vbox-helper clocks`.
    g.ssh("vbox-helper adjtimex sync")
    # The window opens restart_s after the seed: boxd must be up again before it (else the
    # alarm comes at its start, late), and the capture runs past it.
    lead = MACHINES[ARCH]["restart_s"]
    g.ssh(f"vbox watch s1b {lead + 15}")
    seed = g.ssh(f"vbox seed {WINDOW_OPEN_S - lead}").stdout
    dose1 = iso_epoch(db_query(g, "SELECT timestamp FROM dose_events WHERE event_type='dose1'"))
    clocks = parse_kv(g.ssh("vbox-helper clocks").stdout)
    due_mono = dose1 + WINDOW_OPEN_S - (clocks["real"] - clocks["mono"])
    st = status_json(g)
    # Until the window_open tone itself is in the capture (its TONE line, as it comes).
    follow(g, "tail -n +1 -f /run/vbox/s1b.cap", tone_line(after=due_mono - 5, notes=("E5",)), int(max(0, due_mono - clocks["mono"])) + 15)
    cap_b, _ = split_watch(g.ssh("vbox unwatch s1b").stdout)
    (RUN / "s1-realclock.txt").write_text(seed + cap_b)
    wo = first(parse_tones(cap_b), lambda t: t["note"] == "E5" and t["on"] > due_mono - 5)
    err = (wo["on"] - due_mono) * 1000 if wo else float("nan")
    # -5 ms: the capture's timeline is exact to about one jiffy (4 ms), the stored Dose 1 to 1 ms.
    # +100 ms: under TCG the guest's timer, boxd's thread and the capture are all emulated; on a
    # loaded CI host this onset was +70.8 ms (scenario 7's, same run: +38.7 ms). A wrong clock (boot time for
    # wall time, a step not followed) is off by seconds, which this still fails.
    real_ms, real_note = allowance("s1 real clock")
    check(wo is not None and -5 <= err <= 100 + real_ms, problems, f"real clock: window_open onset {err:+.1f} ms{real_note}")
    real = (f"real clock: window_open E5 gentle onset {err:+.1f} ms after its wall-clock schedule "
            f"(next_alarm {st['next_alarm']['kind'] if st.get('next_alarm') else None} at {st['next_alarm']['at'] if st.get('next_alarm') else None})")
    return R.add("1 good night on real edges", not problems,
                 fast + "; " + real + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def iso_epoch(text: str) -> float:
    from datetime import datetime
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def db_query(g: Guest, sql: str) -> str:
    return g.ssh(f"runuser -u boxd -- sqlite3 /var/lib/boxd/nightlog.sqlite {shlex.quote(sql)}").stdout.strip()


def pattern_stats(runs: list[tuple[str, float, bool]], value: str) -> tuple[int, float, float]:
    """Whole 'on' runs of value: how many, their mean length (ms), and the mean period (ms)."""
    idx = [i for i, (v, _, whole) in enumerate(runs) if v == value and whole]
    if not idx:
        return 0, 0.0, 0.0
    periods = [sum(d for _, d, _ in runs[a:b]) for a, b in zip(idx, idx[1:])]
    return len(idx), sum(runs[i][1] for i in idx) / len(idx), (sum(periods) / len(periods) if periods else 0.0)


SAID = re.compile(r'Said: "(.*)" \(synthesis (\d+) ms(?:, first sample (\d+) ms after the request)?\)')


def say_timed(g: Guest, command: str) -> tuple[float, re.Match | None, str]:
    """Runs a boxctl command that speaks, in one ssh with the monotonic clock read just before:
    (that instant, the reply parsed, the reply as printed)."""
    out = g.ssh(f"vbox-helper clocks; {command} 2>&1", check=False).stdout
    mono = parse_kv(out.splitlines()[0])["mono"] if out.startswith("CLOCKS") else 0.0
    reply = "\n".join(out.splitlines()[1:]).strip()
    return mono, SAID.search(reply), reply


def quiet_line(after: float) -> Callable[[str], bool]:
    """For `follow` on a capture: true once 0.7 s without sound have followed `after`."""
    return lambda line: line.startswith("QUIET ") and parse_kv(line).get("since", 0) > after


def scenario_voice(g: Guest) -> bool:
    """(10) The voice through the real loopback card: `boxctl say-status`, the spoken Dose 1, a
    hold's spoken status, sentences asked behind another; told from the tones by the capture."""
    problems: list[str] = []
    figs: list[str] = []
    cap_file = "/run/vbox/s10.cap"
    cursor = journal_cursor(g, "boxd")  # this scenario's journal only
    voice = g.ssh("sed -n '/^\\[voice\\]/,/^\\[/p' /etc/boxd/boxd.toml", check=False).stdout
    check("\nenabled = true" in voice, problems, f"the installed boxd.toml has the voice off: {voice!r}")
    g.ssh("vbox fresh")
    g.ssh("vbox watch s10 120")
    # 1. A hold, the fresh boxd's first sentence (so its time includes synthesis; nothing to
    # undo yet, so no wait for an undo window): the chirp, then the status, heard to its end.
    eh = parse_edges(g.ssh("vbox press 1300").stdout)
    sh_ = follow(g, f"tail -n +1 -f {cap_file}", speech_line(after=eh[0][0]), 30)
    check(sh_ is not None, problems, "no speech after the hold")
    follow(g, f"tail -n +1 -f {cap_file}", quiet_line(parse_kv(sh_)["on"] if sh_ else eh[-1][0]), 30)
    # 2. boxctl say-status, the same sentence: its reply comes once it is written out, with what it cost.
    mono0, m0, reply0 = say_timed(g, "boxctl say-status")
    check(m0 is not None and m0.group(3) is not None, problems, f"say-status replied: {reply0!r}")
    follow(g, f"tail -n +1 -f {cap_file}", quiet_line(mono0), 20)
    # 3. A press: Dose 1, its chime, then its sentence.
    e1 = parse_edges(g.ssh("vbox press 150").stdout)
    d1 = follow(g, f"tail -n +1 -f {cap_file}", speech_line(after=e1[-1][0]), 20)
    check(d1 is not None, problems, "no speech after the Dose 1 press")
    follow(g, f"tail -n +1 -f {cap_file}", quiet_line(e1[-1][0]), 20)
    # 4. Two sentences asked at once: the second waits behind the first, and both are answered.
    mono2 = parse_kv(g.ssh("vbox-helper clocks").stdout)["mono"]
    both = g.ssh("boxctl test voice 2>&1 & boxctl say-status 2>&1; wait", check=False).stdout
    said_both = SAID.findall(both)
    check(len(said_both) == 2, problems, f"two sentences asked at once: {both.strip()!r}")
    follow(g, f"tail -n +1 -f {cap_file}", quiet_line(mono2 + 1.0), 30)
    cap, _ = split_watch(g.ssh("vbox unwatch s10").stdout)
    journal = g.ssh(f"journalctl -u boxd --after-cursor='{cursor}' -o cat --no-pager | grep -E 'speech dropped|voice is off|say ' || true").stdout
    (RUN / "s10-voice.txt").write_text(cap + f"\nedges press {e1}\nedges hold {eh}\nreplies {reply0!r} {both!r}\n"
                                       f"--- journal\n{journal}")
    tones, utts = parse_tones(cap), utterances(parse_speech(cap))
    check("speech dropped" not in journal and "voice is off" not in journal, problems, f"journal: {journal.strip()!r}")
    # A steady voiced stretch below the box's lowest note (E3, 165 Hz) is the voice's own pitch
    # (espeak-ng speaks at about 100-130 Hz; a long sentence, as Dose 1's with the stay-in-bed
    # reminder, can hold one long enough to be parsed as a tone): it is no tone of the box.
    strays = [t for t in tones if t["note"] not in NOTES and t["hz"] >= 0.9 * min(NOTES.values())]
    check(not strays, problems, f"tones that are no note of the box (speech taken for a tone?): {[round(t['hz']) for t in strays]}")

    def heard(after: float) -> dict | None:
        return first(utts, lambda u: u["on"] > after)

    def plausible(u: dict | None, text: str, what: str) -> str:
        """A sentence of `text` lasts 0.15 to 0.8 s a spoken word and is not faint."""
        if u is None:
            problems.append(f"{what}: not heard")
            return f"{what}: not heard"
        words = spoken_words(text)
        check(0.15 * words <= u["ms"] / 1000 <= 0.8 * words and u["rms"] >= 0.03, problems,
              f"{what}: {u['ms']:.0f} ms, rms {u['rms']:.3f} for {words} words")
        return f"{what} {u['ms']:.0f} ms ({words} words), peak {u['peak']:.2f}"

    # 1. The hold: the chirp (D6), then the status, as long as say-status's same sentence.
    hold_at = eh[0][0] + HOLD_S
    chirp = first(tones, lambda t: t["note"] == "D6" and t["on"] > eh[0][0])
    uh, us = heard(eh[0][0]), heard(mono0)
    check(chirp is not None, problems, "no status chirp after the hold")
    figs.append(plausible(uh, m0.group(1) if m0 else "", "the hold's status"))
    if uh and chirp:
        lat = (uh["on"] - hold_at) * 1000
        figs.append(f"hold recognised (press edge + {HOLD_S * 1000:.0f} ms) -> chirp onset {(chirp['on'] - hold_at) * 1000:.0f} ms, "
                    f"-> first spoken sample {lat:.0f} ms (goal <= 300; after the {chirp['ms']:.0f} ms chirp)")
        check(lat <= 1000, problems, f"hold -> first spoken sample {lat:.0f} ms")
    if uh and us:
        ratio = uh["ms"] / us["ms"]
        figs.append(f"the hold's status {uh['ms']:.0f} ms against say-status's same sentence {us['ms']:.0f} ms ({ratio:.2f})")
        check(0.9 <= ratio <= 1.1, problems, f"the hold's status {uh['ms']:.0f} ms, say-status's {us['ms']:.0f} ms")
    # 2. say-status, heard after the request; boxd's "first sample" is when alsa-lib took it.
    u0 = heard(mono0)
    figs.append(plausible(u0, m0.group(1) if m0 else "", f"say-status \"{m0.group(1) if m0 else '?'}\""))
    if u0 and m0 and m0.group(3):
        heard_ms = (u0["on"] - mono0) * 1000
        figs.append(f"heard {heard_ms:.0f} ms after the request was sent (boxd: synthesis {m0.group(2)} ms, "
                    f"first sample {m0.group(3)} ms after the request arrived)")
        # The anchor is taken before boxctl starts, so the bound holds boxctl's own start (a
        # 65 MB binary: 0.2 to 0.8 s under TCG on a loaded host; 837 ms in all was seen in CI)
        # and the card's buffer. A sentence that waited behind another is late by seconds.
        check(int(m0.group(3)) - 5 <= heard_ms <= int(m0.group(3)) + 1500, problems,
              f"say-status heard {heard_ms:.0f} ms after the request, boxd said {m0.group(3)} ms")
    # 3. Dose 1: the chime, then "Dose 1 taken at ...".
    chime = first(tones, lambda t: t["note"] == "G5" and t["on"] > e1[-1][0])
    u1 = heard(e1[-1][0])
    check(chime is not None and u1 is not None and u1["on"] >= chime["off"], problems,
          f"Dose 1: chime G5 off {chime and round(chime['off'], 3)}, speech on {u1 and round(u1['on'], 3)}")
    figs.append(plausible(u1, "Dose 1 taken at 10:02 PM.", "Dose 1 sentence"))
    if chime and u1:
        figs.append(f"it starts {(u1['on'] - chime['off']) * 1000:.0f} ms after the chime's last note")
    # 4. test voice and say-status at once: both answered.
    figs.append(f"test voice and say-status asked at once: {len(said_both)} of 2 answered"
                + (f" (synthesis {said_both[0][1]} and {said_both[1][1]} ms)" if len(said_both) == 2 else ""))
    return R.add("10 the voice through the loopback card", not problems,
                 "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def scenario_bedside(g: Guest, speed: int = 240) -> bool:
    """(11) The bedside by the button alone, heard on the loopback card (#32): the long hold's
    skip sound the moment it counts, and in the morning the hold that asks the check-in, its
    first question spoken, and an answer of two presses said back."""
    problems: list[str] = []
    figs: list[str] = []
    per_min = 60 / speed
    # A zone where it is 21:00 now, and a wake time 5 hours on: at 240x the morning comes in
    # 75 s. The packaged boxd.toml has [schedule]; the rig's copy changes its wake and zone.
    zone, _ = bedtime_zone()
    g.ssh(f"sed -e 's|^time_zone = .*|time_zone = \"{zone}\"|' -e 's|^wake = .*|wake = \"02:00\"|' "
          "/etc/boxd/boxd.toml > /etc/boxd/vbox-bedside.toml && grep -q '^wake = \"02:00\"' /etc/boxd/vbox-bedside.toml")
    g.ssh(f"vbox fresh --config /etc/boxd/vbox-bedside.toml --flags '--clock fast:{speed}'")  # returns at READY=1
    cursor = journal_cursor(g, "boxd")
    g.ssh("vbox watch s11 200")
    e1 = parse_edges(g.ssh("vbox press 150").stdout)
    st = status_until(g, lambda s: s["dose1_at"] is not None, 10)
    check(st["dose1_at"] is not None, problems, "press: no Dose 1")
    d1 = iso_epoch(st["dose1_at"])
    # 1. In the window (155 min; the window opened at 150), the long hold: the skip's two low
    # falling notes (A4, E4) once it counts at 3 s, then the question of why. Minute 155 is a
    # time point of the fast clock, from Dose 1's release on the guest's clock.
    sleep_until_guest(g, e1[-1][0] + (WINDOW_OPEN_S / 60 + 5) * per_min)
    eh = parse_edges(g.ssh(f"vbox press {int(SKIP_HOLD_S * 1000) + 300}").stdout)
    counted = eh[0][0] + SKIP_HOLD_S - 0.1  # the skip's sound starts after the hold reached it
    low = watched(g, "s11", tone_line(counted, ("E4",)), 20)
    check(low is not None, problems, "no skip sound after the long hold")
    asked = status_until(g, lambda s: s["asking"] == "skip_reason" or s["skipped_at"] is not None, 10)
    check(asked["asking"] == "skip_reason", problems, f"after the long hold: asking {asked['asking']}")
    # Unanswered, the wait (10 s, at real speed while it asks) records the reason "other".
    st = status_until(g, lambda s: s["skipped_at"] is not None, 30)
    reason = db_query(g, "SELECT json_extract(metadata, '$.reason') FROM dose_events WHERE event_type='dose2_skipped'")
    check(st["skipped_at"] is not None and reason == "other", problems, f"skip: at {st['skipped_at']}, reason {reason!r}")
    # 2. The morning (02:00 there, 5 h after Dose 1 on the fast clock): a hold records wake-final
    # and asks the check-in; its first question is spoken after the chime.
    st = status_until(g, lambda s: iso_epoch(s["now"]) >= d1 + 5 * 3600 + 30, 5 * 3600 / speed + 60)
    ew = parse_edges(g.ssh("vbox press 1300").stdout)
    q1 = watched(g, "s11", speech_line(after=ew[0][0]), 30)
    check(q1 is not None, problems, "no speech after the morning hold")
    watched(g, "s11", quiet_line(parse_kv(q1)["on"] if q1 else ew[-1][0]), 60)
    st = status_json(g)
    check(st["asking"] == "checkin_question_1" and st["phase"] == "finalizing", problems,
          f"after the morning hold: asking {st['asking']}, phase {st['phase']}")
    # 3. Two presses, 300 ms apart: the answer 2, said back with the next question.
    ea = parse_edges(g.ssh("vbox edges 0:d,120:u,420:d,540:u").stdout)
    said = journal_wait(g, "boxd", cursor, ["say \"Sleep 2 of 5. Question 2:"], 30)
    check(said is not None, problems, "two presses: no \"Sleep 2 of 5.\" said")
    a2 = watched(g, "s11", speech_line(after=ea[-1][0]), 30)
    watched(g, "s11", quiet_line(parse_kv(a2)["on"] if a2 else ea[-1][0]), 60)
    st = status_json(g)
    check(st["asking"] == "checkin_question_2", problems, f"after the answer: asking {st['asking']}")
    cap, led_text = split_watch(g.ssh("vbox unwatch s11").stdout)
    journal = g.ssh(f"journalctl -u boxd --after-cursor='{cursor}' -o cat --no-pager | grep -E 'say |speech dropped|sound ' || true").stdout
    (RUN / "s11-bedside.txt").write_text(cap + "--- led" + led_text + f"\nedges d1 {e1} hold {eh} wake {ew} answer {ea}\n--- journal\n{journal}")
    tones, utts = parse_tones(cap), utterances(parse_speech(cap))
    # The skip sound: A4 then E4, from the moment the hold reached 3 s.
    a4 = first(tones, lambda t: t["note"] == "A4" and t["on"] > counted)
    e4 = first(tones, lambda t: t["note"] == "E4" and a4 is not None and t["on"] > a4["on"])
    check(a4 is not None and e4 is not None, problems, f"skip sound: A4 {a4}, E4 {e4}")
    if a4:
        lat = (a4["on"] - (eh[0][0] + SKIP_HOLD_S)) * 1000
        figs.append(f"long hold: skip sound (A4 {a4['ms']:.0f} ms, E4 {e4['ms'] if e4 else 0:.0f} ms) {lat:.0f} ms after the 3 s mark")
        check(-5 <= lat <= 1000, problems, f"skip sound {lat:.0f} ms after the 3 s mark")
    check(not first(tones, lambda t: t["note"] == "A4" and t["on"] < counted), problems, "the skip sound before the hold counted")
    # The first question: one sentence after the hold's chime, as long as its words.
    first_q = re.search(r'say "(Good morning\.[^"]*Question 1:[^"]*)"', journal)
    check(first_q is not None, problems, f"the morning sentence is not in the journal: {journal[-400:]!r}")
    u = first(utts, lambda x: x["on"] > ew[0][0])
    chime = first(tones, lambda t: t["note"] == "G5" and t["on"] > ew[0][0])
    if u and first_q:
        words = spoken_words(first_q.group(1))
        ok = 0.15 * words <= u["ms"] / 1000 <= 0.8 * words and u["rms"] >= 0.03
        check(ok, problems, f"the first question: {u['ms']:.0f} ms, rms {u['rms']:.3f} for {words} words")
        check(chime is not None and u["on"] >= chime["off"], problems, "the first question did not follow the hold's chime")
        figs.append(f"morning hold -> chime, then the first question spoken {u['ms']:.0f} ms ({words} words, "
                    f"starts {(u['on'] - ew[0][0]) * 1000:.0f} ms after the press)")
    else:
        problems.append(f"the first question not heard on the card (utterances after the hold: {u})")
    figs.append("two presses -> \"Sleep 2 of 5.\" and question 2" if said else "two presses: no answer")
    return R.add("11 the bedside by the button (skip sound, check-in question)", not problems,
                 "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def scenario_gestures(g: Guest, speed: int = 240) -> bool:
    """(2) Gestures through the kernel: bouncy press, hold (undo), double (snooze), confirm hold."""
    problems: list[str] = []
    figs: list[str] = []
    per_min = 60 / speed
    bouncy = "0:d,3:u,6:d,9:u,12:d,14:u,16:d,180:u,183:d,186:u,189:d,192:u"
    # --- Bouncy presses: chatter of 16 ms on the press and 12 on the release (a switch's
    # bounce is a few ms; the debounce time is 30), each on a fresh night. The
    # kernel reports every edge (gpiomon shows them in order); boxd must see one press. Half
    # of them with an SD card's fsync (+80 ms per commit, slowsync.so): the release's chatter
    # then waits in the edge stream while boxd commits Dose 1.
    # A stall of the guest can stretch the chatter past the debounce time before the kernel
    # stamps it, and then boxd is right to see two presses. So each trial is judged on the
    # edges as the kernel stamped them (boxd --verbose logs them): one whose chatter the
    # kernel saw longer than the debounce time is set aside, told in the figures, and another
    # run in its place, up to 20 more (a trixie guest beside an arm64 build set aside 11 of 30).
    trials, spurious, doses, stretched, merged = 20, 0, [], [], 0
    written = len(bouncy.split(","))
    k = 0
    while len(doses) < trials and k < 2 * trials:
        slow = " --env LD_PRELOAD=/usr/local/lib/vbox/slowsync.so" if k % 2 else ""
        k += 1
        # `vbox fresh` returns at READY=1, which boxd sends after it requested the lines and
        # started reading their edges: the kernel queues every edge from here on.
        g.ssh(f"vbox fresh --flags '--clock fast:{speed} --verbose'{slow}")
        cursor = journal_cursor(g, "boxd")
        g.ssh(f"vbox edges {bouncy}")
        # Dose 1's chime: the press was decided (the double gap passed after its release).
        journal_wait(g, "boxd", cursor, ["sound success"], 10)
        # Then a watch for what must not come: a second press from the chatter would answer
        # 'already recorded' within the double gap (400 ms) of its release. The wait returns
        # as soon as it does; 1 s on the guest's clock bounds it.
        again = journal_wait(g, "boxd", cursor, ["sound already_recorded"], 1)
        text = boxd_journal(g, cursor)
        stamped = kernel_edges(g, cursor, text=text)
        merged += written - len(stamped)
        if not one_press(stamped):
            stretched.append("/".join(f"{x:.0f}" for x in chatter_spans(stamped)) + f" ({len(stamped)} edges)")
            continue
        doses.append(db_query(g, "SELECT count(*) FROM dose_events WHERE event_type='dose1'"))
        spurious += 1 if again else 0
    check(len(doses) == trials and spurious == 0 and all(d == "1" for d in doses), problems,
          f"bouncy press: {spurious} of {len(doses)} gave a second press (boxd played 'already recorded')"
          + (f"; only {len(doses)} of {trials} trials had chatter within {DEBOUNCE_MS} ms" if len(doses) < trials else ""))
    figs.append(f"bouncy press x{len(doses)} ({written} edges written, one press within {DEBOUNCE_MS} ms by the kernel's stamps; every second one with fsync +80 ms): "
                f"Dose 1 rows {'/'.join(doses)}, {spurious} of {len(doses)} also registered a second press ('already recorded')"
                + (f"; {merged} of {written * k} edges written never reached boxd" if merged else "")
                + (f"; {len(stretched)} set aside, the kernel stamped their chatter over {', '.join(stretched)} ms" if stretched else ""))

    # --- Undo, on the real clock (the undo window is box time: at fast:N it would be 5/N s):
    # a press takes Dose 1, a hold within 5 s undoes it, a press after the window takes it again.
    g.ssh("vbox fresh")  # returns at READY=1, edges read from then on (see the loop above)
    g.ssh("vbox watch s2u 20")  # returns once the capture and the LED watcher run
    e0 = parse_edges(g.ssh("vbox press 150").stdout)
    # The hold once Dose 1 is on disk: its chime (played after the commit) has ended.
    follow(g, "tail -n +1 -f /run/vbox/s2u.cap", tone_line(after=e0[-1][0], notes=("G5",)), 10)
    eh = parse_edges(g.ssh("vbox press 1300").stdout)
    st = status_until(g, lambda s: s["dose1_at"] is None, 5)
    undone = db_query(g, "SELECT count(*) FROM dose_events WHERE event_type='dose1' AND undone_at IS NOT NULL")
    check(st["dose1_at"] is None and undone == "1", problems, f"hold: dose1_at {st['dose1_at']}, undone rows {undone}")
    # The next press once Dose 1's undo window (from its release, on the guest's clock) is over:
    # within it, a press would be a repeat of the undone dose.
    sleep_until_guest(g, e0[-1][0] + UNDO_S + 1.0)
    g.ssh("vbox press 150")
    st = status_until(g, lambda s: s["dose1_at"] is not None, 5)
    rows = db_query(g, "SELECT count(*) FROM dose_events WHERE event_type='dose1'")
    check(st["dose1_at"] is not None and rows == "2", problems, f"press after the undo: dose1_at {st['dose1_at']}, rows {rows}")
    cap, led_text = split_watch(g.ssh("vbox unwatch s2u").stdout)
    (RUN / "s2u.txt").write_text(cap + "--- led" + led_text + f"\nedges {e0} {eh}\n")
    led = parse_led(led_text)
    undone_led = [r for r in led_runs(led, eh[0][0] + 0.9, eh[-1][0] + 1.6) if r[0] == "111" and r[2]]
    check(len(undone_led) == 3, problems, f"undo flash: {len(undone_led)} white blinks")
    figs.append(f"hold 1.3 s, {(eh[0][0] - e0[-1][0]):.1f} s after Dose 1: {'undone' if undone == '1' else 'NOT undone'}, "
                f"LED undo flash {len(undone_led)} white blinks; press after the undo window: Dose 1 again ({rows} rows, 1 undone)")

    # --- Night A (fast clock): a press takes Dose 1; blue slow pulse; in the window a double
    # press snoozes and a bouncy single press takes Dose 2.
    g.ssh(f"vbox fresh --flags '--clock fast:{speed} --verbose'")  # returns at READY=1
    g.ssh("vbox watch s2a 60")  # returns once the capture and the LED watcher run
    e1 = parse_edges(g.ssh("vbox press 150").stdout)
    st = status_until(g, lambda s: s["dose1_at"] is not None, 5)
    check(st["dose1_at"] is not None, problems, "press: no Dose 1")
    # Minute 156 of the night (in the window, which opens at 150): a time point on the fast
    # clock, from Dose 1's release edge on the guest's clock.
    sleep_until_guest(g, e1[-1][0] + 156 * per_min)
    cursor = journal_cursor(g, "boxd")
    ed = parse_edges(g.ssh("vbox edges 0:d,120:u,250:d,370:u").stdout)
    st = status_until(g, lambda s: s["snoozes_used"] >= 1 or s["dose2_at"] is not None, 5)
    check(st["snoozes_used"] == 1 and st["dose2_at"] is None, problems, f"double: snoozes {st['snoozes_used']}, dose2 {st['dose2_at']}")
    figs.append(f"double press in the window: snooze {st['snoozes_used']} of 3")
    # The bouncy press below is judged by the edges boxd logs (--verbose) after a cursor: the
    # cursor is taken once the double's own edges are in the journal, its second release last.
    ups = [0]

    def second_up(line: str) -> bool:
        ups[0] += line.startswith("edge dose up ")
        return ups[0] >= 2
    if not follow(g, f"journalctl -u boxd --after-cursor='{cursor}' -f -o cat" if cursor else "journalctl -u boxd --since=-5s -f -o cat",
                  second_up, 5):
        problems.append(f"the double press's release edges: {ups[0]} of 2 in boxd's journal within 5 s")
    cursor = journal_cursor(g, "boxd")
    e2 = parse_edges(g.ssh(f"vbox edges {bouncy}").stdout)
    st = status_until(g, lambda s: s["dose2_at"] is not None or s["snoozes_used"] >= 2, 5)
    # Judged only when the kernel stamped the chatter within the debounce (see the trials above).
    text2 = boxd_journal(g, cursor)
    stamped2 = kernel_edges(g, cursor, text=text2)
    spans2, in_spec = chatter_spans(stamped2), one_press(stamped2)
    check(not in_spec or (st["dose2_at"] is not None and st["snoozes_used"] == 1), problems,
          f"bouncy press in the window (double means snooze here): dose2 {st['dose2_at']}, snoozes {st['snoozes_used']}")
    figs.append(f"bouncy press in the window: {'Dose 2' if st['dose2_at'] else 'no Dose 2'}, snoozes {st['snoozes_used']}"
                + ("" if in_spec else f" (not judged: the kernel stamped its chatter over {'/'.join(f'{x:.0f}' for x in spans2)} ms)"))
    cap, led_text = split_watch(g.ssh("vbox unwatch s2a").stdout)
    (RUN / "s2a.txt").write_text(cap + "--- led" + led_text + f"\nedges {e1} {ed} {e2}\n")
    led = parse_led(led_text)
    blue = pattern_stats(led_runs(led, e1[-1][0] + 2.0, e1[-1][0] + 148 * per_min), "001")
    green = pattern_stats(led_runs(led, e1[-1][0] + 150.5 * per_min, ed[0][0]), "010")
    check(blue[0] >= 3 and abs(blue[1] - 150) <= 40 and abs(blue[2] - 3000) <= 80, problems, f"blue slow pulse {blue}")
    check(green[0] >= 1 and abs(green[1] - 150) <= 40, problems, f"green pulse {green}")
    figs.append(f"LED: blue slow pulse x{blue[0]} on {blue[1]:.0f} ms every {blue[2]:.0f} ms (150/3000), "
                f"green pulse x{green[0]} on {green[1]:.0f} ms" + (f" every {green[2]:.0f} ms (150/1000)" if green[2] else ""))

    # --- Night B: a press at 130 min asks for a confirmation; a 2.5 s hold confirms Dose 2 early.
    g.ssh(f"vbox fresh --flags '--clock fast:{speed}'")  # returns at READY=1
    g.ssh("vbox watch s2b 60")
    e1 = parse_edges(g.ssh("vbox press 150").stdout)
    # Minute 130 of the night (before the window): a time point on the fast clock, from Dose
    # 1's release edge on the guest's clock.
    sleep_until_guest(g, e1[-1][0] + 130 * per_min)
    ep = parse_edges(g.ssh("vbox press 150").stdout)
    st = status_until(g, lambda s: s["pending_confirmation"] is not None or s["dose2_at"] is not None, 5)
    check(st["pending_confirmation"] is not None and st["dose2_at"] is None, problems,
          f"early press: pending {st['pending_confirmation']}, dose2 {st['dose2_at']}")
    pend = st["pending_confirmation"]
    # The hold once four of the confirmation's amber blinks have been seen whole (the check
    # below counts them from 0.3 s after the press to the hold), well inside the 15 s question.
    if not watched(g, "s2b", led_blinks("110", ep[-1][0] + 0.3, 4), 8, kind="led"):
        problems.append("four amber blinks of the confirmation did not come within 8 s of the early press")
    ec = parse_edges(g.ssh("vbox press 2500").stdout)
    st = status_until(g, lambda s: s["dose2_at"] is not None, 5)
    meta = db_query(g, "SELECT metadata FROM dose_events WHERE event_type='dose2'")
    # The confirmation is asked for CONFIRMATION_WINDOW_S of real time. The hold reaches its
    # 2 s in time unless the rig itself was slow (its ssh round trips on a loaded host): then
    # the question had lapsed, which is right, and the check says so instead of failing boxd.
    confirm_by = ep[-1][0] + CONFIRMATION_WINDOW_S
    in_time = ec[0][0] + CONFIRM_HOLD_S < confirm_by
    check(not in_time or (st["dose2_at"] is not None and st["pending_confirmation"] is None and "early" in meta), problems,
          f"confirm hold: dose2 {st['dose2_at']}, pending {st['pending_confirmation']}, metadata {meta}")
    if not in_time:
        figs.append(f"confirm hold not judged: it reached 2 s {ec[0][0] + CONFIRM_HOLD_S - ep[-1][0]:.1f} s after the press, "
                    f"past the {CONFIRMATION_WINDOW_S} s question (the rig was slow)")
    cap, led_text = split_watch(g.ssh("vbox unwatch s2b").stdout)
    (RUN / "s2b.txt").write_text(cap + "--- led" + led_text)
    led, tones = parse_led(led_text), parse_tones(cap)
    amber = pattern_stats(led_runs(led, ep[-1][0] + 0.3, ec[0][0]), "110")
    check(amber[0] >= 4 and abs(amber[1] - 80) <= 30, problems, f"confirm_early amber blinks {amber}")
    warn = first(tones, lambda t: t["note"] == "G5" and ep[0][0] < t["on"] < ep[-1][0] + 1.5)
    check(warn is not None, problems, "no warning tone for the early press")
    chime = first(tones, lambda t: t["note"] == "C5" and t["on"] > ec[0][0])
    figs.append(f"press at 130 min: pending {pend}, warning tone, amber blinks x{amber[0]} on {amber[1]:.0f} ms; "
                f"hold 2.5 s: Dose 2 early {meta}, chime {((chime['on'] - ec[0][0]) * 1000) if chime else float('nan'):.0f} ms after the press edge (confirm hold 2000 ms)")
    return R.add("2 gestures through the kernel", not problems,
                 f"fast:{speed}; " + "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def scenario_watchdog(g: Guest) -> bool:
    """(4) SIGSTOP boxd while an alarm falls due; systemd's watchdog restarts it; the alarm rings once."""
    problems: list[str] = []
    g.ssh("vbox-helper adjtimex sync")
    unit = dict(line.split("=", 1) for line in g.ssh("systemctl show boxd -p WatchdogUSec,RestartUSec,TimeoutAbortUSec").stdout.split())
    g.ssh("vbox watch s4 110")
    seed = g.ssh(f"vbox seed {WINDOW_OPEN_S - 20}").stdout
    dose1 = iso_epoch(db_query(g, "SELECT timestamp FROM dose_events WHERE event_type='dose1'"))
    # boxd frozen once it has the seeded night and the alarm that falls due while it is frozen.
    before = status_until(g, lambda s: s.get("dose1_at") is not None
                          and (s.get("next_alarm") or {}).get("kind") == "window_open", 10)
    if (before.get("next_alarm") or {}).get("kind") != "window_open":
        return R.add("4 watchdog", False, f"boxd did not have the seeded night's window_open alarm within 10 s: {before}")
    pid = g.ssh("systemctl show boxd -p MainPID --value").stdout.strip()
    cursor = journal_cursor(g, "boxd")
    c = parse_kv(g.ssh(f"kill -STOP {pid}; vbox-helper clocks").stdout)
    t_stop = c["mono"]
    due = dose1 + WINDOW_OPEN_S - (c["real"] - c["mono"])

    def new_boxd() -> dict | None:
        sh_ = dict(line.split("=", 1) for line in g.ssh("systemctl show boxd -p MainPID,ActiveState,NRestarts,ExecMainStartTimestampMonotonic").stdout.split())
        return sh_ if sh_["MainPID"] not in (pid, "0") and sh_["ActiveState"] == "active" else None
    restarted = wait_until(new_boxd, 90, interval=1)
    if not restarted:
        return R.add("4 watchdog", False, f"boxd (pid {pid}, SIGSTOPped) was not restarted within 90 s")
    t_start = int(restarted["ExecMainStartTimestampMonotonic"]) / 1e6
    journal = g.ssh("journalctl -u boxd -o short-monotonic --no-pager -n 80").stdout
    (RUN / "s4-journal.txt").write_text(journal)
    wd = re.search(r"\[\s*([\d.]+)\].*[Ww]atchdog timeout", journal)
    killed = re.search(r"\[\s*([\d.]+)\].*(?:Killing process|State 'stop-sigabrt' timed out|Main process exited)", journal)
    # The new boxd rings the alarm that fell due while the old one was frozen: its start in the
    # journal, then its tones in the capture. It has rung three gentle cycles (two E5 beeps every
    # 1.5 s) when six of them are in: a second start (a catch-up ring and a scheduled one both)
    # would be in the journal by then, and the count below would see it.
    journal_wait(g, "boxd", cursor, ["sound window_open"], 30)
    if not watched(g, "s4", tones_seen(t_start, ("E5",), 6), 20):
        problems.append("the window_open ring after the restart: not three cycles (six E5 beeps) in the capture within 20 s")
    after = status_json(g)
    journal2 = g.ssh(f"journalctl -u boxd -o short-monotonic --no-pager _PID={restarted['MainPID']}").stdout
    rings = len(re.findall(r"sound window_open", journal2))
    cap, _ = split_watch(g.ssh("vbox unwatch s4").stdout)
    (RUN / "s4.txt").write_text(seed + cap)
    tones = parse_tones(cap)
    frozen = [t for t in tones if t_stop + 0.3 < t["on"] < t_start]
    ring = first(tones, lambda t: t["note"] == "E5" and t["on"] > t_start)
    check(not frozen, problems, f"{len(frozen)} tones while boxd was frozen")
    check(ring is not None, problems, "window_open did not ring after the restart")
    check(rings == 1, problems, f"window_open started {rings} times after the restart")
    check(after["dose1_at"] == before["dose1_at"] and after["phase"] == "active", problems,
          f"night after restart: dose1 {after['dose1_at']} (was {before['dose1_at']}), phase {after['phase']}")
    wd_s = float(unit["WatchdogUSec"].rstrip("s")) if unit["WatchdogUSec"].endswith("s") and unit["WatchdogUSec"][:-1].replace(".", "").isdigit() else 30
    budget = wd_s + 3  # WatchdogSec + RestartSec
    took = t_start - t_stop
    check(took <= budget + 1, problems, f"restart {took:.1f} s after SIGSTOP > WatchdogSec + RestartSec = {budget:.0f} s")
    return R.add("4 watchdog", not problems,
                 f"SIGSTOP at {t_stop:.1f}; watchdog timeout +{(float(wd.group(1)) - t_stop) if wd else float('nan'):.1f} s, "
                 f"kill +{(float(killed.group(1)) - t_stop) if killed else float('nan'):.1f} s, new boxd started +{took:.1f} s "
                 f"(unit: WatchdogSec={unit['WatchdogUSec']} RestartSec={unit['RestartUSec']} TimeoutAbortSec={unit['TimeoutAbortUSec']}); "
                 f"window_open fell due +{due - t_stop:.1f} s while frozen, rang {((ring['on'] - t_start) if ring else float('nan')):.1f} s after the restart, "
                 f"started {rings}x; night resumed: phase {after['phase']}, same Dose 1"
                 + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def unit_show(g: Guest, props: str) -> dict:
    return dict(line.split("=", 1) for line in g.ssh(f"systemctl show boxd -p {props}").stdout.splitlines() if "=" in line)


def scenario_members(g: Guest) -> bool:
    """(8) boxctl as a member of group boxd: not root, no sudo. status, history and export
    with boxd running, and again with boxd stopped (read-only from the night log, which is
    WAL: the reader needs the -shm file), under the modes systemd's StateDirectory= gives."""
    problems: list[str] = []
    g.ssh("vbox fresh")  # returns at READY=1
    g.ssh("vbox press 150")
    status_until(g, lambda s: s["dose1_at"] is not None, 5)
    who = g.ssh("id -u; id -nG; command -v sudo || echo no-sudo; sudo -n true 2>&1 || true", user="sleeper", check=False).stdout.split("\n")
    uid, groups = who[0].strip(), who[1].split()
    check(uid != "0" and "boxd" in groups and "sudo" not in groups and "root" not in groups, problems,
          f"sleeper: uid {uid}, groups {groups}")
    check(any("no-sudo" in w for w in who), problems, f"sudo present: {who[2:]}")
    figs = [f"sleeper uid {uid}, groups {' '.join(groups)}, no sudo in the image"]

    def as_sleeper(state: str) -> None:
        out = {}
        for name, cmd in [("status", "boxctl status"), ("history", "boxctl history"),
                          ("export", f"rm -rf ~/export-{state} && boxctl export --out ~/export-{state} && ls ~/export-{state} | wc -l")]:
            r = g.ssh(cmd, user="sleeper", check=False)
            out[name] = r
            (RUN / f"s8-{state}-{name}.txt").write_text(f"$ {cmd}\nexit {r.returncode}\n{r.stdout}{r.stderr}")
        st, hi, ex = out["status"], out["history"], out["export"]
        d1 = re.search(r"Dose 1: (\d\d:\d\d)", st.stdout)
        stopped_note = "not running" in st.stdout
        check(st.returncode == 0 and d1 is not None and stopped_note == (state == "stopped"), problems,
              f"boxd {state}: status exit {st.returncode}: {(st.stdout + st.stderr).strip()[:160]}")
        hist_line = next((l for l in hi.stdout.splitlines() if re.match(r"\s*\d{4}-\d\d-\d\d", l)), "")
        check(hi.returncode == 0 and hist_line, problems, f"boxd {state}: history exit {hi.returncode}: {(hi.stdout + hi.stderr).strip()[:160]}")
        files = ex.stdout.strip().splitlines()[-1] if ex.stdout.strip() else "0"
        csv = g.ssh(f"wc -l < ~/export-{state}/events.csv", user="sleeper", check=False).stdout.strip()
        check(ex.returncode == 0 and csv.isdigit() and int(csv) >= 2, problems,
              f"boxd {state}: export exit {ex.returncode}, events.csv {csv or 'missing'} lines: {(ex.stdout + ex.stderr).strip()[:160]}")
        figs.append(f"boxd {state}: status exit {st.returncode} (Dose 1 {d1.group(1) if d1 else None}"
                    f"{', ' + next(l.strip() for l in st.stdout.splitlines() if 'not running' in l) if stopped_note else ''}), "
                    f"history exit {hi.returncode} "
                    f"({' '.join(hist_line.split()[:3])}), export exit {ex.returncode} ({files} files, events.csv {csv} lines)")

    as_sleeper("running")
    g.ssh("systemctl stop boxd")
    modes = g.ssh("cd /var/lib/boxd && stat -c '%n %a %U:%G' . nightlog.sqlite* | tr '\\n' ','").stdout.strip(", ")
    as_sleeper("stopped")
    shm = g.ssh("test -e /var/lib/boxd/nightlog.sqlite-shm && echo yes || echo no").stdout.strip()
    foreign = g.ssh("find /var/lib/boxd ! -user boxd -printf '%P '", check=False).stdout.strip()
    check(not foreign, problems, f"files in /var/lib/boxd not owned by boxd after the readers: {foreign}")
    r = g.ssh("runuser -u nobody -- boxctl status", check=False)
    check(r.returncode != 0, problems, f"a user outside group boxd read the log: {r.stdout[:120]}")
    g.ssh("systemctl start boxd")
    figs.append(f"state directory as systemd left it (boxd stopped): {modes}; -shm present {shm}; "
                f"nothing in it owned by another user after the reads ({foreign or 'all boxd'}); "
                f"user nobody refused (exit {r.returncode}: {(r.stdout + r.stderr).strip().splitlines()[-1][:80] if (r.stdout + r.stderr).strip() else ''})")
    return R.add("8 boxctl as a member of group boxd (not root)", not problems,
                 "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def boxd_switches(g: Guest) -> int:
    """boxd's context switches so far, every thread's, voluntary and not: each is a wake-up."""
    pid = g.ssh("systemctl show -p MainPID --value boxd").stdout.strip()
    out = g.ssh(f"cat /proc/{pid}/task/*/status | awk '/ctxt_switches/ {{n += $2}} END {{print n}}'").stdout.strip()
    return int(out)


def quiet_night_wakeups(g: Guest, config: str, seconds: float = 30) -> float:
    """boxd's wake-ups per second through `seconds` of a night waiting for Dose 2, from a fresh
    start on `config` (the drop-in's --config): Dose 1 pressed, its chime and words over first."""
    g.ssh(f"vbox fresh --config {config}")
    g.ssh("vbox press 150")
    status_until(g, lambda s: s["dose1_at"] is not None, 10)
    time.sleep(15)  # the acknowledgement, the chime and the spoken Dose 1 (slow under TCG) are over
    before, t0 = boxd_switches(g), time.monotonic()
    time.sleep(seconds)  # the quiet night itself, measured: nothing the rig does may wake boxd
    return (boxd_switches(g) - before) / (time.monotonic() - t0)


def scenario_kernel_led(g: Guest) -> bool:
    """(12) The LED as an LED class device that the kernel animates ([led] class = "dosetap"),
    as dtoverlay=gpio-led makes one on a Pi: here uleds makes it, and reports each brightness
    the kernel sets. The package's udev rule selects the pattern trigger and gives group gpio
    its files; boxd, in its sandbox, writes each pattern once. Dose 1's slow pulse then blinks
    (150 ms every 3 s) while boxd sleeps: its wake-ups over 30 s against the same night with
    the LED on gpio-sim lines. Stopping boxd darkens the LED, as released lines do."""
    problems: list[str] = []
    figs: list[str] = []
    leds = "/sys/class/leds/dosetap"
    g.ssh("modprobe uleds && systemd-run --unit=vbox-uled -p StandardOutput=file:/run/vbox/uled.txt "
          "/usr/local/bin/vbox-helper uled dosetap 900")
    wait_until(lambda: "ULED ready" in g.ssh("cat /run/vbox/uled.txt", check=False).stdout, 10)
    g.ssh("udevadm settle")
    trigger = g.ssh(f"cat {leds}/trigger", check=False).stdout.split()
    perms = g.ssh(f"stat -c '%n %G %a' {leds}/pattern {leds}/repeat", check=False).stdout.split("\n")[:2]
    check("[pattern]" in trigger and all(p.endswith(" gpio 664") for p in perms), problems,
          f"after udev: trigger {[t for t in trigger if t.startswith('[')]}, files {perms}")
    figs.append(f"uleds LED dosetap: udev selected {[t for t in trigger if t.startswith('[')]}, {'; '.join(perms)}")
    conf, section = [], ""
    for line in g.ssh("cat /etc/boxd/boxd.toml").stdout.splitlines():
        section = line.strip() if line.startswith("[") else section
        if section == "[led]" and re.match(r"(red|green|blue|active_low)\s*=", line):
            continue
        conf.append(line)
        if line.strip() == "[led]":
            conf.append('class = "dosetap"')
    g.ssh("cat > /etc/boxd/boxd-kled.toml", input="\n".join(conf) + "\n")
    kernel_rate = quiet_night_wakeups(g, "/etc/boxd/boxd-kled.toml")
    pattern = g.ssh(f"cat {leds}/pattern", check=False).stdout.strip()
    said = g.ssh("journalctl -u boxd -b --no-pager -o cat | grep -E '^LED' | tail -n 3", check=False).stdout.strip()
    check(pattern == "1 150 1 0 0 2850 0 0" and "the kernel plays its patterns (dosetap)" in said, problems,
          f"after Dose 1: pattern {pattern!r}; boxd said {said!r}")
    end = guest_mono(g)  # now, on the helper's clock: an LED that stopped blinking shows as fewer blinks
    uled = [(float(m.group(1)), int(m.group(2))) for m in re.finditer(r"ULED t=([0-9.]+) b=(\d+)", g.ssh("cat /run/vbox/uled.txt").stdout)]
    # The last 20 s of the quiet night: whole lit runs and the time from one to the next.
    ons = [(t, nxt - t) for (t, b), (nxt, _) in zip(uled, uled[1:]) if b == 1 and t > end - 20]
    lit = [round(d * 1000) for _, d in ons]
    gaps = [round((b[0] - a[0]) * 1000) for a, b in zip(ons, ons[1:])]
    check(len(ons) >= 5 and all(100 <= d <= 250 for d in lit) and all(2800 <= x <= 3200 for x in gaps), problems,
          f"the kernel's slow pulse: lit {lit} ms, every {gaps} ms")
    figs.append(f"boxd wrote the slow pulse once ({pattern!r}); the kernel lit it {len(ons)} times in 20 s, "
                f"{min(lit, default=0)}-{max(lit, default=0)} ms, every {min(gaps, default=0)}-{max(gaps, default=0)} ms")
    g.ssh("systemctl stop boxd")
    dark = g.ssh(f"cat {leds}/pattern", check=False).stdout.strip()
    last = [m.group(1) for m in re.finditer(r"b=(\d+)", g.ssh("cat /run/vbox/uled.txt").stdout)][-1:]
    check(dark == "0 3600000 0 0" and last == ["0"], problems, f"boxd stopped: pattern {dark!r}, last brightness {last}")
    lines_rate = quiet_night_wakeups(g, "/etc/boxd/boxd.toml")
    check(kernel_rate <= lines_rate - 0.4, problems,
          f"boxd's wake-ups: {kernel_rate:.2f}/s with the kernel's LED, {lines_rate:.2f}/s on GPIO lines")
    figs.append(f"boxd stopped: the LED dark ({dark!r}); boxd's wake-ups through 30 s of the night (watchdog included): "
                f"{kernel_rate:.2f}/s with the kernel's LED, {lines_rate:.2f}/s with the LED on gpio-sim lines")
    g.ssh("systemctl stop vbox-uled; rm -f /etc/boxd/boxd-kled.toml; vbox fresh", check=False)
    return R.add("12 the LED played by the kernel (LED class, pattern trigger)", not problems,
                 "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def journal_cursor(g: Guest, unit: str) -> str:
    """Where `unit`'s journal ends now: a later `journal_wait` sees only what comes after."""
    m = re.search(r"-- cursor: (\S+)", g.ssh(f"journalctl -u {unit} -n 1 -o cat --show-cursor --no-pager", check=False).stdout)
    return m.group(1) if m else ""


def follow(g: Guest, command: str, done: Callable[[str], bool], timeout: int) -> str | None:
    """Runs `command` in the guest and reads its output here as it comes (select on the pipe,
    no polling) until a line makes `done` true: that line, or None after `timeout` s or when
    the output ends."""
    p = subprocess.Popen(g.ssh_args() + [f"timeout {timeout} {command}"], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    buf, end = b"", time.monotonic() + timeout
    try:
        while True:
            while b"\n" in buf:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode(errors="replace")
                if done(line):
                    return line.strip()
            ready, _, _ = select.select([p.stdout], [], [], max(0.0, end - time.monotonic()))
            chunk = os.read(p.stdout.fileno(), 65536) if ready else b""
            if not chunk:
                return None
            buf += chunk
    finally:
        p.kill()
        p.wait()


def journal_wait(g: Guest, unit: str, cursor: str, patterns: list[str], timeout: int) -> str | None:
    """Blocks until every pattern has appeared in `unit`'s journal after `cursor` (journalctl -f,
    followed): the line that completed them, or None after `timeout` s."""
    since = f"--after-cursor='{cursor}'" if cursor else "--since=-2s"
    left = set(patterns)

    def done(line: str) -> bool:
        left.difference_update({pat for pat in left if pat in line})
        return not left
    return follow(g, f"journalctl -u {unit} {since} -f -o cat", done, timeout)


def tone_line(after: float, notes: tuple[str, ...]) -> Callable[[str], bool]:
    """For `follow` on a capture: true for a TONE line of one of `notes` starting after `after`."""
    def done(line: str) -> bool:
        if not line.startswith("TONE "):
            return False
        t = parse_kv(line)
        return isinstance(t.get("on"), float) and t["on"] > after and note_name(t["hz"]) in notes
    return done


def feed_entry(line: str) -> dict:
    """The feed entry of one `boxctl watch --json` frame; {} for any other line."""
    try:
        frame = json.loads(line)
    except ValueError:
        return {}
    return (frame.get("event") or {}) if isinstance(frame, dict) else {}


def status_line(g: Guest, prefix: str, timeout: float = 10) -> str | None:
    """`boxctl status`'s first line starting with `prefix`, asked until one comes or `timeout`
    seconds pass (None then). The bridge tells boxd its link on the watch connection, which
    boxd reads beside the status request: a line logged after the telling can come first."""
    return wait_until(lambda: next((l for l in g.ssh("boxctl status", check=False).stdout.splitlines()
                                    if l.startswith(prefix)), None), timeout, interval=0.2)


def scenario_caregiver(g: Guest) -> bool:
    """(9) The caregiver bridge as a caregiver meets it, under the real systemd: boxd-mqtt from
    the package and the distribution's mosquitto with a password. A press on the real GPIO line
    reaches a subscriber; the bridge's namespace has no night log; kill -9 gives the last will
    (offline) and systemd restarts the bridge; a broker outage is a fault in status, and the
    events of the outage follow when the broker is back. Every wait is on a line: the bridge's
    journal (journalctl -f) or a subscriber's next message (mosquitto_sub -C)."""
    problems: list[str] = []
    figs: list[str] = []
    pw = "night-s3cret"
    bridge_up = ["connected to the broker", "following boxd"]

    def subscriber(topics: list[str], count: int, extra: str = "") -> subprocess.Popen:
        """mosquitto_sub in the guest, its lines read here as they come; it leaves after `count`
        messages (or 30 s). A retained message first says it has subscribed."""
        ts = " ".join(f"-t {t}" for t in topics)
        cmd = f"mosquitto_sub -h 127.0.0.1 -u caregiver -P {pw} {ts} -F '%U %r %t %p' -C {count} -W 30 {extra}"
        return subprocess.Popen(g.ssh_args() + [cmd], stdout=subprocess.PIPE, text=True)

    g.ssh(f"""set -e
        printf 'listener 1883 127.0.0.1\nallow_anonymous false\npassword_file /etc/mosquitto/passwd\n' > /etc/mosquitto/conf.d/vbox.conf
        mosquitto_passwd -b -c /etc/mosquitto/passwd caregiver {pw}
        chown mosquitto: /etc/mosquitto/passwd && chmod 0600 /etc/mosquitto/passwd
        systemctl restart mosquitto
        printf '{pw}\n' > /etc/boxd/mqtt-password && chown root:boxd-mqtt /etc/boxd/mqtt-password && chmod 0640 /etc/boxd/mqtt-password
        cp /etc/boxd/boxd.toml /run/vbox/boxd.toml.before
        printf '\n[mqtt]\nenabled = true\nhost = "127.0.0.1"\nusername = "caregiver"\npassword_file = "/etc/boxd/mqtt-password"\nbox_id = "vbox"\nkeepalive_seconds = 5\n' >> /etc/boxd/boxd.toml""")
    try:
        off = g.ssh("systemctl show boxd-mqtt -p ActiveState -p Result -p ExecMainStatus --value | tr '\\n' ' '", check=False).stdout.strip()
        figs.append(f"before [mqtt]: boxd-mqtt {off} (exits 0 while the link is off)")
        cur = journal_cursor(g, "boxd-mqtt")
        g.ssh("vbox fresh && systemctl restart boxd-mqtt")
        came = journal_wait(g, "boxd-mqtt", cur, bridge_up, 30)
        link = status_line(g, "Caregiver link: up")
        check(came is not None and link is not None, problems, "the link did not come up within 30 s: "
              + g.ssh("journalctl -u boxd-mqtt -n 5 --no-pager", check=False).stdout[-300:])

        # A press on the GPIO line, seen by a subscriber.
        sub = subscriber(["dosetap/vbox/availability", "dosetap/vbox/event"], 3)
        first_msg = sub.stdout.readline()  # the retained `online`: subscribed
        g.ssh("vbox press 150")
        lines = [first_msg] + [sub.stdout.readline() for _ in range(2)]
        sub.wait()
        line = next((l for l in lines if '"event_type":"dose1"' in l), "")
        m = re.match(r"(\d+\.\d+) 0 dosetap/vbox/event (.*)", line.strip())
        if check(m is not None and '"source":"button:dose"' in line, problems, f"no dose1 event from the press: {lines}"):
            at = iso_epoch(json.loads(m.group(2))["at"])
            figs.append(f"press -> dose1 event at the subscriber: {(float(m.group(1)) - at) * 1000:.0f} ms after the stored time")

        # The bridge's own view of the file system: no night log.
        pid = g.ssh("systemctl show boxd-mqtt -p MainPID --value").stdout.strip()
        # As root there: an empty directory (InaccessiblePaths= mounts an empty one over it); as
        # the bridge's user: no entry at all.
        seen = g.ssh(f"nsenter -t {pid} -m ls -A /var/lib/boxd 2>&1; echo rc=$?", check=False).stdout.strip().replace("\n", " ")
        as_bridge = g.ssh(f"nsenter -t {pid} -m -S $(id -u boxd-mqtt) -G $(id -g boxd-mqtt) ls /var/lib/boxd 2>&1; echo rc=$?",
                          check=False).stdout.strip().replace("\n", " ")
        outside = g.ssh("ls /var/lib/boxd | tr '\\n' ' '", check=False).stdout.strip()
        check("nightlog" in outside and "nightlog" not in seen and "nightlog" not in as_bridge and "rc=0" not in as_bridge, problems,
              f"the bridge's namespace shows the night log: as root `{seen}`, as boxd-mqtt `{as_bridge}`")
        figs.append(f"/var/lib/boxd outside: {outside}; in boxd-mqtt's mount namespace as root: `{seen}`, as boxd-mqtt: `{as_bridge}`")
        # The bridge's user may read through the socket, never change the night.
        ro = g.ssh("runuser -u boxd-mqtt -- boxctl take 2>&1; echo rc=$?", check=False).stdout.strip().replace("\n", " ")
        check("403_READ_ONLY" in ro or "may only read" in ro, problems, f"boxd-mqtt's user could send take: {ro}")
        figs.append(f"`boxctl take` as boxd-mqtt: {ro[-90:]}")
        sec = g.ssh("systemd-analyze security boxd-mqtt 2>&1 | tail -1", check=False).stdout.strip()
        figs.append(sec.replace("→ ", ""))

        # Power gone (kill -9): the broker's last will, then systemd brings the bridge back.
        sub2 = subscriber(["dosetap/vbox/availability"], 2)
        online = sub2.stdout.readline()
        cur = journal_cursor(g, "boxd-mqtt")
        t_kill = float(g.ssh("date +%s.%N && systemctl kill -s KILL boxd-mqtt").stdout.split()[0])
        offline = sub2.stdout.readline().strip()
        sub2.wait()
        if check(online.strip().endswith("availability online") and offline.endswith("availability offline"), problems,
                 f"no offline (last will) after kill -9: {online!r} {offline!r}"):
            figs.append(f"kill -9 -> offline at the subscriber in {float(offline.split()[0]) - t_kill:.2f} s (keepalive 5 s)")
        came = journal_wait(g, "boxd-mqtt", cur, bridge_up, 30)
        restarts = g.ssh("systemctl show boxd-mqtt -p NRestarts --value").stdout.strip()
        check(came is not None and status_line(g, "Caregiver link: up") is not None and restarts not in ("", "0"), problems,
              f"systemd did not restart the bridge to a working link within 30 s (NRestarts={restarts})")
        figs.append(f"restarted by systemd (NRestarts={restarts})")

        # The broker goes away: a fault in status (no tone); what happened meanwhile follows.
        # A caregiver's phone with a session the broker keeps (it subscribes and leaves).
        g.ssh(f"mosquitto_sub -h 127.0.0.1 -u caregiver -P {pw} -c -i vbox-phone -q 1 -t dosetap/vbox/event -E")
        cur = journal_cursor(g, "boxd-mqtt")
        g.ssh("systemctl stop mosquitto")
        lost = journal_wait(g, "boxd-mqtt", cur, ["lost the broker"], 15)
        down = status_line(g, "Caregiver link: DOWN")
        check(lost is not None and down is not None, problems, f"status did not show the link down: {lost!r} {down!r}")
        g.ssh("boxctl log bathroom >/dev/null")  # committed when boxctl returns: status counts it
        queued = status_line(g, "Caregiver link: DOWN since")
        figs.append(f"broker stopped: `{queued}`")
        check(queued is not None and "1 event queued" in queued, problems, f"status did not count the queued event: {queued!r}")
        cur = journal_cursor(g, "boxd-mqtt")
        g.ssh("systemctl start mosquitto")
        acked = journal_wait(g, "boxd-mqtt", cur, ["connected to the broker", "the broker has every event up to"], 60)
        after = status_line(g, "Caregiver link: up")
        phone = g.ssh(f"mosquitto_sub -h 127.0.0.1 -u caregiver -P {pw} -c -i vbox-phone -q 1 -t dosetap/vbox/event -C 1 -W 10",
                      check=False).stdout.strip()
        check(acked is not None and after is not None and after.startswith("Caregiver link: up") and "queued" not in after
              and '"type":"bathroom"' in phone, problems,
              f"the queued event was not delivered after the broker's return: {acked!r} {after!r} phone {phone[:120]!r}")
        figs.append(f"broker back: `{after}`; the phone's session got the sleep event of the outage")

        # A button held down past the stuck guard on the real line (Dose 1 is long past its
        # undo window, so the hold itself only shows the status): the caregiver hears of the
        # stuck button, with what to do, and of its end when the line is released.
        sub3 = subscriber(["dosetap/vbox/availability", "dosetap/vbox/event"], 3)
        sub3.stdout.readline()  # the retained `online`: subscribed
        g.ssh(f"vbox press {STUCK_GUARD_S * 1000 + 1500}")
        stuck = [sub3.stdout.readline().strip() for _ in range(2)]
        sub3.wait()
        msgs = [json.loads(l.split(" ", 3)[3]) if l.count(" ") >= 3 else {} for l in stuck]
        kinds = [f"{m.get('event_type')} {m.get('type')}" for m in msgs]
        if check(kinds == ["fault_raised button_stuck:dose", "fault_cleared button_stuck:dose"]
                 and "stuck" in msgs[0].get("advice", "") and "session_id" not in msgs[0], problems,
                 f"a stuck button: events at the subscriber {stuck}"):
            lat = float(stuck[0].split()[0]) - iso_epoch(msgs[0]["at"])
            figs.append(f"button held {STUCK_GUARD_S + 1.5:.1f} s: {kinds[0]} at the subscriber {lat * 1000:.0f} ms after it was stored "
                        f"(advice {msgs[0]['advice'][:40]!r}…), then {kinds[1]} at the release")
    finally:
        g.ssh("cp /run/vbox/boxd.toml.before /etc/boxd/boxd.toml; systemctl restart boxd-mqtt; vbox fresh", check=False)
    return R.add("9 caregiver bridge under systemd (boxd-mqtt, mosquitto)", not problems,
                 "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def scenario_upgrade(g: Guest) -> bool:
    """(7) Upgrade in the middle of a night: Dose 1 148 min ago, `apt install` of the next
    revision while boxd runs; one restart, the same night, the window-open alarm once and on
    time, then a press takes Dose 2."""
    problems: list[str] = []
    g.ssh("vbox-helper adjtimex sync")
    g.ssh("vbox watch s7 240")
    seed = g.ssh(f"vbox seed {WINDOW_OPEN_S - 2 * 60}").stdout
    t_seeded = g.ssh("date +%s.%N").stdout.strip()
    dose1 = iso_epoch(db_query(g, "SELECT timestamp FROM dose_events WHERE event_type='dose1'"))
    clocks = parse_kv(g.ssh("vbox-helper clocks").stdout)
    due_mono = dose1 + WINDOW_OPEN_S - (clocks["real"] - clocks["mono"])
    # The upgrade once the seeded boxd has the night and the alarm the upgrade must keep.
    before = status_until(g, lambda s: s.get("dose1_at") is not None
                          and (s.get("next_alarm") or {}).get("kind") == "window_open", 10)
    check((before.get("next_alarm") or {}).get("kind") == "window_open", problems,
          f"before the upgrade: boxd did not have the seeded night's window_open alarm within 10 s: {before}")
    u1 = unit_show(g, "InvocationID,MainPID,NRestarts,ActiveState")
    up = g.ssh("vbox upgrade", check=False, timeout=400)
    (RUN / "s7-apt.txt").write_text(up.stdout + up.stderr)
    m0 = re.search(r"UPGRADE from=(\S+) deb=(\S+) start=([\d.]+)", up.stdout)
    m1 = re.search(r"UPGRADE rc=(\d+) to=(\S+) end=([\d.]+)", up.stdout)
    v0, v1 = (m0.group(1) if m0 else "?"), (m1.group(2) if m1 else "?")
    apt_s = float(m1.group(3)) - float(m0.group(3)) if m0 and m1 else float("nan")
    end_before_due = (dose1 + WINDOW_OPEN_S - float(m1.group(3))) if m1 else float("nan")
    deb_version = m0.group(2).split("_")[1] if m0 else "?"
    check(m1 is not None and m1.group(1) == "0" and v0 != v1 and v1 == deb_version,
          problems, f"apt install: {m1.group(0) if m1 else up.stdout[-300:]}")
    u2: dict = {}

    def active() -> bool:
        nonlocal u2
        u2 = unit_show(g, "InvocationID,MainPID,NRestarts,ActiveState,InactiveExitTimestampMonotonic,ActiveEnterTimestampMonotonic")
        return u2.get("ActiveState") == "active"
    wait_until(active, 15, interval=0.5)
    after = status_json(g)
    journal = g.ssh(f"journalctl -u boxd --since @{t_seeded} -o short-monotonic --no-pager", check=False).stdout
    (RUN / "s7-journal.txt").write_text(seed + journal)
    started = len(re.findall(r"systemd\[1\]: Started boxd\.service", journal))
    stopping = len(re.findall(r"systemd\[1\]: Stopping boxd\.service", journal))
    auto = len(re.findall(r"Scheduled restart job", journal))
    check(u2.get("InvocationID") != u1.get("InvocationID") and u2.get("MainPID") != u1.get("MainPID")
          and started == 1 and stopping == 1 and auto == 0 and u2.get("NRestarts") == u1.get("NRestarts")
          and u2.get("ActiveState") == "active", problems,
          f"restarts: invocation {u1.get('InvocationID', '')[:8]}->{u2.get('InvocationID', '')[:8]}, pid {u1.get('MainPID')}->{u2.get('MainPID')}, "
          f"journal Stopping x{stopping} Started x{started}, automatic restarts {auto}, NRestarts {u1.get('NRestarts')}->{u2.get('NRestarts')}")
    check(after.get("dose1_at") == before.get("dose1_at") and after.get("dose1_at") is not None, problems,
          f"status --json dose1_at {before.get('dose1_at')} -> {after.get('dose1_at')}")
    kept = g.ssh("grep -c '^time_zone = \"America/New_York\"' /etc/boxd/boxd.toml", check=False).stdout.strip()
    check(kept == "1", problems, "the edited boxd.toml was not kept")
    # Until the window opens and its alarm has rung four gentle cycles (two E5 beeps every
    # 1.5 s: the ring the check below holds to its cadence), in the capture; then a press
    # takes Dose 2.
    rung = watched(g, "s7", tones_seen(due_mono - 0.005, ("E5",), 8, wave="sine"), max(0.0, due_mono - guest_mono(g)) + 60)
    check(rung is not None, problems, "the window_open ring: not four cycles (eight E5 beeps) in the capture within 60 s of its schedule")
    ep = parse_edges(g.ssh("vbox press 150").stdout)
    # The Dose 2 chime's last note (G5) in the capture; then any alarm tone after it, which must
    # not come, is watched for two gentle cycles (3 s; the wait ends if one comes).
    chimed = watched(g, "s7", tone_line(after=ep[0][0] if ep else 0.0, notes=("G5",)), 15)
    check(chimed is not None, problems, "the Dose 2 chime's last note did not reach the capture within 15 s of the press")
    if chimed:
        watched(g, "s7", tone_line(after=parse_kv(chimed)["off"] + 0.2, notes=("E5", "A5", "C6", "F6")), 3)
    cap, led_text = split_watch(g.ssh("vbox unwatch s7").stdout)
    (RUN / "s7-capture.txt").write_text(seed + cap + "--- led" + led_text + f"\nedges {ep}\n")
    final = status_json(g)
    rows = db_query(g, "SELECT count(*) FROM dose_events WHERE event_type='dose2' AND undone_at IS NULL")
    journal = g.ssh(f"journalctl -u boxd --since @{t_seeded} -o short-monotonic --no-pager", check=False).stdout
    (RUN / "s7-journal.txt").write_text(seed + journal)
    rings = len(re.findall(r"sound window_open", journal))
    tones = parse_tones(cap)
    overruns = re.search(r"overruns=(\d+)", cap)
    e5 = [t for t in tones if t["note"] == "E5" and t["wave"] == "sine"]
    early = [t for t in e5 if t["on"] < due_mono - 0.005]
    wo = first(e5, lambda t: t["on"] >= due_mono - 0.005)
    err = (wo["on"] - due_mono) * 1000 if wo else float("nan")
    # The upgrade normally ends well before the window opens (the new boxd is READY first), and
    # then the onset is held to the wall-clock schedule. On a machine so loaded that apt was
    # still running when it fell due, the README's promise is what is checked: it rings once,
    # as soon as the new boxd is up (within 1 s of READY=1), and the line says so.
    start_mono = int(u2.get("InactiveExitTimestampMonotonic", 0)) / 1e6
    ready_mono = int(u2.get("ActiveEnterTimestampMonotonic", 0)) / 1e6
    fell_due_in_restart = ready_mono > due_mono
    # The bound: scenario 7 asks whether the next alarm survives the upgrade, once and on time
    # for a sleeper; the onset's accuracy itself (-5..+50 ms) is scenario 1's and the bench's.
    # Under TCG this onset measured +6.6, +36.1 and +50.2 ms in three runs, so +100 ms here.
    if not fell_due_in_restart:
        check(wo is not None and -5 <= err <= 100 and not early, problems,
              f"window_open onset {err:+.1f} ms after its wall-clock schedule, {len(early)} E5 tones before it")
        onset_text = f"window_open E5 onset {err:+.1f} ms after Dose 1 + 150 min (new boxd READY {due_mono - ready_mono:.1f} s before)"
    else:
        late = (wo["on"] - ready_mono) if wo else float("nan")
        check(wo is not None and wo["on"] >= start_mono and late <= 1.0 and not early, problems,
              f"window_open fell due during the restart: onset {late:+.2f} s after the new boxd's READY=1")
        onset_text = (f"WINDOW OPENED DURING THE RESTART ({ready_mono - due_mono:.1f} s before READY=1, apt still running): "
                      f"window_open E5 onset {late * 1000:+.0f} ms after the new boxd's READY=1")
    check(rings == 1, problems, f"window_open started {rings} times (journal, both boxd invocations)")
    press_t = ep[0][0] if ep else float("inf")
    chime = first(tones, lambda t: t["note"] == "C5" and t["on"] > press_t)
    later = [t for t in tones if t["on"] > (chime["off"] if chime else press_t) + 0.2 and t["note"] in ("E5", "A5", "C6", "F6")]
    check(final.get("dose2_at") is not None and final.get("phase") == "completed" and rows == "1" and chime is not None and not later,
          problems, f"press in the window: dose2_at {final.get('dose2_at')}, phase {final.get('phase')}, dose2 rows {rows}, "
          f"chime {'heard' if chime else 'NOT heard'}, {len(later)} alarm tones after it")
    check(overruns is not None and overruns.group(1) == "0", problems, f"capture overruns {overruns.group(1) if overruns else '?'}")
    in_ring = [t for t in e5 if wo and wo["on"] <= t["on"] <= press_t]
    gap = max((b["on"] - a["on"] for a, b in zip(in_ring, in_ring[1:])), default=float("nan"))
    check(len(in_ring) >= 2 and gap < 2.0, problems, f"the ring until the press: {len(in_ring)} tones, largest gap {gap:.2f} s")
    return R.add("7 upgrade in the middle of a night", not problems,
                 f"Dose 1 seeded 148 min ago (boxd on a simulated clock, vbox seed); `apt install ./{m0.group(2) if m0 else '?'}` "
                 f"while boxd ran: {v0} -> {v1} in {apt_s:.1f} s, done {end_before_due:.0f} s before the window opened; "
                 f"boxd restarted once (journal Stopping x{stopping}, Started x{started}; InvocationID "
                 f"{u1.get('InvocationID', '')[:8]}->{u2.get('InvocationID', '')[:8]}; NRestarts {u2.get('NRestarts')}); "
                 f"edited boxd.toml kept; status --json dose1_at {after.get('dose1_at')} (before: {before.get('dose1_at')}); "
                 f"{onset_text}, started {rings}x, "
                 f"{len(in_ring)} tones until the press (largest gap {gap:.2f} s), none before; press at +{(press_t - due_mono):.1f} s: Dose 2 "
                 f"({final.get('dose2_at')}, phase {final.get('phase')}, {rows} row), chime "
                 f"{((chime['on'] - press_t) * 1000) if chime else float('nan'):.0f} ms after the press edge, alarm silent after; "
                 f"capture overruns {overruns.group(1) if overruns else '?'}"
                 + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def state_rm(disk: Path, names) -> list[str]:
    """Removes files of /var/lib/boxd from the guest's ext4 image while the guest is down
    (debugfs): the names it removed (an absent one is not an error)."""
    removed = []
    for name in names:
        r = subprocess.run(["debugfs", "-w", "-R", f"rm /var/lib/boxd/{name}", str(disk)], capture_output=True, text=True)
        if r.returncode == 0 and "not found" not in r.stderr.lower():
            removed.append(name)
    return removed


def lose_wal(disk: Path) -> str:
    """As fsck might after a power cut: the journal replayed (e2fsck), then the log's -wal and
    -shm removed from the guest's ext4 image while the guest is down (debugfs)."""
    fsck = subprocess.run(["e2fsck", "-fy", str(disk)], capture_output=True, text=True)
    removed = state_rm(disk, ("nightlog.sqlite-wal", "nightlog.sqlite-shm"))
    return f"e2fsck exit {fsck.returncode}, removed {', '.join(removed) or 'nothing'}"


def empty_state(disk: Path) -> list[str]:
    """The state directory emptied while the guest is down (debugfs), as `vbox fresh` does in a
    running guest: a scenario that boots into boxd starts a night of its own, not the one the
    scenario before it left (after the power cuts, a night in doubt)."""
    ls = subprocess.run(["debugfs", "-R", "ls -p /var/lib/boxd", str(disk)], capture_output=True, text=True)
    names = [f.split("/")[5] for f in ls.stdout.splitlines() if f.count("/") >= 6]
    return state_rm(disk, [n for n in names if n not in (".", "..")])


def bedtime_zone(utc: time.struct_time | None = None) -> tuple[str, int]:
    """A fixed-offset zone where it is 21:00 now, and that offset. The power cuts run on the
    real clock for up to ten minutes; in the installed zone (America/New_York) a run that
    crosses 18:00 there (23:00 UTC in winter) would see the night end at its rollover, as the
    seeds say it must, and its checks would read that as a lost night. Here the rollover is
    21 hours away."""
    hour = (utc or time.gmtime()).tm_hour
    offset = (21 - hour) % 24
    if offset > 14:
        offset -= 24
    # The Etc zones' signs are POSIX's: Etc/GMT+5 is five hours behind UTC.
    return ("Etc/GMT" if offset == 0 else f"Etc/GMT{'-' if offset > 0 else '+'}{abs(offset)}"), offset


def powercut_cycles(kernel: Path, disk: Path, cycles: int, control: bool, rng: random.Random) -> dict:
    """Presses and boxctl writes in flight, kill -9 of qemu at a random moment, reboot the same
    image; after each reboot every acknowledged dose must be in the log, the log intact and boxd up.
    The last cut (not in the control) also loses the -wal, with a sleep event acknowledged in it
    (#29): the box must come back in doubt with tonight's Dose 1 known, never as a fresh log."""
    tag = "control" if control else "powercut"
    g = Guest(kernel, disk, None, tag)
    acked_extra, hot, boots, losses, bad = 0, 0, [], [], []
    dose1_acked = dose2_acked = False
    wal_lost, wal_verdict = "", ""
    t0 = time.monotonic()
    for cycle in range(cycles + 1):
        boots.append(g.boot())
        if cycle == 0:
            env = "LD_PRELOAD=/usr/local/lib/vbox/nosync.so" if control else ""
            # boxd.toml with a zone where it is bedtime (bedtime_zone), kept by the drop-in
            # across the reboots; the next `vbox fresh` goes back to boxd.toml.
            zone, _ = bedtime_zone()
            g.ssh(f"sed 's|^time_zone = .*|time_zone = \"{zone}\"|' /etc/boxd/boxd.toml > /etc/boxd/vbox-bedtime.toml"
                  f" && grep -q '^time_zone = \"{zone}\"' /etc/boxd/vbox-bedtime.toml")
            g.ssh("vbox fresh --config /etc/boxd/vbox-bedtime.toml" + (f" --env {env}" if env else ""))  # returns at READY=1
            g.ssh("vbox watch pc 3")
            g.ssh("vbox press 150")
            # Dose 1 in the status: committed, and its green flash (written at the commit) captured.
            status_until(g, lambda s: s["dose1_at"] is not None, 5)
            _, led_text = split_watch(g.ssh("vbox unwatch pc").stdout)
            dose1_acked = any(v == "010" for _, v in parse_led(led_text))  # the green confirmation flash
            # Dose 2 early, with the confirmation only boxctl can give; extra doses follow Dose 2.
            dose2_acked = g.ssh("boxctl take --confirm", check=False).returncode == 0
        else:
            # boxd comes back by itself; then the log is checked against every acknowledgement.
            active = ""

            def is_active() -> bool:
                nonlocal active
                active = g.ssh("systemctl is-active boxd", check=False).stdout.strip()
                return active == "active"
            wait_until(is_active, 15, interval=0.5)
            lc = g.ssh("vbox logcheck").stdout
            counts = dict(re.findall(r"(\w+)=(\d+)", lc.split("doses:", 1)[1])) if "doses:" in lc else {}
            integrity = re.search(r"integrity=(\S+)", lc)
            integrity = integrity.group(1) if integrity else "missing"
            extra = int(counts.get("extra_dose", 0))
            st = json.loads(g.ssh("boxctl status --json", check=False).stdout or "{}")
            problems = []
            if active != "active":
                problems.append(f"boxd {active}")
            if integrity != "ok":
                problems.append(f"integrity_check {integrity}")
            if "set-aside" in lc:
                problems.append("log set aside as corrupt")
            if extra < acked_extra:
                problems.append(f"extra doses {extra} < {acked_extra} acknowledged")
            if dose1_acked and int(counts.get("dose1", 0)) < 1:
                problems.append("Dose 1 (LED-acknowledged) missing")
            if dose2_acked and int(counts.get("dose2", 0)) < 1:
                problems.append("Dose 2 (boxctl-acknowledged) missing")
            if st.get("phase") in (None, "noDose1"):
                problems.append(f"night did not go on: phase {st.get('phase')}")
            if st and st.get("time_zone") != zone:
                bad.append(f"cycle {cycle}: boxd's zone {st.get('time_zone')}, not the bedtime zone {zone}")
            if wal_lost and cycle == cycles:
                codes = [f["code"] for f in st.get("faults", [])]
                log_detail = (st.get("health", {}).get("log") or {}).get("detail") or ""
                behind = g.ssh("ls /var/lib/boxd | grep -c 'nightlog.sqlite.behind-' || true", check=False).stdout.strip()
                wal_verdict = (f"-wal lost after the last cut ({wal_lost}): phase {st.get('phase')}, "
                               f"doubt {'yes' if st.get('doubt') else 'NO'}, faults {codes}, {behind} file(s) set aside as .behind-")
                if not st.get("doubt") or "log_lost_records" not in codes:
                    problems.append(f"-wal lost: not in doubt with log_lost_records ({codes}; {log_detail})")
            if problems:
                losses.append(f"cycle {cycle}: " + ", ".join(problems))
                debug(lc)
            if control and problems:
                g.poweroff()
                break
            acked_extra = max(acked_extra, extra)  # what survived is the new baseline for acks
            if cycle == cycles:
                g.poweroff()
                break
        if not control and cycle == cycles - 1:
            # The last cut: a bathroom trip acknowledged (in the -wal only: no dose, no checkpoint),
            # then the power, then fsck's loss of the -wal.
            if g.ssh("boxctl log bathroom", check=False).returncode != 0:
                bad.append(f"cycle {cycle}: boxctl log bathroom failed")
            g.kill()
            wal_lost = lose_wal(disk)
            debug(f"{tag} cycle {cycle}: {wal_lost}")
            continue
        mark = len(g.lines())
        g.ssh("nohup setsid vbox workload > /dev/null 2>&1 < /dev/null &")
        if not g.wait_line(r"WORKLOAD start", 20, after=mark):
            bad.append(f"cycle {cycle}: workload did not start")
        # The power goes at a random moment of the workload (seeded by --seed): the randomness
        # is the test, not a settle.
        delay = rng.uniform(0.5, 3.0) if control else rng.uniform(0.2, 6.0)
        time.sleep(delay)
        g.kill()
        acks = [l for l in g.lines() if l.startswith("ACK extra_dose")]
        acked_extra += len(acks)
        hot += 1 if acks else 0
        debug(f"{tag} cycle {cycle}: killed after {delay:.1f} s, {len(acks)} acknowledged extra doses")
    return {"cycles": cycle, "acked": acked_extra, "hot": hot, "losses": losses, "bad": bad, "boots": boots, "zone": zone,
            "dose1_acked": dose1_acked, "dose2_acked": dose2_acked, "seconds": time.monotonic() - t0, "wal": wal_verdict}


def scenario_powercut(kernel: Path, disk: Path, cycles: int, rng: random.Random) -> bool:
    r = powercut_cycles(kernel, disk, cycles, control=False, rng=rng)
    # The cuts prove something only when writes were acknowledged before them: at least half of
    # the workload's cuts (all but the last, the -wal loss's) must come after one. It used to ask
    # for one acknowledged dose per cut on average, which a loaded host's slower workload missed
    # with every dose kept (8 in 9 cuts).
    cuts = cycles - 1
    enough = r["hot"] * 2 >= cuts
    ok = (not r["losses"] and not r["bad"] and r["cycles"] >= cycles and r["dose1_acked"] and r["dose2_acked"]
          and enough and bool(r["wal"]))
    boots = sorted(r["boots"])
    return R.add("5 power cuts", ok,
                 f"{r['cycles']} cycles of kill -9 mid-workload (boxctl dose extra --confirm, boxctl log, presses), "
                 f"{r['hot']} of {cuts} cuts after an acknowledged write{'' if enough else ' (FEWER THAN HALF: the cuts prove little)'}: "
                 f"{r['acked']} acknowledged extra doses + Dose 1 (LED-acknowledged: {'yes' if r['dose1_acked'] else 'NOT SEEN'}) "
                 f"+ Dose 2 (boxctl reply: {'yes' if r['dose2_acked'] else 'NO'}) all in the log after every reboot, "
                 f"integrity_check ok, boxd active by itself each boot; boot to multi-user {boots[0]:.1f}-{boots[-1]:.1f} s; "
                 f"boxd's zone {r['zone']} (21:00 there at the start); "
                 f"{r['seconds']:.0f} s in all; {r['wal'] or 'the -wal loss did NOT run'}"
                 + (f"; LOSSES: {'; '.join(r['losses'])}" if r["losses"] else "") + (f"; {'; '.join(r['bad'])}" if r["bad"] else ""))


def scenario_control(kernel: Path, disk: Path, rng: random.Random, cycles: int = 6) -> bool:
    r = powercut_cycles(kernel, disk, cycles, control=True, rng=rng)
    caught = bool(r["losses"])
    return R.add("5 power cuts: control (fsync made a no-op, as synchronous=OFF)", caught,
                 (f"the rig caught it after {r['cycles']} cycle(s): {r['losses'][0]}" if caught
                  else f"NOT caught in {r['cycles']} cycles: the power-cut test cannot see lost writes"))


def fault_cleared(g: Guest, code: str, timeout: int) -> tuple[float | None, dict]:
    """Polls status until the fault `code` is gone: seconds it took (guest uptime) or None,
    and the last status."""
    c0 = float(g.ssh("vbox now").stdout)
    st = status_until(g, lambda s: code not in fault_codes(s), timeout)
    if st and code not in fault_codes(st):
        return float(g.ssh("vbox now").stdout) - c0, st
    return None, st


def scenario_nodevices(kernel: Path, disk: Path) -> bool:
    """(6) Boot without the sound card, then without the GPIO chip; boxd starts, shows the
    fault, and recovers when the device is hot-loaded."""
    problems: list[str] = []
    figs: list[str] = []
    # --- No sound card at boot, on an empty state directory: boxd's LED then shows the fault,
    # not the doubt of a night the power cuts left (the doubt outranks it).
    debug(f"state directory emptied: {empty_state(disk)}")
    g = Guest(kernel, disk, None, "nosound")
    g.boot("vbox.nosound")
    st = status_until(g, lambda s: "audio_unavailable" in fault_codes(s), 30)
    codes = fault_codes(st)
    check("audio_unavailable" in codes, problems, f"no sound card: faults {codes}")
    g.ssh("vbox watch ns 15")
    # The fault pattern (amber 600 ms, off, 100 ms, off: 2 s) until one amber run is whole.
    check(watched(g, "ns", led_blinks("110", 0.0, 1), 10, kind="led") is not None, problems,
          "no whole amber run of the fault pattern on the LED within 10 s")
    _, led_text = split_watch(g.ssh("vbox unwatch ns").stdout)
    fault_led = pattern_stats(led_runs(parse_led(led_text), 0, 1e9), "110")
    check(st["led"]["pattern"] == "fault" and fault_led[0] >= 1, problems, f"LED {st['led']} / amber runs {fault_led}")
    figs.append(f"no sound card: boxd {g.ssh('systemctl is-active boxd', check=False).stdout.strip()}, faults {codes}, "
                f"health audio {health_text(st['health']['audio'])!r}, LED {st['led']['color']} {st['led']['pattern']} (amber on-runs seen: {fault_led[0]})")
    g.ssh("/usr/local/lib/vbox/board.sh sound")
    recovered, st = fault_cleared(g, "audio_unavailable", 90)
    check(recovered is not None, problems, "audio fault not cleared within 90 s of modprobe snd-aloop")
    g.ssh("vbox watch ns2 15")
    g.ssh("boxctl test sound success")
    # Until the chime's last note (G5) is in the capture.
    check(watched(g, "ns2", tone_line(after=0.0, notes=("G5",)), 10) is not None, problems,
          "after hot-load: the test chime's last note (G5) did not reach the capture within 10 s")
    cap, _ = split_watch(g.ssh("vbox unwatch ns2").stdout)
    heard = [t["note"] for t in parse_tones(cap)]
    check(heard[:3] == ["C5", "E5", "G5"], problems, f"after hot-load: heard {heard}")
    logged = fault_events(g)
    check(in_order(logged, ["raised audio_unavailable", "cleared audio_unavailable"]), problems,
          f"no sound card: fault events in the log {logged}")
    figs.append(f"modprobe snd-aloop: fault cleared after {recovered if recovered is not None else float('nan'):.1f} s, "
                f"test chime heard {'-'.join(heard[:3])}, fault events in the log {logged}")
    nightlog_on_full_disk(g, problems, figs)
    g.poweroff()
    # --- No GPIO chip at boot.
    g = Guest(kernel, disk, None, "nochip")
    g.boot("vbox.nochip")
    st = status_until(g, lambda s: "gpio_unavailable" in fault_codes(s), 30)
    active = g.ssh("systemctl is-active boxd", check=False).stdout.strip()
    codes = fault_codes(st)
    check(active == "active" and "gpio_unavailable" in codes, problems, f"no chip: boxd {active}, faults {codes}")
    figs.append(f"no GPIO chip: boxd {active}, faults {codes}, health buttons {health_text(st['health']['buttons'])!r}, "
                f"LED pattern {st['led']['pattern']} (nothing to light: the LED is on the missing chip)")
    g.ssh("/usr/local/lib/vbox/board.sh chip")
    recovered, st = fault_cleared(g, "gpio_unavailable", 60)
    perms = g.ssh("stat -c '%U:%G %a' /dev/gpiochip0", check=False).stdout.strip()
    check(recovered is not None, problems, "gpio fault not cleared within 60 s of the chip appearing")
    check(perms == "root:gpio 660", problems, f"hot-plugged chip {perms}")
    g.ssh("vbox watch nc 15")
    ep = parse_edges(g.ssh("vbox press 150").stdout)
    # Until the LED's white acknowledgement of the press (checked below) is in the watch; 5 s bounds it.
    watched(g, "nc", led_line(ep[0][0] if ep else 0.0, "111"), 5, kind="led")
    _, led_text = split_watch(g.ssh("vbox unwatch nc").stdout)
    ack = first(parse_led(led_text), lambda x: x[0] >= ep[0][0] and x[1] == "111")
    check(ack is not None, problems, "no LED acknowledgement of a press on the hot-plugged chip")
    logged = fault_events(g)
    check(in_order(logged, ["raised gpio_unavailable", "cleared gpio_unavailable"]), problems,
          f"no chip: fault events in the log {logged}")
    figs.append(f"fault events in the log {logged}")
    figs.append(f"chip created: udev made it {perms}, fault cleared after {recovered if recovered is not None else float('nan'):.1f} s "
                f"(boxd retries every 10 s), a press then reached boxd: LED white ack "
                f"{((ack[0] - ep[0][0]) * 1000) if ack else float('nan'):.0f} ms after the press edge")
    g.poweroff()
    return R.add("6 no sound card / no chip / full disk at boot", not problems,
                 "; ".join(figs) + (f"; PROBLEMS: {'; '.join(problems)}" if problems else ""))


def fault_events(g: Guest) -> list[str]:
    """The night log's fault events in seq order, as 'raised CODE' / 'cleared CODE'."""
    out = db_query(g, "SELECT state || ' ' || code FROM fault_events ORDER BY seq")
    return [line for line in out.splitlines() if line]


def in_order(seen: list[str], wanted: list[str]) -> bool:
    """wanted is a subsequence of seen."""
    it = iter(seen)
    return all(any(x == w for x in it) for w in wanted)


def nightlog_on_full_disk(g: Guest, problems: list[str], figs: list[str]) -> None:
    """(6, the log) boxd starts on a full file system: the night log cannot be created or
    read, so tonight's record is in doubt and the log is a fault; nothing is acknowledged
    (a press only asks for a confirmation; its confirm hold cannot be written and buzzes the
    error; a confirmed `boxctl take` exits 6 and leaves the bedroom quiet). Once space is
    freed boxd opens the log by itself, the doubt ends, and a press records Dose 1."""
    full = parse_kv(g.ssh("vbox fullfs").stdout)
    st = status_until(g, lambda s: "log_unwritable" in fault_codes(s), 30)
    codes = fault_codes(st)
    check("log_unwritable" in codes and st["led"]["pattern"] in ("doubt", "fault"), problems,
          f"full disk at start: faults {codes}, LED {st['led']['pattern']}")
    start_led = st["led"]["pattern"]
    g.ssh("vbox watch ff 20")
    ep = parse_edges(g.ssh("vbox press 150").stdout)
    pending = (status_until(g, lambda s: s["pending_confirmation"] is not None, 10) or status_json(g))["pending_confirmation"]
    check(pending == "doubt", problems, f"a press on a full disk in doubt: pending confirmation {pending!r} (the doubt's, needing no write)")
    hold = parse_edges(g.ssh("vbox press 2500").stdout)  # the confirm hold: its dose cannot be written
    # Until the hold's error buzz (E4 square, twice) is whole in the capture: the take below
    # must come after it, so that a buzz after the take is the take's.
    check(watched(g, "ff", tones_seen(hold[0][0] if hold else ep[0][0], ("E4",), 2, wave="square"), 10) is not None,
          problems, "a confirm hold on a full disk: its two error buzzes did not reach the capture within 10 s")
    before_take = guest_mono(g)
    take = g.ssh("boxctl take --confirm", check=False)
    # What must not follow the take: a buzz (or a green light). boxd performs an answer's sound
    # and light before it replies (Engine.transition), so a buzz would be under way already;
    # the watch gives it 1.5 s to reach the capture (the buzz itself is 300 ms) and ends early
    # if it comes. A wait for an absence: only a bound can end it.
    watched(g, "ff", tone_line(before_take, ("E4",)), 1.5)
    cap, led_text = split_watch(g.ssh("vbox unwatch ff").stdout)
    (RUN / "s6-fullfs.txt").write_text(cap + "--- led" + led_text + f"\nedges {ep} {hold}\ntake {take.returncode} {take.stdout}{take.stderr}\n")
    buzz = [t for t in parse_tones(cap) if t["note"] == "E4" and t["wave"] == "square" and t["on"] > ep[0][0]]
    hold_buzz = [t for t in buzz if t["on"] < before_take]
    take_buzz = [t for t in buzz if t["on"] >= before_take]
    # A green acknowledgement is a steady green, not the instant between two channel writes
    # when amber (red+green) goes out or comes on.
    led = parse_led(led_text)
    green = first(led_runs(led, ep[0][0], led[-1][0] + 5 if led else ep[0][0]), lambda r: r[0] == "010" and r[1] >= 50)
    refused = status_json(g)
    check(green is None and refused["dose1_at"] is None, problems,
          f"on a full disk: green ack {'seen' if green else 'none'}, dose1 {refused['dose1_at']}")
    check(len(hold_buzz) >= 2, problems, f"a confirm hold on a full disk: {len(hold_buzz)} error buzzes (the button must hear it)")
    check(take.returncode == 6 and "Not recorded" in take.stdout + take.stderr and not take_buzz, problems,
          f"boxctl take --confirm on a full disk: exit {take.returncode} {(take.stdout + take.stderr).strip()[:120]}, "
          f"{len(take_buzz)} error buzzes (boxctl's failure is told by its reply, not to the bedroom)")
    g.ssh("vbox freefs")
    opened, st = fault_cleared(g, "log_unwritable", 60)
    check(opened is not None, problems, "the night log was not opened within 60 s of space being freed")
    check(st.get("doubt") is None and st["led"]["pattern"] not in ("doubt", "fault"), problems,
          f"after the log opened: doubt {st.get('doubt')}, LED {st['led']['pattern']}")
    g.ssh("vbox press 150")
    st = status_until(g, lambda s: s["dose1_at"] is not None, 10) or status_json(g)
    (RUN / "s6-journal.txt").write_text(g.ssh("journalctl -u boxd -o short-monotonic --no-pager | tail -n 200", check=False).stdout)
    r = g.ssh("runuser -u boxd -- sqlite3 /var/lib/boxd/nightlog.sqlite \"SELECT count(*) FROM dose_events WHERE event_type='dose1'\"",
              check=False)
    rows = r.stdout.strip() if r.returncode == 0 else f"unreadable ({r.stderr.strip()[:80]})"
    check(st["dose1_at"] is not None and rows == "1", problems, f"press after space was freed: dose1 {st['dose1_at']}, rows {rows}")
    # The outage itself, written when the log opened: before the press's Dose 1.
    order = db_query(g, "SELECT group_concat(k, ', ') FROM (SELECT seq, state || ' ' || code AS k FROM fault_events "
                        "UNION ALL SELECT seq, event_type FROM dose_events ORDER BY seq)")
    check(order.startswith("raised log_unwritable, cleared log_unwritable") and order.endswith("dose1"), problems,
          f"full disk: the log's fault events and doses in seq order: {order!r}")
    g.ssh("vbox unfullfs")
    figs.append(f"night log on a full ext4 ({full.get('free_kib', 'unknown')} KiB free) at start: boxd active, fault log_unwritable, "
                f"LED {start_led}; a press: confirmation asked ({pending}), no green ack, nothing recorded; "
                f"its confirm hold: {len(hold_buzz)} error buzzes; boxctl take --confirm: exit {take.returncode} 'Not recorded', "
                f"{len(take_buzz)} buzzes; "
                f"space freed: log opened by boxd after {opened if opened is not None else float('nan'):.1f} s (retry every 30 s), doubt over, "
                f"the next press recorded Dose 1 ({rows} row); in seq order: {order}")


def main() -> int:
    global VERBOSE
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--suite", default=DEFAULT_SUITE,
                    help=f"the guest's Debian release (default {DEFAULT_SUITE}; others: versions-SUITE.env)")
    ap.add_argument("--arch", default=HOST_ARCH,
                    help=f"the guest's architecture (default {HOST_ARCH}; arm64: versions-SUITE-arm64.env, qemu's virt machine)")
    ap.add_argument("--deb", type=Path, default=None,
                    help="the .deb to install, whatever its .inputs stamp says (the log tells how it stands)")
    ap.add_argument("--shell", action="store_true", help="boot the installed guest and print the ssh command")
    ap.add_argument("--only", nargs="*", help="scenarios to run: 1 2 3 4 5 6 7 8 9 10 11 12 control (default: all)")
    ap.add_argument("--reuse-disk", action="store_true", help="with --shell: boot the last run's disk as it is")
    ap.add_argument("--cmdline", default="", help="with --shell: extra kernel command-line words (vbox.nosound, vbox.nochip)")
    ap.add_argument("--cycles", type=int, default=20, help="power-cut cycles (default 20)")
    ap.add_argument("--seed", type=int, default=None, help="seed for the random kill moments")
    ap.add_argument("--qemu-priority", choices=list(QEMU_PRIORITIES), default="normal",
                    help="run qemu ahead of the host's other work (high: nice -19; realtime: chrt --rr), "
                         "for a run with builds beside it (default normal)")
    args = ap.parse_args()
    VERBOSE = args.verbose
    QEMU_PREFIX[:] = QEMU_PRIORITIES[args.qemu_priority]
    if QEMU_PREFIX and os.geteuid() != 0:
        raise SystemExit(f"vbox: --qemu-priority {args.qemu_priority} needs root (a raised priority)")
    if QEMU_PREFIX:
        log(f"qemu runs under {shlex.join(QEMU_PREFIX)}")
    select_suite(args.suite, args.arch)
    if args.suite != DEFAULT_SUITE or ARCH != HOST_ARCH:
        log(f"guest suite {args.suite} {ARCH} ({VERSIONS.get('KERNEL_ABI', '')} kernel); cache {CACHE}")
    CACHE.mkdir(parents=True, exist_ok=True)
    RUN.mkdir(exist_ok=True)
    for stale in CACHE.glob("vbox-*"):  # work directories of an interrupted build
        shutil.rmtree(stale, ignore_errors=True)
    kernel = build_kernel()
    rootfs = build_rootfs()
    clean = build_clean_image(kernel, rootfs)
    wanted = args.only or ["3", "1", "10", "11", "2", "4", "8", "12", "7", "9", "5", "6", "control"]
    # The next revision is the upgrade's (scenario 7). On this machine's architecture it is made
    # ready for every run, as before, unless --deb names the package; another's (an hour to
    # build) is needed only for 7.
    deb, next_deb = ensure_debs(args.deb, need_next="7" in wanted or (ARCH == HOST_ARCH and args.deb is None))
    payload = build_payload(deb, next_deb)
    disk = RUN / "disk.img" if args.shell and args.reuse_disk else fresh_disk(clean)
    g = Guest(kernel, disk, payload, "main")
    R.last = time.monotonic()  # the install's time includes this boot
    boot = g.boot(args.cmdline if args.shell else "")
    log(f"booted in {boot:.1f} s")
    (log if args.shell else debug)(shlex.join(g.ssh_args()))
    rng = random.Random(args.seed)
    if not args.shell:
        (RUN / "results.txt").write_text("")
        installed = scenario_install(g)
        if installed:
            for name in [n for n in wanted if n in ("3", "1", "10", "11", "2", "4", "8", "12", "7", "9")]:
                try:
                    {"3": scenario_systemd, "1": scenario_night, "2": scenario_gestures, "4": scenario_watchdog,
                     "8": scenario_members, "7": scenario_upgrade, "9": scenario_caregiver, "10": scenario_voice,
                     "11": scenario_bedside, "12": scenario_kernel_led}[name](g)
                except (GuestError, subprocess.TimeoutExpired, KeyError, TypeError, ValueError, AttributeError) as e:
                    R.add(f"{name} (crashed)", False, f"{type(e).__name__}: {e}")
        g.poweroff()
        if installed:
            for name in [n for n in wanted if n in ("5", "6", "control")]:
                try:
                    if name == "5":
                        scenario_powercut(kernel, disk, args.cycles, rng)
                    elif name == "6":
                        scenario_nodevices(kernel, disk)
                    else:
                        scenario_control(kernel, disk, rng)
                except (GuestError, subprocess.TimeoutExpired, KeyError, TypeError, ValueError, AttributeError) as e:
                    R.add(f"{name} (crashed)", False, f"{type(e).__name__}: {e}")
                    kill_all()
        failed = [n for n, ok, _ in R.lines if not ok]
        if BOOT_PANICS:
            log(f"guest kernel panics while booting (booted again): {len(BOOT_PANICS)} ({', '.join(BOOT_PANICS)})")
        log(f"done in {time.monotonic() - T_START:.0f} s: {len(R.lines) - len(failed)} passed, {len(failed)} failed")
        return 1 if failed else 0
    if args.shell:
        stop = RUN / "shell.stop"
        stop.unlink(missing_ok=True)
        log(f"guest up; touch {stop} to power it off")
        while not stop.exists() and g.proc.poll() is None:
            time.sleep(1)  # the interactive shell: until the person touches the stop file
    g.poweroff()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        kill_all()
