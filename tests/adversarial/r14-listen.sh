#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 14, a listen that binds past the bind rules (a known limit since
# round 13's review). listen(2) on a TCP socket never bound binds it: the
# kernel gives it the any-address (or the address bound without a port,
# IP_BIND_ADDRESS_NO_PORT) and a port of its choosing. Under `deny bind
# addr=127.0.0.1`, a program that called listen without bind listened on
# 0.0.0.0 (and on a dual-stack ::), 127.0.0.1 included; under `deny bind`
# it listened all the same. Now, where the policy decides binds, listen
# goes to the supervisor, which decides a socket without a port as a bind
# of its address with port 0, and performs the listen on it. The
# forbidden effect: LISTENING. Guards: natively the listens succeed; a
# socket bound to an address the rules allow, with a port or without,
# still listens (`deny bind port=0` refuses only a socket that has none);
# under unotifyd the same holds (its own sandbox lets it listen).

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

PORT=$((20000 + $$ % 20000))
printf 'default allow\ndeny bind addr=127.0.0.1 EACCES\n' >"$T/lo.policy"
printf 'default allow\ndeny bind\n' >"$T/nobind.policy"
printf 'default allow\nallow bind addr=127.0.0.2\ndeny bind\n' >"$T/only2.policy"
printf 'default allow\ndeny bind port=0 EADDRNOTAVAIL\n' >"$T/port0.policy"


prints_case native "(guard) natively a listen without bind listens on 0.0.0.0" "" \
	"LISTENING 0.0.0.0 port" r14-listen inet
prints_case lo-v4 "deny bind addr=127.0.0.1: listen without bind (0.0.0.0)" lo \
	"BLOCKED EACCES" r14-listen inet
prints_case lo-dual "deny bind addr=127.0.0.1: listen without bind on IPv6 (a dual-stack ::)" lo \
	"BLOCKED EACCES" r14-listen inet6
prints_case nobind "deny bind: listen without bind" nobind "BLOCKED EPERM" r14-listen inet
prints_case only2 "allow bind addr=127.0.0.2, deny bind: listen without bind" only2 \
	"BLOCKED EPERM" r14-listen inet
prints_case only2-noport "(guard) allow bind addr=127.0.0.2: bound there without a port, it listens" \
	only2 "LISTENING 127.0.0.2 port" r14-listen-at 127.0.0.2 0
prints_case lo-other "(guard) deny bind addr=127.0.0.1: bound to 127.0.0.2 without a port, it listens" \
	lo "LISTENING 127.0.0.2 port" r14-listen-at 127.0.0.2 0
prints_case port0 "deny bind port=0: listen without bind (a port of the kernel's choice)" port0 \
	"BLOCKED EADDRNOTAVAIL" r14-listen inet
prints_case port0-bound "(guard) deny bind port=0: bound to a port, it listens" port0 \
	"LISTENING 127.0.0.2 port $PORT" r14-listen-at 127.0.0.2 "$PORT"

# A rule on bind's registers (as OCI profiles write them) sees the
# name's length: 16 for IPv4, 28 for IPv6 (round 15: it saw 0).
printf 'default allow\ndeny bind arg2&0xffffffff==16 EACCES\n' >"$T/reg.policy"
prints_case reg-v4 "deny bind arg2==16 (an IPv4 name's length): listen without bind" reg \
	"BLOCKED EACCES" r14-listen inet
prints_case reg-v6 "(guard) deny bind arg2==16: listen without bind on IPv6 (28)" reg \
	"LISTENING :: port" r14-listen inet6

case_begin daemon "unotifyd, deny bind addr=127.0.0.1: listen without bind; bound, it listens"
mkdir -p "$T/policies"
cp "$T/lo.policy" "$T/policies/lo.policy"
start_daemon
bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name lo -- "$ATTACK" r14-listen inet
_unbound=$(results | head -1)
bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name lo -- \
	"$ATTACK" r14-listen-at 127.0.0.2 0
_bound=$(results | head -1)
if [ "$_unbound" != "BLOCKED EACCES" ]; then
	case_fail "without bind: $_unbound"
elif ! printf '%s\n' "$_bound" | grep -q '^LISTENING 127.0.0.2 port'; then
	case_fail "bound to 127.0.0.2: $_bound ($(tail -3 "$T/d.err"))"
else
	case_pass "$_unbound; $_bound"
fi
finish
