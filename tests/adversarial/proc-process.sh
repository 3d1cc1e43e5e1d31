#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor as a process (issue 9). A root program took the listener
# with pidfd_open(getppid()) + pidfd_getfd, stopped the supervisor and
# answered its own denied open; ptrace, kill, prlimit (RLIMIT_NOFILE 0 made
# the supervisor spin after the program exited), kcmp, the scheduler,
# perf_event_open, process_vm_readv all reached it. By default the program
# has a pid namespace of its own: none of them can name the supervisor.
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "the attacks are a root program's"
setup_tmp
: "${PROC_ESCAPE:?PROC_ESCAPE is not set (run through make check)}"
PE=$PROC_ESCAPE
echo secret >"$T/secret"
cat >"$T/p.policy" <<EOF
deny openat open path=$T/secret EACCES
return getppid 42
default allow
EOF

say "== every pid-taking call against the supervisor's pid: it is not in the namespace"
# The program learns our pid from the test; in its namespace the number names nobody.
# shellcheck disable=SC2016
urun --policy "$T/p.policy" -- sh -c '
	S=$(cat "$1"); PE=$2
	for c in steal stop ptrace prlimit kcmp renice sched vmread perf; do
		printf "%s " $c; "$PE" $c $S
	done
	"$PE" read "$3"' sh "$T/.sup" "$PE" "$T/secret"
expect_status "attacks by pid" 0
for c in steal stop ptrace prlimit kcmp renice sched vmread perf; do
	expect_grep "$c on the supervisor's pid fails" "$OUT" "^$c err (ESRCH|EINVAL)\$"
done
expect_grep "and the supervisor still decides: the denied file stays denied" "$OUT" '^err EACCES$'
expect_grep "in the trail too" "$ERR" 'syscall=openat .*verdict=deny errno=EACCES'

say "== the parent a program sees is the sandbox's init: no listener there"
urun --policy "$T/p.policy" -- "$PE" steal ppid
expect_grep "pidfd_getfd on its parent (the init, which holds no fd)" "$OUT" \
	'^(ok copied=0 no-listener|err (EPERM|ESRCH|EINVAL))$'
expect_no_grep "no listener taken" "$OUT" 'stolen'

say "== kill(0, SIGKILL): the program's process group is its own"
urun --stats --policy "$T/p.policy" -- "$PE" kill-group
expect_status "the program killed itself" 137
expect_grep "the supervisor was not in that group: it outlived the program" "$ERR" \
	'supervised calls'

say "== --share-pid, a program of the supervisor's own uid: not dumpable, no listener"
# unotify run as nobody: the program is nobody too, and may do to its parent
# what any process of the same uid may, but not take its fds or trace it.
chmod 755 "$T"
cp "$PE" "$T/pe"
chmod 755 "$T/pe"
set +e
out=$(cd "$T" && setpriv --reuid nobody --regid nogroup --clear-groups \
	timeout 60 "$UNOTIFY" run --share-pid --rule 'return getppid 42' --rule 'default allow' \
	-- sh -c '"$1" steal $PPID; "$1" ptrace $PPID; "$1" vmread $PPID' sh "$T/pe" 2>&1)
rc=$?
set -e
[ "$rc" = 0 ] || fail "unotify run as nobody: status $rc: $out"
expect_grep "pidfd_getfd on a non-dumpable supervisor of the same uid" "$out" '^err EPERM$'
expect_no_grep "no listener taken, no trace, no memory read" "$out" '^(ok|stolen)'

say "== --share-pid: RLIMIT_NOFILE 0 on the supervisor ends supervision, never spins"
# A sanitizer build's leak check at exit needs fds the limit took: not this test's.
asan_saved=${ASAN_OPTIONS-}
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# shellcheck disable=SC2016
urun --share-pid --policy "$T/p.policy" -- sh -c \
	'prlimit --pid "$(cat "$1")" --nofile=0:0 && echo lowered; exit 3' sh "$T/.sup"
expect_status "the program's status, once it has exited" 3
expect_grep "the limit was lowered" "$OUT" '^lowered$'
expect_grep "the supervisor said it stopped" "$ERR" 'supervision failed'
ASAN_OPTIONS=$asan_saved

say "== not root: the program still gets a pid namespace (a user namespace of ours)"
set +e
out=$(cd "$T" && setpriv --reuid nobody --regid nogroup --clear-groups \
	timeout 60 "$UNOTIFY" run --rule 'return getppid 42' --rule 'default allow' \
	-- "$T/pe" pids 2>&1)
rc=$?
set -e
if [ "$rc" = 125 ] && printf '%s\n' "$out" | grep -q 'no user namespace'; then
	say "ok: user namespaces are not allowed here, and unotify run says so: $out"
else
	[ "$rc" = 0 ] || fail "unotify run as nobody: status $rc: $out"
	expect_grep "only the sandbox's processes" "$out" '^pids=1 [0-9 ]*$'
fi

say "== a terminal: the program's own process group has it, and reads from it"
if command -v script >/dev/null 2>&1; then
	set +e
	out=$(printf 'typed\n' | timeout 60 script -qec "$UNOTIFY run -q --rule 'default allow' \
		-- sh -c 'read x; echo got=\$x'" /dev/null 2>&1)
	rc=$?
	set -e
	[ "$rc" = 0 ] || fail "unotify run on a terminal: status $rc: $out"
	expect_grep "a read of the terminal is no SIGTTIN: the program has the foreground" \
		"$out" 'got=typed'
else
	say "skipped: no script(1) to make a terminal"
fi
