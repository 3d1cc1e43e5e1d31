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
# Each case with the Landlock layer and with --no-landlock (the handed one
# under run --daemon too); the listener of
# the refused port must count nothing. Controls: the same sockets made in
# the sandbox are refused (tcp-variants), a handed TCP socket is refused.
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

for mode in on off; do
	opt=
	[ $mode = off ] && opt=--no-landlock
	for c in "mptcp-made connect-mptcp 127.0.0.1 $SHUT" \
		"tcp-handed connect-handed $T/tcp.sock 127.0.0.1 $SHUT" \
		"mptcp-handed connect-handed $T/mptcp.sock 127.0.0.1 $SHUT"; do
		set -- $c
		name=$1-$mode
		shift
		case_begin "$name" "$* (layer $mode): nothing reaches the refused port"
		before=$(count shut)
		# shellcheck disable=SC2086
		urun $opt --policy "$T/tcp.policy" -- "$ATTACK" "$@"
		expect_count shut "$before"
	done

	case_begin "mptcp-inherited-$mode" "an MPTCP socket made before the sandbox (layer $mode)"
	before=$(count shut)
	# shellcheck disable=SC2086
	bounded "$RUN_TIMEOUT" "$ATTACK" r6-hold 262 7 "$UNOTIFY" run -q $opt \
		--policy "$T/tcp.policy" -- "$ATTACK" r6-connect-fd 7 127.0.0.1 "$SHUT"
	expect_count shut "$before"
done

# run --daemon: the daemon's layer and engine (the handed socket).
policy tcp "$(cat "$T/tcp.policy")"
start_daemon
case_begin mptcp-handed-daemon "an MPTCP socket handed in (run --daemon)"
before=$(count shut)
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name tcp -- \
	"$ATTACK" connect-handed "$T/mptcp.sock" 127.0.0.1 "$SHUT"
expect_count shut "$before"
daemon_alive || case_fail "unotifyd died"

finish
