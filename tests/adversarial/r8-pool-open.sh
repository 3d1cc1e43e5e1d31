#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 8: the pool's guessed open now waits (957f718: no O_NONBLOCK, no
# F_GETPIPE_SZ in a pool), the watchdog is kicked by the first call after a
# quiet tick, the target object is kept per supervising thread, and writes
# into the target are not followed by ID_VALID.
# - stall: many threads blocked at once in FIFO opens by plain name (read,
#   write), after 2 s of quiet too; another call must still be answered,
#   and the opens finish as the kernel's; more than the pool has threads
#   hold the program's other calls, as documented
# - a signal sent to the process that only the waiting thread can take
#   (every other thread blocks it): EINTR, as the kernel's
# - a child's open taken by the last free supervising thread, the child
#   killed: that thread is interrupted too, nothing left on the FIFO
# - signals to threads waiting in FIFO (and write-leased file) opens: EINTR
#   without SA_RESTART, the open goes on with it; never a bogus descriptor
# - the program killed meanwhile: no reader/writer of the supervisor's left
#   on the FIFO; unotifyd serves another sandbox afterwards
# - policy: a refused FIFO by name, symlink, "..", relative, dirfd (held
#   open both ways from outside, so the kernel's opens would not wait)
# - data through an allowed FIFO as without unotify
# - identity: a dropped thread (setresuid, setfsuid) and a root thread
#   opening a 0600 root file concurrently and in turns: never opened by the
#   dropped one
# Every result is compared with the kernel's (the same program without unotify).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "setresuid, leases, unotifyd"
setup_tmp

mkfifo "$T/fifo" "$T/fifo2" "$T/fifo3" "$T/fa" "$T/fb"
chmod 666 "$T/fifo" "$T/fifo2" "$T/fifo3" "$T/fa" "$T/fb"
mkdir "$T/deny" "$T/other"
mkfifo "$T/deny/fifo"
ln -s deny/fifo "$T/deny-link"
secret "$T/rootfile" >/dev/null
chmod 600 "$T/rootfile"
secret "$T/leased" >/dev/null
cat >"$T/p.policy" <<EOF
default allow
return getppid 42
deny openat open path=$T/deny/fifo EACCES
deny newfstatat statx readlink readlinkat path=$T/never EACCES
EOF
mkdir "$T/st"
for i in 0 1 2 3 4 5 6 7; do
	head -c $((i * 100 + 1)) /dev/zero >"$T/st/f$i"
	ln -s "t$i" "$T/st/l$i"
done

# kernel ARGS...: the attack without unotify; KRES is its result line.
kernel() {
	bounded 10 "$ATTACK" "$@"
	KHUNG=$HUNG
	KRES=$(results | head -1 | sed 's/^ANSWERED [0-9-]* //')
}

# same_as_kernel ARGS...: the kernel's result, then unotify's (ANSWERED 42 first, then the same).
same_as_kernel() {
	kernel "$@"
	if [ "$KHUNG" = yes ]; then
		URUN_TIMEOUT=${SAK_TIMEOUT:-8} urun --policy "$T/p.policy" -- "$ATTACK" "$@"
		case_skip "the kernel's own run hung: $KRES"
		return
	fi
	# shellcheck disable=SC2086
	URUN_TIMEOUT=${SAK_TIMEOUT:-8} urun ${SAK_ARGS:-} --policy "$T/p.policy" -- "$ATTACK" "$@"
	_got=$(results | head -1)
	if hung; then
		case_fail "the run did not end (${SAK_TIMEOUT:-8} s): stalled; the kernel's: $KRES"
	elif [ "$_got" = "ANSWERED 42 $KRES" ] || { [ "${_got#ANSWERED}" = "$_got" ] && [ "$_got" = "$KRES" ]; }; then
		case_pass "$_got"
	else
		case_fail "got '$_got', the kernel's: '$KRES'"
	fi
}

# expect_peer FIFO WANT TEXT: r8-peer says WANT
expect_peer() {
	_p=$("$ATTACK" r8-peer "$1" | grep -v '^# ' | head -1)
	if [ "$_p" = "$2" ]; then
		case_pass "$3 ($_p)"
	else
		case_fail "the FIFO still has the supervisor at an end: $_p"
	fi
}

# expect_daemon_result WANT HUNG-TEXT: the last run ended and said WANT.
expect_daemon_result() {
	if hung; then
		case_fail "$2"
	elif [ "$(results | head -1)" = "$1" ]; then
		case_pass "$1"
	else
		case_fail "got: $(results | head -1)"
	fi
}

