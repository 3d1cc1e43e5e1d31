#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 13, a bind to the any-address past a refusal of one of the
# addresses it listens on (a known limit since round 12). Bind rules read
# the address literally: under `deny bind addr=127.0.0.1`, a bind to
# 0.0.0.0, to ::ffff:0.0.0.0 or to a dual-stack :: (IPV6_V6ONLY clear,
# Linux's default) went through, and the program listened on 127.0.0.1
# anyway; so did :: under `deny bind family=inet`, also after an
# `allow bind family=inet6` (review of the first fix). Now a bind to the
# any-address meets a stopping rule when the rule holds for any address it
# listens on (:: counts as IPv4 too: another thread may clear IPV6_V6ONLY
# until the bind), and an allowing rule's family= must take each family
# the bind listens on. The forbidden effect: BOUND. Guards: natively the binds
# succeed; an address the rule leaves out (127.0.0.2, ::1 under
# family=inet) still binds; `allow bind addr=0.0.0.0` still allows it.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

PORT=$((20000 + $$ % 20000))
cat >"$T/lo.policy" <<EOF
default allow
deny bind addr=127.0.0.1 EACCES
EOF
cat >"$T/v4.policy" <<EOF
default allow
deny bind family=inet EACCES
EOF
cat >"$T/v6only.policy" <<EOF
default allow
allow bind family=inet6
deny bind family=inet EACCES
EOF
cat >"$T/any.policy" <<EOF
default allow
allow bind addr=0.0.0.0
deny bind EPERM
EOF
need_bind() { # NAME WHAT POLICY ADDR EXPECTED(BOUND|EACCES|EPERM)
	case_begin "$1" "$2"
	if [ -n "$3" ]; then
		urun --policy "$T/$3.policy" -- "$ATTACK" bind-port "$4" "$PORT"
	else
		bounded 20 "$ATTACK" bind-port "$4" "$PORT"
	fi
	case "$5" in
	BOUND) want="^BOUND $4 port $PORT\$" ;;
	*) want="^BLOCKED $5\$" ;;
	esac
	if results | grep -q "$want"; then
		case_pass "$(results | head -1)"
	else
		case_fail "expected $5, got: $(results | head -1)"
	fi
}

need_bind native-any "(guard) natively a bind to 0.0.0.0 succeeds" "" 0.0.0.0 BOUND
need_bind native-dual "(guard) natively a bind to :: succeeds" "" :: BOUND
need_bind lo-any "deny bind addr=127.0.0.1: a bind to 0.0.0.0 (listening there)" lo 0.0.0.0 EACCES
need_bind lo-mapped "deny bind addr=127.0.0.1: a bind to ::ffff:0.0.0.0" lo ::ffff:0.0.0.0 EACCES
need_bind lo-dual "deny bind addr=127.0.0.1: a dual-stack bind to ::" lo :: EACCES
need_bind lo-other "(guard) deny bind addr=127.0.0.1: 127.0.0.2 still binds" lo 127.0.0.2 BOUND
need_bind v4-dual "deny bind family=inet: a dual-stack bind to :: (listening on IPv4)" v4 :: EACCES
need_bind v4-v6 "(guard) deny bind family=inet: ::1 still binds" v4 ::1 BOUND
need_bind v6only-dual "allow bind family=inet6, deny bind family=inet: a dual-stack bind to ::" v6only :: EACCES
need_bind v6only-v6 "(guard) allow bind family=inet6: ::1 still binds" v6only ::1 BOUND
need_bind allow-any "(guard) allow bind addr=0.0.0.0 still allows it" any 0.0.0.0 BOUND
finish
