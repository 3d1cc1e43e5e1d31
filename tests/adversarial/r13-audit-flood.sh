#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 13, a program that fills the disk through the audit trail (a known
# limit since round 12). Every denial is a record, and a program refused as
# fast as it asks wrote one per call: 12,000 opens of a 1,000-byte path wrote
# some 27 MB, and nothing bounded it but the disk. Now the trail has a
# budget per sandbox (--log-limit, default 4M/60): records over it are held
# back, counted, and summed up in a record of their own (verdict=suppressed).
# The forbidden effects: a trail larger than its budget, and a record gone
# without a trace (the records written and the ones summed up must add up to
# every denial). Guards: without a limit the same flood writes every record;
# under unotifyd the budget is the sandbox's, and the daemon says so.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

TRIES=12000
LONG=$(printf '%01000d' 0 | tr 0 a)
DENIED=$T/secret/$LONG
cat >"$T/p.policy" <<EOF
default allow
deny openat path=$T/secret/** EACCES
EOF

# flood ARGS...: `unotify run ARGS` of the open loop ($TRIES denied opens).
flood() {
	URUN_TIMEOUT=120 urun "$@" --policy "$T/p.policy" -- "$ATTACK" open-loop "$DENIED" 100 "$TRIES"
}

# accounted FILE: the denials FILE records plus those its summaries count.
accounted() {
	awk '/verdict=deny/ { n++ }
	     /verdict=suppressed/ { for (i = 1; i <= NF; i++) if ($i ~ /^records=/) { sub("records=", "", $i); n += $i } }
	     END { print n + 0 }' "$1"
}

size() {
	wc -c <"$1" | tr -d ' '
}

# held_flood NAME COUNT ARGS...: in the background, `unotify run -q ARGS` of a
# program that makes COUNT denied opens, touches $T/NAME.flooded, then waits
# (30 s at most) for $T/NAME.go, so that the supervisor can be looked at, or
# stopped, with the sandbox running. Returns once it flooded; its pid is
# RUNNER, its output $T/NAME.out.
held_flood() {
	_name=$1
	_count=$2
	shift 2
	timeout -k 3 120 "$UNOTIFY" run -q "$@" -- sh -c '
		"$1" open-loop "$2" 100 "$3" && touch "$4.flooded" &&
		i=0; while [ ! -e "$4.go" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done' \
		sh "$ATTACK" "$DENIED" "$_count" "$T/$_name" >"$T/$_name.out" 2>&1 </dev/null &
	RUNNER=$!
	wait_until 100 test -e "$T/$_name.flooded" || true
}

case_begin none "(guard) --log-limit none: the flood writes all its records"
flood --log "$T/none.log" --log-limit none
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif [ "$(grep -c 'verdict=deny' "$T/none.log")" = "$TRIES" ] && [ "$(size "$T/none.log")" -gt 20000000 ]; then
	case_pass "$TRIES records, $(size "$T/none.log") bytes"
else
	case_fail "$(grep -c 'verdict=deny' "$T/none.log") records, $(size "$T/none.log") bytes"
fi

case_begin default "the default budget (4 MiB a minute): the trail stays within it, nothing untold"
flood --log "$T/default.log" --stats
written=$(grep -c 'verdict=deny' "$T/default.log" || true)
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif [ "$(size "$T/default.log")" -gt 4194304 ]; then
	case_fail "the trail holds $(size "$T/default.log") bytes, over 4 MiB"
elif ! tail -1 "$T/default.log" | grep -q 'verdict=suppressed records=[0-9]* bytes=[0-9]* since=.* limit=4M/60s$'; then
	case_fail "no summary at the end: $(tail -1 "$T/default.log" | cut -c1-200)"
elif [ "$(accounted "$T/default.log")" != "$TRIES" ]; then
	case_fail "$(accounted "$T/default.log") of $TRIES denials written or summed up"
elif ! printf '%s\n' "$ERR" | grep -q "^audit: $((TRIES - written)) records suppressed (--log-limit 4M/60s)$"; then
	case_fail "--stats does not count them: $(printf '%s\n' "$ERR" | grep '^audit' | tr '\n' ';')"
else
	case_pass "$written records, $(size "$T/default.log") bytes, $((TRIES - written)) summed up"
fi

case_begin json "the summary in JSON is a record of its own"
flood --log "$T/json.log" --log-format json --log-limit 256K/60
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif tail -1 "$T/json.log" | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
sys.exit(0 if r["verdict"] == "suppressed" and r["records"] > 0 and r["limit"] == "256K/60s" else 1)'; then
	case_pass "$(tail -1 "$T/json.log")"
else
	case_fail "last line: $(tail -1 "$T/json.log" | cut -c1-200)"
fi

case_begin windows "short windows (64K/1s): each summary comes before the next window's records"
flood --log "$T/windows.log" --log-limit 64K/1
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif [ "$(accounted "$T/windows.log")" != "$TRIES" ]; then
	case_fail "$(accounted "$T/windows.log") of $TRIES denials written or summed up"
else
	case_pass "$(grep -c 'verdict=suppressed' "$T/windows.log") summaries, $(size "$T/windows.log") bytes"
fi

# A record weighs what its line can take (round 13's review): a path of
# spaces is four times as long in text (\x20 each), one of backslashes five
# in JSON (\\x5c).
SPACES=$(printf '%01000d' 0 | tr 0 ' ')
BSLASH=$(printf '%01000d' 0 | tr 0 '\\')
case_begin escaped-text "a path of spaces (\\x20 in text): the trail stays within 256 KiB"
URUN_TIMEOUT=120 urun --log "$T/sp.log" --log-limit 256K/60 --policy "$T/p.policy" -- \
	"$ATTACK" open-loop "$T/secret/$SPACES" 100 3000
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif [ "$(size "$T/sp.log")" -gt 262144 ]; then
	case_fail "the trail holds $(size "$T/sp.log") bytes, over 256 KiB"
elif [ "$(accounted "$T/sp.log")" != 3000 ]; then
	case_fail "$(accounted "$T/sp.log") of 3000 denials written or summed up"
else
	case_pass "$(size "$T/sp.log") bytes"
fi

case_begin escaped-json "a path of backslashes (\\\\x5c in JSON): the trail stays within 256 KiB"
URUN_TIMEOUT=120 urun --log "$T/bs.log" --log-format json --log-limit 256K/60 \
	--policy "$T/p.policy" -- "$ATTACK" open-loop "$T/secret/$BSLASH" 100 3000
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif [ "$(size "$T/bs.log")" -gt 262144 ]; then
	case_fail "the trail holds $(size "$T/bs.log") bytes, over 256 KiB"
elif ! grep -q '"verdict":"suppressed"' "$T/bs.log"; then
	case_fail "no summary"
else
	case_pass "$(size "$T/bs.log") bytes"
fi

case_begin killed "unotify run killed after a flood: the trail says records were held back"
held_flood killed 3000 --log "$T/killed.log" --log-limit 64K/60 --policy "$T/p.policy"
sleep 0.5
pkill -KILL -f "unotify run -q --log $T/killed.log" || true
touch "$T/killed.go"
wait "$RUNNER" || true
if ! test -e "$T/killed.flooded"; then
	case_fail "the flood did not run"
elif grep -q 'verdict=suppressed ' "$T/killed.log"; then
	case_fail "a summary was written: the supervisor was not killed first"
elif grep -q '^[^ ]* verdict=suppressing limit=64K/60s$' "$T/killed.log"; then
	case_pass "$(grep -c verdict=deny "$T/killed.log") records, then: $(grep suppressing "$T/killed.log")"
else
	case_fail "no trace of the records held back: $(tail -1 "$T/killed.log" | cut -c1-160)"
fi

case_begin usage "budgets that are not one are refused (status 125, a sentence)"
bad=0
for v in 0/60 4X/60 4M/0 4M 4M/99999 -1/60 4M/60x; do
	bounded 10 "$UNOTIFY" run --log-limit "$v" --policy "$T/p.policy" -- true
	if [ "$RC" != 125 ] || ! printf '%s\n' "$ERR" | grep -q -- "--log-limit takes SIZE/SECONDS"; then
		say "--log-limit $v: status $RC: $ERR"
		bad=$((bad + 1))
	fi
done
if [ "$bad" = 0 ]; then
	case_pass "7 refused"
else
	case_fail "$bad not refused so"
fi

if [ "$(id -u)" != 0 ]; then
	case_begin daemon "unotifyd: the sandbox's budget"
	case_skip "unotifyd needs root"
	finish
fi
policy box "default allow
deny openat path=$T/secret/** EACCES"
UNOTIFYD_ARGS="--log-limit 1M/60" start_daemon

case_begin daemon "under unotifyd: the trail within the sandbox's budget, the end says what was held back"
# The program waits for the status read: it shows what is held back while the sandbox runs.
held_flood daemon "$TRIES" --daemon --socket "$SOCK" --policy-name box
"$UNOTIFY" status --json --socket "$SOCK" >"$T/status.json" 2>&1 || true
touch "$T/daemon.go"
RC=0
wait "$RUNNER" || RC=$?
OUT=$(cat "$T/daemon.out")
wait_until 10 grep -q 'audit records suppressed' "$T/d.err" || true
held=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
print(sum(b.get("audit_suppressed", 0) for b in s["sandboxes"]))' "$T/status.json" 2>&1 || true)
if [ "$RC" != 0 ]; then
	case_fail "status $RC"
elif [ "$(size "$T/audit.log")" -gt 1048576 ]; then
	case_fail "the trail holds $(size "$T/audit.log") bytes, over 1 MiB"
elif [ "$(accounted "$T/audit.log")" != "$TRIES" ]; then
	case_fail "$(accounted "$T/audit.log") of $TRIES denials written or summed up"
elif ! grep -q 'sandbox .* ended: .* audit records suppressed (--log-limit 1M/60s)' "$T/d.err"; then
	case_fail "the daemon does not say: $(grep ended "$T/d.err" | tail -1)"
elif ! grep -q 'sandbox=.* verdict=suppressed' "$T/audit.log"; then
	case_fail "the summary names no sandbox"
elif [ "$held" != "$(accounted "$T/audit.log" | awk -v w="$(grep -c verdict=deny "$T/audit.log")" '{ print $1 - w }')" ]; then
	case_fail "status showed $held held back: $(cut -c1-300 "$T/status.json")"
else
	case_pass "$(size "$T/audit.log") bytes; $(grep 'ended' "$T/d.err" | tail -1 | cut -c1-160)"
fi

case_begin daemon-stop "unotifyd stopped (SIGTERM) with a flooded sandbox running: its held records summed up"
held_flood stop "$TRIES" --daemon --socket "$SOCK" --policy-name box
before=$(grep -c 'verdict=suppressed' "$T/audit.log" || true)
kill -TERM "$DPID"
wait_until 10 sh -c "! kill -0 $DPID 2>/dev/null" || true
touch "$T/stop.go"
wait "$RUNNER" || true
after=$(grep -c 'verdict=suppressed' "$T/audit.log" || true)
if ! test -e "$T/stop.flooded"; then
	case_fail "the flood did not run: $(cat "$T/stop.out")"
elif [ "$(accounted "$T/audit.log")" != "$((TRIES * 2))" ]; then
	case_fail "$(accounted "$T/audit.log") of $((TRIES * 2)) denials written or summed up ($before summaries before the stop, $after after)"
else
	case_pass "$after summaries; every denial of both sandboxes accounted for"
fi

case_begin user-budget "a user registering 8 flooding sandboxes one after another: together within one budget, summed up per user"
SOCK=$T/u.sock
chmod 755 "$T"
mkdir -p "$T/upol" && cp "$T/policies/box.policy" "$T/upol/"
(cd "$T" && exec "$UNOTIFYD" --socket "$SOCK" --socket-mode 0660 --allow-group nogroup \
	--policy-dir "$T/upol" --log "$T/user.log" --log-limit 256K/60 \
	--seccomp-default kill 2>>"$T/u.err") &
UPID=$!
track_pid "$UPID"
wait_until 10 grep -q 'listening on' "$T/u.err" || fail "unotifyd did not get ready: $(cat "$T/u.err")"
chgrp nogroup "$SOCK"
ran=0
for i in 1 2 3 4 5 6 7 8; do
	if timeout -k 3 60 setpriv --reuid=65534 --regid=65534 --clear-groups "$UNOTIFY" run -q \
		--daemon --socket "$SOCK" --policy-name box -- \
		"$ATTACK" open-loop "$DENIED" 100 2000 >/dev/null 2>&1; then
		ran=$((ran + 1))
	fi
done
kill -TERM "$UPID"
wait_until 10 sh -c "! kill -0 $UPID 2>/dev/null" || true
if [ "$ran" != 8 ]; then
	case_fail "$ran of 8 sandboxes ran: $(tail -2 "$T/u.err")"
elif [ "$(size "$T/user.log")" -gt $((262144 + 16384)) ]; then
	case_fail "the trail holds $(size "$T/user.log") bytes, over the one budget of 256 KiB (and its summaries)"
elif [ "$(accounted "$T/user.log")" != 16000 ]; then
	case_fail "$(accounted "$T/user.log") of 16000 denials written or summed up"
elif [ "$(grep -c 'verdict=suppress' "$T/user.log")" -gt 4 ]; then
	case_fail "$(grep -c 'verdict=suppress' "$T/user.log") lines of the budget: one pair per sandbox?"
elif ! grep -q ' user=65534 verdict=suppressed records=' "$T/user.log"; then
	case_fail "no summary names the user"
else
	case_pass "$(size "$T/user.log") bytes for 8 sandboxes; $(grep ' user=65534 verdict=suppressed' "$T/user.log" | cut -c29-90)"
fi

finish
