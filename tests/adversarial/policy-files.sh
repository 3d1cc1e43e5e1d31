#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Calls that reach files outside the opens a policy decides: O_PATH opens
# (performed read-only: allowed only when reading is), file handles,
# xattrs and POSIX ACLs, fchmod on a read-only descriptor, AF_UNIX bind,
# device nodes, inode flags; and the append-only gap `policy check` names.
. "${top_srcdir:-.}/tests/adversarial/policy-lib.sh"
need_root "a root program, which file permissions do not stop"
setup_tmp

mkdir -p "$T/ro" "$T/rw" "$T/f"
echo SECRET-FILE >"$T/f/secret"
echo public >"$T/f/public"
echo ro >"$T/ro/file"
echo rw >"$T/rw/file"
chmod 644 "$T/ro/file" "$T/rw/file" "$T/f/secret" "$T/f/public"
mode() { stat -c %a "$1"; }

say "== O_PATH: never more than what was asked and allowed"
policy opath 'default allow' "allow openat flags=O_PATH path=$T/f/secret" \
	"deny @file-read path=$T/f/secret EACCES"
attempt "$POL" opath-read "$T/f/secret"
blocked "an O_PATH open allowed only as O_PATH" open EACCES
not_leaked "O_PATH" SECRET-FILE
attempt "$POL" opath-read "$T/f/public"
expect_grep "an O_PATH open of a readable file works" "$OUT" "^open ok\$"
urun --rule 'default allow' --rule "allow openat flags=O_PATH" -- "$ESCAPE" opath-read "$T/f/secret"
blocked "on registers alone: the kernel's own O_PATH (read gives EBADF)" read EBADF

say "== file handles"
attempt "$POL" handle-read "$T/f/secret"
blocked "name_to_handle_at" name_to_handle_at EOPNOTSUPP
not_leaked "file handles" SECRET-FILE

policy attr 'default allow' "deny @file-attr @file-create path=$T/ro/** EROFS" \
	"allow @file-create path=$T/rw/**"
say "== xattrs, POSIX ACLs, fchmod: @file-attr on the file, whatever the descriptor"
attempt "$POL" setxattr "$T/ro/file" user.x evil
blocked "setxattr" setxattr EROFS
attempt "$POL" lsetxattr "$T/ro/file" user.x evil
blocked "lsetxattr" setxattr EROFS
attempt "$POL" fsetxattr "$T/ro/file" user.x evil
blocked "fsetxattr on an O_RDONLY descriptor" setxattr EROFS
attempt "$POL" acl "$T/ro/file"
blocked "a POSIX ACL" setxattr EROFS
attempt "$POL" fchmod "$T/ro/file" 666
blocked "fchmod on an O_RDONLY descriptor" fchmod EROFS
[ "$(mode "$T/ro/file")" = 644 ] || fail "the mode of $T/ro/file changed"
say "ok: $T/ro/file still 644"
attempt "$POL" acl "$T/rw/file"
expect_grep "an ACL where allowed: performed, the mode follows" "$OUT" "^mode: 0646\$"
attempt "$POL" fchmod "$T/rw/file" 600
expect_grep "fchmod where allowed" "$OUT" "^mode: 0600\$"
attempt "$POL" setxattr "$T/rw/file" user.x good
expect_grep "setxattr where allowed" "$OUT" "^setxattr ok\$"
if command -v getfattr >/dev/null 2>&1; then
	expect_grep "the value is set" "$(getfattr -n user.x --only-values "$T/rw/file")" '^good$'
fi
urun --rule 'default allow' -- "$ESCAPE" fchmod "$T/ro/file" 666
expect_grep "control: unprotected, fchmod works" "$OUT" "^mode: 0666\$"
chmod 644 "$T/ro/file"

say "== bind(2) of an AF_UNIX path creates a file"
attempt "$POL" bind-unix "$T/ro/sock"
blocked "bind in a read-only directory" bind EROFS
expect_no_grep "no socket file" "$OUT" '^exists$'
attempt "$POL" bind-unix "$T/rw/sock"
expect_grep "bind where creating is allowed" "$OUT" '^exists$'

say "== device nodes, inode flags"
attempt "$POL" mknod-blk "$T/rw/disk" 7 0
blocked "a block device in an allowed directory" mknod EPERM
expect_no_grep "no device node" "$OUT" '^exists$'
attempt "$POL" setflags "$T/rw/file"
blocked "FS_IOC_SETFLAGS" ioctl EPERM

say "== append-only by open flags: check names the gap"
policy append 'default allow' \
	"deny openat open path=$T/rw/** access=w,rw flags=!O_APPEND EPERM"
ucmd policy check "$POL"
expect_run "check: not a bare OK" 0 "$POL: OK, 1 warning"
expect_grep "check: fcntl(F_SETFL) can clear O_APPEND" "$ERR" \
	"^$(re_quote "$POL"):2:[0-9]+: warning: O_APPEND decides the open only: fcntl\\(F_SETFL\\) "
echo log-line >"$T/rw/log"
attempt "$POL" append-rewrite "$T/rw/log"
expect_grep "the gap is real: the open is allowed, O_APPEND cleared" "$OUT" '^pwrite ok$'

say "PASS: policy-files"
