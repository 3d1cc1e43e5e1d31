#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# unotifyd speaks the OCI listenerPath protocol: runc's compact message and
# crun's pretty-printed one (trailing newline) with a real listener; metadata
# selects the policy; no metadata takes the default; an unknown or broken
# policy or unreadable metadata fails closed; the audit trail names the
# sandbox; path rules are enforced in the daemon with the target's rights.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

policy default 'default allow
return getppid 42'
policy web 'default allow
return getppid 7
deny mkdir EACCES'
policy files "default allow
deny openat path=/etc/shadow EACCES
allow openat path=$T/** path=/etc/** path=/usr/** path=/lib/** path=/lib64/** path=/proc/**"
policy broken 'default allow
retrun getppid 42'
start_daemon

register --style runc --id r-compact -- "$PROBE" getppid
expect_out "runc-style message, no metadata: the default policy" "ret=42"
expect_grep "the daemon acknowledged" "$ERR" '"ok":true.*"policy":"default"'

register --style crun --id c-pretty --metadata policy=web -- "$PROBE" getppid
expect_out "crun-style message, metadata policy=web" "ret=7"

register --style crun --metadata policy=web --notify getppid,mkdir -- mkdir "$T/newdir"
expect_status "policy=web denies mkdir" 1
expect_grep "mkdir failed with EACCES" "$(cat "$T/.err")" 'Permission denied'
[ ! -d "$T/newdir" ] || fail "the directory was created"

register --style runc --no-ack --metadata policy=web -- "$PROBE" getppid
expect_out "a runtime that closes without reading the answer" "ret=7"

register --style runc --id unknown --metadata policy=nope -- "$PROBE" getppid
expect_out "unknown policy: fail closed" "err EPERM"
expect_grep "the answer says fail closed" "$ERR" '"fail_closed":"unknown policy'
expect_log "the reason is logged" "sandbox unknown .*FAIL CLOSED, unknown policy 'nope'"

register --style runc --id broken --metadata policy=broken -- "$PROBE" getppid
expect_out "broken policy: fail closed" "err EPERM"
expect_log "the broken policy was reported at start" "policy 'broken' is broken"

register --style runc --id badmeta --metadata probe-metadata -- "$PROBE" getppid
expect_out "metadata that is not policy=NAME: fail closed" "err EPERM"

register --style runc --id dots --metadata policy=../web -- "$PROBE" getppid
expect_out "a policy name with a path in it: fail closed" "err EPERM"

# The client of `unotify run --daemon` (run_daemon_handoff), through oci-client.
register --style run --metadata web -- "$PROBE" getppid
expect_out "run_daemon_handoff: supervised with policy web" "ret=7"
expect_grep "run_daemon_handoff returned 0" "$ERR" '^handoff: 0: supervised by unotifyd'
register --style run --metadata nope -- "$PROBE" getppid
expect_out "run_daemon_handoff with an unknown policy: fail closed" "err EPERM"
expect_grep "run_daemon_handoff says ENODATA" "$ERR" '^handoff: ENODATA: unotifyd has no usable policy'
oci register "$T/none.sock" --style run --metadata web -- "$PROBE" getppid
expect_out "run_daemon_handoff with no daemon: the listener closes, fail closed" "err ENOSYS"
expect_grep "run_daemon_handoff says no daemon" "$ERR" '^handoff: ENOENT: no unotifyd listening'

# Paths: the daemon performs the open with the target's credentials.
echo secret >"$T/secret"
chmod 600 "$T/secret"
register --id r-files --metadata policy=files --notify openat -- "$PROBE" read /etc/shadow
expect_out "path rule in the daemon: /etc/shadow denied" "err EACCES"
register --metadata policy=files --notify openat -- "$PROBE" read "$T/secret"
expect_out "path rule in the daemon: an allowed file read through the daemon" "data=secret"
register --metadata policy=files --notify openat -- \
	setpriv --reuid nobody --regid nogroup --clear-groups "$PROBE" read "$T/secret"
expect_out "allowed by policy, but the target (nobody) cannot read it itself" "err EACCES"
register --metadata policy=files --notify openat -- "$PROBE" read /tmp/../etc/shadow
expect_out "path rule after resolution (/tmp/../etc/shadow)" "err EACCES"

audit=$(cat "$T/audit.log")
expect_grep "audit trail: the denied open, with the sandbox" "$audit" \
	'sandbox=r-files .*syscall=openat verdict=deny errno=EACCES rule=.* path=/etc/shadow'
expect_no_grep "audit trail: a value returned as planned is left out by default" "$audit" \
	'sandbox=r-compact .*verdict=return'
expect_grep "audit trail: fail-closed denial" "$audit" 'syscall=getppid.*verdict=deny errno=EPERM'
expect_daemon_alive "after every registration"

stop_daemon
[ "$DRC" = 0 ] || fail "unotifyd exited $DRC on SIGTERM"
say "ok: SIGTERM: exit 0"
