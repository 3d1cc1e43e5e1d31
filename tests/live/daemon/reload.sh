#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGHUP reloads the policy directory: new sandboxes get the new rules, a
# running sandbox keeps the rules it started with, a policy broken by the
# edit is reported and its previous version kept. SIGTERM stops the daemon
# cleanly; a sandbox still running then has its intercepted calls fail with
# ENOSYS (fail closed), never succeed.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

policy default 'default allow
return getppid 42'
start_daemon

# A sandbox that lives across the reloads: one call before, one after.
mkfifo "$T/hold"
"$OCI_CLIENT" register "$SOCK" --id long -- \
	sh -c "'$PROBE' getppid; read x <'$T/hold'; '$PROBE' getppid" >"$T/long.out" 2>"$T/long.err" &
long=$!
track_pid "$long"
wait_until 10 grep -q 'ret=42' "$T/long.out" || fail "the long sandbox did not start"

policy default 'default allow
return getppid 43'
kill -HUP "$DPID"
expect_log "SIGHUP is logged" "SIGHUP: reloading policies"
wait_until 5 sh -c "[ \$(grep -c 'policies loaded' '$T/d.err') -ge 2 ]" || fail "no reload"
register -- "$PROBE" getppid
expect_out "a new sandbox gets the reloaded policy" "ret=43"

policy default 'default allow
return getppid 44
frobnicate everything'
policy extra 'default allow
return getppid 5'
kill -HUP "$DPID"
expect_log "the broken policy is reported with its line" "default.policy:3:"
expect_log "and its previous version kept" "policy 'default': keeping the version loaded before"
register -- "$PROBE" getppid
expect_out "a new sandbox still gets the last good version" "ret=43"
register --metadata policy=extra -- "$PROBE" getppid
expect_out "a policy added before the reload is served" "ret=5"

echo go >"$T/hold"
wait "$long" || fail "the long sandbox failed: $(cat "$T/long.out")"
[ "$(sed -n 2p "$T/long.out")" = "ret=42" ] ||
	fail "the running sandbox changed rules under a reload: $(cat "$T/long.out")"
say "ok: a running sandbox keeps the rules it was registered with"
expect_daemon_alive "after the reloads"

# SIGTERM with a sandbox alive: the daemon exits 0; the sandbox fails closed.
mkfifo "$T/hold2"
"$OCI_CLIENT" register "$SOCK" --id orphan -- \
	sh -c "'$PROBE' getppid; read x <'$T/hold2'; '$PROBE' getppid" >"$T/orphan.out" 2>"$T/orphan.err" &
orphan=$!
track_pid "$orphan"
wait_until 10 grep -q 'ret=43' "$T/orphan.out" || fail "the orphan sandbox did not start"
stop_daemon
[ "$DRC" = 0 ] || fail "unotifyd exited $DRC on SIGTERM"
say "ok: SIGTERM with a sandbox alive: exit 0"
expect_log "SIGTERM says what happens to the sandboxes" \
	"stopping with 1 sandboxes supervised and 0 connections in flight: their intercepted calls now fail with ENOSYS"
[ ! -e "$SOCK" ] || fail "the socket file was left behind"
say "ok: the socket file is removed"
echo go >"$T/hold2"
wait "$orphan" || true
[ "$(sed -n 2p "$T/orphan.out")" = "err ENOSYS" ] ||
	fail "after the daemon stopped, the sandbox's call was not failed closed: $(cat "$T/orphan.out")"
say "ok: the sandbox's intercepted call fails with ENOSYS after the daemon stopped"
