#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sandboxes isolated from each other under churn: 240 sandboxes of three
# policies, short- and long-lived, registered and ended concurrently through
# one daemon by four launchers, in runc's, crun's and `unotify run
# --daemon`'s registration style (oci-client mix), while `unotify run
# --daemon` itself hands over more programs meanwhile. Every answer must
# be its own policy's (a thread deciding on a recycled fd number would
# answer another sandbox's calls with its own policy), every registration
# acknowledged for its policy (every fifth runtime-style one closes without
# reading it, and container ids repeat, as runtimes do), no call may hang
# (each sandbox has an alarm, each command a time limit), and the daemon's
# fd and thread counts return to where they started. The red team's
# tests/adversarial/daemon-confusion.sh adds threaded sandboxes, children
# outliving the registered process and a long-lived victim.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

N=${DAEMON_CONCURRENT:-240}
for k in 0 1 2; do
	policy "mix$k" "default allow
return getppid $((100 + k))"
done
start_daemon

fds0=$(daemon_count fds)
threads0=$(daemon_count threads)
say "before: fds=$fds0 threads=$threads0"

# `unotify run --daemon` programs in the background, alongside the mix.
i=0
while [ "$i" -lt 12 ]; do
	k=$((i % 3))
	timeout -k 5 "$UNOTIFY_TEST_TIMEOUT" "$UNOTIFY" run --daemon --socket "$SOCK" \
		--policy-name "mix$k" -- sh -c "'$PROBE' getppid; sleep 0.2; '$PROBE' getppid" \
		>"$T/run$i.out" 2>"$T/run$i.err" </dev/null &
	track_pid $!
	eval "run_pid_$i=\$!"
	i=$((i + 1))
done

oci mix "$SOCK" "$N" --policies 3 --launchers 4 --timeout 60
printf '%s\n' "$OUT"
[ "$RC" = 0 ] || { printf '%s\n' "$ERR" | head -20; fail "not every sandbox got its own policy's answers"; }
expect_grep "all $N started" "$OUT" "^started $N\$"
expect_grep "all $N acknowledged for their policy" "$OUT" "^acked $N\$"
expect_grep "every answer of all $N is its own policy's" "$OUT" "^answers ok $N\$"
expect_grep "none hung" "$OUT" '^hung 0$'

i=0
while [ "$i" -lt 12 ]; do
	eval "pid=\$run_pid_$i"
	wait "$pid" || { cat "$T/run$i.err"; fail "unotify run --daemon #$i failed"; }
	want="ret=$((100 + i % 3))"
	[ "$(cat "$T/run$i.out")" = "$want
$want" ] || fail "unotify run --daemon #$i (policy mix$((i % 3))): $(cat "$T/run$i.out")"
	i=$((i + 1))
done
say "ok: 12 programs handed over by unotify run --daemon meanwhile got their policy's answers"

wait_until 30 daemon_count_is fds "$fds0" || fail "daemon fds: $(daemon_count fds), $fds0 before"
say "ok: the daemon's fds are back to $fds0"
wait_until 30 daemon_count_is threads "$threads0" ||
	fail "daemon threads: $(daemon_count threads), $threads0 before"
say "ok: the daemon's threads are back to $threads0"
status_json
expect_grep "status: none active, all counted" "$OUT" \
	"\"sandboxes_active\":0,\"sandboxes_total\":$((N + 12)),"
expect_daemon_alive "after $N concurrent sandboxes"
stop_daemon
[ "$DRC" = 0 ] || fail "unotifyd exited $DRC on SIGTERM"
