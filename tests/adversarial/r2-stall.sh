#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: the supervisor stalled by its own read of the program's memory.
# One thread opens a path that lies in a page registered with userfaultfd
# and never filled: the supervisor's read of the path (process_vm_readv or
# /proc/PID/mem) waits for a fault the program never serves, and no
# timeout or non-blocking open helps. Another thread then makes an allowed
# intercepted call (getppid, answered 42 by the policy); it must get its
# answer. Bounded at 8 s: a hang is a failure. The same under unotifyd.
# (stall.sh has the performed calls that block; this one blocks earlier.)

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "userfaultfd of kernel faults, unotifyd"
setup_tmp

cat >"$T/p.policy" <<EOF2
default allow
return getppid 42
deny openat open path=$T/never EACCES
EOF2

expect_answered() {
	if results | grep -q '^SETUP userfaultfd'; then
		case_skip "no userfaultfd here: $(results | head -1)"
	elif hung; then
		case_fail "no answer: the run was still waiting when its time limit (8 s) ran out"
	elif results | grep -q '^ANSWERED getppid=42$'; then
		case_pass "answered"
	else
		case_fail "no (right) answer: $(results | head -1)"
	fi
}

case_begin uffd-path "one thread's openat path is in a page no one fills; another calls getppid"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" uffd-stall
expect_answered

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-uffd-path "(unotifyd) the same"
RUN_TIMEOUT=8 drun p getppid,openat uffd-stall
expect_answered
if ! daemon_alive; then
	case_begin daemon-alive "(unotifyd) after the stalled sandbox"
	case_fail "unotifyd is gone"
fi

finish
