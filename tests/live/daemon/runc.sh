#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# runc runs busybox containers whose seccomp profile names unotifyd's socket
# as listenerPath and the policy as listenerMetadata: the container's
# notified calls are decided by the daemon's policy, path rules included
# (runc's init opens its exec fifo through /proc/self/fd/N after loading the
# filter: an open the daemon performs for it). Two containers:
# - a bundle of our own (two capabilities, notify getppid, mkdir, opens);
# - `runc spec`'s as it is, with its default capability set (AUDIT_WRITE,
#   KILL, NET_BIND_SERVICE: no DAC_OVERRIDE, so acting as the container
#   grants nothing the daemon holds), Docker's default profile, openat and
#   open notified, and a policy with a write-path rule.

. "$top_srcdir/tests/live/daemon-lib.sh"
command -v runc >/dev/null 2>&1 || skip "runc is not installed (apt-get install runc)"
setup_tmp

policy box "$BOX_POLICY"
policy dock "$RUNTIME_POLICY"
start_daemon
make_bundle "$T/bundle" "$SOCK" policy=box "$BOX_SCRIPT"

id=unotify-test-$$
run_container runc "$T/bundle" "$id"
expect_container "runc container decided by unotifyd's policy box" "$BOX_EXPECTED"
expect_log "the sandbox is the container" "sandbox $id pid=[0-9]+ registered by .*: policy box"
grep -q "sandbox=$id .*syscall=openat verdict=deny errno=EACCES .*path=/etc/secret" "$T/audit.log" ||
	fail "no audit line for the container: $(cat "$T/audit.log")"
say "ok: the audit trail names the container"

runtime_spec_case runc "$id-spec"
expect_daemon_alive "after the containers"
stop_daemon
