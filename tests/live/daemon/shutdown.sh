#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGTERM while a registration is in flight: its message has been read (so
# it no longer counts as a connection being read) but it is not yet a
# sandbox. The daemon must count it as a thread that still uses the shared
# state (policies, audit trail): it must not free them nor say "no sandbox
# supervised". The held registration is made with a second fd whose close
# waits, uninterruptibly, 6 s (oci-client --hold-close: a FUSE file whose
# server holds the FLUSH), which the daemon closes in that very window. The
# sandbox then fails closed (ENOSYS).

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp
[ -c /dev/fuse ] || skip "no /dev/fuse on this machine: the held close is a FUSE file's"

policy default 'default allow
return getppid 42'
start_daemon

mkfifo "$T/go"
"$OCI_CLIENT" register "$SOCK" --id held --no-ack --hold-close 6 -- \
	sh -c "read x <'$T/go'; '$PROBE' getppid" >"$T/held.out" 2>"$T/held.err" &
held=$!
track_pid "$held"
# The daemon's thread is then in close() on the held fd for 6 s.
wait_until 10 sh -c "ls -l /proc/$DPID/fd | grep -q 'seccomp notify'" ||
	fail "the listener never reached the daemon"
sleep 1
status_json
expect_grep "the held registration is not a sandbox yet" "$OUT" '"sandboxes_active":0,'
stop_daemon
[ "$DRC" = 0 ] || fail "unotifyd exited $DRC on SIGTERM"
say "ok: SIGTERM with a registration in flight: exit 0"
if grep -q 'stopping, no sandbox supervised' "$T/d.err"; then
	cat "$T/d.err"
	fail "the daemon freed its shared state while a registration thread still used it"
fi
expect_log "SIGTERM counts the registration in flight" \
	"stopping with 0 sandboxes supervised and 1 connections in flight"
echo go >"$T/go"
wait "$held" || true
expect_grep "the registration cut short fails closed" "$(cat "$T/held.out")" '^err ENOSYS$'