# killed_case WHAT ARGS...: the program killed while N opens wait; nothing left on $T/fifo3.
killed_case() {
	URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" "$@"
	if hung; then
		case_fail "the run did not end when the program was killed"
	elif [ "$RC" -ne 137 ]; then
		case_fail "status $RC, not 137: $(results | head -1)"
	else
		wait_until 3 sh -c '"$0" r8-peer "$1" | grep -q "READER no WRITER no"' "$ATTACK" "$T/fifo3" || true
		expect_peer "$T/fifo3" "READER no WRITER no" "$1"
	fi
}

# More waiting opens than the pool has threads: with --threads above their
# number, as the kernel; with the default 16, every supervising thread waits
# and the program's other calls wait for one of them, as unotify(1) says
# (--threads: "When all N threads are blocked in such calls, the next calls
# wait for one of them"). The program holds only itself.
case_begin flood-rd-20 "20 threads open a FIFO for reading by name at once (--threads 24); getppid; then a writer"
SAK_ARGS="--threads 24" same_as_kernel r8-flood 20 rd 0 release "$T/fifo"

case_begin flood-wr-20 "20 threads open a FIFO for writing by name at once (--threads 24); getppid; then a reader"
SAK_ARGS="--threads 24" same_as_kernel r8-flood 20 wr 0 release "$T/fifo"

case_begin flood-limit "(documented) 20 waiting read-opens with the default 16 threads: getppid waits for one"
URUN_TIMEOUT=3 urun --policy "$T/p.policy" -- "$ATTACK" r8-flood 20 rd 0 release "$T/fifo"
if hung; then
	case_pass "held, as unotify(1) documents for --threads"
else
	case_fail "answered with every supervising thread waiting: the limit is not what unotify(1) says ($(results | head -1))"
fi

case_begin flood-rd-15 "15 threads open a FIFO for reading by name at once (one pool thread left); getppid; then a writer"
same_as_kernel r8-flood 15 rd 0 release "$T/fifo"

case_begin flood-wr-15 "15 threads open a FIFO for writing by name at once; getppid; then a reader"
same_as_kernel r8-flood 15 wr 0 release "$T/fifo"

case_begin flood-rd-8 "8 threads open a FIFO for reading at once; getppid; then a writer"
same_as_kernel r8-flood 8 rd 0 release "$T/fifo"

case_begin flood-rw-8 "8 threads open a FIFO O_RDWR (never waits) at once"
same_as_kernel r8-flood 8 rw 0 release "$T/fifo"

case_begin idle-rd "2 s of quiet, then one thread's blocking read-open of a FIFO; getppid"
same_as_kernel r8-flood 1 rd 2000 release "$T/fifo"

case_begin idle-wr-4 "2 s of quiet, then 4 threads' blocking write-opens of a FIFO; getppid"
same_as_kernel r8-flood 4 wr 2000 release "$T/fifo"

case_begin intr-rd "SIGUSR1 (no SA_RESTART) to 4 threads waiting in a FIFO's read-open: EINTR"
same_as_kernel r8-flood 4 rd 0 intr "$T/fifo2"

case_begin intr-wr "SIGUSR1 (no SA_RESTART) to 4 threads waiting in a FIFO's write-open: EINTR"
same_as_kernel r8-flood 4 wr 0 intr "$T/fifo2"

case_begin restart-rd "SIGUSR1 (SA_RESTART) to 4 threads waiting in a FIFO's read-open: the opens go on"
same_as_kernel r8-flood 4 rd 0 restart "$T/fifo2"

case_begin restart-wr "SIGUSR1 (SA_RESTART) to 4 threads waiting in a FIFO's write-open: the opens go on"
same_as_kernel r8-flood 4 wr 0 restart "$T/fifo2"

case_begin intr-idle-wr "2 s of quiet, then SIGUSR1 (no SA_RESTART) to a thread waiting in a write-open: EINTR"
same_as_kernel r8-flood 1 wr 2000 intr "$T/fifo2"

# A process-directed signal (kill(getpid()), alarm()) that only the waiting
# thread can take: the kernel interrupts its open (EINTR). The pool looks at
# the process's pending signals only when the target is its only thread
# (pool_target_signalled), so the signal waits for the open, which without
# the other end waits for good. So before 957f718 too.
case_begin procsig "a process-directed SIGUSR1 that only the thread waiting in a FIFO's read-open can take"
same_as_kernel r8-procsig "$T/fifo2"

