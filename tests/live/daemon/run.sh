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
echo readable >"$T/readable"
urun --daemon="$SOCK" --policy-dir "$T/policies" --policy-name web -- "$PROBE" read "$T/readable"
expect_out "run --daemon: an open allowed on its path" "data=readable"
stop_daemon
audit=$(cat "$T/audit.log")
expect_grep "the daemon's trail has the denial" "$audit" 'path=/etc/shadow verdict=deny errno=EACCES'
expect_no_grep "and, by default (--log-level deny), no allowed call" "$audit" ' verdict=allow '
: >"$T/audit.log"
: >"$T/d.err"
start_daemon --log-level all
urun --daemon="$SOCK" --policy-dir "$T/policies" --policy-name web -- "$PROBE" read "$T/readable"
expect_out "run --daemon --log-level all: the open" "data=readable"
stop_daemon
expect_grep "--log-level all: the allowed open is in the trail" "$(cat "$T/audit.log")" \
	"path=$(re_quote "$T/readable") verdict=allow"
: >"$T/d.err"
start_daemon
urun --daemon="$SOCK" --policy-dir "$T/policies" --policy-name nope -- "$PROBE" getppid
expect_status "run --daemon with a policy that does not exist" 125
urun --daemon="$T/none.sock" --policy-dir "$T/policies" --policy-name web -- "$PROBE" getppid
expect_status "run --daemon with no daemon" 125
stop_daemon
