#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run --daemon SOCKET --policy-name NAME -- PROGRAM` compiles the
# named policy from the policy directory for the kernel layer and hands its
# listener to unotifyd, which decides the notified calls by the same policy.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

"$UNOTIFY" run --help 2>&1 | grep -q -- '--daemon' ||
	skip "unotify run has no --daemon option in this build"

policy web 'default allow
return getppid 7
deny openat path=/etc/shadow EACCES'
start_daemon

urun --daemon="$SOCK" --policy-dir "$T/policies" --policy-name web -- "$PROBE" getppid
expect_out "run --daemon: the daemon answers getppid" "ret=7"
expect_log "the daemon registered it" "sandbox unotify-run-[0-9]+ .*: policy web"
urun --daemon="$SOCK" --policy-dir "$T/policies" --policy-name web -- "$PROBE" read /etc/shadow
expect_out "run --daemon: a path rule decided in the daemon" "err EACCES"
urun --daemon="$SOCK" --policy-dir "$T/policies" --policy-name nope -- "$PROBE" getppid
expect_status "run --daemon with a policy that does not exist" 125
urun --daemon="$T/none.sock" --policy-dir "$T/policies" --policy-name web -- "$PROBE" getppid
expect_status "run --daemon with no daemon" 125
stop_daemon
