#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 16, a registration that names another process (found by an
# adversarial review). unotifyd refuses to supervise a sandbox in its own
# pid namespace unless started with --allow-shared-pid: such a program can
# signal, trace or renice the daemon. It looked only at the pid the client
# wrote in its registration, never at the listener's threads: a client in
# the daemon's namespace that named a process of another namespace had its
# own program supervised, and the daemon performed its opens. Now each
# thread's namespace is checked when the daemon first reads its state: a
# call performed for a thread in the daemon's namespace gets EPERM (here
# the program's loader is refused libc first). The forbidden effect: a file
# read through the daemon by such a program.
# Guards: an honest sandbox of its own namespace reads it, and so does the
# lying one under --allow-shared-pid.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd, pid namespaces"
setup_tmp

echo "r16 token $$" >"$T/allowed"
policy box "default allow
deny openat path=$T/secret"

# A process of another pid namespace for the lie to name.
unshare --pid --fork sleep 600 &
track_pid $!
wait_until 10 pgrep -P $! sleep >/dev/null || fail "no process in a pid namespace of its own"
DECOY=$(pgrep -P $! sleep)
track_pid "$DECOY"

start_daemon

case_begin lying-pid "(client) a program in the daemon's pid namespace, registered as process $DECOY of another, opens a file the policy allows"
ATTACK_CLAIM_PID=$DECOY drun box openat read "$T/allowed"
if hung; then
	case_fail "the run did not end within its time limit: a hang"
elif results | grep -q '^LEAK'; then
	case_fail "the daemon performed its open: $(results | head -1)"
elif results | grep -q '^BLOCKED EPERM'; then
	case_pass "$(results | head -1)"
elif printf '%s\n' "$ERR" | grep -q 'libc.so.6: cannot open shared object file: Operation not permitted'; then
	# Every open the daemon performs fails: the program's loader's first.
	case_pass "EPERM (the program's loader could not open libc)"
else
	case_fail "expected EPERM: $(results | head -1)"
fi

case_begin own-namespace "(guard) a sandbox in a pid namespace of its own reads it"
drun box openat read "$T/allowed"
if results | grep -q "^LEAK.*r16 token $$"; then
	case_pass "$(results | head -1 | cut -c1-60)"
else
	case_fail "expected the file read: $(results | head -1)"
fi

kill "$DPID"
wait_until 10 sh -c '! kill -0 "$1" 2>/dev/null' sh "$DPID" || fail "unotifyd did not stop"
: >"$T/d.err"
UNOTIFYD_ARGS=--allow-shared-pid start_daemon

case_begin lying-pid-allowed "(guard) the same lie under --allow-shared-pid: the daemon performs the open"
ATTACK_CLAIM_PID=$DECOY drun box openat read "$T/allowed"
if results | grep -q "^LEAK.*r16 token $$"; then
	case_pass "$(results | head -1 | cut -c1-60)"
else
	case_fail "expected the file read: $(results | head -1)"
fi

finish
