#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, a send whose data the kernel reads after the call returned
# (found by an adversarial review). Under an address rule the supervisor
# performs sendmsg from its own copy of the data, freed when the call
# returns. With MSG_ZEROCOPY on an SO_ZEROCOPY socket the kernel pins
# those pages and reads them when it transmits: the peer got the
# supervisor's heap (its pointers, and the data of later calls) in place
# of the program's bytes. Now MSG_ZEROCOPY is refused with ENOBUFS, the
# kernel's own answer when it cannot send without copying. The
# forbidden effect: CORRUPT (bytes the program did not send). Guards:
# natively the zerocopy send arrives intact, and a plain send through
# the supervisor does too.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "SO_SNDBUFFORCE fills the window"
setup_tmp
printf 'default allow\ndeny @net-connect addr=10.0.0.0/8\n' >"$T/p.policy"

case_begin zerocopy "sendmsg(MSG_ZEROCOPY) on a full TCP window, performed by the supervisor"
native=$("$ATTACK" r10-zerocopy zerocopy 2>&1 | grep -Ev '^# ' | tail -1)
if [ "$native" != INTACT ]; then
	case_skip "natively the zerocopy send does not arrive intact: $native"
else
	urun --policy "$T/p.policy" -- "$ATTACK" r10-zerocopy zerocopy
	if hung; then
		case_fail "the run did not end within its time limit"
	elif results | grep -qx 'BLOCKED ENOBUFS'; then
		case_pass "refused with ENOBUFS"
	else
		case_fail "expected BLOCKED ENOBUFS: $(results | head -1)"
	fi
fi

case_begin plain "(guard) the same send without MSG_ZEROCOPY, performed by the supervisor"
urun --policy "$T/p.policy" -- "$ATTACK" r10-zerocopy plain
if results | grep -qx INTACT; then
	case_pass "intact"
else
	case_fail "the plain send did not arrive intact: $(results | head -1)"
fi

finish