case_begin after-intr "no end of the interrupted FIFO is left open by the supervisor"
expect_peer "$T/fifo2" "READER no WRITER no" "nothing left"

case_begin killed-rd-20 "the program killed while 20 read-opens of a FIFO wait (pool: 16)"
killed_case r8-flood 20 rd 0 kill "$T/fifo3"

case_begin killed-wr-20 "the program killed while 20 write-opens of a FIFO wait"
killed_case r8-flood 20 wr 0 kill "$T/fifo3"

case_begin killed-idle-rd "2 s of quiet, then the program killed while a read-open waits"
killed_case r8-flood 1 rd 2000 kill "$T/fifo3"

# A child process's FIFO open taken by the last free supervising thread
# (the receiver: 15 others wait in opens of another FIFO), then the child
# killed. With 14 others a spare thread is left: the guard. With 15, the
# receiver's open is not a worker's, which the watchdog alone interrupts
# when its call goes: it stays in the dead child's open, holding its end
# of the FIFO (seen from outside a second later: our probe, being the
# other end, is what lets it go), and until then no other call of the
# sandbox is answered. So before 957f718 too.
for m in rd wr; do
	case_begin "child-killed-$m-14" "14 threads wait in FIFO opens, a child's $m-open of another FIFO, the child killed"
	same_as_kernel r8-full 14 "$T/fa" "$T/fb" "$m"

	case_begin "child-killed-$m-15" "15 threads wait in FIFO opens, a child's $m-open of another FIFO (on the receiver), the child killed"
	kernel r8-full 15 "$T/fa" "$T/fb" "$m"
	(
		URUN_TIMEOUT=5 urun --policy "$T/p.policy" -- "$ATTACK" r8-full 15 "$T/fa" "$T/fb" "$m"
		printf '%s\n' "$RC" "$HUNG" "$(results | head -1)" >"$T/full.res"
	) &
	_bg=$!
	wait_until 4 grep -q 'killing the child' "$T/.out" || true
	sleep 1
	_peer=$("$ATTACK" r8-peer "$T/fb" | grep -v '^# ')
	wait "$_bg" || true
	HUNG=$(sed -n 2p "$T/full.res")
	RC=$(sed -n 1p "$T/full.res")
	_got=$(sed -n 3p "$T/full.res")
	OUT=$_got
	if [ "$_peer" != "READER no WRITER no" ]; then
		case_fail "a second after the child was killed, its FIFO still has the supervisor at an end ($_peer; our probe, the other end, let it go: got '$_got')"
	elif [ "$HUNG" = yes ]; then
		case_fail "stalled after the child was killed (its FIFO meanwhile: $_peer); the kernel's: $KRES"
	elif [ "$_got" != "$KRES" ]; then
		case_fail "got '$_got', the kernel's '$KRES' (its FIFO meanwhile: $_peer)"
	else
		case_pass "$_got ($_peer)"
	fi
done

# A write lease: any open of the file waits for it to break (lease-break-time).
"$ATTACK" r8-wrlease "$T/leased" 60 "$T/leased.ready" >"$T/lease.log" 2>&1 &
track_pid $!
if wait_until 10 test -e "$T/leased.ready"; then
	case_begin lease-intr "SIGUSR1 (no SA_RESTART) to 4 threads whose read-open waits for a write lease to break"
	same_as_kernel r8-flood 4 rd 0 intr "$T/leased"

	case_begin lease-killed "the program killed while 20 threads' read-opens wait for a write lease; getppid answered"
	URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" r8-flood 20 rd 0 kill "$T/leased"
	if hung; then
		case_fail "the run did not end when the program was killed"
	elif [ "$RC" -ne 137 ]; then
		case_fail "status $RC: $(results | head -1)"
	else
		case_pass "ended (137)"
	fi
else
	case_begin lease-intr "write lease"
	case_skip "no write lease: $(cat "$T/lease.log")"
fi

# The refused FIFO held open both ways from outside: no open of it waits.
sh -c 'exec 3<>"$0"; exec sleep 60' "$T/deny/fifo" &
track_pid $!
case_begin deny-forms "the refused FIFO by name, symlink, '..', relative after chdir, dirfd; rd, wr, rw"
wait_until 5 sh -c '"$0" r8-peer "$1" | grep -q "READER yes WRITER yes"' "$ATTACK" "$T/deny/fifo" ||
	fail "the holder of the refused FIFO did not start"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" r8-forms "$T/deny/fifo" "$T/deny-link" \
	"$T/other/../deny/fifo" "$T/deny" fifo
