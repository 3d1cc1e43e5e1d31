#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The network. The policy keeps the program off every local service
# (@net-connect to 127.0.0.0/8 and ::1 denied); the listeners below count
# what reaches them, and each case asserts the count did not move:
#   - connect to 0.0.0.0, and to [::] for a dual-stack listener: "this host";
#   - a raw socket with IP_HDRINCL: the address the policy reads is only the
#     route (the host's own address, allowed), the header says 127.0.0.1;
#   - io_uring: IORING_OP_CONNECT to 127.0.0.1, and IORING_OP_OPENAT of a
#     file a path rule denies (raw io_uring system calls, no liburing).
# SECURITY.md and unotify.policy(5) document the wildcard and io_uring
# limits; the tests keep them visible until the supervisor closes them.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "raw sockets"
setup_tmp

# Does io_uring work here outside a sandbox? Then a sandbox that cannot set
# one up was refused it (the implicit io-uring rules), not short of it.
URING_HERE=no
if "$ATTACK" uring-open /etc/hostname 2>/dev/null | grep -q '^LEAK'; then
	URING_HERE=yes
fi

NEEDLE=secret-$(token)
DENIED=$(secret "$T/$NEEDLE")
cat >"$T/net.policy" <<EOF
default allow
deny @net-connect addr=127.0.0.0/8 addr=::1/128 ENETUNREACH
deny openat open path=$T/$NEEDLE EACCES
EOF

listener tcp4 tcp 127.0.0.1
listener tcp6 tcp ::
listener udp4 udp 127.0.0.1
TCP4=$(cat "$T/tcp4.port")
TCP6=$(cat "$T/tcp6.port")
UDP4=$(cat "$T/udp4.port")

for c in "control-connect tcp4 connect 127.0.0.1 $TCP4" \
	"control-connect6 tcp6 connect ::1 $TCP6" \
	"control-udp udp4 udp-send 127.0.0.1 $UDP4" \
	"connect-any4 tcp4 connect 0.0.0.0 $TCP4" \
	"connect-any6 tcp6 connect :: $TCP6" \
	"connect-mapped tcp4 connect ::ffff:127.0.0.1 $TCP4" \
	"uring-connect tcp4 uring-connect 127.0.0.1 $TCP4"; do
	set -- $c
	name=$1
	l=$2
	shift 2
	case_begin "$name" "$* (listener $l)"
	before=$(count "$l")
	urun --policy "$T/net.policy" -- "$ATTACK" "$@"
	if results | grep -q '^SETUP io_uring'; then
		if [ "$URING_HERE" = yes ]; then
			case_pass "refused: $(results | grep '^SETUP io_uring' | head -1)"
		else
			case_skip "io_uring is not available here"
		fi
		continue
	fi
	expect_count "$l" "$before"
done

case_begin raw-hdrincl "a raw IP_HDRINCL datagram for 127.0.0.1:$UDP4, sent to the host's own address"
HOST_IP=$(ip -4 -o addr show scope global 2>/dev/null | awk '{ print $4 }' | cut -d/ -f1 | head -1)
if [ -n "$HOST_IP" ]; then
	before=$(count udp4)
	urun --policy "$T/net.policy" -- "$ATTACK" raw-udp "$HOST_IP" 127.0.0.1 "$UDP4"
	expect_count udp4 "$before"
else
	case_skip "this host has no global IPv4 address to route through"
fi

case_begin uring-open "IORING_OP_OPENAT of a file the policy denies"
urun --policy "$T/net.policy" -- "$ATTACK" uring-open "$T/$NEEDLE"
if results | grep -q '^SETUP io_uring' && [ "$URING_HERE" = no ]; then
	case_skip "io_uring is not available here"
elif expect_blocked "$DENIED"; then
	case_pass "$(results | head -1)"
fi

finish
