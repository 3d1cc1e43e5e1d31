#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, the daemon's terminal (found by an adversarial review). The
# kernel opens /dev/tty as the opener's controlling terminal; unotifyd
# started from a shell kept that shell's, and a sandbox that left its own
# (setsid), under a policy whose path rules have unotifyd perform its
# opens, got the daemon's terminal where natively it gets ENXIO. Now
# unotifyd leaves its terminal at start. The forbidden effect: TTY OK.
# Guard: natively, in a session of its own, the open is ENXIO.
# The whole test runs in a terminal of its own, made by script(1).

. "$top_srcdir/tests/adversarial/lib.sh"
need_cmd script
setup_tmp

printf 'default allow\ndeny @file-read @file-stat path=/nonexistent-r11 EACCES\n' >"$T/p.policy"
mkdir -p "$T/policies"
cp "$T/p.policy" "$T/policies/p.policy"
# In the terminal: the daemon (setsid would take it off the terminal: not
# used), then the guard and the attack, each printing its TTY line.
cat >"$T/inner.sh" <<EOF
"$UNOTIFYD" --socket "$T/d.sock" --policy-dir "$T/policies" --log "$T/audit.log" \\
	--seccomp-default kill 2>"$T/d.err" &
i=0
while ! grep -q 'listening on' "$T/d.err" && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done
echo "NATIVE \$("$ATTACK" r11-tty-setsid)"
echo "DAEMON \$("$UNOTIFY" run -q --daemon --socket "$T/d.sock" --policy-name p -- "$ATTACK" r11-tty-setsid 2>&1)"
kill \$! 2>/dev/null
wait
EOF

case_begin daemon-tty "a sandbox in a session of its own opens /dev/tty through unotifyd started in a terminal"
bounded 40 script -qec "sh $T/inner.sh" /dev/null
native=$(printf '%s\n' "$OUT" | tr -d '\r' | sed -n 's/^NATIVE //p')
got=$(printf '%s\n' "$OUT" | tr -d '\r' | sed -n 's/^DAEMON //p')
if hung; then
	case_fail "the run did not end within its time limit"
elif [ "$native" != "TTY ENXIO" ]; then
	case_skip "natively /dev/tty in a session of its own is not ENXIO here: $native"
elif [ "$got" = "TTY ENXIO" ]; then
	case_pass "$got, as natively"
else
	case_fail "the sandbox got: ${got:-nothing} (daemon: $(head -3 "$T/d.err"))"
fi

finish
