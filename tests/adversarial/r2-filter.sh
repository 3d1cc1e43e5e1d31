#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2, attacks on the view and the filter that fail (regression
# guards; r2-view.sh has the one that works). A policy denies reading
# priv/, executing denied-echo and writing ro/; as root:
#   - setns(pidfd, CLONE_NEWNS|CLONE_NEWNET) into a process that has priv/
#     bind-mounted at alias/ in a mount namespace of its own (in its own pid
#     namespace the program cannot name it; with --share-pid it can, and
#     the fixed-view rules must refuse the setns);
#   - a seccomp listener of the program's own answering CONTINUE (the
#     kernel allows one listener per filter chain);
#   - open through int $0x80 (foreign ABIs are killed);
#   - a read-only descriptor reopened O_RDWR through /proc/self/fd;
#   - execveat(fd, "", AT_EMPTY_PATH) of a program an exec rule denies.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "mount namespaces, other processes' /proc/PID/root"
need_cmd unshare
setup_tmp

mkdir -p "$T/priv" "$T/alias"
DENIED=$(secret "$T/priv/secret")
cat >"$T/view.policy" <<EOF
default allow
deny @file-read path=$T/priv/** EACCES
deny @file-exec path=$T/denied-echo EACCES
deny @file-write path=$T/ro/** EROFS
EOF

# The other namespace: priv/ bound at alias/, the process's cwd there.
(exec unshare -m --propagation private sh -c \
	"mount --bind '$T/priv' '$T/alias' && cd '$T/alias' && exec sleep 120") \
	>/dev/null 2>&1 </dev/null &
HELPER=$!
track_pid "$HELPER"
wait_until 10 test -e "/proc/$HELPER/root$T/alias/secret" ||
	skip "no process in a mount namespace of its own could be started"
[ -e "$T/alias/secret" ] && fail "the bind mount leaked into our own namespace"

case_begin setns-pidfd "setns(pidfd, CLONE_NEWNS|CLONE_NEWNET) into that process, then alias/secret"
urun --policy "$T/view.policy" -- "$ATTACK" setns-pidfd-read "$HELPER" 0x40020000 "$T/alias/secret"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin setns-pidfd-shared "(--share-pid, the process can be named) the same setns"
urun --share-pid --policy "$T/view.policy" -- "$ATTACK" setns-pidfd-read "$HELPER" 0x40020000 "$T/alias/secret"
if expect_blocked "$DENIED"; then
	if results | grep -q '^SETUP'; then
		case_fail "the attack could not be set up: $(results | head -1)"
	else
		case_pass "$(results | head -1)"
	fi
fi

case_begin nested-listener "a seccomp listener of the program's own answers its openat with CONTINUE"
urun --policy "$T/view.policy" -- "$ATTACK" nested-listener "$T/priv/secret"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin i386-open "open(2) of priv/secret through int \$0x80"
urun --policy "$T/view.policy" -- "$ATTACK" i386-open "$T/priv/secret"
if hung; then
	case_fail "a hang"
elif printf '%s\n' "$OUT" | grep -q -- "$DENIED"; then
	case_fail "the secret was read through the i386 entry point"
elif [ "$RC" = 159 ] || [ "$RC" = 140 ] || results | grep -q '^BLOCKED'; then
	case_pass "status $RC $(results | head -1)"
else
	case_fail "status $RC, no verdict: $(results | head -1)"
fi

mkdir -p "$T/ro"
echo "read only $(token)" >"$T/ro/file"
SUM=$(checksum "$T/ro/file")
case_begin reopen-upgrade "ro/file opened read-only, reopened O_RDWR through /proc/self/fd/N"
urun --policy "$T/view.policy" -- "$ATTACK" reopen-upgrade "$T/ro/file" FORGED
if [ "$(checksum "$T/ro/file")" = "$SUM" ]; then
	case_pass "unchanged ($(results | head -1))"
else
	case_fail "ro/file rewritten: $(results | head -1)"
fi

cp /bin/echo "$T/denied-echo"
EXEC_TOKEN=executed-$(token)
case_begin execveat-empty "execveat(fd, \"\", AT_EMPTY_PATH) of an O_PATH fd of denied-echo"
urun --policy "$T/view.policy" -- "$ATTACK" execveat-empty "$T/denied-echo" "$EXEC_TOKEN"
if expect_blocked "$EXEC_TOKEN"; then case_pass "$(results | head -1)"; fi

finish
