#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, files the kernel binds to the namespaces of their opener
# (found by an adversarial review). A lookup in /proc/sys/net takes the
# network namespace of the task that makes it, so do the IPC tunables
# (the IPC namespace), and the open of /dev/net/tun (the interface it
# makes). unotifyd performs the opens and stats of a sandbox whose policy
# has path rules: a sandbox in namespaces of its own (any container) saw
# and changed the daemon's. Now such a call is refused (EACCES) when the
# target's namespace is not the supervisor's. The test never touches the
# host's network: unotifyd runs in network and IPC namespaces the test
# makes, with a dummy (or bridge) interface there, and each sandbox in further ones.
# The forbidden effects: the sandbox sees the dummy interface, changes the
# daemon's net.unix.max_dgram_qlen or kernel.msgmnb, or makes a tun
# interface in the daemon's namespace. Guards: natively, from namespaces
# of its own, the program does not see the interface; a sandbox in the
# daemon's own namespaces still sees it (the same namespace: allowed).
# Also a part of /proc bound onto another /proc directory by a container
# root that may mount (bind-*): named by what it is, not where it is.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "namespaces and unotifyd"
need_cmd ip
need_cmd nsenter
need_cmd unshare
setup_tmp

IF=r11d$$
policy p1 "default allow
deny @file-read @file-write @file-create @file-delete @file-attr @file-stat path=/nonexistent-zzz EACCES"
# pm: the same for a container root that may mount (the bind-* cases).
policy pm "default allow
implicit fixed-view off
implicit file-systems off
deny @file-read @file-write @file-create @file-delete @file-attr @file-stat path=/nonexistent-zzz EACCES"

# unotifyd in a network and IPC namespace of the test's own.
SOCK=$T/d.sock
# A dummy interface, or a bridge where the kernel has no dummy driver.
(exec unshare -n -i sh -c '{ ip link add "$0" type dummy 2>/dev/null ||
	ip link add "$0" type bridge; } && exec "$@"' "$IF" \
	"$UNOTIFYD" --socket "$SOCK" --policy-dir "$T/policies" --log "$T/audit.log" \
	--seccomp-default kill 2>>"$T/d.err") &
DPID=$!
track_pid "$DPID"
wait_until 10 grep -q 'listening on' "$T/d.err" ||
	{ cat "$T/d.err"; fail "unotifyd did not get ready"; }
in_daemon_ns() {
	nsenter -t "$DPID" -n -i "$@"
}
in_daemon_ns ip link show "$IF" >/dev/null || fail "no dummy interface $IF in the daemon's namespace"

# sandbox WHERE [run options] -- PROGRAM...: run --daemon from the daemon's
# namespaces (WHERE=same) or from new ones below them (WHERE=own).
sandbox() {
	_where=$1
	shift
	if [ "$_where" = own ]; then
		bounded "$RUN_TIMEOUT" nsenter -t "$DPID" -n -i unshare -n -i \
			"$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p1 "$@"
	else
		bounded "$RUN_TIMEOUT" nsenter -t "$DPID" -n -i \
			"$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p1 "$@"
	fi
}

CONF=/proc/sys/net/ipv4/conf/$IF
case_begin netns-stat "(unotifyd) stat of $CONF from a network namespace of the sandbox's own"
bounded 20 nsenter -t "$DPID" -n -i unshare -n -i stat -c %F "$CONF"
if [ "$RC" = 0 ]; then
	case_skip "natively the inner namespace sees $CONF: $OUT"
else
	native=$(printf '%s\n' "$ERR" | tail -1 | sed 's/.*: //')
	sandbox own --drop-caps -- stat -c %F "$CONF"
	if [ "$RC" = 0 ]; then
		case_fail "bypass: the sandbox sees the daemon's interface: $OUT"
	elif printf '%s\n' "$ERR" | grep -q 'Permission denied'; then
		case_pass "refused (natively: $native)"
	else
		case_fail "not the documented EACCES: $(printf '%s' "$ERR" | tail -1)"
	fi
fi

# write_case NAME FILE WHAT: the sandbox (namespaces of its own) writes the
# value plus 7 into FILE; the daemon's value must not change.
write_case() {
	case_begin "$1" "(unotifyd) write of $2 ($3) from namespaces of the sandbox's own"
	before=$(in_daemon_ns cat "$2")
	sandbox own --drop-caps -- sh -c "echo $((before + 7)) > $2 && echo WROTE"
	after=$(in_daemon_ns cat "$2")
	if [ "$after" != "$before" ]; then
		case_fail "bypass: the daemon's $2 went from $before to $after"
	elif results | grep -q WROTE; then
		case_fail "the write succeeded somewhere: $(results | head -1)"
	else
		case_pass "the daemon's value is still $before"
	fi
}

