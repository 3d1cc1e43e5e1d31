#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, the processes around the calls. Policy: reads under denied/
# refused, reads of the FIFO and allowed/ decided (allowed), connects to
# 127.0.0.2 refused.
#   - in flight: the program's read-open of a FIFO waits in the supervisor
#     (no writer); the supervisor is killed (SIGKILL) meanwhile. That call
#     and every decided call after it must fail (ENOSYS), none succeed: a
#     denied read, and an allowed one too (nobody decides it any more);
#   - the leader gone: the main thread exits (SYS_exit), the process lives
#     on in another thread (its leader a zombie), which opens denied/x and
#     connects to 127.0.0.2; guards: allowed/f and 127.0.0.1 still work;
#   - the init: the program (root) sends SIGSTOP and SIGKILL to its pid 1
#     and ptraces it (PTRACE_SEIZE), then reads denied/x: refused, and the
#     run ends with the program's own status.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root: a pid namespace of its own"
setup_tmp
PROBE=${PROBE:-$top_builddir/tests/live/probe}
[ -x "$PROBE" ] || fail "$PROBE is not built"

mkdir -p "$T/denied" "$T/allowed"
SECRET=$(secret "$T/denied/x")
echo ok >"$T/allowed/f"
mkfifo "$T/fifo"
chmod 644 "$T/fifo"
cat >"$T/p.policy" <<EOF
default allow
deny @file-read path=$T/denied/** EACCES
allow @file-read path=$T/fifo path=$T/allowed/**
deny @net-connect addr=127.0.0.2 EACCES
EOF

# inflight CASE PATH: the FIFO open held, the supervisor killed, then PATH.
inflight() {
	rm -f "$T/ready"
	(wait_until 20 test -e "$T/ready" && sleep 0.5 && kill -9 "$(cat "$T/.sup")") \
		>/dev/null 2>&1 &
	track_pid $!
	urun --policy "$T/p.policy" -- "$ATTACK" r5-inflight "$T/fifo" "$T/ready" "$1"
	# The program outlives its killed supervisor, so urun may return before
	# it prints: wait for its two result lines (the FIFO's and PATH's).
	wait_until 20 sh -c '[ "$(grep -cv "^# " "$0")" -ge 2 ]' "$T/.out" || true
	OUT=$(cat "$T/.out")
}

case_begin inflight-denied "the supervisor killed while the FIFO's open waits in it, then denied/x"
inflight "$T/denied/x"
if expect_blocked "$SECRET"; then case_pass "$(results | tr '\n' ' ')"; fi

case_begin inflight-allowed "the same, then allowed/f: decided by no one, it must fail too"
inflight "$T/allowed/f"
if [ ! -e "$T/ready" ]; then
	case_fail "the program never got to the FIFO"
elif expect_blocked; then
	case_pass "$(results | tr '\n' ' ')"
fi

PORT=$((40000 + $$ % 20000))
"$PROBE" serve stream inet 127.0.0.2 "$PORT" 20 >"$T/srv2.out" 2>&1 &
track_pid $!
wait_until 10 grep -q '^ready' "$T/srv2.out" || fail "no server on 127.0.0.2: $(cat "$T/srv2.out")"

case_begin leader-exit-open "the leader exited, another thread opens denied/x"
urun --policy "$T/p.policy" -- "$ATTACK" r5-leader-exit open "$T/denied/x"
if expect_blocked "$SECRET"; then case_pass "$(results)"; fi

case_begin leader-exit-open-allowed "(guard) the same, allowed/f: read"
urun --policy "$T/p.policy" -- "$ATTACK" r5-leader-exit open "$T/allowed/f"
if [ "$(results)" = "LEAK 3 ok" ]; then case_pass "read"; else case_fail "not read: $(results)"; fi

case_begin leader-exit-connect "the leader exited, another thread connects to 127.0.0.2"
urun --policy "$T/p.policy" -- "$ATTACK" r5-leader-exit connect 127.0.0.2 "$PORT"
if expect_blocked; then
	if grep -q '^conn' "$T/srv2.out"; then
		case_fail "the server on 127.0.0.2 saw a connection"
	else
		case_pass "$(results), the server saw nothing"
	fi
fi

# Tracing the init is allowed (SECURITY.md: it is the program's own); what it must not give is
# a way past the policy, or the run's end.
case_begin init-signals "SIGSTOP, SIGKILL and PTRACE_SEIZE of pid 1, then denied/x; the run ends with the program's status"
urun --policy "$T/p.policy" -- sh -c "kill -STOP 1; kill -KILL 1; '$ATTACK' ptrace 1; '$ATTACK' r5-fd-open -100 '$T/denied/x'; exit 7"
if hung; then
	case_fail "the run did not end within its time limit: a hang"
elif printf '%s\n' "$OUT" | grep -q -- "$SECRET"; then
	case_fail "the secret is in the program's output"
elif [ "$(results | tail -1)" != "BLOCKED EACCES" ]; then
	case_fail "denied/x not refused: $(results | tail -1)"
elif [ "$RC" != 7 ]; then
	case_fail "status $RC, not the program's 7"
else
	case_pass "$(results | tr '\n' ' '), status 7"
fi

finish
