#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# TCP ports in the Landlock layer (ABI 4) decide exactly what the policy
# says: every connect and bind below runs three times, with the layer (this
# kernel's ABI), with the layer of a kernel before ABI 4
# (UNOTIFY_LANDLOCK_ABI=3: the ports go back to the supervisor) and without
# it (--no-landlock), and the three answers must be the same and the
# expected one: TCP and UDP, IPv4, IPv6 and v4-mapped, port 0, AF_UNSPEC,
# addresses of the wrong family or too short (Landlock's EINVAL before the
# port), a UDP socket on a TCP-only rule, an MPTCP one (refused by the implicit
# tcp-variants set; with it off, not TCP to either layer). A listener on the
# refused port counts what reaches it. A policy whose port rule has an
# address too stays with the supervisor, and explain says why.
. "${top_srcdir:-.}/tests/live/lib.sh"
. "${top_srcdir:-.}/tests/live/landlock-lib.sh"
setup_tmp

ABI=$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')

# Ports of our own, apart from other tests' and above the kernel's ephemeral
# range (32768-60999: a port another connection holds there is EADDRINUSE):
# allowed and refused, connect and bind.
BASE=$((61000 + ($$ % 1000) * 4))
OK=$BASE
NO=$((BASE + 1))
BOK=$((BASE + 2))
BNO=$((BASE + 3))

cat >"$T/ports.policy" <<EOF
default allow
allow connect sendto proto=tcp port=$OK
deny  @net-connect proto=tcp kernel
allow connect sendto sendmsg sendmmsg
allow bind proto=tcp port=0 port=$BOK
deny  bind proto=tcp kernel
allow bind
EOF
POL=$T/ports.policy

say "== the layers of the policy"
ucmd policy check "$POL"
expect_grep "the policy is valid" "$OUT" ': OK$'
ucmd policy explain "$POL"
if [ "${ABI:-0}" -ge 4 ]; then
	expect_grep "explain: connect is Landlock's" "$OUT" '^  connect: decided by Landlock'
	expect_grep "explain: bind is Landlock's" "$OUT" '^  bind: decided by Landlock'
	expect_grep "explain: the allowed port is granted" "$OUT" \
		"^      Landlock: grants TCP port.s. $OK\$"
	expect_grep "explain: the rest of TCP is refused" "$OUT" \
		'^      Landlock: refuses every other TCP port'
	expect_grep "explain: sends stay with the supervisor, and why" "$OUT" \
		'not Landlock: Landlock does not check sends'
	ucmd policy compile "$POL" --landlock
	expect_grep "compile --landlock: the rights handled" "$OUT" \
		'^handled-net connect-tcp bind-tcp$'
	expect_grep "compile --landlock: the connect port" "$OUT" "^port +$OK connect-tcp "
	expect_grep "compile --landlock: bind's port 0" "$OUT" '^port +0 bind-tcp '
	expect_no_grep "compile --landlock: no rule for the refused port" "$OUT" "^port +$NO "
else
	skip_case "the ports are in the layer" "Landlock ABI ${ABI:-0} here, ports need 4"
fi
UNOTIFY_LANDLOCK_ABI=3 ucmd policy explain "$POL"
expect_grep "explain below ABI 4: connect stays with the supervisor, and why" "$OUT" \
	'^  connect: not Landlock: Landlock.s TCP port rights come with ABI 4'

# One listener on each connect port (IPv6, dual-stack: IPv4 and mapped reach it too).
serve ok stream inet6 :: "$OK" 1000
serve no stream inet6 :: "$NO" 1000
MPTCP=no
if "$PROBE" connect stream inet 127.0.0.1 "$OK" mptcp | grep -q '^ok got=hello'; then
	MPTCP=yes
fi

# The answers of each case agree across the modes, an ephemeral port aside.
LOW_ABI=3
RUN_OPTS=
NORM='s/name=\(.*\):[0-9]*$/name=\1:PORT/'

