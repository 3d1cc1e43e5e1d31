#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Calls that read a file's extended attributes (getxattr, lgetxattr,
# getxattrat, listxattr, llistxattr, listxattrat: @file-read) or its inode
# flags (file_getattr: @file-stat) by path, decided on the path and
# performed by the supervisor: the path is resolved as the target would
# resolve it, the read is done with the target's credentials, and what the
# target gets (the count, the errno, the bytes written into its buffer) is
# what the kernel gives it without supervision: the size query, ERANGE,
# ENODATA, EOPNOTSUPP, EFAULT, a symlink's own attributes for the l- forms.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
need_root "trusted.* attributes; files only the policy keeps from root; --user nobody"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
setup_tmp

A=$T/allowed
D=$T/denied
mkdir "$A" "$D" "$A/sub"
chmod 700 "$A/sub"
echo hello >"$A/f"
echo in-sub >"$A/sub/file"
echo secret >"$A/secret"
chmod 600 "$A/secret"
echo denied >"$D/f"
echo other >"$T/other"
ln -s "$D/f" "$A/link-out"  # in the allowed tree, pointing into the denied one
ln -s "$A/f" "$T/link-in"   # outside, pointing into the allowed tree
"$PROBE" setxattr "$A/f" user.k "value of f" | grep -q '^ok' ||
	skip "no user.* extended attributes on $T's file system"
"$PROBE" setxattr "$A/f" user.second "2" >/dev/null
"$PROBE" setxattr "$A/f" trusted.t "root only" >/dev/null
"$PROBE" setxattr "$A/secret" user.k "secret value" >/dev/null
"$PROBE" setxattr "$A/sub/file" user.k "in sub" >/dev/null
"$PROBE" setxattr "$D/f" user.k "DENIED-TOKEN" >/dev/null
"$PROBE" setxattr "$T/other" user.k "OTHER-TOKEN" >/dev/null
"$PROBE" setxattr "$A/link-out" trusted.l "the link's own" l | grep -q '^ok' ||
	skip "no trusted.* attributes on a symlink here"

