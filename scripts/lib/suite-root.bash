# Debian roots of one suite (bookworm, trixie) for building and testing the package there:
# made with mmdebstrap from this machine's Debian archive (the machine's own apt sources are
# left alone), cached, and entered with this machine's Swift toolchain and package mirrors
# bind-mounted read-only. Sourced by scripts/package (--suite) and scripts/trixie-test; needs root.
# Roots of another architecture (arm64 on an amd64 machine) run under qemu-user
# (suite_root_foreign), and so does the Swift compiler root for them: sid's swiftlang.

# What a Swift build and a Debian package build of this repository need in a root of SUITE:
# the C libraries of every target (the suite's names), the C toolchain the Swift driver links
# with (crt files, libstdc++, binutils), git for the dependencies, debhelper, dpkg-dev and
# lintian, systemd.pc and udev.pc (where debian/rules puts the unit and the udev rule), and the
# shared libraries the toolchain's own binaries load (ldd /opt/swift/usr/bin/*: curl, libxml2,
# ncurses, libedit, libffi; lldb's python is not needed).
suite_root_packages() {
  local common=(libgpiod-dev pkg-config libsqlite3-dev libasound2-dev libmosquitto-dev libespeak-ng-dev
                zlib1g-dev libc6-dev gcc binutils git ca-certificates libxml2 libncurses6 libedit2 libffi8
                tzdata build-essential debhelper dpkg-dev lintian)
  case $1 in
    bookworm) echo "${common[*]} libstdc++-12-dev libcurl4 systemd udev" ;;
    trixie) echo "${common[*]} libstdc++-14-dev libcurl4t64 systemd-dev" ;;
    # The compiler for another architecture: Debian's own Swift (swiftlang is in trixie and
    # sid only; sid's, 6.2, builds this code). It links against that architecture's trixie
    # root as a sysroot (scripts/package), so the sid libraries here are only the compiler's
    # (and glibc's headers and crt files: libc6-dev and g++, which building the manifest needs).
    sid-swift) echo "swiftlang g++ libc6-dev git make pkg-config ca-certificates binutils file" ;;
    # Home Assistant (scripts/ha-test): it needs Python 3.13 (trixie's; bookworm has 3.11),
    # installed with pip into a venv; the rest builds the wheels PyPI lacks for it.
    trixie-ha) echo "python3 python3-venv python3-dev build-essential libffi-dev libssl-dev ca-certificates libjpeg-dev zlib1g-dev" ;;
    *) return 1 ;;
  esac
}

# The Debian release number a suite's package versions carry (0.13.0-1~deb13).
suite_number() {
  case $1 in
    bookworm) echo 12 ;;
    trixie) echo 13 ;;
    *) return 1 ;;
  esac
}

# suite_root_need PKG...: installs with apt those of PKG this machine lacks (root).
suite_root_need() {
  local missing=() p
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    { echo "suite root: cannot install ${missing[*]}" >&2; return 1; }
}

# suite_root_foreign ARCH: makes sure this machine runs ARCH's binaries (qemu-user-static
# registered with binfmt_misc, with the F flag so that chroots need no qemu binary of their own).
suite_root_foreign() {
  local arch=$1 qemu
  case $arch in
    arm64) qemu=qemu-aarch64 ;;
    *) echo "suite root: no emulator known for $arch" >&2; return 1 ;;
  esac
  [ -d /proc/sys/fs/binfmt_misc ] && [ -f /proc/sys/fs/binfmt_misc/status ] ||
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
    { echo "suite root: cannot mount binfmt_misc" >&2; return 1; }
  # arch-test: mmdebstrap's check that the architecture runs.
  suite_root_need qemu-user-static binfmt-support arch-test || return 1
  [ -f "/proc/sys/fs/binfmt_misc/$qemu" ] || update-binfmts --enable "$qemu" >/dev/null 2>&1 || true
  grep -q '^flags:.*F' "/proc/sys/fs/binfmt_misc/$qemu" 2>/dev/null ||
    { echo "suite root: $qemu is not registered with binfmt_misc (flag F)" >&2; return 1; }
}

