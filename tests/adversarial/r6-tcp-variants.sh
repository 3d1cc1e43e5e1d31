#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A TCP port rule (tcp-ports.sh's policy: one port allowed, every other TCP
# port refused with the kernel's answer, the rest allowed) against sockets
# that are TCP on the wire but not TCP sockets (MPTCP: to proto=tcp, which
# reads SO_PROTOCOL, and to Landlock, whose sk_is_tcp() leaves them out).
# The implicit tcp-variants set refuses socket(..., IPPROTO_MPTCP) in the
# sandbox; these sockets are made where it does not look:
#   - handed in over SCM_RIGHTS by a process outside (as tcp-ports.sh's
#     `handed` case does with a TCP socket, which Landlock checks in the
#     caller's domain);
#   - made before the sandbox and inherited across `unotify run`'s exec.
# Made in the sandbox they are refused (tcp-variants), as a handed TCP
# socket is, with the Landlock layer and with --no-landlock (and under run
# --daemon). Made outside, they connect in both layers alike: a documented
# limit (SECURITY.md), checked here for the layers' agreement.
. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

[ "$(cat /proc/sys/net/mptcp/enabled 2>/dev/null)" = 1 ] || skip "MPTCP is not enabled here"

listener shut tcp ::
SHUT=$(port shut)

cat >"$T/tcp.policy" <<EOF2
default allow
allow @net-connect proto=tcp port=1
deny  @net-connect proto=tcp kernel
allow connect sendto sendmsg sendmmsg
EOF2

"$ATTACK" hand-sockets "$T/mptcp.sock" 150 262 >"$T/hand-mptcp.log" 2>&1 </dev/null &
track_pid $!
"$ATTACK" hand-sockets "$T/tcp.sock" 150 >"$T/hand-tcp.log" 2>&1 </dev/null &
track_pid $!
wait_until 10 grep -q READY "$T/hand-mptcp.log" || fail "hand-sockets did not start: $(cat "$T/hand-mptcp.log")"
wait_until 10 grep -q READY "$T/hand-tcp.log" || fail "hand-sockets did not start: $(cat "$T/hand-tcp.log")"

# Made in the sandbox (refused by tcp-variants) and a plain TCP socket
# handed in (Landlock checks it in the caller's domain): nothing reaches the
# refused port, in either layer.
for mode in on off; do
	opt=
	[ $mode = off ] && opt=--no-landlock
	for c in "mptcp-made connect-mptcp 127.0.0.1 $SHUT" \
		"tcp-handed connect-handed $T/tcp.sock 127.0.0.1 $SHUT"; do
		set -- $c
		name=$1-$mode
		shift
		case_begin "$name" "$* (layer $mode): nothing reaches the refused port"
		before=$(count shut)
		# shellcheck disable=SC2086
		urun $opt --policy "$T/tcp.policy" -- "$ATTACK" "$@"
		expect_count shut "$before"
	done
done

# An MPTCP socket made outside the sandbox (handed in, or inherited) is not
# a TCP socket to proto=tcp nor to Landlock: the final allow lets it
# connect, the same in both layers (SECURITY.md, known limits: a socket
# from outside is the outside's grant; it could as well come connected).
# What must hold is that the layers agree.
mptcp_outside() { # MODE: the connections that reached the refused port
	opt=
	[ "$1" = off ] && opt=--no-landlock
	before=$(count shut)
	# shellcheck disable=SC2086
	urun $opt --policy "$T/tcp.policy" -- "$ATTACK" connect-handed "$T/mptcp.sock" 127.0.0.1 "$SHUT"
	# shellcheck disable=SC2086
	bounded "$RUN_TIMEOUT" "$ATTACK" r6-hold 262 7 "$UNOTIFY" run -q $opt \
		--policy "$T/tcp.policy" -- "$ATTACK" r6-connect-fd 7 127.0.0.1 "$SHUT"
	flush shut >/dev/null
	echo $(( $(count shut) - before ))
}
case_begin mptcp-outside-layers "MPTCP sockets from outside: the Landlock layer and the supervisor agree"
on=$(mptcp_outside on)
off=$(mptcp_outside off)
if [ "$on" = "$off" ]; then
	case_pass "both layers: $on of 2 connected (documented)"
else
	case_fail "the layers differ: $on connection(s) with Landlock, $off without"
fi

policy tcp "$(cat "$T/tcp.policy")"
start_daemon
case_begin tcp-handed-daemon "a TCP socket handed in (run --daemon): nothing reaches the refused port"
before=$(count shut)
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name tcp -- \
	"$ATTACK" connect-handed "$T/tcp.sock" 127.0.0.1 "$SHUT"
expect_count shut "$before"
daemon_alive || case_fail "unotifyd died"

finish
