#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run --stats`: at exit, one line per supervised syscall with its
# exact count, its verdicts and round-trip percentiles. Counts and verdicts
# are asserted; the times only for their shape (numbers, in order), never
# their value.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

echo data >"$T/file"
echo secret >"$T/secret"
NUM='[0-9]+\.[0-9]'

# stats_line SYSCALL: the syscall's line of the last run's table (on stderr).
stats_line() {
	printf '%s\n' "$ERR" | sed -n '/^unotify: supervised calls/,$p' | grep -E "^$1 " || true
}

# The supervisor's own system calls per decision: mean and range, or "-"
# when this machine cannot count them (no tracefs, not root).
OWN='([0-9]+\.[0-9] +[0-9]+-[0-9]+|-)'

# expect_stats WHAT SYSCALL CALLS CONTINUE INJECTED VALUE ERRNO
expect_stats() {
	_line=$(stats_line "$2")
	if ! printf '%s\n' "$_line" |
		grep -Eq "^$2 +$3 +$4 +$5 +$6 +$7 +$NUM +$NUM +$NUM +$NUM +$NUM +$OWN\$"; then
		show_run
		fail "$1: expected '$2 $3 $4 $5 $6 $7', 5 times and own calls, got '$_line'"
	fi
	# p50 <= p90 <= p99 <= p99.9 <= max
	if ! printf '%s\n' "$_line" |
		awk '{ for (i = 7; i < 11; i++) if ($i + 0 > $(i + 1) + 0) exit 1 }'; then
		fail "$1: percentiles out of order: '$_line'"
	fi
	say "ok: $1: $_line"
}

say "== getppid N times under 'return getppid 42': count N"
urun --stats --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" threads 1 "$T/file" 37 42
expect_out "the program ran as usual" "ok 1"
expect_grep "the table's title" "$ERR" '^unotify: supervised calls \(round trip'
expect_grep "the table's columns" "$ERR" \
	'^syscall +calls +continue +injected +value +errno +p50 +p90 +p99 +p99\.9 +max +sys/call +\(min-max\)$'
expect_stats "37 getppid, each answered with a value" getppid 37 0 0 37 0
expect_no_grep "nothing else was supervised" \
	"$(printf '%s\n' "$ERR" | sed -n '/^syscall /,/^sys\/call: /p' | sed 1d | sed '$d')" '^[^g]'
expect_grep "the own-calls column is explained" "$ERR" '^sys/call: '
expect_grep "and so is what the trail left out (values returned as planned)" "$ERR" \
	'^audit: 0 records written, 37 decisions not recorded \(--log-level deny\)$'

say "== the supervisor's own system calls per decision, exactly"
urun --stats --log-level none --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" threads 1 "$T/file" 20 42
expect_out "the program ran as usual" "ok 1"
if printf '%s\n' "$ERR" | grep -q '^sys/call: not counted'; then
	skip_case "own calls" "$(printf '%s\n' "$ERR" | grep '^sys/call: ')"
else
	# A value answered with no trail: one RECV and one SEND, nothing else.
	# The fewest is the count (the max is not: on a busy machine a call
	# that waits for the CPU wakes the pool's watchdog, or is taken over,
	# and those calls are the supervising thread's too).
	expect_stats "getppid: two calls each (RECV, SEND)" getppid 20 0 0 20 0
	expect_grep "exactly two" "$(stats_line getppid)" ' 2-[0-9]+$'
	urun --stats --log-level none --rule "deny openat path=$T/secret" --rule 'default allow' \
		-- "$PROBE" threads 1 "$T/file" 1 42
	_own=$(stats_line openat | awk '{ print $(NF - 1) }')
	awk -v n="$_own" 'BEGIN { exit !(n + 0 >= 5) }' ||
		fail "an open performed by the supervisor cannot take fewer than 5 calls: '$_own'"
	say "ok: an open decided on its path: $_own calls of the supervisor's"
fi

say "== two syscalls, three verdicts, two threads"
urun --stats --rule 'return getppid 42' --rule "deny openat path=$T/secret EACCES" \
	--rule 'default allow' -- "$PROBE" threads 2 "$T/file" 25 42 "$T/secret"