if expect_blocked; then case_pass "refused"; fi

case_begin data-rw "1 MiB through an allowed FIFO, reader's open first"
same_as_kernel r8-data "$T/fifo" 1048576 rw

case_begin data-wr "1 MiB through an allowed FIFO, writer's open first"
same_as_kernel r8-data "$T/fifo" 1048576 wr

case_begin stat-threads "8 threads stat and readlink their own files 300 times at once: each gets its own result"
same_as_kernel r8-stat 8 300 "$T/st"

for how in setresuid setfsuid; do
	for order in concurrent alternate; do
		case_begin "ids-$how-$order" "a thread dropped by $how and a root thread open a 0600 root file ($order)"
		same_as_kernel r8-ids "$T/rootfile" 400 "$order" "$how"
	done
done

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-killed-rd-20 "(unotifyd) the program killed while 20 read-opens of a FIFO wait"
RUN_TIMEOUT=8 drun p getppid,openat r8-flood 20 rd 0 kill "$T/fifo3"
if hung; then
	case_fail "the run did not end when the program was killed"
elif ! daemon_alive; then
	case_fail "the daemon died"
else
	wait_until 3 sh -c '"$0" r8-peer "$1" | grep -q "READER no WRITER no"' "$ATTACK" "$T/fifo3" || true
	expect_peer "$T/fifo3" "READER no WRITER no" "killed, nothing left"
fi

case_begin daemon-killed-lease "(unotifyd) the program killed while 20 opens wait for a write lease: the daemon keeps no descriptor of it"
if [ -e "$T/leased.ready" ]; then
	RUN_TIMEOUT=8 drun p getppid,openat r8-flood 20 rd 0 kill "$T/leased"
	if hung; then
		case_fail "no answer or no end: $(results | head -1)"
	elif ! wait_until 3 sh -c '! ls -l /proc/$0/fd | grep -q leased' "$DPID"; then
		case_fail "the daemon still holds the leased file: $(ls -l /proc/$DPID/fd | grep leased | head -2)"
	else
		case_pass "nothing held"
	fi
else
	case_skip "no write lease"
fi

# One sandbox with 20 opens waiting (its own pool used up), another sandbox meanwhile.
mkfifo "$T/fifo4"
"$ATTACK" daemon-run "$SOCK" p getppid,openat "$ATTACK" r8-flood 20 rd 0 release "$T/fifo4" \
	>"$T/held.out" 2>&1 </dev/null &
HELD=$!
track_pid $HELD
case_begin daemon-other "(unotifyd) another sandbox's opens and getppid while one sandbox has 20 FIFO opens waiting"
wait_until 5 grep -q 'openers still waiting' "$T/held.out" || true
RUN_TIMEOUT=8 drun p getppid,openat r8-flood 2 rd 0 release "$T/fifo"
expect_daemon_result "ANSWERED 42 GOOD 2 BAD 0 EINTR 0 OTHER 0 HANDLED 0" "stalled by the other sandbox"
# Released from outside (both ends held a moment): the held sandbox ends.
sh -c 'exec 3<>"$0"; sleep 2' "$T/fifo4" &
wait_until 8 sh -c '! kill -0 "$0" 2>/dev/null' "$HELD" || say "the held sandbox did not end: $(cat "$T/held.out")"
kill -9 "$HELD" 2>/dev/null || true

case_begin daemon-after "(unotifyd) another sandbox afterwards: 15 read-opens, getppid, a writer"
RUN_TIMEOUT=8 drun p getppid,openat r8-flood 15 rd 0 release "$T/fifo"
expect_daemon_result "ANSWERED 42 GOOD 15 BAD 0 EINTR 0 OTHER 0 HANDLED 0" "stalled"

case_begin daemon-ids "(unotifyd) a setresuid-dropped thread and a root thread open a 0600 root file"
RUN_TIMEOUT=8 drun p getppid,openat r8-ids "$T/rootfile" 400 concurrent setresuid
if hung; then
	case_fail "stalled"
elif [ "$(results | head -1)" = "IDS dropped=0 root=400" ]; then
	case_pass "$(results | head -1)"
else
	case_fail "got: $(results | head -1)"
fi

finish
