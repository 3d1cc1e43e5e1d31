#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A TCP port rule (proto=tcp port=: one port allowed, every other TCP port
# refused with the kernel's answer, the rest allowed), which the Landlock
# layer takes on this kernel (ABI 4) and the supervisor decides without it.
# Each attack tries to reach the refused port's listener, with the layer and
# with --no-landlock; the listener counts what reaches it:
#   - the plain connect (control), IPv6 to a v4-mapped address, 0.0.0.0;
#   - TCP Fast Open: sendto and sendmsg with MSG_FASTOPEN, which connect
#     without connect (Landlock does not check them: they stay with the
#     supervisor, under @net-connect's rules);
#   - a TCP socket made outside the sandbox and handed in (SCM_RIGHTS);
#   - a thread flipping the descriptor between a UDP and a TCP socket while
#     another connects on it (a check of the protocol then the kernel's own
#     connect would be raced);
#   - MPTCP, TCP on the wire but not a TCP socket (implicit tcp-variants);
#   - io_uring's connect (implicit io-uring).
. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

ABI=$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')

listener open tcp ::
listener shut tcp ::
OPEN=$(port open)
SHUT=$(port shut)

cat >"$T/tcp.policy" <<EOF
default allow
allow @net-connect proto=tcp port=$OPEN
deny  @net-connect proto=tcp kernel
allow connect sendto sendmsg sendmmsg
EOF

"$ATTACK" hand-sockets "$T/hand.sock" 150 >"$T/hand.log" 2>&1 </dev/null &
track_pid $!
wait_until 10 grep -q READY "$T/hand.log" || fail "hand-sockets did not start: $(cat "$T/hand.log")"

case_begin layer "the policy's ports are Landlock's on this kernel"
ucmd_out=$("$UNOTIFY" policy explain "$T/tcp.policy" 2>&1 || true)
if [ "${ABI:-0}" -lt 4 ]; then
	case_skip "Landlock ABI ${ABI:-0} here: the supervisor alone decides"
elif printf '%s\n' "$ucmd_out" | grep -q '^  connect: decided by Landlock'; then
	case_pass "connect: decided by Landlock"
else
	case_fail "connect is not Landlock's: $(printf '%s\n' "$ucmd_out" | grep '^  connect:')"
fi

for mode in on off; do
	opt=
	[ $mode = off ] && opt=--no-landlock
	for c in "control-open open connect 127.0.0.1 $OPEN" \
		"control-shut shut connect 127.0.0.1 $SHUT" \
		"mapped shut connect ::ffff:127.0.0.1 $SHUT" \
		"ipv6 shut connect ::1 $SHUT" \
		"any shut connect 0.0.0.0 $SHUT" \
		"fastopen shut fastopen 127.0.0.1 $SHUT ATTACK" \
		"fastopen-msg shut fastopen-msg 127.0.0.1 $SHUT" \
		"handed shut connect-handed $T/hand.sock 127.0.0.1 $SHUT" \
		"race-proto shut race-proto 127.0.0.1 $SHUT 40" \
		"mptcp shut connect-mptcp 127.0.0.1 $SHUT" \
		"uring shut uring-connect 127.0.0.1 $SHUT"; do
		set -- $c
		name=$1-$mode
		l=$2
		shift 2
		case_begin "$name" "$* (listener $l, layer $mode)"
		before=$(count "$l")
		# shellcheck disable=SC2086
		urun $opt --policy "$T/tcp.policy" -- "$ATTACK" "$@"
		if [ "$l" = open ]; then
			# The control: the allowed port is reached, the attack's program works.
			flush open
			if [ "$(( $(count open) - before ))" = 1 ]; then
				case_pass "the allowed port was reached ($(results | head -1))"
			else
				case_fail "the allowed port was not reached: $(results | head -1)"
			fi
			continue
		fi
		expect_count "$l" "$before"
	done
done

finish
