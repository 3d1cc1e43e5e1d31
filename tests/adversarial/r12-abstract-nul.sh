#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 12, abstract unix socket names with a NUL byte inside (found by an
# adversarial review). The supervisor showed each NUL of an abstract name
# as '@', as ss does, and matched unix= patterns against that text: a rule
# allowing `unix=@N@secret` also let the program reach another socket,
# "N\0secret". Now a NUL is shown as \x01, which no pattern spells. The
# forbidden effect: the connect to "N\0secret" succeeds. Guards: the name
# the rule allows connects; natively both sockets answer.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

N=r12nul$$
"$ATTACK" r11-abstract-listen "$N~secret" 30 >"$T/nul.out" 2>&1 &
track_pid $!
"$ATTACK" r11-abstract-listen "$N@secret" 30 >"$T/at.out" 2>&1 &
track_pid $!
wait_until 10 grep -q LISTENING "$T/nul.out" || fail "no listener: $(cat "$T/nul.out")"
wait_until 10 grep -q LISTENING "$T/at.out" || fail "no listener: $(cat "$T/at.out")"
cat >"$T/p.policy" <<EOF
default allow
allow @net-connect unix=@$N@secret
deny @net-connect family=unix EACCES
EOF

case_begin native "(guard) natively both abstract sockets answer"
bounded 20 "$ATTACK" r11-abstract-connect "$N@secret" "$N~secret"
if [ "$(results | grep -c ' OK$')" = 2 ]; then
	case_pass "both connect"
else
	case_fail "natively: $(results | tr '\n' ';')"
fi

case_begin allowed "(guard) the name the rule allows connects"
urun --policy "$T/p.policy" -- "$ATTACK" r11-abstract-connect "$N@secret"
if results | grep -q "^ABSTRACT $N@secret OK$"; then
	case_pass "connected"
else
	case_fail "refused: $(results | head -1)"
fi

case_begin nul "the name with a NUL byte where the rule has '@'"
urun --policy "$T/p.policy" -- "$ATTACK" r11-abstract-connect "$N~secret"
if results | grep -q "^ABSTRACT $N~secret EACCES$"; then
	case_pass "refused by the rule after it"
else
	case_fail "not refused: $(results | head -1)"
fi

finish
