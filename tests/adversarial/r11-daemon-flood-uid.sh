#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, silent connections from sibling pid namespaces of one uid
# (found by an adversarial review). Past 128 connections being read,
# unotifyd gives each client, a uid in a pid namespace, a share of 8;
# but any user may make sibling user and pid namespaces, as many as it
# likes: a member of --allow-group, not sandboxed, holding 16 silent
# connections from each of 64 such namespaces (32 were enough) filled the
# 256 the daemon reads at once, and it stopped accepting: root's
# `unotify run --daemon` gave up after 5 s (exit 125). Now a uid also has
# a share while saturated (32, on each side of the daemon's pid
# namespace), so one uid can never fill the limit. The forbidden effect:
# a registration by root fails while the flood goes on. Guard: the flood
# held its connections open and reopened them (it ran).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

policy box "default allow
return getppid 42"
UNOTIFYD_ARGS="--allow-group nogroup"
start_daemon
# The flood's own files: it runs as nobody.
mkdir "$T/nobody"
chmod 1777 "$T/nobody"

case_begin flood-sibling-ns "(client, nobody in --allow-group) 16 silent connections from each of 64 sibling user+pid namespaces; two registrations by root meanwhile"
timeout -k 3 30 "$ATTACK" --user 65534:65534 r11-flood-userns "$SOCK" 64 16 14 "$T/nobody/ready" \
	>"$T/flood.out" 2>&1 </dev/null &
FLOOD=$!
track_pid "$FLOOD"
if ! wait_until 10 test -e "$T/nobody/ready"; then
	wait "$FLOOD" || true
	if grep -q '^SETUP' "$T/flood.out"; then
		case_skip "no user namespace for nobody: $(grep -m1 '^SETUP' "$T/flood.out")"
		finish
	fi
	fail "the flood did not start: $(cat "$T/flood.out")"
fi
sleep 2
flood_verdict box
if ! daemon_alive; then
	case_fail "unotifyd is gone ($(tail -3 "$T/d.err" | tr '\n' ' '))"
fi

finish
