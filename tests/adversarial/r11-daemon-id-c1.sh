#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, a sandbox id that drives the terminal showing unotifyd's log
# or `unotify status` (found by an adversarial review). Since round 10 an
# id with a C0 control is refused, but C1 controls (U+0080..U+009F, UTF-8
# C2 80..C2 9F: U+009B is CSI, U+0085 NEL) passed: the lines of the
# sandbox's end wrote them raw, and a terminal showing the log moved its
# cursor, erased the line and showed one forged. So could the format
# characters that reorder or hide text (U+202E, U+2066, U+200F, U+FEFF).
# Now such ids, and ids that are not UTF-8, are refused; every log line
# turns those characters into '?', and status escapes the id it prints.
# The forbidden effects: such an id registered, a raw C1 byte in the log,
# an id printed raw by status. Guard: an id of printable UTF-8 (é) is
# registered.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp
OCI_CLIENT=${OCI_CLIENT:-$top_builddir/tests/live/oci-client}
[ -x "$OCI_CLIENT" ] || fail "$OCI_CLIENT is not built"

policy box "default allow
return getppid 42"
start_daemon

# send_id ID: a runc-style registration of a dead listener whose state id is
# ID (JSON text, \u escapes allowed); the answer in OUT.
send_id() {
	bounded 20 "$ATTACK" daemon-send "$SOCK" "$(printf '{"ociVersion":"1.0.2","fds":["seccompFd"],"pid":%d,"metadata":"policy=box","state":{"ociVersion":"1.0.2","id":"%s","status":"creating","pid":%d,"bundle":"/b"}}' $$ "$1" $$)" dead
}

refused() {
	results | grep -q 'no valid \\"id\\"'
}

case_begin id-c1 "(client) an id holding CSI (U+009B) sequences and NEL (U+0085) around a forged line"
send_id 'r11\u009b1A\u009b2K\u009b1Gsandbox web-1 ended: 0 notifications, 0 denials\u0085unotifyd: policies reloaded'
sleep 1
c1=$(grep -a -c "$(printf '\302[\200-\237]')" "$T/d.err" || true)
if ! daemon_alive; then
	case_fail "unotifyd is gone ($(tail -3 "$T/d.err" | tr '\n' ' '))"
elif [ "$c1" != 0 ]; then
	case_fail "$c1 log line(s) with a raw C1 control: $(grep -a "$(printf '\302[\200-\237]')" "$T/d.err" | head -1 | od -c | head -2 | tr '\n' ' ')"
elif refused; then
	case_pass "refused: $(results | cut -c1-100)"
else
	case_fail "the id was not refused: $(results | cut -c1-160)"
fi

case_begin id-format "(client) ids holding U+202E, U+2066, U+200F, U+FEFF (reorder or hide text)"
bad=
for cp in 202e 2066 200f feff; do
	send_id "r11-\\u${cp}exe.txt"
	refused || bad="$bad U+$cp: $(results | cut -c1-80);"
done
if [ -z "$bad" ]; then
	case_pass "each refused"
else
	case_fail "not refused:$bad"
fi

case_begin id-not-utf8 "(guard) an id holding a lone 0x9b byte (CSI to a terminal of another charset) is refused, by the message's reader or the id check"
send_id "r11-$(printf '\233')2J"
if results | grep -q '"ok":true'; then
	case_fail "the id was registered: $(results | cut -c1-160)"
elif grep -a -q "$(printf '\233')" "$T/d.err"; then
	case_fail "a raw 0x9b byte is in the log"
else
	case_pass "refused: $(results | cut -c1-100)"
fi

case_begin status-escape "(client) status prints a live sandbox's id escaped (a blank as \\x20); guard: printable UTF-8 (é) is registered"
mkfifo "$T/hold"
"$OCI_CLIENT" register "$SOCK" --id 'r11 é' --metadata policy=box -- \
	sh -c "read x <'$T/hold'" >"$T/s.out" 2>&1 &
HOLDER=$!
track_pid "$HOLDER"
if wait_until 10 grep -q 'sandbox r11 \\xc3\\xa9 pid=.* registered' "$T/d.err"; then
	bounded 10 "$UNOTIFY" status --socket "$SOCK"
	echo go >"$T/hold"
	wait "$HOLDER" || true
	if printf '%s\n' "$OUT" | grep -q '^r11\\x20é '; then
		case_pass "$(printf '%s\n' "$OUT" | grep '^r11' | cut -c1-60)"
	else
		case_fail "status did not escape the id: $(printf '%s\n' "$OUT" | grep -a '^r11' | head -1)"
	fi
else
	echo go >"$T/hold" &
	case_fail "the sandbox was not registered: $(cat "$T/s.out") $(grep -a 'r11' "$T/d.err" | tail -1)"
fi

finish