write_case netns-write /proc/sys/net/unix/max_dgram_qlen "a sysctl of each network namespace"
write_case ipcns-write /proc/sys/kernel/msgmnb "a sysctl of each IPC namespace"

TUN=r11t$$
case_begin netns-tun "(unotifyd, CAP_NET_ADMIN kept) /dev/net/tun opened for a sandbox in its own network namespace"
if [ ! -c /dev/net/tun ]; then
	case_skip "no /dev/net/tun"
else
	sandbox own -- ip tuntap add dev "$TUN" mode tun
	if in_daemon_ns ip link show "$TUN" >/dev/null 2>&1; then
		in_daemon_ns ip link del "$TUN" 2>/dev/null || true
		case_fail "bypass: $TUN was made in the daemon's network namespace"
	elif [ "$RC" = 0 ]; then
		case_fail "ip tuntap said it made $TUN, in no namespace we know: $OUT"
	else
		case_pass "refused: $(printf '%s' "$ERR" | tail -1 | cut -c1-80)"
	fi
fi

# A container root that may mount (fixed-view and file-systems off) binds a part of /proc
# onto another /proc directory: the name the check once read was the mount
# point's (/proc/driver), not what is mounted there (a review of the fix).
# mounter SCRIPT: run --daemon under pm as root of user, mount, network and
# IPC namespaces of its own (a rootless container).
mounter() {
	bounded "$RUN_TIMEOUT" nsenter -t "$DPID" -n -i unshare -U -r -m -n -i --propagation private \
		"$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name pm -- sh -c "$1"
}

case_begin bind-net "(unotifyd) /proc/sys/net bound onto /proc/driver, the daemon's interface looked up there"
mounter "mount --bind /proc/sys/net /proc/driver && echo MOUNTED && stat -c %F /proc/driver/ipv4/conf/$IF"
if ! results | grep -q MOUNTED; then
	case_fail "the bind mount did not happen (status $RC): $(printf '%s' "$ERR" | tail -1)"
elif [ "$RC" = 0 ]; then
	case_fail "bypass: the sandbox sees the daemon's interface: $OUT"
elif printf '%s\n' "$ERR" | grep -q 'Permission denied'; then
	case_pass "refused"
else
	case_fail "not the documented EACCES: $(printf '%s' "$ERR" | tail -1)"
fi

case_begin bind-ipc "(unotifyd) /proc/sys/kernel bound onto /proc/driver, the daemon's msgmnb written there"
before=$(in_daemon_ns cat /proc/sys/kernel/msgmnb)
mounter "mount --bind /proc/sys/kernel /proc/driver && echo MOUNTED && echo $((before + 9)) > /proc/driver/msgmnb && echo WROTE"
after=$(in_daemon_ns cat /proc/sys/kernel/msgmnb)
if ! results | grep -q MOUNTED; then
	case_fail "the bind mount did not happen (status $RC): $(printf '%s' "$ERR" | tail -1)"
elif [ "$after" != "$before" ]; then
	case_fail "bypass: the daemon's msgmnb went from $before to $after"
elif results | grep -q WROTE; then
	case_fail "the write succeeded somewhere: $(results | head -1)"
else
	case_pass "the daemon's value is still $before"
fi

# As runc makes /proc/sys read-only (bound onto itself): a sysctl of no
# namespace still reads, one of the network namespace is still refused.
case_begin bind-self-guard "(guard) /proc/sys bound onto itself: kernel/ostype reads, net/core/somaxconn is refused"
mounter "mount --bind /proc/sys /proc/sys && mount -o remount,bind,ro /proc/sys && cat /proc/sys/kernel/ostype && cat /proc/sys/net/core/somaxconn"
if results | grep -qx Linux && printf '%s\n' "$ERR" | grep -q 'somaxconn: Permission denied'; then
	case_pass "ostype read, somaxconn refused"
else
	case_fail "status $RC: $(results | head -2 | tr '\n' ' ') $(printf '%s' "$ERR" | tail -1)"
fi

# unotify run as root puts the program in a pid namespace below ours: the
# per pid namespace pid_max is not refused (ps reads it; see SECURITY.md).
case_begin run-pid-max "(guard) unotify run as root reads /proc/sys/kernel/pid_max"
urun --policy "$T/policies/p1.policy" -- cat /proc/sys/kernel/pid_max
if [ "$RC" = 0 ] && results | grep -Eqx '[0-9]+'; then
	case_pass "read: $(results | head -1)"
else
	case_fail "refused (status $RC): $(printf '%s' "$ERR" | tail -1)"
fi

case_begin same-ns "(guard) a sandbox in the daemon's own namespaces still sees $CONF"
sandbox same --drop-caps -- stat -c %F "$CONF"
if [ "$RC" = 0 ] && printf '%s\n' "$OUT" | grep -q directory; then
	case_pass "seen: $OUT"
else
	case_fail "refused in the same namespace (status $RC)"
fi

finish
