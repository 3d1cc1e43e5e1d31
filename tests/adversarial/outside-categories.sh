#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Calls outside the categories a policy names, each reaching what a rule
# denies:
#   - an allowed O_PATH open handed back as a readable descriptor;
#   - open_by_handle_at (no path for the policy) of a denied file;
#   - setxattr, removexattr and a POSIX ACL (a chmod in all but name) on a
#     file of contrib/policies/read-only-system.policy (moved to $T/sys);
#   - bind(2) of an AF_UNIX socket creating a file where @file-create is denied;
#   - mknod of a block device (a loop device holding a denied file) in an
#     allowed directory, the denied bytes read through it;
#   - the append-only example unotify.policy(5) used to give: O_APPEND
#     dropped with fcntl(F_SETFL) then pwrite at 0, or ftruncate, rewrites
#     the log. No filter can close it (the descriptor's flags change after
#     the decided open): `policy check` and `explain` must say so, naming
#     the rule, and the man page no longer offers it;
#   - execve decided on its path, which the kernel reads again after the
#     decision (a racing thread swaps it): no fix exists, so `unotify policy
#     check` must warn and `policy explain` must say "unsafe".
# Each case checks the file (or its xattrs, mode, existence) from outside.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "handles, device nodes and other users' files"
setup_tmp

NEEDLE=secret-$(token)
DENIED=$(secret "$T/$NEEDLE")

# ---- O_PATH and handles ----
cat >"$T/opath.policy" <<EOF
default allow
allow openat flags=O_PATH path=$T/$NEEDLE
deny  openat open path=$T/$NEEDLE EACCES
EOF

case_begin control-read "(O_PATH allowed, reads denied) a plain open of the file is denied"
urun --policy "$T/opath.policy" -- "$ATTACK" read "$T/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin opath-read "(O_PATH allowed, reads denied) read(2) on the fd an O_PATH open returned"
urun --policy "$T/opath.policy" -- "$ATTACK" opath-read "$T/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin open-by-handle "(reads denied) name_to_handle_at + open_by_handle_at"
urun --policy "$T/opath.policy" -- "$ATTACK" handle-read "$T" "$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

# ---- attributes under read-only-system ----
ROS=$top_srcdir/contrib/policies/read-only-system.policy
sed "s#path=/#path=$T/sys/#g" "$ROS" >"$T/ros.policy"
mkdir -p "$T/sys/etc"
echo "host" >"$T/sys/etc/hostname"
chmod 644 "$T/sys/etc/hostname"
"$ATTACK" setxattr "$T/sys/etc/hostname" user.keep yes >/dev/null ||
	fail "this file system has no user xattrs"

# xattr_is NAME PRESENT|ABSENT: checked from outside the sandbox.
xattr_is() {
	if "$ATTACK" xattr-get "$T/sys/etc/hostname" "$1" | grep -q '^VALUE'; then
		[ "$2" = present ]
	else
		[ "$2" = absent ]
	fi
}

case_begin control-chmod "(read-only-system) chmod of etc/hostname is denied (guard)"
MODE=$(stat -c %a "$T/sys/etc/hostname")
urun --policy "$T/ros.policy" -- chmod 666 "$T/sys/etc/hostname"
if [ "$(stat -c %a "$T/sys/etc/hostname")" = "$MODE" ]; then case_pass "mode $MODE"; else case_fail "mode changed"; fi

case_begin setxattr "(read-only-system) setxattr user.adv on etc/hostname"
urun --policy "$T/ros.policy" -- "$ATTACK" setxattr "$T/sys/etc/hostname" user.adv pwned
if xattr_is user.adv absent; then case_pass "no user.adv"; else case_fail "user.adv was set"; fi

case_begin removexattr "(read-only-system) removexattr user.keep of etc/hostname"
urun --policy "$T/ros.policy" -- "$ATTACK" removexattr "$T/sys/etc/hostname" user.keep
if xattr_is user.keep present; then case_pass "user.keep still there"; else case_fail "user.keep was removed"; fi

case_begin acl-grant "(read-only-system) a POSIX ACL giving nobody rw on etc/hostname"
urun --policy "$T/ros.policy" -- "$ATTACK" acl-grant "$T/sys/etc/hostname" 65534
if xattr_is system.posix_acl_access absent && [ "$(stat -c %a "$T/sys/etc/hostname")" = "$MODE" ]; then
	case_pass "no ACL, mode $MODE"
else
	case_fail "an ACL was set (mode now $(stat -c %a "$T/sys/etc/hostname"))"
fi