say "== connect"
three "TCP, IPv4, the allowed port" "ok got=hello" connect stream inet 127.0.0.1 "$OK"
three "TCP, IPv4, another port: the kernel's EACCES" "err EACCES" \
	connect stream inet 127.0.0.1 "$NO"
three "TCP, IPv6, the allowed port" "ok got=hello" connect stream inet6 ::1 "$OK"
three "TCP, IPv6, another port" "err EACCES" connect stream inet6 ::1 "$NO"
three "TCP, v4-mapped, the allowed port" "ok got=hello" connect stream mapped 127.0.0.1 "$OK"
three "TCP, v4-mapped, another port" "err EACCES" connect stream mapped 127.0.0.1 "$NO"
three "TCP, port 0" "err EACCES" connect stream inet 127.0.0.1 0
three "UDP on the TCP-only rule: not refused" "ok" connect dgram inet 127.0.0.1 "$NO"
three "UDP, IPv6" "ok" connect dgram inet6 ::1 "$NO"
three "AF_UNSPEC (a disconnect): never refused" "ok got=" connect stream unspec 127.0.0.1 "$NO"
three "AF_UNSPEC, 2 bytes: a disconnect still" "ok got=" \
	connect stream unspec 127.0.0.1 "$NO" len=2
three "1 byte of address: EINVAL" "err EINVAL" connect stream unspec 127.0.0.1 "$NO" len=1
three "IPv4 address, 8 bytes: EINVAL before the port" "err EINVAL" \
	connect stream inet 127.0.0.1 "$OK" len=8
three "IPv6 address, 20 bytes: EINVAL" "err EINVAL" connect stream inet6 ::1 "$OK" len=20
three "IPv4 address on an IPv6 socket, allowed port: EINVAL" "err EINVAL" \
	connect stream inet 127.0.0.1 "$OK" sock=inet6
three "the same, 28 bytes (the stack would say EAFNOSUPPORT)" "err EINVAL" \
	connect stream inet 127.0.0.1 "$OK" sock=inet6 len=28
three "IPv6 address on an IPv4 socket: EINVAL" "err EINVAL" \
	connect stream inet6 ::1 "$OK" sock=inet
three "a Unix address on a TCP socket: the stack's answer" "err EAFNOSUPPORT" \
	connect stream unix "$T/none" sock=inet
three "an MPTCP socket: refused (implicit tcp-variants)" "socket err EPROTONOSUPPORT" \
	connect stream inet 127.0.0.1 "$NO" mptcp
if [ "$MPTCP" = yes ]; then
	# Without the set, MPTCP is not TCP to the rules, nor to Landlock: the same answer.
	{ echo "implicit tcp-variants off"; cat "$T/ports.policy"; } >"$T/mptcp.policy"
	POL=$T/mptcp.policy
	three "MPTCP with tcp-variants off: not TCP, not refused" "ok got=hello" \
		connect stream inet 127.0.0.1 "$NO" mptcp
	POL=$T/ports.policy
else
	skip_case "MPTCP with tcp-variants off" "no MPTCP here (net.mptcp.enabled)"
fi

three "not a socket" "err ENOTSOCK" connect stream inet 127.0.0.1 "$NO" notsock
three "not a socket, a bad address: the address first" "err EFAULT" \
	connect stream inet 127.0.0.1 "$NO" notsock badaddr
three "a bad address" "err EFAULT" connect stream inet 127.0.0.1 "$NO" badaddr
three "an address longer than any" "err EINVAL" connect stream inet 127.0.0.1 "$OK" len=129

say "== bind"
three "TCP, port 0 (an ephemeral port): allowed" "ok name=127.0.0.1:" \
	bind stream inet 127.0.0.1 0
