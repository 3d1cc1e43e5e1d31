#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# unotifyd as a process and its /proc (issue 9): a sandbox found the
# daemon's pid through /proc and took every sandbox's listener, and the
# daemon acting for a sandbox opened its own /proc/PID for it. A sandbox in
# the daemon's own pid namespace is supervised fail closed (unless
# --allow-shared-pid, with a warning); in its own, it can name no process
# of the daemon's, and the daemon never opens its own entries for it.
. "${top_srcdir:-.}/tests/live/daemon-lib.sh"
setup_tmp
: "${PROC_ESCAPE:?PROC_ESCAPE is not set (run through make check)}"
PE=$PROC_ESCAPE

policy box "allow openat open path=/**
return getppid 42
default allow"
start_daemon

say "== a sandbox in a pid namespace of its own (as runtimes make them)"
register --metadata policy=box --notify openat,open,getppid -- sh -c '
	D=$1; PE=$2
	"$PE" ppid
	for c in steal stop ptrace prlimit vmread; do printf "%s " $c; "$PE" $c $D; done
	"$PE" read /proc/$D/environ
	"$PE" read /proc/$D/cmdline
	"$PE" read /proc/$D/task/$D/mem' sh "$DPID" "$PE"
expect_grep "decided by the daemon's policy" "$OUT" '^ppid=42$'
for c in steal stop ptrace prlimit vmread; do
	expect_grep "$c on the daemon's pid: not in the sandbox's namespace" "$OUT" \
		"^$c err ESRCH\$"
done
expect_no_grep "the daemon's /proc (the sandbox shares the host's /proc here) is never opened" \
	"$OUT" '^data='
[ "$(printf '%s\n' "$OUT" | grep -c '^err EACCES$')" = 3 ] ||
	fail "the daemon's entries were not refused as ours: $OUT"
say "ok: refused by the daemon (EACCES), not merely unreadable"
expect_daemon_alive "after the attempts"

say "== unotify run --daemon keeps no copy of the listener it handed over"
# The program waits for $T/go (a stat, not an open the daemon would decide).
"$UNOTIFY" run --daemon --socket "$SOCK" --policy-name box -- \
	sh -c 'while [ ! -e "$1" ]; do sleep 0.1; done' sh "$T/go" >"$T/client.out" 2>&1 </dev/null &
client=$!
track_pid "$client"
expect_log "the run --daemon program registered" 'sandbox unotify-run-[0-9]+ .* policy box'
holders=$(for fd in /proc/$client/fd/*; do readlink "$fd"; done 2>/dev/null | grep -c seccomp || true)
[ "$holders" = 0 ] || fail "the run --daemon client still holds $holders listener(s)"
say "ok: the client holds no listener once the daemon has it"
touch "$T/go"
wait "$client" || fail "run --daemon: status $?: $(cat "$T/client.out")"

say "== a sandbox in the daemon's pid namespace: fail closed"
register --share-pid --metadata policy=box --notify getppid -- "$PE" ppid
expect_grep "the acknowledgement says why" "$ERR" \
	'"fail_closed":"it shares the daemon.s pid namespace'
expect_grep "its notified call is denied, never answered by the policy" "$OUT" '^ppid=-1$'
expect_log "the log says so" 'FAIL CLOSED, it shares the daemon.s pid namespace'
stop_daemon

say "== --allow-shared-pid: accepted, with a warning"
start_daemon --allow-shared-pid
register --share-pid --metadata policy=box --notify getppid -- "$PE" ppid
expect_grep "supervised by its policy" "$OUT" '^ppid=42$'
expect_log "with a warning in the log" 'shares the daemon.s pid namespace \(--allow-shared-pid\)'
stop_daemon
