#!/bin/bash
stty -F "$(/usr/local/bin/vbox-helper tty)" 115200 raw -echo 2>/dev/null || true
up=$(cut -d' ' -f1 /proc/uptime)
boxd=$(systemctl is-active boxd.service 2>/dev/null || true)
/usr/local/bin/vbox-helper say "VBOX READY uptime=$up boot=$(cat /proc/sys/kernel/random/boot_id) boxd=$boxd"
