#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Daemon confusion: one sandbox's end must never tear down, stall or change
# another's supervision. 240 sandboxes of two policies (A answers getppid
# 1111, B 2222) register with one unotifyd at once; they are short-lived
# (one call), long-lived (calls after every sandbox started), outlived by a
# child that goes on calling after the registered process exited, or
# threaded (4 threads x 50 calls). Each checks every answer is its own
# policy's. A second round of 120 registers as runc does: container ids that
# repeat, short-lived clients closing without reading the answer. A
# long-lived victim of policy B calls getppid all along. None may hang (each
# has 20 s), and the daemon's fd and thread counts return to where they
# started once all have ended.
# tests/live/daemon-many.sh covers 1,000 sandboxes of one policy.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

N=${ADVERSARIAL_SANDBOXES:-240}
N2=$((N / 2))
policy A 'default allow
return getppid 1111'
policy B 'default allow
return getppid 2222'
start_daemon
fds0=$(daemon_fds)
threads0=$(awk '/^Threads:/ { print $2 }' "/proc/$DPID/status")
say "daemon before: $fds0 fds, $threads0 threads"

"$ATTACK" daemon-run "$SOCK" B getppid "$ATTACK" getppid-loop 2222 30 "$T/victim.ready" \
	>"$T/victim.out" 2>&1 &
VICTIM=$!
track_pid "$VICTIM"
wait_until 10 test -e "$T/victim.ready" || fail "the victim sandbox never started"

# daemon_said: what unotifyd said that was not a sandbox's start or end
# (why a registration failed: a sandbox that exits 5 was not registered).
daemon_said() {
	say "unotifyd's other lines: $(grep -v 'registered by\|ended:' "$T/d.err" | tail -8)"
}

case_begin many "$N sandboxes of policies A and B at once (unique ids), every answer checked"
bounded 60 "$ATTACK" daemon-many "$SOCK" "$N" plain
printf '%s\n' "$OUT" | grep '^# [0-9]* sandboxes' || true
if expect_blocked; then case_pass "$(results | head -1)"; else daemon_said; fi

case_begin many-runc-style "$N2 more, registered runc-style: repeated container ids, no wait for the answer"
bounded 60 "$ATTACK" daemon-many "$SOCK" "$N2"
printf '%s\n' "$OUT" | grep '^# [0-9]* sandboxes' || true
if expect_blocked; then case_pass "$(results | head -1)"; else daemon_said; fi

case_begin victim "a policy-B sandbox calling getppid all along got only 2222"
wait "$VICTIM" || true
OUT=$(cat "$T/victim.out") RC=- HUNG=no
if expect_blocked; then case_pass "$(results | head -1)"; fi

case_begin fds "the daemon's fds return to $fds0 once every sandbox ended"
if wait_until 30 daemon_fds_are "$fds0"; then
	case_pass "$fds0 fds"
else
	RC=- OUT="$(ls -l "/proc/$DPID/fd" | tail -n 5)" ERR=
	case_fail "$(daemon_fds) fds, $fds0 before"
fi

case_begin threads "the daemon's threads return to $threads0"
threads_are() {
	[ "$(awk '/^Threads:/ { print $2 }' "/proc/$DPID/status")" = "$1" ]
}
if wait_until 30 threads_are "$threads0"; then
	case_pass "$threads0 threads"
else
	RC=- OUT= ERR=
	case_fail "$(awk '/^Threads:/ { print $2 }' "/proc/$DPID/status") threads, $threads0 before"
fi

case_begin alive "the daemon is alive and logged no supervision failure"
if daemon_alive && ! grep -q 'supervision failed' "$T/d.err"; then
	case_pass "alive"
else
	RC=- OUT= ERR=$(tail -n 20 "$T/d.err")
	case_fail "unotifyd died or a supervision failed"
fi

finish
