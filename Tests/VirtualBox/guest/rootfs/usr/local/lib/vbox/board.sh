#!/bin/bash
# Brings up the virtual board. `board.sh boot` honours vbox.nochip / vbox.nosound on the
# kernel command line; `board.sh chip` and `board.sh sound` hot-plug one part later.
set -euo pipefail
CHIP_LABEL=pinctrl-rp1   # what hardware/boxd-pi5.toml names
CHIP_LINES=54
CFG=/sys/kernel/config/gpio-sim/header

chip() {
  modprobe gpio-sim
  [ -d /sys/kernel/config/gpio-sim ] || mount -t configfs none /sys/kernel/config
  [ -e "$CFG/live" ] && [ "$(cat "$CFG/live")" = 1 ] && return 0
  mkdir -p "$CFG/bank0"
  echo "$CHIP_LINES" > "$CFG/bank0/num_lines"
  echo "$CHIP_LABEL" > "$CFG/bank0/label"
  for l in 17:GPIO17 27:GPIO27 22:GPIO22 23:GPIO23 24:GPIO24; do
    mkdir -p "$CFG/bank0/line${l%%:*}"
    echo "${l#*:}" > "$CFG/bank0/line${l%%:*}/name"
  done
  echo 1 > "$CFG/live"
  dev=$(cat "$CFG/dev_name") chipname=$(cat "$CFG/bank0/chip_name")
  mkdir -p /run/vbox
  echo "/sys/devices/platform/$dev/$chipname" > /run/vbox/chip-sysfs
  echo "/dev/$chipname" > /run/vbox/chip-dev
  # Buttons at rest: pulled up (not pressed), as the button's pull-up leaves them.
  for l in 17 27; do echo pull-up > "/sys/devices/platform/$dev/$chipname/sim_gpio$l/pull"; done
}

sound() {
  modprobe snd-aloop
}

case "${1:-boot}" in
  boot)
    grep -qw vbox.nochip /proc/cmdline || chip
    grep -qw vbox.nosound /proc/cmdline || sound
    ;;
  chip) chip ;;
  sound) sound ;;
  *) echo "usage: board.sh boot|chip|sound" >&2; exit 2 ;;
esac
