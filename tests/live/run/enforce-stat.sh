#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Calls that read metadata by path (stat, lstat, newfstatat, statx, readlink,
# readlinkat, access, faccessat, faccessat2), decided on the path and
# performed by the supervisor: the path is resolved as the target would
# resolve it (relative paths, "..", symlinks, /proc/self), and what the
# target gets (return value, errno, the out-parameter written into its
# memory) is what the kernel gives it without supervision.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
need_root "files only the policy (not permissions) keeps from root; --user nobody; --euid"
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
ln -s "$D/f" "$A/link-out"    # in the allowed tree, pointing into the denied one
ln -s "$A/f" "$T/link-in"     # outside, pointing into the allowed tree
ln -s "$A/f" "$D/link"
ln -s f "$A/rel-link"

POL=$T/stat.policy
cat >"$POL" <<EOF
deny  @file-stat path=$D path=$D/** EACCES
allow @file-stat path=$A path=$A/** path=/proc/**
deny  @file-stat path=$T/other path=$T/link-in EPERM
default allow
EOF

say "== the out-parameter is the kernel's own (every field compared with the native call)"
same "stat" ok stat "$A/f"
same "lstat" ok lstat "$A/f"
same "newfstatat" ok fstatat - "$A/f"
same "statx" ok statx - "$A/f"
same "statx of a directory" ok statx - "$A"
audited "the decision read the path" "syscall=statx verdict=allow .* path=$(re_quote "$A")( |\$)"

say "== denied, and outside the allowed tree"
for cmd in stat lstat "fstatat -" "statx -"; do
	# shellcheck disable=SC2086
	expect "$cmd denied/f" "err EACCES" $cmd "$D/f"
	# shellcheck disable=SC2086
	expect "$cmd other" "err EPERM" $cmd "$T/other"
done

say "== .. is resolved"
expect "allowed/../denied/f" "err EACCES" fstatat - "$A/../denied/f"
same "allowed/../allowed/f" ok stat "$A/../allowed/f"
expect "statx allowed/sub/../../denied/f" "err EACCES" statx - "$A/sub/../../denied/f"

say "== relative paths: from the target's cwd and from a dirfd"
URUN_CWD=$A same "cd allowed; stat f" ok fstatat - f
URUN_CWD=$A expect "cd allowed; statx ../denied/f" "err EACCES" statx - ../denied/f
URUN_CWD=$D expect "cd denied; stat f" "err EACCES" stat f
same "newfstatat(allowed, f)" ok fstatat "$A" f
expect "newfstatat(allowed, ../denied/f)" "err EACCES" fstatat "$A" ../denied/f
same "statx(allowed, sub)" ok statx "$A" sub

say "== symlinks: followed by stat, not by lstat / AT_SYMLINK_NOFOLLOW"
expect "stat allowed/link-out (to denied)" "err EACCES" stat "$A/link-out"
expect "statx allowed/link-out (to denied)" "err EACCES" statx - "$A/link-out"
same "lstat allowed/link-out (the link itself)" "ok dev=" lstat "$A/link-out"
same "newfstatat allowed/link-out nofollow" ok fstatat - "$A/link-out" nofollow
same "statx allowed/link-out nofollow" ok statx - "$A/link-out" nofollow
same "stat link-in (outside, to allowed/f)" ok stat "$T/link-in"
expect "lstat link-in (the link itself is outside)" "err EPERM" lstat "$T/link-in"

say "== AT_EMPTY_PATH: the file the dirfd refers to"
same "newfstatat(fd of allowed/f, \"\", AT_EMPTY_PATH)" ok fstatat "$A/f" "" empty
expect "newfstatat(fd of denied/f, \"\", AT_EMPTY_PATH)" "err EACCES" fstatat "$D/f" "" empty
same "statx(fd of allowed/f, \"\", AT_EMPTY_PATH)" ok statx "$A/f" "" empty
if [ "$(kernel_version)" -ge 611 ]; then
	same "newfstatat(fd, NULL, AT_EMPTY_PATH) (Linux 6.11)" ok fstatat "$A/f" x empty null
else
	skip_case "newfstatat(fd, NULL, AT_EMPTY_PATH)" "Linux $(uname -r) predates 6.11"
fi
same "empty path without AT_EMPTY_PATH" "err ENOENT" fstatat "$A" ""

say "== out-parameters the kernel cannot write: EFAULT, nothing else written"
same "unmapped buffer" "err EFAULT" fstatat - "$A/f" badbuf
same "read-only buffer" "err EFAULT" fstatat - "$A/f" robuf

say "== readlink, readlinkat"
same "readlink allowed/link-out" "ok len=" readlink "$A/link-out"
same "readlink truncated to bufsiz, no NUL" "ok len=5 text=/tmp/" readlink "$A/link-out" 5
same "readlink of a regular file" "err EINVAL" readlink "$A/f"
same "readlink of nothing" "err ENOENT" readlink "$A/none"
same "readlink bufsiz 0" "err EINVAL" readlink "$A/link-out" 0
same "readlinkat(allowed, rel-link)" "ok len=1 text=f" readlinkat "$A" rel-link
expect "readlink denied/link" "err EACCES" readlink "$D/link"
expect "readlink link-in (outside)" "err EPERM" readlink "$T/link-in"

say "== /proc/self is the target"
urun --log-level all --policy "$POL" -- "$PROBE" --pid readlink /proc/self
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "readlink /proc/self names the target" "$OUT" "^ok len=[0-9]+ text=$pid\$"
urun --log-level all --policy "$POL" -- "$PROBE" --pid readlinkat /proc thread-self
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "readlinkat(/proc, thread-self)" "$OUT" "^ok len=[0-9]+ text=$pid/task/$pid\$"
same "readlink /proc/self/exe" "ok len=" readlink /proc/self/exe
urun --log-level all --policy "$POL" -- "$PROBE" --pid statx - /proc/self/status
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "statx /proc/self/status" "$OUT" "^ok mask="
audited "/proc/self resolved to the target's pid" "verdict=allow .* path=/proc/$pid/status( |\$)"

say "== access: real ids; faccessat2 AT_EACCESS: effective ids"
same "access allowed/f r" ok access "$A/f" r
same "access allowed/f x (no x bit: the kernel's EACCES)" "err EACCES" access "$A/f" x
same "access allowed/none" "err ENOENT" access "$A/none" f
same "faccessat(allowed, f, w)" ok faccessat "$A" f w
same "faccessat2 nofollow on a link" ok faccessat2 - "$A/link-out" r nofollow
expect "access denied/f" "err EACCES" access "$D/f" r
expect "faccessat2 allowed/link-out (to denied)" "err EACCES" faccessat2 - "$A/link-out" r
same "euid nobody, real root: access checks root" ok --euid 65534 access "$A/secret" r
same "euid nobody: faccessat2 AT_EACCESS checks nobody" "err EACCES" \
	--euid 65534 faccessat2 - "$A/secret" r eaccess
same "euid nobody: access walks as root through a 0700 dir" ok --euid 65534 access "$A/sub/file" r
same "euid nobody: AT_EACCESS walks as nobody" "err EACCES" \
	--euid 65534 faccessat2 - "$A/sub/file" r eaccess

say "== a target that is not root: allowed by the policy, refused by the kernel"
RUN_OPTS="--user nobody"
same "nobody: stat in a 0700 root dir" "err EACCES" stat "$A/sub/file"
same "nobody: statx in a 0700 root dir" "err EACCES" statx - "$A/sub/file"
same "nobody: access a 0600 root file" "err EACCES" access "$A/secret" r
same "nobody: access allowed/f r" ok access "$A/f" r
same "nobody: stat allowed/f" ok stat "$A/f"
same "nobody: readlink /proc/self/exe" "ok len=" readlink /proc/self/exe
RUN_OPTS=

say "PASS: enforce-stat"
