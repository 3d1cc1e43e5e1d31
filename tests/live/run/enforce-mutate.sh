#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Calls that change the file system by path (unlink, rmdir, mkdir, mknod,
# rename, link, symlink, chmod, chown, utimensat, truncate and their *at
# variants), decided on the resolved path(s) and performed by the
# supervisor on what it resolved, as the target: the target's credentials
# (owner, permission checks) and umask, the kernel's own answers for the
# edge cases ("name/", ".", symlinks), and nothing done when denied.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
need_root "files only the policy keeps from root; --user nobody; chown"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
setup_tmp

NUID=$(id -u nobody)
NGID=$(id -g nobody)
A=$T/allowed
D=$T/denied
mkdir "$A" "$D" "$A/nob" "$A/rootonly"
chown "$NUID:$NGID" "$A/nob"
echo denied >"$D/f"
ln -s "$D" "$A/to-denied"
ln -s "$D/f" "$A/link-out"

# link(2) also reads its first path: allowing it needs @file-read too.
POL=$T/mutate.policy
cat >"$POL" <<EOF
deny  @file-create @file-delete @file-attr @file-write path=$D path=$D/** EACCES
allow @file-create @file-delete @file-attr @file-write @file-read path=$A path=$A/**
deny  @file-create @file-delete @file-attr @file-write path=$T/** EPERM
default allow
EOF

# fresh NAME...: (re)creates files in the allowed tree.
fresh() {
	for f in "$@"; do
		rm -rf "${A:?}/$f"
		echo "content of $f" >"$A/$f"
	done
}

# exists WHAT PATH / gone WHAT PATH
exists() {
	[ -e "$2" ] || [ -L "$2" ] || fail "$1: $2 does not exist"
	say "ok: $1: $2 exists"
}
gone() {
	[ ! -e "$2" ] && [ ! -L "$2" ] || fail "$1: $2 still exists"
	say "ok: $1: $2 is gone"
}

say "== unlink, rmdir, unlinkat"
fresh x
expect "unlink allowed/x" ok unlink "$A/x"
gone "unlink allowed/x" "$A/x"
expect "unlink denied/f" "err EACCES" unlink "$D/f"
exists "denied unlink did nothing" "$D/f"
expect "unlink allowed/../denied/f" "err EACCES" unlink "$A/../denied/f"
expect "unlink allowed/to-denied/f (symlinked parent)" "err EACCES" unlink "$A/to-denied/f"
exists "still there" "$D/f"
expect "unlink allowed/link-out: the link itself" ok unlink "$A/link-out"
gone "the link" "$A/link-out"
exists "not its target" "$D/f"
ln -s "$D/f" "$A/link-out"
fresh x
URUN_CWD=$A expect "cd allowed; unlink x" ok unlink x
gone "relative unlink" "$A/x"
fresh x
expect "unlink allowed/x/ (trailing slash: the kernel's ENOTDIR)" "err ENOTDIR" unlink "$A/x/"
exists "x kept" "$A/x"
mkdir "$A/dir"
expect "unlink a directory" "err EISDIR" unlink "$A/dir"
expect "rmdir allowed/dir/." "err EINVAL" rmdir "$A/dir/."
expect "rmdir allowed/dir/ (trailing slash)" ok rmdir "$A/dir/"
gone "rmdir" "$A/dir"
mkdir "$D/dir"
expect "rmdir denied/dir" "err EACCES" rmdir "$D/dir"
exists "denied rmdir" "$D/dir"
fresh x
expect "unlinkat(allowed, x)" ok unlinkat "$A" x
mkdir "$A/dir"
expect "unlinkat(allowed, dir, AT_REMOVEDIR)" ok unlinkat "$A" dir removedir
gone "unlinkat AT_REMOVEDIR" "$A/dir"
expect "unlinkat(allowed, ../denied/f)" "err EACCES" unlinkat "$A" ../denied/f
expect "unlink elsewhere" "err EPERM" unlink "$T/nothing"

say "== mkdir, mkdirat, mknod: the target's umask and owner"
URUN_UMASK=027 expect "mkdir allowed/d 0777 under umask 027" ok mkdir "$A/d" 0777
[ "$(stat -c %a:%u "$A/d")" = "750:0" ] || fail "mkdir gave $(stat -c %a:%u "$A/d")"
say "ok: mode 750 owner root"
expect "mkdir allowed/d again" "err EEXIST" mkdir "$A/d" 0755
expect "mkdir allowed/link-out (an existing link, not followed)" "err EEXIST" mkdir "$A/link-out" 0755
expect "mkdir denied/d" "err EACCES" mkdir "$D/d" 0755
gone "denied mkdir" "$D/d"
expect "mkdir through a symlinked parent into denied" "err EACCES" mkdir "$A/to-denied/d" 0755
gone "nothing through the link" "$D/d"
expect "mkdir allowed/e/ (trailing slash)" ok mkdir "$A/e/" 0700
exists "mkdir with a slash" "$A/e"
expect "mkdirat(allowed, f)" ok mkdirat "$A" f 0700
exists "mkdirat" "$A/f"
URUN_UMASK=077 expect "mknod fifo 0666 under umask 077" ok mknod "$A/fifo" fifo 0666
[ "$(stat -c %F:%a "$A/fifo")" = "fifo:600" ] || fail "mknod gave $(stat -c %F:%a "$A/fifo")"
say "ok: a fifo, mode 600"
expect "mknod denied/fifo" "err EACCES" mknod "$D/fifo" fifo 0644
gone "denied mknod" "$D/fifo"

say "== rename, renameat2"
fresh x
expect "rename allowed/x allowed/y" ok rename "$A/x" "$A/y"
gone "renamed from" "$A/x"
exists "renamed to" "$A/y"
expect "rename allowed/y into denied" "err EACCES" rename "$A/y" "$D/y"
exists "not moved" "$A/y"
expect "rename denied/f out of denied" "err EACCES" rename "$D/f" "$A/stolen"
exists "not moved" "$D/f"
fresh x y
expect "renameat2 RENAME_NOREPLACE onto an existing name" "err EEXIST" renameat2 "$A/x" "$A/y" noreplace
expect "renameat2 RENAME_EXCHANGE" ok renameat2 "$A/x" "$A/y" exchange
[ "$(cat "$A/x")" = "content of y" ] || fail "exchange: x holds '$(cat "$A/x")'"
say "ok: exchanged"
URUN_CWD=$A expect "cd allowed; rename x z" ok rename x z
exists "relative rename" "$A/z"

say "== link, linkat, symlink, symlinkat"
fresh x
expect "link allowed/x allowed/hl" ok link "$A/x" "$A/hl"
[ "$(stat -c %h "$A/x")" = 2 ] || fail "link: nlink $(stat -c %h "$A/x")"
say "ok: nlink 2"
expect "link into denied" "err EACCES" link "$A/x" "$D/hl"
gone "denied link" "$D/hl"
expect "link of a symlink links the symlink itself" ok link "$A/link-out" "$A/hl-link"
[ "$(stat -c %F "$A/hl-link")" = "symbolic link" ] || fail "link followed the symlink"
say "ok: a hard link to the symlink"
ln -s x "$A/to-x"
expect "linkat AT_SYMLINK_FOLLOW" ok linkat "$A/to-x" "$A/hl-follow" follow
[ "$(stat -c %i "$A/hl-follow")" = "$(stat -c %i "$A/x")" ] || fail "linkat follow: another inode"
say "ok: same inode as x"
expect "linkat AT_EMPTY_PATH (by fd)" ok linkat "$A/x" "$A/hl-empty" empty
[ "$(stat -c %i "$A/hl-empty")" = "$(stat -c %i "$A/x")" ] || fail "linkat empty: another inode"
say "ok: same inode as x"
expect "symlink allowed/sl -> /etc/passwd" ok symlink /etc/passwd "$A/sl"
[ "$(readlink "$A/sl")" = /etc/passwd ] || fail "symlink text: $(readlink "$A/sl")"
say "ok: the link holds the text given"
expect "symlink into denied" "err EACCES" symlink x "$D/sl"
gone "denied symlink" "$D/sl"
expect "symlink with an empty text" "err ENOENT" symlink "" "$A/sl-empty"
expect "symlinkat(allowed, sl2)" ok symlinkat target "$A" sl2
exists "symlinkat" "$A/sl2"

say "== chmod, chown, utimensat, utimes, utime, truncate"
fresh x
expect "chmod allowed/x 0604" ok chmod "$A/x" 0604
[ "$(stat -c %a "$A/x")" = 604 ] || fail "chmod: $(stat -c %a "$A/x")"
expect "chmod denied/f" "err EACCES" chmod "$D/f" 0600
expect "chmod allowed/link-out (follows into denied)" "err EACCES" chmod "$A/link-out" 0600
[ "$(stat -c %a "$D/f")" = 644 ] || fail "denied chmod changed denied/f to $(stat -c %a "$D/f")"
expect "fchmodat2 AT_SYMLINK_NOFOLLOW on a link (the kernel's EOPNOTSUPP)" "err EOPNOTSUPP" \
	fchmodat2 "$A/link-out" 0600 nofollow
expect "chown allowed/x to nobody" ok chown "$A/x" "$NUID" "$NGID"
[ "$(stat -c %u:%g "$A/x")" = "$NUID:$NGID" ] || fail "chown: $(stat -c %u:%g "$A/x")"
expect "lchown allowed/link-out: the link, not its target" ok lchown "$A/link-out" "$NUID" "$NGID"
[ "$(stat -c %u "$D/f")" = 0 ] || fail "lchown followed the link"
[ "$(stat -c %u "$A/link-out")" = "$NUID" ] || fail "lchown did not change the link"
say "ok: the link is nobody's, its target still root's"
expect "fchownat AT_SYMLINK_NOFOLLOW" ok fchownat "$A/link-out" 0 0 nofollow
expect "chown denied/f" "err EACCES" chown "$D/f" "$NUID" "$NGID"
expect "utimensat allowed/x" ok utimensat "$A/x" 1000000
[ "$(stat -c %X.%Y "$A/x")" = 1000000.1000000 ] || fail "utimensat: $(stat -c %X.%Y "$A/x")"
expect "utimensat nofollow on a link" ok utimensat "$A/link-out" 2000000 nofollow
[ "$(stat -c %Y "$D/f")" != 2000000 ] || fail "utimensat nofollow followed the link"
expect "utimensat(fd, NULL): the fd's file" ok utimensat-fd "$A/x" 3000000
[ "$(stat -c %Y "$A/x")" = 3000000 ] || fail "utimensat-fd: $(stat -c %Y "$A/x")"
expect "utimensat(fd of denied/f, NULL)" "err EACCES" utimensat-fd "$D/f" 3000000
expect "utimes" ok utimes "$A/x" 4000000
expect "utime" ok utime "$A/x" 5000000
[ "$(stat -c %Y "$A/x")" = 5000000 ] || fail "utime: $(stat -c %Y "$A/x")"
expect "utimensat denied/f" "err EACCES" utimensat "$D/f" 1000000
expect "truncate allowed/x 3" ok truncate "$A/x" 3
[ "$(stat -c %s "$A/x")" = 3 ] || fail "truncate: size $(stat -c %s "$A/x")"
expect "truncate a directory" "err EISDIR" truncate "$A" 1
expect "truncate -1" "err EINVAL" truncate "$A/x" -1
expect "truncate denied/f" "err EACCES" truncate "$D/f" 0
[ -s "$D/f" ] || fail "a denied truncate emptied denied/f"
say "ok: denied/f untouched"

say "== as nobody: allowed by the policy, checked by the kernel as nobody"
RUN_OPTS="--user nobody"
URUN_UMASK=022 expect "nobody: mkdir in its own dir" ok mkdir "$A/nob/d" 0777
[ "$(stat -c %u:%g:%a "$A/nob/d")" = "$NUID:$NGID:755" ] ||
	fail "nobody's mkdir: $(stat -c %u:%g:%a "$A/nob/d") (the supervisor's credentials leaked?)"
say "ok: owned by nobody, mode 755"
expect "nobody: mknod fifo in its own dir" ok mknod "$A/nob/fifo" fifo 0640
[ "$(stat -c %u:%g "$A/nob/fifo")" = "$NUID:$NGID" ] || fail "fifo owner $(stat -c %u:%g "$A/nob/fifo")"
expect "nobody: symlink in its own dir" ok symlink x "$A/nob/sl"
[ "$(stat -c %u "$A/nob/sl")" = "$NUID" ] || fail "symlink owner $(stat -c %u "$A/nob/sl")"
expect "nobody: mkdir in a root 0755 dir" "err EACCES" mkdir "$A/rootonly/d" 0755
gone "nothing made" "$A/rootonly/d"
fresh r
expect "nobody: unlink in a root dir" "err EACCES" unlink "$A/r"
expect "nobody: chmod of root's file" "err EPERM" chmod "$A/r" 0777
expect "nobody: chown of root's file" "err EPERM" chown "$A/r" "$NUID" "$NGID"
expect "nobody: truncate root's 0644 file" "err EACCES" truncate "$A/r" 0
expect "nobody: utimensat (explicit times) on root's file" "err EPERM" utimensat "$A/r" 1
expect "nobody: rename root's file" "err EACCES" rename "$A/r" "$A/nob/r"
exists "root's file stays" "$A/r"
RUN_OPTS=

say "PASS: enforce-mutate"
