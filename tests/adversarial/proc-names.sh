#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names that can be changed under the policy (issue 9), the supervisor's
# side: files are named relative to the root and mount namespace the
# sandbox started with, whatever root the program moves to, and a name that
# is not the file's current one ("PATH (deleted)", another mount namespace)
# is never matched as if it were another path. (Denying chroot, mount and
# unshare in the kernel layer is the policy's; the names must be right even
# where they are allowed.)
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "chroot and mount namespaces; reading /etc/shadow must be stopped by the policy"
setup_tmp
: "${PROC_ESCAPE:?PROC_ESCAPE is not set (run through make check)}"
PE=$PROC_ESCAPE
DEMO=$top_srcdir/contrib/policies/demo.policy

say "== sanity: root reads /etc/shadow without a policy"
"$PE" read /etc/shadow | grep -q '^data=' || fail "root cannot read /etc/shadow"

say "== chroot(\"/etc\") then open(\"/shadow\") under the shipped demo.policy"
urun --policy "$DEMO" -- "$PE" chroot-read /etc /shadow
expect_no_grep "/etc/shadow is not read through a chroot" "$OUT" '^data='
if printf '%s\n' "$OUT" | grep -q '^err EACCES$'; then
	expect_grep "the demo policy's own rule denied it, by its name under the first root" \
		"$ERR" 'syscall=openat verdict=deny errno=EACCES .*path=/etc/shadow$'
fi
urun --log-level all --policy "$DEMO" -- "$PE" chroot-read /etc /hostname
if printf '%s\n' "$OUT" | grep -q '^data='; then
	expect_grep "an allowed file after chroot is named under the first root" "$ERR" \
		'syscall=openat verdict=.*path=/etc/hostname$'
fi

say "== a private mount namespace: a bind mount over an allowed name"
echo secret >"$T/secret"
echo allowed >"$T/allowed"
cat >"$T/bind.policy" <<EOF
deny openat path=$T/secret EACCES
allow openat path=$T/allowed
default allow
EOF
urun --policy "$T/bind.policy" -- "$PE" unshare-bind "$T/secret" "$T/allowed"
expect_no_grep "the secret is not read under the allowed name" "$OUT" '^data=secret'

say "== a denied file replaced by rename while it is opened (as passwd does)"
printf 'SECRET\n' >"$T/shadow"
cat >"$T/race.policy" <<EOF
deny openat open path=$T/shadow EACCES
default allow
EOF
# The writer replaces the file as fast as it can, for the whole run.
(
	while [ ! -e "$T/stop" ]; do
		printf 'SECRET\n' >"$T/shadow.new"
		mv -f "$T/shadow.new" "$T/shadow"
	done
) &
writer=$!
track_pid "$writer"
urun --policy "$T/race.policy" -- "$PE" loop-read "$T/shadow" 20000 SECRET
touch "$T/stop"
wait "$writer" 2>/dev/null || true
expect_status "the reader ran" 0
expect_grep "not one of 20000 opens read the denied file" "$OUT" '^read-marker=0 '
expect_no_grep "and none was allowed as 'PATH (deleted)'" "$ERR" 'verdict=(allow|log) .*deleted\)'

say "== what the program holds from before its mount namespace is named by its path"
cat >"$T/stat.policy" <<EOF2
deny newfstatat statx path=/nonexistent EACCES
deny openat path=/nonexistent EACCES
default allow
EOF2
# stdout is a file the shell opened on our mounts (the harness's $T/.out):
# fstat(1) and /proc/self/fd/1. Its path reaches the same file in the
# sandbox's copy of the mounts, so that is its name (r17-inherited-fds.sh).
urun --log-level all --policy "$T/stat.policy" -- \
	sh -c 'cat /etc/hostname; cat /proc/self/fd/1 >/dev/null'
expect_status "fstat of an inherited stdout and its /proc/self/fd link are allowed" 0
expect_grep "named by its path" "$ERR" "verdict=allow .*path=$T/\\.out\$"
