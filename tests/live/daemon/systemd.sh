#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# unotifyd and systemd, tested the way systemd talks to services: a notify
# socket of our own (READY=1 only once listening with policies loaded,
# STATUS=, WATCHDOG=1, RELOADING=1, STOPPING=1), socket activation through
# systemd-socket-activate, and <N> priority prefixes on a journal stream.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

"$UNOTIFYD" --help | grep -q -- '--socket' || fail "unotifyd --help"
if ! grep -q 'HAVE_SYSTEMD 1' "$top_builddir/config.h"; then
	skip "built --without-systemd: no sd_notify nor socket activation"
fi

policy default 'default allow
return getppid 42'

# ---- Readiness, status, watchdog, reload, stop ----
"$OCI_CLIENT" notify-listen "$T/notify" 60 >"$T/notify.out" &
listener=$!
track_pid "$listener"
wait_until 5 grep -q listening "$T/notify.out" || fail "notify socket"

# A daemon that cannot listen never says READY=1.
NOTIFY_SOCKET=$T/notify "$UNOTIFYD" --socket "$T/no/such/dir/x.sock/y" \
	--policy-dir "$T/policies" 2>"$T/fail.err" && fail "unotifyd started on an impossible socket"
sleep 0.3
if grep -q 'READY=1' "$T/notify.out"; then
	fail "READY=1 sent by a daemon that could not listen"
fi
say "ok: no READY=1 from a daemon that failed to listen"

SOCK=$T/d.sock
NOTIFY_SOCKET=$T/notify WATCHDOG_USEC=300000 "$UNOTIFYD" --socket "$SOCK" \
	--policy-dir "$T/policies" --log "$T/audit.log" --seccomp-default kill 2>"$T/d.err" &
DPID=$!
track_pid "$DPID"
wait_until 10 grep -q 'READY=1' "$T/notify.out" || fail "no READY=1: $(cat "$T/d.err")"
# The moment READY=1 is seen, the socket must already answer.
status_json
expect_grep "READY=1 came only once the socket answers" "$OUT" '"ok":true'
wait_until 5 grep -q '^STATUS=.*sandboxes.*1 policies (0 broken)' "$T/notify.out" ||
	fail "no STATUS=: $(cat "$T/notify.out")"
say "ok: STATUS= with counts"
wait_until 5 grep -q '^WATCHDOG=1' "$T/notify.out" || fail "no WATCHDOG=1 with WATCHDOG_USEC set"
say "ok: WATCHDOG=1 sent when WATCHDOG_USEC is set"

register -- "$PROBE" getppid
expect_out "supervises while notifying" "ret=42"
wait_until 5 grep -q '^STATUS=0 sandboxes (1 since start)' "$T/notify.out" ||
	fail "STATUS= does not count the sandbox: $(grep STATUS "$T/notify.out" | tail -3)"
say "ok: STATUS= counts sandboxes"

kill -HUP "$DPID"
wait_until 5 grep -q '^RELOADING=1' "$T/notify.out" || fail "no RELOADING=1 on SIGHUP"
wait_until 5 sh -c "[ \$(grep -c '^READY=1' '$T/notify.out') -ge 2 ]" ||
	fail "no READY=1 after the reload"
say "ok: SIGHUP: RELOADING=1 then READY=1"
stop_daemon
grep -q '^STOPPING=1' "$T/notify.out" || fail "no STOPPING=1 on SIGTERM"
say "ok: SIGTERM: STOPPING=1"

# Without NOTIFY_SOCKET nothing is sent and nothing fails: start_daemon above covers it.

# ---- Socket activation ----
need_cmd systemd-socket-activate
ASOCK=$T/act.sock
systemd-socket-activate -l "$ASOCK" "$UNOTIFYD" --socket "$T/unused.sock" \
	--policy-dir "$T/policies" --log "$T/audit2.log" --seccomp-default kill 2>"$T/act.err" &
act=$!
track_pid "$act"
wait_until 10 test -S "$ASOCK" || fail "systemd-socket-activate did not listen"
oci request "$ASOCK" '{"request":"status"}'
expect_grep "socket activation: the first connection is served" "$OUT" '"ok":true'
SOCK=$ASOCK
register -- "$PROBE" getppid
expect_out "socket activation: a sandbox registers" "ret=42"
grep -q "listening on (socket activation) $ASOCK;" "$T/act.err" || fail "not activated: $(cat "$T/act.err")"
[ ! -e "$T/unused.sock" ] || fail "--socket was bound despite socket activation"
say "ok: the passed socket is used, --socket is not bound"
DPID=$(pgrep -P "$act" unotifyd || echo "$act")
kill -TERM "$DPID" "$act" 2>/dev/null || true
wait "$act" 2>/dev/null || true

# An abstract socket has no permissions: anyone may connect, and is refused.
systemd-socket-activate -l "@unotify-test-$$" "$UNOTIFYD" --socket "$T/unused.sock" \
	--policy-dir "$T/policies" --log "$T/audit2.log" --seccomp-default kill 2>"$T/abs.err" &
act=$!
track_pid "$act"
# systemd-socket-activate starts the daemon at the first connection.
wait_until 10 sh -c "timeout 5 '$PROBE' connect stream unix @unotify-test-$$ | grep -q ."
wait_until 10 grep -q "is an abstract socket" "$T/abs.err" ||
	fail "no warning about an abstract socket: $(cat "$T/abs.err")"
say "ok: an activated abstract socket is warned about"
kill -TERM "$act" 2>/dev/null || true
wait "$act" 2>/dev/null || true

# ---- Journal stream: priorities as <N> prefixes ----
SOCK=$T/j.sock
: >"$T/j.err"
JOURNAL_STREAM=$(stat -c '%d:%i' "$T/j.err") "$UNOTIFYD" --socket "$SOCK" \
	--policy-dir "$T/policies" --log "$T/audit3.log" 2>>"$T/j.err" &
DPID=$!
track_pid "$DPID"
wait_until 10 grep -q 'listening on' "$T/j.err" || fail "journal-stream daemon did not start"
grep -q '^<6>.*listening on' "$T/j.err" || fail "no <6> prefix on a journal stream: $(cat "$T/j.err")"
say "ok: log lines carry <N> priorities on a journal stream"
stop_daemon
