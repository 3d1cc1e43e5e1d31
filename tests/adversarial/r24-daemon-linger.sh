#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 24, descriptors whose last close waits (found by an adversarial
# review). A TCP socket with SO_LINGER and data its peer never reads makes
# the close that releases it wait for its linger time (an hour here). A
# client sent such sockets to unotifyd with SCM_RIGHTS: refused (not root
# nor in an --allow-group), its connection was closed by the main thread,
# which then waited there: no one was accepted, SIGTERM and SIGHUP went
# unheard, the watchdog went unpinged. An allowed client's sockets hung
# the connection threads that closed them, uncounted (300 connections left
# 302 threads). Now the main thread closes nothing of a client's (a closer
# thread does), and every such close runs under a timer of its thread's
# own whose signal ends the wait. The forbidden effects: a registration
# from someone else fails while the sockets are held; the daemon keeps
# threads for them; it does not stop at SIGTERM (round 25: nor with
# sockets on connections left in the backlog, which the close of the
# listening socket releases). Guard: the attack sent
# its sockets (LINGER n sent, 0 failed; a refused connection may be closed
# before it could send).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd, and a refused client (nobody)"
setup_tmp

policy box "default allow
return getppid 42"
UNOTIFYD_ARGS="--socket-mode 0666"
start_daemon
# Where the attack, as nobody too, says it is ready.
mkdir "$T/w"
chmod 1777 "$T/w"

daemon_threads() {
	awk '/^Threads:/ { print $2 }' "/proc/$DPID/status"
}

daemon_gone() {
	! daemon_alive
}

BASE_THREADS=$(daemon_threads)

# hold AS N MODE: the attack's r24-linger as AS (root or nobody), in the
# background (pid $HOLD), until every connection is sent.
hold() {
	rm -f "$T/w/ready"
	if [ "$1" = nobody ]; then
		set -- setpriv --reuid nobody --regid nogroup --clear-groups "$ATTACK" r24-linger "$SOCK" "$2" "$3" "$T/w/ready"
	else
		set -- "$ATTACK" r24-linger "$SOCK" "$2" "$3" "$T/w/ready"
	fi
	"$@" >"$T/hold.out" 2>&1 </dev/null &
	HOLD=$!
	track_pid "$HOLD"
	wait_until 30 test -e "$T/w/ready"
}

threads_back() {
	[ "$(daemon_threads)" -le "$BASE_THREADS" ]
}

# threads_settle: the daemon back to its threads before the attack, within 10 s.
threads_settle() {
	wait_until 10 threads_back
}

# linger_case NAME WHAT AS N MODE: AS sends N connections of MODE and keeps
# the sockets' peers; meanwhile two registrations from outside must run,
# and the daemon must drop every thread the connections took.
linger_case() {
	case_begin "$1" "$2"
	if ! hold "$3" "$4" "$5"; then
		case_fail "the attack did not send its connections: $(cat "$T/hold.out")"
		return 0
	fi
	if ! grep -Eq "^LINGER [1-9][0-9]* sent, 0 failed" "$T/hold.out"; then
		case_fail "the attack did not run: $(tail -2 "$T/hold.out")"
	else
		_why=
		for _v in 1 2; do
			bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
				"$ATTACK" getppid-loop 42 1 "$T/v$_v"
			[ "$RC" = 0 ] || _why="registration $_v: status $RC: $(printf '%s' "$ERR" | tail -1)"
		done
		if [ -n "$_why" ]; then
			case_fail "$_why"
		elif ! threads_settle; then
			case_fail "unotifyd keeps $(daemon_threads) threads, $BASE_THREADS before"
		else
			case_pass "both registered and ran; unotifyd back to $BASE_THREADS threads"
		fi
	fi
	kill -9 "$HOLD" 2>/dev/null || true
	wait "$HOLD" 2>/dev/null || true
}