# ---- creating a file without @file-create ----
mkdir -p "$T/nocreate"
printf 'default allow\ndeny @file-create path=%s/nocreate/** EACCES\n' "$T" >"$T/nocreate.policy"

case_begin control-mkdir "(no creation under nocreate/) mkdir there is denied (guard)"
urun --policy "$T/nocreate.policy" -- mkdir "$T/nocreate/d"
if [ ! -e "$T/nocreate/d" ]; then case_pass "nothing created"; else case_fail "$T/nocreate/d created"; fi

case_begin unix-bind "(no creation under nocreate/) bind(2) an AF_UNIX socket at nocreate/sock"
urun --policy "$T/nocreate.policy" -- "$ATTACK" unix-bind "$T/nocreate/sock"
if [ ! -e "$T/nocreate/sock" ]; then case_pass "nothing created"; else case_fail "$T/nocreate/sock created ($(results | head -1))"; fi

# ---- a block device of the disk holding a denied file ----
case_begin mknod-blockdev "(reads of img/ denied) mknod the image's block device in an allowed dir, read the file's bytes"
if setup_image "$T/img"; then
	IMG_SECRET=$(secret "$T/img/secret")
	sync "$T/img/secret"
	mkdir -p "$T/dev"
	printf 'default allow\ndeny @file-read @file-write path=%s/img/** EACCES\n' "$T" >"$T/img.policy"
	urun --policy "$T/img.policy" -- "$ATTACK" read "$T/img/secret"
	CONTROL=$(results | head -1)
	urun --policy "$T/img.policy" -- "$ATTACK" mknod-read "$T/dev/blk" "$IMG_MAJ" "$IMG_MIN" \
		"$IMG_SECRET"
	if expect_blocked; then case_pass "$(results | head -1) (direct read: $CONTROL)"; fi
else
	case_skip "no loop device or mkfs.ext4 here"
fi

# ---- the append-only log of unotify.policy(5) ----
mkdir -p "$T/log"
cat >"$T/append.policy" <<EOF
default allow
deny openat open path=$T/log/** access=w,rw flags=!O_APPEND EPERM
EOF

# expect_warned: the attack worked (the gap is real), and the tools said so beforehand.
expect_warned() {
	bounded 20 "$UNOTIFY" policy check "$T/append.policy"
	if ! printf '%s\n' "$ERR" | grep -q "append.policy:2:[0-9]*: warning: O_APPEND decides the open only: fcntl(F_SETFL) can clear it"; then
		case_fail "policy check does not name the rule and the gap: $(printf '%s' "$ERR" | head -1)"
	elif ! printf '%s\n' "$OUT" | grep -q ': OK, 1 warning$'; then
		case_fail "policy check prints a bare OK: $OUT"
	elif ! "$UNOTIFY" policy explain "$T/append.policy" 2>&1 >/dev/null | grep -q 'O_APPEND decides the open only'; then
		case_fail "policy explain does not show the gap"
	elif grep -q 'flags=!O_APPEND EPERM' "$top_srcdir/man/unotify.policy.5"; then
		case_fail "unotify.policy(5) still offers the example"
	else
		case_pass "a documented gap, warned by check and explain"
	fi
}

for how in rewrite truncate; do
	LOG_START="record-$(token)"
	printf '%s\n' "$LOG_START" >"$T/log/app.log"
	case_begin "append-$how" "(append-only log) open with O_APPEND as allowed, then $how"
	if [ "$how" = rewrite ]; then
		urun --policy "$T/append.policy" -- "$ATTACK" append-rewrite "$T/log/app.log" FORGED
	else
		urun --policy "$T/append.policy" -- "$ATTACK" append-truncate "$T/log/app.log"
	fi
	expect_warned
done

# ---- execve's path race: only a warning can be given ----
printf 'default allow\nallow execve path=/usr/bin/true\ndeny execve EPERM\n' >"$T/exec.policy"

case_begin exec-path-warning "unotify policy check warns about a path rule on execve"
bounded 20 "$UNOTIFY" policy check "$T/exec.policy"
if printf '%s\n' "$OUT$ERR" | grep -q 'exec.policy:2:.*warning:.*execve'; then
	case_pass "$(printf '%s\n' "$OUT$ERR" | grep -o -m1 'warning: execve.*safely')"
else
	case_fail "no warning about the execve path rule"
fi

case_begin exec-path-explain "unotify policy explain --json calls that rule's enforcement unsafe"
bounded 20 "$UNOTIFY" policy explain "$T/exec.policy" --syscall execve --json
if printf '%s\n' "$OUT" | grep -q '"unsafe"'; then
	case_pass "\"unsafe\""
else
	case_fail "execve's path rule is not shown as unsafe"
fi

finish