POL=$T/xattr.policy
cat >"$POL" <<EOF2
deny  @file-read @file-stat path=$D path=$D/** EACCES
allow @file-read @file-stat path=$A path=$A/** path=/proc/**
deny  @file-read @file-stat path=$T/other path=$T/link-in EPERM
default allow
EOF2

say "== getxattr, lgetxattr: the value, the size query, the kernel's errors"
same "getxattr" "ok len=10 value=value" getxattr "$A/f" user.k 64
audited "the decision read the path" "syscall=getxattr verdict=allow .* path=$(re_quote "$A/f")( |\$)"
same "getxattr size 0: the size, nothing written" "ok len=10" getxattr "$A/f" user.k 0
same "getxattr size too small" "err ERANGE" getxattr "$A/f" user.k 3
same "getxattr of a missing attribute" "err ENODATA" getxattr "$A/f" user.none 64
same "getxattr of an empty name" "err ERANGE" getxattr "$A/f" "" 64
same "getxattr of a 256-byte name" "err ERANGE" getxattr "$A/f" \
	"user.$(printf '%0251d' 0)" 64
same "getxattr trusted.* as root" "ok len=9 value=root" getxattr "$A/f" trusted.t 64
same "getxattr of a missing file" "err ENOENT" getxattr "$A/none" user.k 64
same "getxattr into an unmapped buffer" "err EFAULT" getxattr "$A/f" user.k 64 badbuf
same "getxattr on procfs (no xattrs there)" "err EOPNOTSUPP" getxattr /proc/self/status user.k 64
same "lgetxattr of a symlink: its own" "ok len=14 value=the" getxattr "$A/link-out" trusted.l 64 l
same "lgetxattr user.* of a symlink" "err ENODATA" getxattr "$A/link-out" user.k 64 l
same "getxattr through link-in (outside, to allowed/f)" "ok len=10" getxattr "$T/link-in" user.k 64

say "== refused: denied, outside the allowed tree, followed into the denied tree"
expect "getxattr denied/f" "err EACCES" getxattr "$D/f" user.k 64
expect "lgetxattr denied/f" "err EACCES" getxattr "$D/f" user.k 64 l
expect "getxattr size 0 of denied/f" "err EACCES" getxattr "$D/f" user.k 0
expect "getxattr other" "err EPERM" getxattr "$T/other" user.k 64
expect "getxattr allowed/link-out (to denied)" "err EACCES" getxattr "$A/link-out" user.k 64
expect "lgetxattr link-in (the link itself is outside)" "err EPERM" \
	getxattr "$T/link-in" trusted.l 64 l
expect "getxattr allowed/../denied/f" "err EACCES" getxattr "$A/../denied/f" user.k 64
URUN_CWD=$A expect "cd allowed; getxattr ../denied/f" "err EACCES" getxattr ../denied/f user.k 64
URUN_CWD=$A same "cd allowed; getxattr f" "ok len=10" getxattr f user.k 64

say "== listxattr, llistxattr"
same "listxattr" "ok len=" listxattr "$A/f" 4096
same "listxattr size 0" "ok len=" listxattr "$A/f" 0
same "listxattr size too small" "err ERANGE" listxattr "$A/f" 4
same "llistxattr of a symlink" "ok len=10 names=trusted.l," listxattr "$A/link-out" 4096 l
expect "listxattr denied/f" "err EACCES" listxattr "$D/f" 4096
expect "listxattr allowed/link-out (to denied)" "err EACCES" listxattr "$A/link-out" 4096
expect "listxattr other, size 0" "err EPERM" listxattr "$T/other" 0

if [ "$(kernel_version)" -ge 613 ]; then
	say "== getxattrat, listxattrat (Linux 6.13): a dirfd, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH"
	same "getxattrat(allowed, f)" "ok len=10 value=value" getxattrat "$A" f user.k 64
	same "getxattrat size 0" "ok len=10" getxattrat "$A" f user.k 0
	same "getxattrat size too small" "err ERANGE" getxattrat "$A" f user.k 1
	same "getxattrat nofollow of a symlink" "ok len=14" getxattrat "$A" link-out trusted.l 64 nofollow
	expect "getxattrat(allowed, link-out) follows into denied" "err EACCES" \
		getxattrat "$A" link-out user.k 64
	expect "getxattrat(allowed, ../denied/f)" "err EACCES" getxattrat "$A" ../denied/f user.k 64
	same "getxattrat(fd of allowed/f, \"\", AT_EMPTY_PATH)" "ok len=10" \
		getxattrat "$A/f" "" user.k 64 empty
	same "getxattrat(fd, NULL, AT_EMPTY_PATH)" "ok len=10" getxattrat "$A/f" x user.k 64 empty null
	same "getxattrat empty path without AT_EMPTY_PATH" "err ENOENT" getxattrat "$A/f" "" user.k 64
	same "getxattrat with xattr_args.flags set" "err EINVAL" getxattrat "$A" f user.k 64 argsflags
	same "getxattrat struct too short" "err EINVAL" getxattrat "$A" f user.k 64 usize=8
	same "getxattrat struct longer, zeros" "ok len=10" getxattrat "$A" f user.k 64 usize=32
	same "listxattrat(allowed, f)" "ok len=" listxattrat "$A" f 4096
	same "listxattrat nofollow" "ok len=10 names=trusted.l," listxattrat "$A" link-out 4096 nofollow
	expect "listxattrat(allowed, ../denied/f)" "err EACCES" listxattrat "$A" ../denied/f 4096
else
	skip_case "getxattrat, listxattrat" "Linux $(uname -r) predates 6.13"
fi

if [ "$(kernel_version)" -ge 617 ]; then
	say "== file_getattr (Linux 6.17): a stat of the inode flags"
	same "file_getattr(allowed, f)" "ok ret=0" file_getattr "$A" f
	same "file_getattr usize 64: the tail zeroed" "ok ret=0" file_getattr - "$A/f" 64
	same "file_getattr usize 8" "err EINVAL" file_getattr - "$A/f" 8
	same "file_getattr into an unmapped buffer" "err EFAULT" file_getattr - "$A/f" 24 badbuf
	expect "file_getattr denied/f" "err EACCES" file_getattr - "$D/f"
	expect "file_getattr allowed/link-out (to denied)" "err EACCES" file_getattr - "$A/link-out"
	same "file_getattr nofollow of a symlink" "err EOPNOTSUPP" file_getattr - "$A/link-out" nofollow
else
	skip_case "file_getattr" "Linux $(uname -r) predates 6.17"
fi

say "== a target that is not root: allowed by the policy, refused by the kernel"
RUN_OPTS="--user nobody"
same "nobody: getxattr of allowed/f" "ok len=10" getxattr "$A/f" user.k 64
same "nobody: user.* of a 0600 root file" "err EACCES" getxattr "$A/secret" user.k 64
same "nobody: size query of a 0600 root file" "err EACCES" getxattr "$A/secret" user.k 0
same "nobody: trusted.* hidden" "err ENODATA" getxattr "$A/f" trusted.t 64
same "nobody: listxattr leaves trusted.* out" "ok len=" listxattr "$A/f" 4096
same "nobody: getxattr in a 0700 root dir" "err EACCES" getxattr "$A/sub/file" user.k 64
same "nobody: listxattr in a 0700 root dir" "err EACCES" listxattr "$A/sub/file" 4096
RUN_OPTS=

say "== reads in the Landlock layer: Landlock cannot refuse xattr reads, the supervisor does"
ABI=$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')
cat >"$T/landlock.policy" <<EOF2
default allow
deny  @mount EPERM
allow @file-read @file-exec path=/usr path=/usr/** path=/etc/ld.so.cache path=$PROBE
allow @file-read @file-stat path=$A path=$A/**
deny  @file-read @file-write @file-exec @file-create @file-delete kernel
EOF2
if [ "${ABI:-0}" -ge 1 ]; then
	capture "policy explain" "$UNOTIFY" policy explain "$T/landlock.policy"
	expect_grep "explain: the opens are Landlock's" "$OUT" '^  opens: decided by Landlock'
	capture "policy explain --syscall getxattr" "$UNOTIFY" policy explain "$T/landlock.policy" \
		--syscall getxattr
	expect_grep "explain: getxattr stays with the supervisor, and why" "$OUT" \
		'not Landlock: Landlock does not check xattr reads'
	urun --log-level all --policy "$T/landlock.policy" -- "$PROBE" open "$D/f" rdonly
	expect_grep "the open of denied/f: Landlock's refusal" "$OUT" "^err EACCES"
	if audit_lines | grep -q "syscall=openat .*path=$(re_quote "$D/f")"; then
		fail "the open of denied/f reached the supervisor: the layer did not decide it"
	fi
	urun --policy "$T/landlock.policy" -- "$PROBE" getxattr "$D/f" user.k 64
	expect_grep "getxattr of denied/f under the layer" "$OUT" "^err EACCES\$"
	urun --policy "$T/landlock.policy" -- "$PROBE" listxattr "$D/f" 0
	expect_grep "listxattr of denied/f under the layer" "$OUT" "^err EACCES\$"
	urun --policy "$T/landlock.policy" -- "$PROBE" getxattr "$T/none" user.k 64
	expect_grep "getxattr of a missing file under the layer: the lookup's error" "$OUT" \
		"^err ENOENT\$"
	urun --no-landlock --policy "$T/landlock.policy" -- "$PROBE" getxattr "$D/f" user.k 0
	expect_grep "getxattr of denied/f without the layer" "$OUT" "^err EACCES\$"
	urun --policy "$T/landlock.policy" -- "$PROBE" getxattr "$A/f" user.k 64
	expect_grep "getxattr of allowed/f under the layer" "$OUT" "^ok len=10 value=value"
else
	skip_case "reads in the Landlock layer" "no Landlock here"
fi

say "== no path rule: the calls stay in the kernel (nothing notified)"
urun --log-level all --rule 'deny @file-attr EPERM' --rule 'default allow' -- \
	"$PROBE" getxattr "$D/f" user.k 64
expect_grep "getxattr without path rules" "$OUT" "^ok len=12 value=DENIED-TOKEN\$"
if audit_lines | grep -q 'syscall=getxattr '; then
	fail "getxattr was notified by a policy without path rules"
fi
say "ok: getxattr decided in the kernel"

say "PASS: enforce-xattr"
