#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every call family the supervisor performs for a target, once in process
# (`unotify run --policy`) and once through unotifyd (`unotify run
# --daemon`, the daemon with its own seccomp filter set to kill): the same
# return value, errno and out-parameters (the probe's output), and the same
# resulting files (type, mode, owner, size, link text, content). A call the
# daemon performs that its own allowlist lacks gives EPERM there (or kills
# the daemon with --seccomp-default kill), while the audit trail says allow.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

W=$T/w
N=$T/net
mkdir -p "$N"
policy fam "allow @file-read @file-write @file-create @file-delete @file-stat @file-attr path=$W path=$W/**
allow connect bind sendto sendmsg unix=$W/** unix=$N/**
default allow"
start_daemon --log-level all

# The files every case starts from; fixed ones are made once, so their inode
# and times are the same for both runs (stat shows them).
mkdir -p "$W"
echo fixed >"$W/fixed"
# An old mtime but a fresh atime: reading it leaves atime alone (relatime).
touch -m -d '2001-02-03 04:05:06' "$W/fixed"
ln -s some/text "$W/fixlink"
"$PROBE" setxattr "$W/fixed" user.k "fixed value" >/dev/null
reset_w() {
	find "$W" -mindepth 1 ! -name fixed ! -name fixlink -exec rm -rf {} +
	echo "content of f" >"$W/f"
	mkdir "$W/e"
	mkdir "$W/full"
	echo x >"$W/full/x"
	ln -s f "$W/tof"
	mkdir "$W/rootonly"
	chmod 0755 "$W/rootonly"
}

# The state of $W, without inode numbers and times (but f's that a case sets: TIMES=stat format).
# Times first: reading the files for their content updates their atime.
state() {
	if [ -n "${TIMES:-}" ]; then stat -c "%n $TIMES" "$W/f"; fi
	(cd "$W" && find . -mindepth 1 -printf '%P %y %m %U %G %s %l\n' | sort &&
		find . -type f ! -name fixed -exec md5sum {} + | sort -k2)
}

# Servers for connect, sendmsg and sendto: two of each (one per run).
"$PROBE" serve stream unix "$N/srv" 2 >"$T/srv.out" 2>&1 &
track_pid $!
"$PROBE" serve dgram unix "$N/dsrv" 4 >"$T/dsrv.out" 2>&1 &
track_pid $!
wait_until 10 grep -q ready "$T/srv.out" || fail "stream server: $(cat "$T/srv.out")"
wait_until 10 grep -q ready "$T/dsrv.out" || fail "datagram server: $(cat "$T/dsrv.out")"

# same WHAT PROBE_ARGS...: in process, then through the daemon: same result, same files.
cases=0
same() {
	what=$1
	shift
	reset_w
	# shellcheck disable=SC2086
	urun ${RUNAS:-} --policy "$T/policies/fam.policy" -- "$PROBE" "$@"
	rc1=$RC out1=$OUT
	state >"$T/state1"
	reset_w
	# shellcheck disable=SC2086
	urun ${RUNAS:-} --daemon --socket "$SOCK" --policy-name fam -- "$PROBE" "$@"
	state >"$T/state2"
	daemon_alive || { cat "$T/d.err"; fail "$what: the daemon died (its own filter killed it)"; }
	if [ "$RC" != "$rc1" ] || [ "$OUT" != "$out1" ]; then
		show_run
		fail "$what: through the daemon '$OUT' (status $RC), in process '$out1' (status $rc1)"
	fi
	if ! cmp -s "$T/state1" "$T/state2"; then
		diff "$T/state1" "$T/state2" || true
		fail "$what: the files differ after the daemon performed it"
	fi
	case $out1 in
	ok* | err\ E*) ;;
	*) fail "$what: unexpected output '$out1'" ;;
	esac
	cases=$((cases + 1))
	say "ok: $what: $out1 (both)"
}

same "mkdir" mkdir "$W/d" 0750
same "mkdirat" mkdirat - "$W/d" 0700
same "mkdir on an existing name" mkdir "$W/e" 0750
same "unlink" unlink "$W/f"
same "rmdir" rmdir "$W/e"
same "rmdir of a full directory" rmdir "$W/full"
same "unlinkat removedir" unlinkat - "$W/e" removedir
same "rename" rename "$W/f" "$W/g"
same "renameat2 exchange" renameat2 "$W/f" "$W/e" exchange
same "link" link "$W/f" "$W/h"
same "linkat follow" linkat "$W/tof" "$W/h" follow
same "symlink" symlink target-text "$W/s"
same "symlinkat" symlinkat target-text - "$W/s"
same "chmod" chmod "$W/f" 0600
same "fchmodat2" fchmodat2 "$W/f" 0640
same "fchmod (a read-only descriptor)" fchmod "$W/f" 0604
same "setxattr" setxattr "$W/f" user.unotify value
same "lsetxattr of a symlink (EPERM for user.*)" setxattr "$W/tof" user.unotify value l
same "fsetxattr (a read-only descriptor)" fsetxattr "$W/f" user.unotify value
same "removexattr of a missing attribute" removexattr "$W/f" user.unotify
same "chown" chown "$W/f" 65534 65534
same "lchown" lchown "$W/fixlink" 0 0
same "fchownat" fchownat "$W/f" 1 1
TIMES='%X %Y'
same "utimensat" utimensat "$W/f" 1000000
same "utimes" utimes "$W/f" 2000000
same "utime" utime "$W/f" 3000000
TIMES=
same "mknod (regular file)" mknod "$W/n" reg 0640
same "mkfifo (mknod S_IFIFO)" mknod "$W/p" fifo 0640
same "truncate" truncate "$W/f" 3
same "open O_CREAT" open "$W/new" wronly creat mode=0640
same "open O_TRUNC" open "$W/f" wronly trunc
same "openat2" openat2 "$W/f" rdonly
same "stat" stat "$W/fixed"
same "lstat" lstat "$W/fixlink"
same "statx" statx - "$W/fixed"
same "readlink" readlink "$W/fixlink"
same "access" access "$W/fixed" rw
same "faccessat2" faccessat2 - "$W/fixed" r eaccess
same "stat of a missing file" stat "$W/missing"
same "getxattr" getxattr "$W/fixed" user.k 64
same "lgetxattr of a symlink" getxattr "$W/fixlink" user.k 64 l
same "listxattr" listxattr "$W/fixed" 4096
if [ "$(kernel_version)" -ge 613 ]; then
	same "getxattrat" getxattrat - "$W/fixed" user.k 0
	same "listxattrat" listxattrat "$W" fixed 4096
fi
if [ "$(kernel_version)" -ge 617 ]; then
	same "file_getattr" file_getattr - "$W/fixed"
fi
same "bind" bind dgram unix "$W/b.sock"
same "connect" connect stream unix "$N/srv"
same "sendmsg" sendmsg dgram unix "$N/dsrv" hello
same "sendto" sendto dgram unix "$N/dsrv" hello
# As another user: the daemon acts with the target's credentials, as the kernel would judge them.
if id nobody >/dev/null 2>&1; then
	RUNAS="--user nobody"
	same "mkdir as nobody in a root-only directory" mkdir "$W/rootonly/d" 0755
	same "chmod as nobody of root's file" chmod "$W/f" 0600
	same "open O_CREAT as nobody in a root-only directory" open "$W/rootonly/n" wronly creat
	same "unlink as nobody of root's file in root's directory" unlink "$W/f"
	RUNAS=
fi
say "ok: $cases cases: the daemon performs every family exactly as the in-process supervisor"
grep -q 'verdict=allow' "$T/audit.log" || fail "the daemon's audit trail has no allow"
expect_daemon_alive "after every family"
stop_daemon
