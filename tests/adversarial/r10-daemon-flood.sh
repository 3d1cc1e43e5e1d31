#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, silent connections that keep unotifyd from reading anyone
# else's (found by an adversarial review). The daemon reads 128 messages
# at once, each under a 2 s deadline, in the order clients connected. A
# program sandboxed by `unotify run --daemon` has its client's uid, so it
# may connect too: with hundreds of silent connections queued, reopened
# as the daemon closed them, every other registration waited 2 s per 128
# ahead of it, and `unotify run --daemon` gave up after 5 s (exit 125):
# no one else's program ran. Now, past 128 connections being read, a
# client (a uid in a pid namespace) that has 8 of them gets any more closed
# at accept; namespaces nested in the client's count as its own. The
# forbidden effect: a registration from outside the flooding sandbox
# fails while the flood goes on, from one pid namespace or from forty
# nested ones. Round 12: under a policy whose unix= rule has unotifyd
# perform the sandbox's connects, they came from unotifyd's own helper, a
# client in the daemon's pid namespace: the flood took root's share and
# root's registrations failed (flood-performed); a helper's connection
# now counts as outside. Guard: the flood held its connections open and
# reopened them (it ran).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

policy box "default allow
return getppid 42"
policy boxu "default allow
return getppid 42
deny @net-connect unix=/nonexistent-r12/** EACCES"
start_daemon

# flood_case NAME WHAT SPLIT [POLICY]: the flood from a sandbox under POLICY
# (box; SPLIT pid namespaces nested in its own), two registrations from
# outside meanwhile.
flood_case() {
	case_begin "$1" "$2"
	rm -f "$T/ready"
	timeout -k 3 30 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name "${4:-box}" -- \
		"$ATTACK" r10-flood "$SOCK" 600 14 "$T/ready" "$3" >"$T/flood.out" 2>&1 </dev/null &
	FLOOD=$!
	track_pid "$FLOOD"
	if ! wait_until 10 test -e "$T/ready"; then
		case_fail "the flood did not start: $(cat "$T/flood.out")"
		return 0
	fi
	sleep 2
	flood_verdict box
}

flood_case flood "(sandbox) 600 silent connections to unotifyd, reopened; two registrations from outside meanwhile" 1
flood_case flood-nested "(sandbox) the same from 40 pid namespaces nested in the sandbox's" 40
flood_case flood-performed "(sandbox) the same, its connects performed by unotifyd (a unix= rule)" 1 boxu
if ! daemon_alive; then
	case_fail "unotifyd is gone ($(tail -3 "$T/d.err" | tr '\n' ' '))"
fi

finish