# suite_root_make SUITE ROOT LOG [ARCH]: makes ROOT (a directory) for ARCH (this machine's by
# default) unless it is there with the same package list; prints one line when it makes it.
# Returns 1, with LOG's tail, if mmdebstrap fails.
suite_root_make() {
  local suite=$1 root=$2 log=$3 arch=${4:-$(dpkg --print-architecture)} pkgs key stamp=.suite-root mirror t0 dist
  local opts=()
  pkgs=$(suite_root_packages "$suite") || { echo "suite root: unknown suite $suite" >&2; return 1; }
  local foreign=""
  [ "$arch" = "$(dpkg --print-architecture)" ] || foreign=$arch
  key=$(printf '%s\n' "$suite" $foreign $pkgs | sha256sum | cut -c1-16)
  # This machine's clock may be past sid's Release file's Valid-Until.
  dist=$suite
  [ "$suite" = sid-swift ] && { dist=sid; opts+=(--aptopt='Acquire::Check-Valid-Until "false"'); }
  [ "$suite" = trixie-ha ] && dist=trixie
  if [ -n "$foreign" ]; then suite_root_foreign "$arch" || return 1; fi
  if [ -f "$root/$stamp" ] && [ "$(cat "$root/$stamp")" = "$key" ]; then
    return 0
  fi
  if findmnt -rn -o TARGET | grep -qF "$root"; then
    echo "suite root: something is mounted under $root; not removing it" >&2
    return 1
  fi
  suite_root_need mmdebstrap || return 1
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  t0=$(date +%s)
  rm -rf "$root" "$root.part"
  mkdir -p "$(dirname "$root")"
  echo "suite root: making the $suite $arch root in ${root#"$PWD"/} (mmdebstrap, $mirror)"
  if ! mmdebstrap --quiet --variant=apt --arch="$arch" --components=main "${opts[@]}" --include="${pkgs// /,}" \
       "$dist" "$root.part" "$mirror" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    echo "suite root: mmdebstrap $suite failed (log: $log)" >&2
    return 1
  fi
  # Package URLs go to the local mirrors, as on the host; the source belongs to another uid.
  git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r name value; do
    git config --file "$root.part/etc/gitconfig" --add "$name" "$value"
  done
  git config --file "$root.part/etc/gitconfig" --add safe.directory '*'
  mkdir -p "$root.part/opt/swift" "$root.part/opt/swift-packages" "$root.part/src" "$root.part/sysroot"
  echo "$key" >"$root.part/$stamp"
  mv "$root.part" "$root"
  echo "suite root: $suite root made in $(( $(date +%s) - t0 )) s ($(du -sh "$root" | cut -f1))"
}

# suite_root_run ROOT SRC CMD...: runs CMD in ROOT with SRC at /src, /proc, /dev and the Swift
# toolchain and mirrors (read-only), in a mount namespace of its own (the mounts vanish with it).
# Only the variables named in SUITE_ROOT_ENV ("NAME=value ...") are passed in.
# SUITE_ROOT_BINDS ("HOST[:IN_ROOT] ...", read-only) replaces the toolchain and mirrors: the
# compiler root has a Swift of its own and mounts the target's root at /sysroot.
suite_root_run() {
  local root=$1 src=$2
  shift 2
  # shellcheck disable=SC2086  # SUITE_ROOT_ENV is a list of words
  unshare --mount --propagation private -- /bin/bash -euo pipefail -c '
    root=$1; src=$2; binds=$3; shift 3
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    for b in $binds; do
      mount --bind "${b%%:*}" "$root${b#*:}"
      mount -o remount,bind,ro "$root${b#*:}"
    done
    mount --bind "$src" "$root/src"
    exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" \
      PATH=/opt/swift/usr/bin:/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin "$@"
  ' suite_root_run "$root" "$src" "${SUITE_ROOT_BINDS:-/opt/swift:/opt/swift /opt/swift-packages:/opt/swift-packages}" \
    ${SUITE_ROOT_ENV:-} "$@"
}
