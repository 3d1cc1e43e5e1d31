#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor stalled. A call the supervisor performs for the program
# and that blocks holds the thread that supervises every other call of the
# program: a FIFO opened for writing with no reader at the other end, a
# connect to a unix listener whose backlog is full and that never accepts.
# While one thread of the program is inside such a call, another thread
# makes an allowed intercepted call (getppid, answered 42 by the policy);
# it must get its answer. The run is bounded (8 s): a hang is a failure.
# The same under unotifyd. Then what the kernel would do with the call
# that waits: a FIFO's read-open waits for a writer, a signal to its thread
# interrupts it (EINTR) or restarts it (SA_RESTART), and a program killed
# meanwhile leaves nothing behind in the supervisor (the open interrupted,
# no reader left on the FIFO, the daemon's sandbox gone).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

mkfifo "$T/fifo"
ln -s fifo "$T/fifo-link"
cat >"$T/p.policy" <<EOF
default allow
return getppid 42
deny openat open path=$T/never EACCES
deny @net-connect addr=10.9.9.9 ENETUNREACH
EOF

# expect_answered: the other thread's getppid came back 42, and the run ended.
expect_answered() {
	if hung; then
		case_fail "no answer: the run was still waiting when its time limit (8 s) ran out"
	elif results | grep -q '^ANSWERED getppid=42$'; then
		case_pass "answered"
	else
		case_fail "no (right) answer: $(results | head -1)"
	fi
}

case_begin fifo-writer "one thread opens a FIFO with no reader for writing; another calls getppid"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-stall "$T/fifo"
expect_answered

case_begin unix-connect "one thread connects to a full unix listener that never accepts; another calls getppid"
"$ATTACK" listen-count unix "$T/stuck.sock" 0 60 "$T/stuck.ready" >"$T/stuck.log" 2>&1 &
track_pid $!
wait_until 10 test -e "$T/stuck.ready" || fail "the unix listener did not start"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" unix-stall "$T/stuck.sock"
expect_answered

case_begin fifo-symlink "one thread opens for writing a symlink to a FIFO with no reader; another calls getppid"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-stall "$T/fifo-link"
expect_answered

# Nothing in the name or the type says this open waits: the watchdog's case.
case_begin lease-open "one thread opens for writing a file another process holds a read lease on; another calls getppid"
"$ATTACK" lease-hold "$T/leased" 60 "$T/leased.ready" >"$T/lease.log" 2>&1 &
track_pid $!
wait_until 10 test -e "$T/leased.ready" || fail "the lease holder did not start: $(cat "$T/lease.log")"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-stall "$T/leased"
expect_answered

# expect_fifo_result WANT: the run ended and its result line is WANT.
expect_fifo_result() {
	if hung; then
		case_fail "no answer: the run was still waiting when its time limit (8 s) ran out"
	elif [ "$(results | head -1)" = "$1" ]; then
		case_pass "$1"
	else
		case_fail "wanted '$1', got: $(results | head -1)"
	fi
}

# expect_no_reader FIFO: nobody (the supervisor included) holds FIFO open for reading.
expect_no_reader() {
	if dd if=/dev/null of="$1" oflag=nonblock conv=notrunc 2>&1 | grep -q 'No such device or address'; then
		case_pass "$2"
	else
		case_fail "the FIFO still has a reader after the program was killed: the supervisor's open was left waiting"
	fi
}

case_begin fifo-reader "a thread's blocking read-open of a FIFO waits for the writer, as the kernel's does"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-wait reader "$T/fifo"
expect_fifo_result "ANSWERED 42 HANDLED 0 READ hello"

case_begin fifo-intr "a signal (no SA_RESTART) to the thread waiting in a FIFO's open: EINTR, handler run"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-wait intr "$T/fifo"
expect_fifo_result "ANSWERED 42 INTERRUPTED EINTR HANDLED 1"

case_begin fifo-restart "a signal (SA_RESTART) to the thread waiting in a FIFO's open: handled, the open goes on"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-wait restart "$T/fifo"
expect_fifo_result "ANSWERED 42 HANDLED 1 READ hello"

case_begin fifo-killed "the program killed while the supervisor waits in a FIFO's open for it"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" fifo-wait kill "$T/fifo"
if hung; then
	case_fail "the run did not end when the program was killed (the supervisor still waits)"
elif [ "$RC" -ne 137 ]; then
	case_fail "status $RC, not 137 (killed): $(results | head -1) $ERR"
else
	expect_no_reader "$T/fifo" "the run ended (137), no reader left"
fi

case_begin one-thread "with --threads 1 a FIFO writer's open still holds the other calls (the documented trade-off)"
URUN_TIMEOUT=3 urun --threads 1 --policy "$T/p.policy" -- "$ATTACK" fifo-stall "$T/fifo"
if hung; then
	case_pass "held, as documented"
else
	case_fail "answered with --threads 1: the option does not do what unotify(1) says ($(results | head -1))"
fi

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-fifo "(unotifyd) one thread opens the FIFO for writing; another calls getppid"
RUN_TIMEOUT=8 drun p getppid,openat fifo-stall "$T/fifo"
expect_answered

# A listener of its own: the first case's connections still fill the other's backlog.
case_begin daemon-unix "(unotifyd) one thread connects to a full unix listener; another calls getppid"
"$ATTACK" listen-count unix "$T/stuck2.sock" 0 60 "$T/stuck2.ready" >"$T/stuck2.log" 2>&1 &
track_pid $!
wait_until 10 test -e "$T/stuck2.ready" || fail "the second unix listener did not start"
# run --daemon registers the listener from outside: daemon-run's own connect would be notified.
bounded 8 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p -- \
	"$ATTACK" unix-stall "$T/stuck2.sock"
expect_answered

case_begin daemon-reader "(unotifyd) a thread's blocking read-open of a FIFO waits for the writer"
RUN_TIMEOUT=8 drun p getppid,openat fifo-wait reader "$T/fifo"
expect_fifo_result "ANSWERED 42 HANDLED 0 READ hello"

case_begin daemon-intr "(unotifyd) a signal to the thread waiting in a FIFO's open: EINTR"
RUN_TIMEOUT=8 drun p getppid,openat fifo-wait intr "$T/fifo"
expect_fifo_result "ANSWERED 42 INTERRUPTED EINTR HANDLED 1"

case_begin daemon-killed "(unotifyd) the program killed while the daemon waits in a FIFO's open for it"
RUN_TIMEOUT=8 drun p getppid,openat fifo-wait kill "$T/fifo"
if hung; then
	case_fail "the run did not end when the program was killed"
elif ! wait_until 5 sh -c '! "$0" status --socket "$1" 2>/dev/null | grep -q "fifo-wait\|sandboxes: [1-9]"' "$UNOTIFY" "$SOCK"; then
	case_fail "the daemon still supervises the killed sandbox"
elif ! daemon_alive; then
	case_fail "the daemon died"
else
	expect_no_reader "$T/fifo" "the sandbox ended, no reader left, the daemon lives"
fi

finish
