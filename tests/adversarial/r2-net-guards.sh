#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2, attacks on the address that fail (regression guards; r2-net.sh
# has those that work). The policy keeps the program off 127.0.0.2 (deny
# @net-connect addr=127.0.0.2); the listeners there count what reaches
# them:
#   - 0.0.0.0 from an unbound socket (the loopback 127.0.0.1, not .2);
#   - sendmmsg (its addresses are not read: refused), TCP fast open
#     (sendto with MSG_FASTOPEN carries the address), a sendto naming
#     127.0.0.2 on a UDP socket connected to an allowed address.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

cat >"$T/net.policy" <<EOF
default allow
deny @net-connect addr=127.0.0.2 ENETUNREACH
EOF

listener tcp2 tcp 127.0.0.2
listener udp2 udp 127.0.0.2
TCP2=$(cat "$T/tcp2.port")
UDP2=$(cat "$T/udp2.port")

for c in "control-any tcp2 connect 0.0.0.0 $TCP2" \
	"sendmmsg udp2 sendmmsg 127.0.0.2 $UDP2 ATTACK" \
	"fastopen tcp2 fastopen 127.0.0.2 $TCP2 ATTACK" \
	"udp-elsewhere udp2 udp-elsewhere 127.0.0.1 9 127.0.0.2 $UDP2 ATTACK"; do
	set -- $c
	name=$1
	l=$2
	shift 2
	case_begin "$name" "$* (listener $l)"
	before=$(count "$l")
	urun --policy "$T/net.policy" -- "$ATTACK" "$@"
	expect_count "$l" "$before"
done

finish
