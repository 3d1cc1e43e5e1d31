#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Address rules cannot be walked around: raw, packet and SCTP sockets are
# refused next to them (implicit raw-sockets), a connect to the
# any-address is decided as the loopback it reaches, io_uring is refused.
. "${top_srcdir:-.}/tests/adversarial/policy-lib.sh"
need_root "raw sockets need CAP_NET_RAW"
setup_tmp

policy net 'default allow' 'deny @net-connect addr=127.0.0.0/8 addr=::1/128 ENETUNREACH'

say "== raw, packet and SCTP sockets"
attempt "$POL" raw
blocked "IP_HDRINCL raw socket" raw EPERM
blocked "packet socket" packet EPERM
blocked "SCTP socket" sctp EPERM
policy net-off 'default allow' 'deny @net-connect addr=127.0.0.0/8 addr=::1/128 ENETUNREACH' \
	'implicit raw-sockets off'
attempt "$POL" raw
expect_grep "control: with raw-sockets off a raw socket opens" "$OUT" '^raw ok$'

say "== the any-address reaches the loopback"
port=$((20000 + $$ % 20000))
attempt "$T/net.policy" connect-any "$port"
expect_grep "listening on 127.0.0.1:$port" "$OUT" '^listen ok$'
blocked "connect to 0.0.0.0" connect-0.0.0.0 ENETUNREACH
blocked "connect to [::]" connect-:: ENETUNREACH
expect_no_grep "no connection made" "$OUT" '^connected$'
urun --rule 'default allow' -- "$ESCAPE" connect-any "$port"
expect_grep "control: unprotected, 0.0.0.0 reaches the listener" "$OUT" '^connected$'

say "== io_uring next to address rules"
attempt "$T/net.policy" io-uring
blocked "io_uring_setup" io_uring_setup ENOSYS

say "PASS: policy-net"
