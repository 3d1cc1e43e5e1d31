#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: the network. The policy keeps the program off one local address
# (deny @net-connect addr=127.0.0.2: a metadata service, a DNS stub); the
# listeners there count what reaches them, a packet socket on lo (outside
# the sandbox) sees what is sent there, and each case asserts that nothing
# was:
#   - the any-address: 0.0.0.0 is decided as itself and 127.0.0.1, but the
#     kernel sends to the socket's own source address when it has one: bound
#     to 127.0.0.2 first (TCP, UDP, and an IPv6 socket with mapped
#     addresses), or given it by an IP_PKTINFO control message;
#   - IPv4 loose source routing (IP_OPTIONS, or IP_RETOPTS in sendmsg's
#     control data, no privilege needed): to 127.0.0.1 as the supervisor
#     reads it, routed through 127.0.0.2, where the packet is sent first;
# r2-net-guards.sh has the attacks on the address that fail.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "a packet socket on lo"
setup_tmp

cat >"$T/net.policy" <<EOF
default allow
deny @net-connect addr=127.0.0.2 ENETUNREACH
EOF

listener tcp2 tcp 127.0.0.2
listener udp2 udp 127.0.0.2
TCP2=$(cat "$T/tcp2.port")
UDP2=$(cat "$T/udp2.port")

for c in "control-tcp tcp2 connect 127.0.0.2 $TCP2" \
	"control-udp udp2 udp-send 127.0.0.2 $UDP2" \
	"any-bound-tcp tcp2 connect-from 127.0.0.2 0.0.0.0 $TCP2" \
	"any-bound-tcp6 tcp2 connect-from ::ffff:127.0.0.2 ::ffff:0.0.0.0 $TCP2" \
	"any-bound-udp udp2 udp-from 127.0.0.2 0.0.0.0 $UDP2 ATTACK" \
	"any-pktinfo udp2 udp-pktinfo 127.0.0.2 0.0.0.0 $UDP2 ATTACK"; do
	set -- $c
	name=$1
	l=$2
	shift 2
	case_begin "$name" "$* (listener $l)"
	before=$(count "$l")
	urun --policy "$T/net.policy" -- "$ATTACK" "$@"
	expect_count "$l" "$before"
done

# ---- guards: the any-address still reaches an allowed local address ----
listener tcp1 tcp 127.0.0.1
listener udp1 udp 127.0.0.1
TCP1=$(cat "$T/tcp1.port")
UDP1=$(cat "$T/udp1.port")
for c in "any-allowed-tcp tcp1 connect-from 127.0.0.1 0.0.0.0 $TCP1" \
	"any-allowed-unbound tcp1 connect 0.0.0.0 $TCP1" \
	"any-allowed-udp udp1 udp-pktinfo 127.0.0.1 0.0.0.0 $UDP1 GUARD" \
	"pktinfo-short udp1 udp-pktinfo 127.0.0.1 127.0.0.1 $UDP1 GUARD short"; do
	set -- $c
	name=$1
	l=$2
	shift 2
	case_begin "$name" "(guard) $* reaches the $l listener on 127.0.0.1"
	before=$(count "$l")
	urun --policy "$T/net.policy" -- "$ATTACK" "$@"
	if wait_until 10 test "$(count "$l")" -gt "$before"; then
		case_pass "reached ($(results | head -1))"
	else
		case_fail "the $l listener counted nothing: $(results | head -1)"
	fi
done

# ---- IPv6's :: from a socket bound to a v4-mapped address: 127.0.0.1 ----
cat >"$T/lo.policy" <<EOF
default allow
deny @net-connect addr=127.0.0.1 ENETUNREACH
EOF
case_begin any6-mapped-bound "(deny addr=127.0.0.1) a v6 socket bound to ::ffff:127.0.0.2 connects to [::]:$TCP1 (tcp_v6_connect: ::ffff:127.0.0.1, not ::1)"
before=$(count tcp1)
urun --policy "$T/lo.policy" -- "$ATTACK" connect-from ::ffff:127.0.0.2 :: "$TCP1"
flush tcp1
if hung; then
	case_fail "the run did not end within its time limit: a hang"
elif [ "$(count tcp1)" != "$before" ]; then
	case_fail "the tcp1 listener on 127.0.0.1 got $(( $(count tcp1) - before )): $(results | head -1)"
else
	case_pass "nothing reached 127.0.0.1 ($(results | head -1))"
fi

# ---- source routing: what a packet socket on lo sees sent to 127.0.0.2 ----
# sniffer NAME PORT: packets to 127.0.0.2:PORT logged in $T/NAME.seen.
sniffer() {
	"$ATTACK" sniff 127.0.0.2 "$2" 150 "$T/$1.seen" >"$T/$1.slog" 2>&1 </dev/null &
	track_pid $!
	wait_until 10 grep -q READY "$T/$1.seen" ||
		fail "the packet socket did not start: $(cat "$T/$1.slog")"
}

# expect_unseen NAME PORT: a datagram of ours (FLUSH) to the port is seen, the attack's never.
expect_unseen() {
	"$ATTACK" udp-send 127.0.0.2 "$2" FLUSH >/dev/null
	wait_until 10 grep -q "data 'FLUSH'" "$T/$1.seen" || fail "the packet socket stopped seeing"
	_seen=$(grep SEEN "$T/$1.seen" | grep -v "data 'FLUSH'" | head -1)
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif [ -n "$_seen" ]; then
		case_fail "sent to 127.0.0.2: $_seen ($(results | head -1))"
	else
		case_pass "nothing sent to 127.0.0.2 ($(results | head -1))"
	fi
}

port=$((40000 + $$ % 10000))
for c in "srr-udp udp" "srr-cmsg cmsg" "srr-tcp tcp"; do
	set -- $c
	port=$((port + 1))
	sniffer "$1" "$port"
	case_begin "$1" "to 127.0.0.1:$port as the supervisor reads it, through 127.0.0.2 by a loose source route ($2)"
	urun --policy "$T/net.policy" -- "$ATTACK" srr 127.0.0.2 127.0.0.1 "$port" ATTACK "$2"
	expect_unseen "$1" "$port"
done

finish
