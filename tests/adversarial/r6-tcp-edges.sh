#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# TCP port rules (tcp-ports.sh's policy), ways to connect that tcp-ports.sh
# does not try, with the Landlock layer and with --no-landlock:
#   - sendmmsg(MSG_FASTOPEN) with msg_name on a TCP socket: TCP Fast Open
#     by a vector (Landlock does not check sends: they stay with the
#     supervisor, each message's address under @net-connect), v4 and an
#     IPv6 socket with a v4-mapped address;
#   - sendto(MSG_FASTOPEN) from an IPv6 socket to a v4-mapped address;
#   - TCP_FASTOPEN_CONNECT: connect sends no SYN, the first write does (the
#     connect is the one checked).
# The refused port's listener counts nothing; the allowed port is reached
# by TCP_FASTOPEN_CONNECT (the guard: the attack works where the policy
# allows). sendmmsg(MSG_FASTOPEN) is refused EPERM to the allowed port too
# (the supervisor fails closed there), so it has no guard.
. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

listener open tcp ::
listener shut tcp ::
OPEN=$(port open)
SHUT=$(port shut)

cat >"$T/tcp.policy" <<EOF2
default allow
allow @net-connect proto=tcp port=$OPEN
deny  @net-connect proto=tcp kernel
allow connect sendto sendmsg sendmmsg
EOF2

for mode in on off; do
	opt=
	[ $mode = off ] && opt=--no-landlock
	for c in "tfo-connect-open open r6-tfo-connect 127.0.0.1 $OPEN" \
		"tfo-mmsg shut r6-tfo-mmsg 127.0.0.1 $SHUT" \
		"tfo-mmsg-mapped shut r6-tfo-mmsg ::ffff:127.0.0.1 $SHUT" \
		"tfo-sendto-mapped shut fastopen ::ffff:127.0.0.1 $SHUT ATTACK" \
		"tfo-connect shut r6-tfo-connect 127.0.0.1 $SHUT" \
		"tfo-connect-mapped shut r6-tfo-connect ::ffff:127.0.0.1 $SHUT"; do
		set -- $c
		name=$1-$mode
		l=$2
		shift 2
		case_begin "$name" "$* (listener $l, layer $mode)"
		before=$(count "$l")
		# shellcheck disable=SC2086
		urun $opt --policy "$T/tcp.policy" -- "$ATTACK" "$@"
		if [ "$l" = open ]; then
			flush open
			if [ "$(( $(count open) - before ))" -ge 1 ]; then
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
