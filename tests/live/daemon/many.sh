#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# 1,000 sandboxes alive at once, each making notified calls before and after
# a barrier that holds them all: every result is correct, the daemon runs one
# supervising thread per sandbox while they live, and its thread and fd
# counts return to where they were once they end. Prints the daemon's memory
# per sandbox (VmRSS at the peak, minus before, divided by N).

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

N=${DAEMON_MANY:-1000}
policy default 'default allow
return getppid 42'
start_daemon

threads0=$(daemon_count threads)
fds0=$(daemon_count fds)
rss0=$(awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status")
say "before: threads=$threads0 fds=$fds0 rss=${rss0}kB"

oci many "$SOCK" "$N" --daemon-pid "$DPID"
say "$OUT"
[ "$RC" = 0 ] || { say "$(printf '%s\n' "$ERR" | head -20)"; fail "not every sandbox got the right answers"; }
expect_grep "all $N started" "$OUT" "^started $N\$"
expect_grep "all $N answered before the barrier" "$OUT" "^round1 ok $N\$"
expect_grep "all $N answered after the barrier" "$OUT" "^round2 ok $N\$"
expect_grep "all $N exited 0" "$OUT" '^exit bad 0$'

peak_threads=$(printf '%s\n' "$OUT" | awk '/^peak Threads:/ { print $3 }')
peak_rss=$(printf '%s\n' "$OUT" | awk '/^peak VmRSS:/ { print $3 }')
[ "$peak_threads" -ge $((threads0 + N)) ] ||
	fail "only $peak_threads daemon threads with $N sandboxes alive (one per sandbox expected)"
say "ok: $peak_threads daemon threads with $N sandboxes alive: one per sandbox"
say "memory: $(( (peak_rss - rss0) / N )) kB per sandbox (VmRSS ${rss0}kB -> ${peak_rss}kB for $N)"

wait_until 30 daemon_count_is threads "$threads0" ||
	fail "daemon threads: $(daemon_count threads), $threads0 before"
say "ok: threads back to $threads0"
wait_until 30 daemon_count_is fds "$fds0" ||
	fail "daemon fds: $(daemon_count fds), $fds0 before"
say "ok: fds back to $fds0"
status_json
expect_grep "status: none active, $N since start" "$OUT" "\"sandboxes_active\":0,\"sandboxes_total\":$N,"
expect_daemon_alive "after $N sandboxes"
stop_daemon
