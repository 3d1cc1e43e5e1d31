#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# runc runs a busybox container whose seccomp profile names unotifyd's socket
# as listenerPath and policy=box as listenerMetadata: the container's
# notified calls are decided by the daemon's policy, path rules included
# (runc's init opens its exec fifo through /proc/self/fd/N after loading the
# filter: an open the daemon performs for it).

. "$top_srcdir/tests/live/daemon-lib.sh"
command -v runc >/dev/null 2>&1 || skip "runc is not installed (apt-get install runc)"
setup_tmp

policy box "$BOX_POLICY"
start_daemon
make_bundle "$T/bundle" "$SOCK" policy=box "$BOX_SCRIPT"

id=unotify-test-$$
set +e
timeout -k 5 60 runc --root "$T/runc" run --bundle "$T/bundle" "$id" </dev/null >"$T/.out" 2>"$T/.err"
RC=$?
set -e
runc --root "$T/runc" delete -f "$id" >/dev/null 2>&1 || true
OUT=$(cat "$T/.out")
ERR=$(cat "$T/.err")
if [ "$RC" != 0 ] && grep -Eqi 'cgroup' "$T/.err"; then
	skip "runc cannot run containers here: $(tail -1 "$T/.err")"
fi
expect_run "runc container decided by unotifyd's policy box" 0 "$BOX_EXPECTED"
expect_log "the sandbox is the container" "sandbox $id pid=[0-9]+ registered by .*: policy box"
grep -q "sandbox=$id .*syscall=getppid.*verdict=return value=42" "$T/audit.log" ||
	fail "no audit line for the container: $(cat "$T/audit.log")"
say "ok: the audit trail names the container"
expect_daemon_alive "after the container"
stop_daemon
