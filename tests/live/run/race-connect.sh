#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TOCTOU race for connect: one thread connects with a sockaddr buffer in
# a loop while another flips it between an allowed and a denied address
# (two unix sockets, two loopback ports, both served by the probe itself).
# The supervisor connects the target's socket to the address it copied and
# decided on: the peer is never the denied one.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
setup_tmp
race_iterations

free_ports 4

say "== sanity: unsupervised, the probe does reach the denied socket"
race_sanity race-connect race-connect unix "$T/a.sock" "$T/d.sock" 20000
rm -f "$T/a.sock" "$T/d.sock"

say "== unix: allow connect unix=a.sock, deny the rest: $ITER attempts"
urun --rule "allow connect unix=$T/a.sock" --rule 'deny connect EACCES' \
	--rule 'default allow' -- "$PROBE" race-connect unix "$T/a.sock" "$T/d.sock" "$ITER"
race_check "connect unix" "$ITER"

say "== inet: allow connect 127.0.0.1:$P, deny 127.0.0.1:$((P + 1)): $ITER attempts"
urun --rule "allow connect addr=127.0.0.1 port=$P" --rule 'deny connect EACCES' \
	--rule 'default allow' -- "$PROBE" race-connect inet "$P" $((P + 1)) "$ITER"
race_check "connect inet" "$ITER"

say "PASS: race-connect"
