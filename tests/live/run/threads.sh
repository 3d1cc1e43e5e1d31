#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A multi-threaded program whose threads all make notified calls at once
# (path-decided opens, allowed and denied, and getppid answered with 42):
# every call of every thread gets its own, correct answer. Then threads
# whose answers differ (each its own file, link and inode): with several
# supervising threads answering at once (the pool's partner receiver), no
# fd, link text, stat or verdict may reach another thread.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

echo "thread data" >"$T/data"
echo secret >"$T/secret"
cat >"$T/threads.policy" <<EOF
return getppid 42
allow openat path=$T/data $LOADER_PATHS
deny  openat EACCES
default allow
EOF

say "== sanity: the probe fails when the answers are wrong"
out=$("$PROBE" threads 4 "$T/data" 10 42 "$T/secret")
case $out in fail*) ;; *) fail "unsupervised run should fail (real getppid, secret readable): $out" ;; esac
say "ok: unsupervised: $out"

say "== 8 threads x 300 iterations: open+read, getppid, denied open"
urun --policy "$T/threads.policy" -- "$PROBE" threads 8 "$T/data" 300 42 "$T/secret"
expect_out "8 threads, every answer right" "ok 8"

say "== 32 threads x 50 iterations"
urun --policy "$T/threads.policy" -- "$PROBE" threads 32 "$T/data" 50 42 "$T/secret"
expect_out "32 threads, every answer right" "ok 32"

say "== the same without the same-CPU hand-off"
urun --no-sync --policy "$T/threads.policy" -- "$PROBE" threads 8 "$T/data" 300 42 "$T/secret"
expect_out "8 threads, --no-sync" "ok 8"

# own_dir DIR N: DIR/fI reads "fI", DIR/lI is a link to "tI", DIR/denied is readable.
own_dir() {
	mkdir -p "$1"
	i=0
	while [ "$i" -lt "$2" ]; do
		echo "f$i" >"$1/f$i"
		ln -sfn "t$i" "$1/l$i"
		i=$((i + 1))
	done
	echo secret >"$1/denied"
}
own_dir "$T/own" 8
cat >"$T/own.policy" <<EOF
deny openat path=$T/own/denied EACCES
deny newfstatat statx readlink readlinkat path=$T/own/never EACCES
default allow
EOF

say "== sanity: the probe fails when an answer is wrong"
out=$("$PROBE" threads-own 8 "$T/own" 5 2>&1)
case $out in *fail*) ;; *) fail "unsupervised run should fail (denied readable): $out" ;; esac
say "ok: unsupervised: $(printf '%s' "$out" | tail -1)"

say "== sanity: a thread given another's file or link text is caught"
own_dir "$T/swapped" 2
echo f1 >"$T/swapped/f0"
ln -sfn t0 "$T/swapped/l1"
sed "s|$T/own/|$T/swapped/|" "$T/own.policy" >"$T/swapped.policy"
urun --policy "$T/swapped.policy" -- "$PROBE" threads-own 2 "$T/swapped" 3
expect_out "the probe reports the other thread's answers" "fail 6 of 6"
expect_grep "it names the wrong answer" "$ERR" "thread [01]: (open read: f1|readlink: t0)"

say "== 8 threads x 400 iterations, each answer its own thread's"
urun --policy "$T/own.policy" -- "$PROBE" threads-own 8 "$T/own" 400
expect_out "8 threads, opens, links, stats and refusals each their own" "ok 8"

say "== 2 threads x 2000 iterations"
urun --policy "$T/own.policy" -- "$PROBE" threads-own 2 "$T/own" 2000
expect_out "2 threads, each answer its own" "ok 2"

say "== the second receiver parks while one thread calls, and forms again, 6 times"
# Thread 0 alone (1,200 calls: the partner parks after 1,024 without a
# meeting), then 4 threads at once (it forms again), each answer checked,
# the denied file tried in every round.
urun --stats --policy "$T/own.policy" -- "$PROBE" threads-own 4 "$T/own" 200 6
expect_out "4 threads in 6 phases, each answer its own, the denied file never opened" "ok 4"
_formed=$(printf '%s\n' "$ERR" | sed -n 's/^threads: a second receiver.*formed \([0-9]*\) time.*/\1/p')
_why=$(no_second_receiver "$UNOTIFY")
if [ -n "$_why" ]; then
	skip_case "a second receiver formed" "$_why"
elif [ "${_formed:-0}" -ge 1 ]; then
	say "ok: a second receiver formed $_formed times"
else
	fail "no second receiver formed: $(printf '%s\n' "$ERR" | grep '^threads:')"
fi
urun --policy "$T/own.policy" -- "$PROBE" threads-own 8 "$T/own" 100 3
expect_out "8 threads in 3 phases" "ok 8"

say "PASS: threads"
