#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, a sandbox id that writes lines of its own into unotifyd's log
# (found by an adversarial review). The OCI state's "id" is the client's
# choice; its registration line escaped it, but the lines of the
# sandbox's end (and of its failures) wrote it as it came: an id holding
# newlines added whole lines that read as unotifyd's ("registered by
# pid=1 uid=0"). Now an id with a control character is refused, and
# every log line turns control characters into '?'. The forbidden
# effect: a line in the log that starts with the forged text. Guard: a
# registration with a plain id is answered and logged.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

policy web "default allow
deny @file-read path=/nonexistent/** EACCES"
start_daemon

FORGED='unotifyd: sandbox forged-7 pid=4242 registered by pid=1 uid=0: policy web'
msg=$(printf '{"ociVersion":"1.0.2","fds":["seccompFd"],"pid":%d,"metadata":"policy=web","state":{"ociVersion":"1.0.2","id":"r10\\n%s\\r\\u001b[2J","status":"creating","pid":%d,"bundle":"/b"}}' \
	$$ "$FORGED" $$)

case_begin id-newline "(client) a registration whose id holds a newline and a forged log line"
bounded 20 "$ATTACK" daemon-send "$SOCK" "$msg" dead
sleep 1
if ! daemon_alive; then
	case_fail "unotifyd is gone ($(tail -3 "$T/d.err" | tr '\n' ' '))"
elif grep -q "^$FORGED" "$T/d.err"; then
	case_fail "the forged line is in the log: $(grep "^$FORGED" "$T/d.err" | head -1)"
elif results | grep -q 'no valid \\"id\\"'; then
	case_pass "refused: $(results | cut -c1-100)"
else
	case_fail "the id was not refused: $(results | cut -c1-160)"
fi

case_begin id-plain "(guard) a registration with a plain id is answered and logged"
bounded 20 "$ATTACK" daemon-register "$SOCK" web dead
if results | grep -q '"ok":true' && wait_until 10 grep -q 'sandbox r2-[0-9]* ended' "$T/d.err"; then
	case_pass "$(grep 'sandbox r2-[0-9]* ended' "$T/d.err" | head -1 | cut -c1-100)"
else
	case_fail "no answer or no log line: $(results | cut -c1-160)"
fi

finish