expect_out "both threads got what the policy says" "ok 2"
expect_stats "getppid: 2 x 25 values" getppid 50 0 0 50 0
_open=$(stats_line openat)
_errno=$(printf '%s\n' "$_open" | awk '{ print $6 }')
_calls=$(printf '%s\n' "$_open" | awk '{ print $2 }')
_injected=$(printf '%s\n' "$_open" | awk '{ print $4 }')
[ "$_errno" = 50 ] || fail "openat: expected 50 denials, got '$_open'"
# 50 allowed in the loop and one first read, plus what the loader opens.
[ "$_injected" -ge 51 ] && [ "$_calls" = $((_injected + 50)) ] ||
	fail "openat: expected >= 51 injected and calls = injected + 50, got '$_open'"
say "ok: openat: $_calls calls, $_injected opened by the supervisor, 50 denied"

say "== a call the kernel layer settles is not a supervised call"
urun --stats --rule 'deny getppid EXDEV' --rule 'default allow' -- "$PROBE" getppid
expect_out "deny getppid, in the kernel" "err EXDEV"
expect_grep "the table is printed" "$ERR" '^syscall +calls'
[ -z "$(stats_line getppid)" ] || fail "getppid listed: $(stats_line getppid)"
say "ok: no getppid line"

say "== past the kept samples (65536 per syscall) the count stays exact"
urun --stats --log /dev/null --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" threads 1 "$T/file" 70000 42
expect_out "70000 calls" "ok 1"
expect_stats "getppid: 70000" getppid 70000 0 0 70000 0

say "== what the supervising threads did, under the table"
# threads_line N: the Nth 'threads:' line of the last run's stderr.
threads_line() {
	printf '%s\n' "$ERR" | grep '^threads: ' | sed -n "$1p"
}
urun --stats --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" threads 1 "$T/file" 37 42
expect_out "one program thread" "ok 1"
expect_grep "how many threads supervised, and the calls they received" "$(threads_line 1)" \
	'^threads: [0-9]+ supervised \(--threads 16\), 37 calls received$'
expect_grep "one program thread's calls never meet: no second receiver" "$(threads_line 2)" \
	'^threads: a second receiver while target threads.* calls met: formed 0 times, received 0 calls$'
# A call taken over after a tick is one a busy machine kept from its CPU: counted, not asserted.
expect_grep "nor are its calls spread, and none said it may wait" "$(threads_line 3)" \
	'^threads: 0 calls spread to another thread; 0 said they may wait \(a FIFO, a connect\); [0-9]+ taken over after a whole tick$'
urun --stats --threads 1 --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" threads 1 "$T/file" 37 42
expect_grep "--threads 1: one thread" "$(threads_line 1)" \
	'^threads: 1 supervised \(--threads 1\), 37 calls received$'
[ -z "$(threads_line 2)" ] || fail "--threads 1 has no second receiver to report: $(threads_line 2)"
_why=$(no_second_receiver "$UNOTIFY")
if [ -n "$_why" ]; then
	skip_case "two program threads calling at once" "$_why"
else
	# Two threads that do nothing but call: their calls meet within the
	# first few, each time one finds the other's waiting.
	urun --stats --rule 'return getppid 42' --rule 'default allow' -- \
		"$PROBE" threads 2 "$T/file" 3000 42
	expect_out "two program threads" "ok 2"
	_line=$(threads_line 2)
	_formed=$(printf '%s\n' "$_line" | sed -n 's/.*formed \([0-9]*\) time.*/\1/p')
	_took=$(printf '%s\n' "$_line" | sed -n 's/.*received \([0-9]*\) calls$/\1/p')
	[ "${_formed:-0}" -ge 1 ] && [ "${_took:-0}" -ge 1 ] ||
		fail "two threads calling at once: expected a second receiver that took calls: '$_line'"
	expect_grep "and all 6000 calls were received" "$(threads_line 1)" '6000 calls received$'
fi
# A FIFO's open waits for the other end. The writer's (O_CREAT: resolved
# by the supervisor) says so before it opens, and the role passes on; the
# reader's plain open, performed as the program's own, is taken over
# after a tick if it waits (whichever end comes first waits: not asserted).
mkfifo "$T/fifo"
urun --stats --rule "deny openat path=$T/secret" --rule 'default allow' -- \
	/bin/sh -c "cat '$T/fifo' & echo through >'$T/fifo'; wait"
expect_out "the FIFO's two ends met" "through"
expect_grep "a FIFO open that may wait says so (O_CREAT: the writer's)" "$(threads_line 3)" \
	'; [1-9][0-9]* said they may wait \(a FIFO, a connect\); '

say "== without --stats, no table"
urun --rule 'return getppid 42' --rule 'default allow' -- "$PROBE" getppid
expect_out "return getppid 42" "ret=42"
expect_no_grep "no table" "$ERR" '^unotify: supervised calls'
