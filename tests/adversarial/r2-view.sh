#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: the file-system view. A policy denies reading priv/ (deny
# @file-read path=$T/priv/**); as root:
#   - another mount namespace (a service with PrivateTmp, a container with
#     a volume) shows priv/ at another name: here a process outside the
#     sandbox has priv/ bind-mounted at alias/ in a namespace of its own.
#     /proc/PID/root/.../alias/secret and /proc/PID/cwd/secret reach the
#     denied file, which the supervisor names as that namespace does
#     (alias/secret), so no rule on priv/ matches.
#   - the same with --share-pid: in its own pid namespace the program cannot
#     name that process at all (ENOENT); sharing ours, it can, and the name
#     check (a name must lead back to the file from the pinned root) is
#     what must refuse it.
# r2-filter.sh has the attacks on the view and the filter that fail.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "mount namespaces, other processes' /proc/PID/root"
need_cmd unshare
setup_tmp

mkdir -p "$T/priv" "$T/alias"
DENIED=$(secret "$T/priv/secret")
cat >"$T/view.policy" <<EOF
default allow
deny @file-read path=$T/priv/** EACCES
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

case_begin control "priv/secret read by its own name is denied (guard)"
urun --policy "$T/view.policy" -- "$ATTACK" read "$T/priv/secret"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin procroot-alias "priv/secret read as /proc/$HELPER/root$T/alias/secret (another mount namespace)"
urun --policy "$T/view.policy" -- "$ATTACK" read "/proc/$HELPER/root$T/alias/secret"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin proccwd-alias "priv/secret read as /proc/$HELPER/cwd/secret (its cwd is alias/ there)"
urun --policy "$T/view.policy" -- "$ATTACK" read "/proc/$HELPER/cwd/secret"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

for how in procroot:"/proc/$HELPER/root$T/alias/secret" proccwd:"/proc/$HELPER/cwd/secret"; do
	case_begin "${how%%:*}-alias-shared" "(--share-pid) priv/secret read as ${how#*:}"
	urun --share-pid --policy "$T/view.policy" -- "$ATTACK" read "${how#*:}"
	if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi
done

finish
