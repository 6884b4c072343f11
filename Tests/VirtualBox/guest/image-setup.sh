#!/bin/bash
# Turns the unpacked Debian root (mmdebstrap) in $1 into the virtual box's clean image tree.
# Runs on the host as root; `chroot` is used only for Debian's own tools.
set -euo pipefail
R=$1
# Units the box does not need at boot, and that cost seconds under emulation.
for u in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer \
         getty@tty1.service getty-static.service systemd-timesyncd.service; do
  ln -sf /dev/null "$R/etc/systemd/system/$u"
done
# The port the guest reports on (vbox-helper say) carries no login: systemd's getty generator
# starts one on a virtual machine's first virtio console (hvc0, the arm64 guest's port), which
# would hang it up. A no-op for ttyS1, which gets no getty.
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@${VBOX_RESULTS_TTY:-ttyS1}.service"
# No "first boot" or "needs update" work on every boot of the same image.
touch "$R/etc/.updated" "$R/var/.updated"
# A fixed machine id: journald and systemd keep their state across the rig's reboots.
echo 5ca1ab1edeadbeef0123456789abcdef > "$R/etc/machine-id"
: > "$R/etc/fstab"
# The rig's units and the network.
chroot "$R" systemctl enable systemd-networkd.service vbox-board.service vbox-ready.service >/dev/null 2>&1
chroot "$R" systemctl enable ssh.service >/dev/null 2>&1 || true
# A person who uses boxctl over ssh (the unit's "usermod -aG boxd YOU" happens at install).
chroot "$R" useradd -m -s /bin/bash sleeper
install -d -m 0700 "$R/root/.ssh" "$R/home/sleeper/.ssh"
install -m 0600 "$VBOX_SSH_PUBKEY" "$R/root/.ssh/authorized_keys"
install -m 0600 "$VBOX_SSH_PUBKEY" "$R/home/sleeper/.ssh/authorized_keys"
chroot "$R" chown -R sleeper:sleeper /home/sleeper/.ssh
# Persistent journal, so a power-cut cycle can read what the last boot logged.
install -d "$R/var/log/journal"
