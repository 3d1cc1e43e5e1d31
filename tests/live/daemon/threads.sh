#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A threaded program under unotifyd: 8 threads, then 2, all calling at once,
# each with answers of its own (its file, its link's text, its inode, and
# a refused open). The daemon's pool answers them with several threads
# (the partner receiver while calls keep meeting): no fd, link text, stat
# or verdict may reach another thread, nothing may hang.

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp

mkdir "$T/own"
i=0
while [ "$i" -lt 8 ]; do
	echo "f$i" >"$T/own/f$i"
	ln -s "t$i" "$T/own/l$i"
	i=$((i + 1))
done
echo secret >"$T/own/denied"
policy own "default allow
deny openat path=$T/own/denied EACCES
deny newfstatat statx readlink readlinkat path=$T/own/never EACCES"
start_daemon
# The default mode (0660, root's group) lets in no one the daemon refuses.
if grep -q "neither root nor in an --allow-group" "$T/d.err"; then
	fail "a warning about the default socket mode: $(cat "$T/d.err")"
fi

for n in 8 2; do
	capture "threads-own $n" "$UNOTIFY" run --daemon --socket "$SOCK" --policy-name own -- \
		"$PROBE" threads-own "$n" "$T/own" 1000
	[ "$RC" = 0 ] || { printf '%s\n' "$ERR" | head; fail "threads-own $n: exit $RC"; }
	expect_out "$n threads under unotifyd, each answer its own thread's" "ok $n"
done

# Each sandbox's end says what its supervising threads did.
expect_log "the ended line counts the sandbox's threads" \
	'sandbox .* ended: [0-9]+ notifications, [0-9]+ denials; threads: [0-9]+ supervised, a second receiver formed [0-9]+ times? \([0-9]+ calls\), [0-9]+ calls spread, [0-9]+ said they may wait, [0-9]+ taken over after a tick$'
why=$(no_second_receiver "$UNOTIFYD")
if [ -n "$why" ]; then
	skip_case "threads calling at once had a second receiver" "$why"
else
	expect_log "threads calling at once had a second receiver" \
		'ended: .*; threads: [0-9]+ supervised, a second receiver formed [1-9][0-9]* times? \([1-9][0-9]* calls\)'
fi

say "PASS: daemon threads"
