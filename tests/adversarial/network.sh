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

# listener NAME PROTO ADDR: counts in $T/NAME, its port in $T/NAME.port.
listener() {
	"$ATTACK" listen-count "$2" "$3" 0 120 "$T/$1" >"$T/$1.log" 2>&1 &
	track_pid $!
	wait_until 10 test -s "$T/$1.port" ||
		fail "listener $1 ($2 $3) did not start: $(cat "$T/$1.log")"
}

count() {
	cat "$T/$1"
}

listener tcp4 tcp 127.0.0.1
listener tcp6 tcp ::
listener udp4 udp 127.0.0.1
TCP4=$(cat "$T/tcp4.port")
TCP6=$(cat "$T/tcp6.port")
UDP4=$(cat "$T/udp4.port")

# flushed NAME N: the listener has counted more than N flushes (read at each try).
flushed() {
	[ "$(cat "$T/$1.flush")" -gt "$2" ]
}

# flush NAME: a connection (or datagram) of our own from outside the sandbox,
# marked FLUSH, and a wait until the listener counted it. A listener takes
# connections in order: once ours is counted, an earlier one from the attack
# is too. Datagrams get two flushes: one may overtake across CPUs.
flush() {
	for _k in 1 2; do
		_f=$(cat "$T/$1.flush")
		case $1 in
		tcp4) "$ATTACK" connect 127.0.0.1 "$TCP4" FLUSH >/dev/null ;;
		tcp6) "$ATTACK" connect ::1 "$TCP6" FLUSH >/dev/null ;;
		udp4) "$ATTACK" udp-send 127.0.0.1 "$UDP4" FLUSH >/dev/null ;;
		esac
		wait_until 10 flushed "$1" "$_f" || fail "the $1 listener stopped counting"
	done
}

# expect_count NAME BEFORE: the listener NAME saw nothing since BEFORE.
expect_count() {
	flush "$1"
	_got=$(( $(count "$1") - $2 ))
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif [ "$_got" != 0 ]; then
		case_fail "the $1 listener got $_got connection(s) or datagram(s): $(results | head -1)"
	else
		case_pass "nothing reached the $1 listener ($(results | head -1))"
	fi
}

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
