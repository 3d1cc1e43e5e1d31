#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor stalled. A call the supervisor performs for the program
# and that blocks holds the thread that supervises every other call of the
# program: a FIFO opened for writing with no reader at the other end, a
# connect to a unix listener whose backlog is full and that never accepts.
# While one thread of the program is inside such a call, another thread
# makes an allowed intercepted call (getppid, answered 42 by the policy);
# it must get its answer. The run is bounded (8 s): a hang is a failure.
# The same under unotifyd, whose sandbox has one supervising thread too.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

mkfifo "$T/fifo"
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

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-fifo "(unotifyd) one thread opens the FIFO for writing; another calls getppid"
RUN_TIMEOUT=8 drun p getppid,openat fifo-stall "$T/fifo"
expect_answered

finish
