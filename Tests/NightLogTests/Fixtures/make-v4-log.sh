#!/bin/bash
# Nights written by boxd/boxctl at commit 481d495 (schema v1..v4), for the v5 migration test.
set -euo pipefail
B=${1:?usage: make-v4-log.sh BUILD_DIR_OF_COMMIT_481d495}
S=$PWD/state; SOCK=$PWD/c.sock
TZ=UTC $B/boxd --hardware sim --clock sim:2026-11-01T21:30:00Z --state-dir $S --socket $SOCK > boxd.log 2>&1 &
PID=$!
for i in $(seq 100); do [ -S $SOCK ] && break; sleep 0.1; done
c() { $B/boxctl --socket $SOCK "$@"; }
# Night 1 (2026-11-01): lights out, Dose 1, two temporary wakes, a snooze, Dose 2, wake, check-in with a note.
c log lights_out; c sim advance 30m; c sim press; c sim advance 100m; c log wake_temp; c sim advance 20m
c log wake_temp --note "thirsty, then slept"; c sim advance 35m; c snooze; c sim advance 15m; c sim press
c sim advance 5h; c log wake_final; c checkin --quality 4 --rested well --notes "=slept OK"
# A nap the same afternoon: its session shares the date 2026-11-01 (before 18:00), and gets a check-in too.
c sim advance 6h; c log nap_start; c sim advance 40m; c log nap_end; c checkin --quality 2 --rested slightly || true
# Night 2 (2026-11-02): Dose 1, undone within the undo window, Dose 1 again; Dose 2 skipped; check-in.
c sim advance 9h30m; c sim press; c sim advance 2s; c undo; c sim advance 1m; c sim press; c sim advance 160m
c skip; c sim advance 2h; c checkin --quality 3
# Night 3 (2026-11-03): open, Dose 1 only.
c sim advance 19h; c log in_bed; c sim advance 5m; c sim press; c sim advance 20m
c status
kill -TERM $PID; wait $PID || true
# The fixture: sqlite3 state/nightlog.sqlite "VACUUM INTO 'nightlog-v4.sqlite'"
