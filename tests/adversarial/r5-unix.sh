#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, unix socket paths. Policy: `deny @net-connect unix=S/* EACCES`;
# a stream and a datagram server in S/ count what reaches them. The
# program names the refused sockets by other texts: /proc/self/fd/3/sock
# and /proc/thread-self/fd/3/sock and /dev/fd/3/sock (3: S/ inherited),
# a relative name from a cwd in S/, a symlink to the socket, a symlink to
# S/, "//" and "/./"; datagrams by sendto and by connect then send. The
# connect and send are performed by a helper process, whose own /proc/self
# and cwd are not the program's: each must name the program's. The
# forbidden effect: a server counts a connection or a datagram.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root: a pid namespace of its own"
setup_tmp
PROBE=${PROBE:-$top_builddir/tests/live/probe}
[ -x "$PROBE" ] || fail "$PROBE is not built"

S=$T/s
mkdir -p "$S" "$T/al"
"$PROBE" serve stream unix "$S/sock" 100 >"$T/stream.out" 2>&1 &
track_pid $!
"$PROBE" serve dgram unix "$S/dg" 100 >"$T/dgram.out" 2>&1 &
track_pid $!
wait_until 10 grep -q '^ready$' "$T/stream.out" || fail "no stream server: $(cat "$T/stream.out")"
wait_until 10 grep -q '^ready$' "$T/dgram.out" || fail "no datagram server: $(cat "$T/dgram.out")"
mkdir -p "$T/ok"
"$PROBE" serve stream unix "$T/ok/sock" 5 >"$T/ok.out" 2>&1 &
track_pid $!
wait_until 10 grep -q '^ready$' "$T/ok.out" || fail "no allowed server: $(cat "$T/ok.out")"
ln -s "$S/sock" "$T/al/sock-link"
ln -s "$S/dg" "$T/al/dg-link"
ln -s "$S" "$T/al/dir-link"
printf 'default allow\ndeny @net-connect unix=%s/* EACCES\n' "$S" >"$T/unix.policy"

# reached FILE: the server logged a connection or a datagram.
reached() {
	grep -Eq '^(conn|msg) ' "$1"
}

# try CASE SERVER-LOG CMD...: run CMD (sh -c text, 3< S) in the sandbox; nothing may arrive.
try() {
	_case=$1
	_log=$2
	shift 2
	case_begin "$_case" "$*"
	URUN_CWD=$S urun --policy "$T/unix.policy" -- sh -c "exec 3<'$S'; $*"
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif reached "$_log"; then
		case_fail "bypass: the server saw $(grep -E '^(conn|msg) ' "$_log" | head -1)"
	elif ! results | grep -q 'EACCES'; then
		case_fail "not refused EACCES: $(results | head -2)"
	else
		case_pass "$(results | tr '\n' ' ')"
	fi
}

for p in "$S/sock" /proc/self/fd/3/sock /proc/thread-self/fd/3/sock /dev/fd/3/sock sock \
	"$T/al/sock-link" "$T/al/dir-link/sock" "$T//s/./sock"; do
	try "stream-$(printf '%s' "$p" | sed "s|$T|T|; s|[/.]|-|g; s|^-*||")" "$T/stream.out" \
		"'$PROBE' connect stream unix '$p'"
done
for p in "$S/dg" /proc/self/fd/3/dg dg "$T/al/dg-link" "$T/al/dir-link/dg"; do
	_n=$(printf '%s' "$p" | sed "s|$T|T|; s|[/.]|-|g; s|^-*||")
	try "dgram-$_n" "$T/dgram.out" "'$PROBE' sendto dgram unix '$p' hi"
	try "dgram-connected-$_n" "$T/dgram.out" "'$PROBE' sendto dgram unix '$p' hi connect"
done

case_begin guard-allowed "(guard) a socket outside S/, by /proc/self/fd/3/sock (3: its directory): connected"
URUN_CWD=$T urun --policy "$T/unix.policy" -- sh -c "exec 3<'$T/ok'; '$PROBE' connect stream unix /proc/self/fd/3/sock"
if results | grep -q '^ok' && wait_until 5 reached "$T/ok.out"; then
	case_pass "connected, the server saw it"
else
	case_fail "the allowed socket was not reached: $(results | head -1)"
fi

finish
