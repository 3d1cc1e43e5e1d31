#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A missing policy directory is not fatal: unotifyd starts, says so, and
# refuses every sandbox (fail closed) until the directory exists and SIGHUP
# reloads it. `unotifyd --check` fails on it.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

SOCK=$T/d.sock
capture "unotifyd --check" "$UNOTIFYD" --check --policy-dir "$T/policies"
expect_status "--check with no policy directory" 1
expect_grep "--check names the directory" "$ERR" "policy directory $(re_quote "$T/policies") does not exist"

"$UNOTIFYD" --socket "$SOCK" --policy-dir "$T/policies" --log "$T/audit.log" \
	--seccomp-default kill 2>>"$T/d.err" &
DPID=$!
track_pid "$DPID"
wait_until 10 grep -q 'listening on' "$T/d.err" || { say "$(cat "$T/d.err")"; fail "unotifyd did not start"; }
say "ok: unotifyd starts without its policy directory"
expect_log "the missing directory is reported" \
	"policy directory $(re_quote "$T/policies") does not exist: every sandbox fails closed"
register -- "$PROBE" getppid
expect_out "a sandbox is served fail closed" "err EPERM"
expect_grep "the answer says fail closed" "$ERR" '"fail_closed":"unknown policy'

policy default 'default allow
return getppid 42'
kill -HUP "$DPID"
wait_until 5 sh -c "[ \$(grep -c 'policies loaded' '$T/d.err') -ge 2 ]" || fail "no reload"
register -- "$PROBE" getppid
expect_out "once created and reloaded, its policy is served" "ret=42"
expect_daemon_alive "after the reload"
stop_daemon
[ "$DRC" = 0 ] || fail "unotifyd exited $DRC on SIGTERM"
say "ok: SIGTERM: exit 0"