case_begin mode-warning "a socket mode that lets in users the daemon refuses is warned about"
if grep -q "d.sock (mode 0666, owner 0, group 0) lets users connect, whom the daemon then refuses" "$T/d.err"; then
	case_pass "$(grep -o "d.sock (mode 0666, owner 0, group 0) lets users connect" "$T/d.err")"
else
	case_fail "no warning at start: $(cat "$T/d.err")"
fi

linger_case refused "(nobody, refused) 40 connections, each with a lingering socket" nobody 40 refused
linger_case no-kind "(root) 40 messages of no kind, each with a lingering socket" root 40 ctl
linger_case broken "(root) 40 broken messages, each with a lingering socket" root 40 bad
linger_case oci "(root) 40 OCI states naming a lingering socket as the listener" root 40 oci
linger_case many "(root) 10 messages with 12 lingering sockets each (8 allowed)" root 10 many

# client_closes: the daemon's count of clients' descriptors being closed.
client_closes() {
	"$UNOTIFY" status --json --socket "$SOCK" 2>/dev/null |
		sed -n 's/.*"client_closes":\([0-9]*\).*/\1/p'
}

client_closes_are() {
	[ "$(client_closes)" = "$1" ]
}

# A close no signal ends: the FLUSH of a file whose FUSE server never
# answers. It holds the thread that closes (the kernel waits
# uninterruptibly), counted as the client's, seen in `unotify status`;
# everyone else is served; when the server goes, so do the threads.
case_begin fuse "(root) 5 messages, each with a file whose close waits on its FUSE server"
if [ ! -c /dev/fuse ]; then
	case_skip "no /dev/fuse on this machine"
elif ! hold root 5 fuse; then
	case_fail "the attack did not send its connections: $(cat "$T/hold.out")"
elif ! grep -q "^LINGER 5 sent, 0 failed" "$T/hold.out"; then
	case_fail "the attack did not run: $(tail -2 "$T/hold.out")"
elif ! wait_until 10 client_closes_are 5; then
	case_fail "unotify status shows $(client_closes) client closes under way, not 5"
else
	bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
		"$ATTACK" getppid-loop 42 1 "$T/vf"
	_rc=$RC
	kill -9 "$HOLD" 2>/dev/null || true
	wait "$HOLD" 2>/dev/null || true
	if [ "$_rc" != 0 ]; then
		case_fail "a registration meanwhile: status $_rc: $(printf '%s' "$ERR" | tail -1)"
	elif ! threads_settle || [ "$(client_closes)" != 0 ]; then
		case_fail "the server gone, unotifyd keeps $(daemon_threads) threads and $(client_closes) closes"
	else
		case_pass "5 closes counted and shown, others served; all ended with the server"
	fi
fi
kill -9 "$HOLD" 2>/dev/null || true

# The last case: SIGTERM with sockets held on connections accepted and
# closed, and on connections still in the listening socket's backlog (the
# daemon stopped meanwhile), which the close of that socket releases.
case_begin sigterm "(nobody and root) lingering sockets held, some in the socket's backlog, while unotifyd is told to stop"
if ! hold nobody 20 refused; then
	case_fail "the attack did not send its connections: $(cat "$T/hold.out")"
else
	HOLD1=$HOLD
	hold root 20 bad || true
	HOLD2=$HOLD
	kill -STOP "$DPID"
	hold nobody 20 refused || true
	kill -TERM "$DPID"
	kill -CONT "$DPID"
	if ! grep -q "^LINGER 20 sent, 0 failed" "$T/hold.out"; then
		case_fail "the attack on the backlog did not run: $(tail -2 "$T/hold.out")"
	elif wait_until 20 daemon_gone; then
		case_pass "unotifyd stopped at SIGTERM"
	else
		case_fail "unotifyd did not stop within 20 s of SIGTERM (state $(daemon_state))"
		kill -9 "$DPID" 2>/dev/null || true
	fi
	kill -9 "$HOLD1" "$HOLD2" "$HOLD" 2>/dev/null || true
fi

finish
