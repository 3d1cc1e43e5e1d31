#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 13, a client that fills the disk through unotifyd's own log (found
# by the review of the audit trail's budget). Each connection closed
# without a message was a warning line ("dropped: closed without a
# message"), and so was each one refused: a client connecting in a loop
# wrote 1.2 MB a second of them, more for a stranger on a 0666 socket.
# Now the messages clients cause (refused, dropped, registered, ended) are
# at most 600 a minute, for all clients together; the rest are counted,
# said once when it starts, and summed up in a line of their own. The
# forbidden effect: more than 600 such lines in the log, or lines gone
# without a trace. Guards: the first connections are each logged; a
# runtime (root in the daemon's pid namespace) is never held back, so a
# flood cannot hide its sandboxes' lines (FAIL CLOSED ones among them).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
need_cmd python3
setup_tmp

N=3000
policy box "default allow"
start_daemon

case_begin connect-loop "$N connections closed without a message, from a pid namespace of their own (no runtime): the log stays within 600 lines"
unshare --pid --fork python3 - "$SOCK" "$N" <<'EOF' >"$T/loop.out" 2>&1 || true
import socket, sys
# One at a time: nothing sent, then the daemon's answer read, so that each
# connection is one "dropped" line to hold back, never a refusal at accept
# (a slow daemon's backlog would turn a burst into one line).
for _ in range(int(sys.argv[2])):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sys.argv[1])
    s.shutdown(socket.SHUT_WR)
    while s.recv(4096):
        pass
    s.close()
print("DONE")
EOF
wait_until 60 sh -c "\"$UNOTIFY\" status --json --socket \"$SOCK\" | grep -q '\"clients_rejected\":$N'" || true

# A runtime (root in the daemon's pid namespace) is not held back by the flood.
bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- true
runtime_rc=$RC
kill -TERM "$DPID"
wait_until 10 sh -c "! kill -0 $DPID 2>/dev/null" || true
# Every line about a client: dropped or refused (at accept, once a burst, by design).
lines=$(grep -c 'client pid=[0-9]*.*: \(dropped\|refused\)' "$T/d.err" || true)
held=$(sed -n 's/.* \([0-9][0-9]*\) messages about clients suppressed.*/\1/p' "$T/d.err" | awk '{ n += $1 } END { print n + 0 }')
if ! grep -q DONE "$T/loop.out"; then
	case_fail "the loop did not run: $(tail -2 "$T/loop.out")"
elif [ "$lines" -lt 100 ]; then
	case_fail "only $lines connections were logged: the first ones should be"
elif [ "$lines" -gt 600 ]; then
	case_fail "$lines lines of dropped clients in the log"
elif ! grep -q 'more than 600 messages about clients in 60 s' "$T/d.err"; then
	case_fail "the log does not say that it holds messages back"
elif [ "$((lines + held))" != "$N" ]; then
	case_fail "$lines lines and $held held back, for $N connections"
else
	case_pass "$lines lines, $held summed up; log $(wc -c <"$T/d.err") bytes"
fi

case_begin runtime "(guard) a runtime's registration after the flood is still logged"
if [ "$runtime_rc" != 0 ]; then
	case_fail "the runtime's sandbox failed: status $runtime_rc"
elif grep -q 'sandbox unotify-run-[0-9]* .*registered by' "$T/d.err"; then
	case_pass "$(grep 'registered by' "$T/d.err" | tail -1 | cut -c1-120)"
else
	case_fail "no line of the runtime's registration: $(tail -3 "$T/d.err")"
fi
finish
