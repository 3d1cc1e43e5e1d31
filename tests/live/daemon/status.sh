#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify status [--json]` lists the sandboxes unotifyd supervises (id, pid,
# policy, notifications, denials, round-trip percentiles), its uptime and the
# kernel features in use; an ended sandbox disappears from the list. A
# client not root (an --allow-group member, or a program it sandboxed) sees
# only the sandboxes it registered.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

policy default 'default allow
return getppid 42'
policy strict 'default allow
deny getppid EPERM'
start_daemon --socket-mode 0666 --allow-group users

ucmd status --socket "$SOCK"
expect_status "status with no sandbox" 0
expect_grep "status names the daemon" "$OUT" '^unotifyd [0-9.]+ \(pid [0-9]+\), up [0-9]+s'
expect_grep "status lists the features" "$OUT" '^features:.* user-notification'
expect_grep "status lists the policies" "$OUT" '^policies .* default strict'
expect_grep "no sandbox yet" "$OUT" '^sandboxes: 0 active'

mkfifo "$T/hold1" "$T/hold2"
"$OCI_CLIENT" register "$SOCK" --id web-1 -- \
	sh -c "'$PROBE' getppid; '$PROBE' getppid; read x <'$T/hold1'" >"$T/s1.out" 2>&1 &
s1=$!
track_pid "$s1"
"$OCI_CLIENT" register "$SOCK" --id strict-1 --metadata policy=strict -- \
	sh -c "'$PROBE' getppid; read x <'$T/hold2'" >"$T/s2.out" 2>&1 &
s2=$!
track_pid "$s2"
wait_until 10 grep -q 'ret=42' "$T/s1.out" || fail "sandbox web-1 did not run: $(cat "$T/s1.out")"
wait_until 10 grep -q 'err EPERM' "$T/s2.out" || fail "sandbox strict-1 did not run: $(cat "$T/s2.out")"

ucmd status --socket "$SOCK"
expect_status "status with two sandboxes" 0
expect_grep "two active" "$OUT" '^sandboxes: 2 active, 2 since start'
expect_grep "the table header" "$OUT" '^ID +PID +POLICY +NOTIFIED +DENIED +P50 +P99'
expect_grep "web-1 with its policy and counts" "$OUT" '^web-1 +[0-9]+ +default +[2-9] +0 +[0-9.]+(ns|us|ms) '
expect_grep "strict-1 with its denials" "$OUT" '^strict-1 +[0-9]+ +strict +[1-9][0-9]* +[1-9][0-9]* '

ucmd status --socket "$SOCK" --json
expect_status "status --json" 0
expect_grep "JSON: one line with ok" "$OUT" '^\{"ok":true,'
expect_grep "JSON: the sandbox fields" "$OUT" \
	'"id":"web-1","serial":[0-9]+,"pid":[0-9]+,"policy":"default","sync":(true|false),"notifications":[0-9]+,"denials":0,"p50_ns":[1-9][0-9]*,"p99_ns":[1-9][0-9]*'
expect_grep "JSON: uptime" "$OUT" '"uptime_s":[0-9.]+'
expect_grep "JSON: audit records the budget held back" "$OUT" '"uptime_s":[0-9.]+,"audit_suppressed":0\}'
expect_grep "JSON: features in use" "$OUT" '"features":\{"user-notification":true'
expect_grep "JSON: the same-CPU hand-off" "$OUT" '"sync_wake_up":(true|false)'

# As nobody (group users): root's sandboxes are not listed, its own is.
mkfifo "$T/hold3"
setpriv --reuid nobody --regid nogroup --groups users "$OCI_CLIENT" register "$SOCK" \
	--id nobodys-1 -- sh -c "read x <'$T/hold3'" >"$T/s3.out" 2>&1 &
s3=$!
track_pid "$s3"
wait_until 10 sh -c "'$UNOTIFY' status --socket '$SOCK' | grep -q '^nobodys-1 '" ||
	fail "nobody's sandbox was not registered: $(cat "$T/s3.out")"
set +e
out=$(setpriv --reuid nobody --regid nogroup --groups users "$UNOTIFY" status --socket "$SOCK" 2>&1)
set -e
expect_grep "nobody's status lists its own sandbox" "$out" '^nobodys-1 '
expect_no_grep "nobody's status does not list root's" "$out" '^(web|strict)-1 '
ucmd status --socket "$SOCK"
expect_grep "root's lists every sandbox" "$OUT" '^nobodys-1 '
echo go >"$T/hold3"
wait "$s3" || true

echo go >"$T/hold1"
echo go >"$T/hold2"
wait "$s1" || fail "sandbox web-1 failed"
wait "$s2" || fail "sandbox strict-1 failed"
wait_until 10 sh -c "'$UNOTIFY' status --socket '$SOCK' | grep -q '^sandboxes: 0 active, 3 since start'" ||
	fail "the ended sandboxes are still listed: $("$UNOTIFY" status --socket "$SOCK")"
say "ok: ended sandboxes are gone from the list"

ucmd status --socket "$T/nothing.sock"
expect_status "no daemon at the socket" 1
expect_grep "says so" "$ERR" 'no unotifyd listening'
ucmd status --bogus
expect_status "bad usage" 125

stop_daemon