three "TCP, the allowed port" "ok name=127.0.0.1:$BOK" bind stream inet 127.0.0.1 "$BOK"
three "TCP, another port" "err EACCES" bind stream inet 127.0.0.1 "$BNO"
three "TCP, IPv6, another port" "err EACCES" bind stream inet6 ::1 "$BNO"
three "TCP, v4-mapped, another port" "err EACCES" bind stream mapped 127.0.0.1 "$BNO"
three "UDP, another port: not refused" "ok name=127.0.0.1:$BNO" bind dgram inet 127.0.0.1 "$BNO"
three "AF_UNSPEC 0.0.0.0 (IPv4's any), allowed port" "ok name=0.0.0.0:$BOK" \
	bind stream unspec 0.0.0.0 "$BOK"
three "AF_UNSPEC 0.0.0.0, another port" "err EACCES" bind stream unspec 0.0.0.0 "$BNO"
three "AF_UNSPEC of another address: EAFNOSUPPORT before the port" "err EAFNOSUPPORT" \
	bind stream unspec 127.0.0.1 "$BNO"
three "AF_UNSPEC on an IPv6 socket: EINVAL" "err EINVAL" \
	bind stream unspec 0.0.0.0 "$BOK" sock=inet6
three "AF_UNSPEC, 8 bytes: EINVAL" "err EINVAL" bind stream unspec 0.0.0.0 "$BOK" len=8
three "IPv4 address on an IPv6 socket, 28 bytes: EINVAL" "err EINVAL" \
	bind stream inet 127.0.0.1 "$BOK" sock=inet6 len=28
three "not a socket, a bad address: the socket first" "err ENOTSOCK" \
	bind stream inet 127.0.0.1 "$BNO" notsock badaddr
three "a bad address" "err EFAULT" bind stream inet 127.0.0.1 "$BNO" badaddr

say "== the refused port's listener"
# Our own connection from outside, then the count: the refused ones never arrived.
"$PROBE" connect stream inet 127.0.0.1 "$NO" >/dev/null
i=0
until [ "$(grep -c '^conn ' "$T/no.out")" -ge 1 ]; do
	i=$((i + 1))
	[ $i -lt 250 ] || fail "the listener on $NO saw not even our own connection"
	sleep 0.02
done
# MPTCP's three with the set off (not TCP to the policy) and ours: nothing else.
got=$(grep -c '^conn ' "$T/no.out")
expect=1
[ "$MPTCP" = no ] || expect=4
[ "$got" = "$expect" ] || fail "the listener on $NO counted $got connections, expected $expect"
say "ok: the refused port was reached only from outside, and by MPTCP with the set off ($got)"

say "== the layer decides: the supervisor never sees connect and bind"
if [ "${ABI:-0}" -ge 4 ]; then
	urun --stats -q --log /dev/null --policy "$POL" -- "$PROBE" connect stream inet 127.0.0.1 "$NO"
	expect_grep "the refused connect, with the layer" "$OUT" '^err EACCES'
	if printf '%s\n' "$ERR" | grep -Eq '^connect +[1-9]'; then
		show_run
		fail "the layer is on, yet the supervisor got the connect"
	fi
	say "ok: the supervisor never saw the connect"
	urun --stats -q --no-landlock --log /dev/null --policy "$POL" -- "$PROBE" connect stream \
		inet 127.0.0.1 "$NO"
	expect_grep "without the layer the supervisor decides it" "$ERR" '^connect +[1-9]'
else
	skip_case "the supervisor never sees them" "Landlock ABI ${ABI:-0} here"
fi

say "== a rule with a port and an address stays with the supervisor"
cat >"$T/addr.policy" <<EOF
default allow
allow connect proto=tcp port=$OK addr=127.0.0.1
deny  connect proto=tcp kernel
allow connect
EOF
ucmd policy explain "$T/addr.policy"
expect_grep "explain says why the ports stay" "$OUT" \
	'^  connect: not Landlock: .*addr.policy:2: an address condition'
POL=$T/addr.policy
three "the address and port of the rule" "ok got=hello" connect stream inet 127.0.0.1 "$OK"
three "the port on another address" "err EACCES" connect stream inet6 ::1 "$OK"
three "UDP to the same: not TCP" "ok" connect dgram inet6 ::1 "$OK"

