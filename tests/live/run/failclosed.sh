#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Fail closed: once the supervisor is dead, the program's intercepted calls
# fail with ENOSYS; not one of them runs for real.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

# wait_for WHAT COMMAND...: polls COMMAND every 20 ms for up to 30 s.
wait_for() {
	what=$1
	shift
	i=0
	until "$@"; do
		i=$((i + 1))
		if [ $i -ge 1500 ]; then
			say "$(printf -- '--- program output:\n%s\n--- supervisor stderr:\n%s\n' \
				"$(cat "$T/out")" "$(cat "$T/err")")"
			fail "timed out waiting for $what"
		fi
		sleep 0.02
	done
}

lines() {
	wc -l <"$T/out"
}

count_42() {
	[ "$(grep -c '^ret=42$' "$T/out")" -ge "$1" ]
}

new_lines() {
	[ "$(lines)" -ge $(($1 + 10)) ] || ! kill -0 "$target" 2>/dev/null
}

say "== start: return getppid 42, the program calls getppid every 10 ms"
# --share-pid: the program's pid must be ours to watch it (the pid namespace
# of the default changes nothing of what is checked: its init outlives us too).
"$UNOTIFY" run --share-pid --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" sleep-getppid 60 >"$T/out" 2>"$T/err" </dev/null &
sup=$!
track_pid "$sup"
wait_for "the program's pid" grep -q '^pid=' "$T/out"
target=$(sed -n 's/^pid=//p' "$T/out")
track_pid "$target"
ppid=$(awk '{ print $4 }' "/proc/$target/stat")
[ "$ppid" = "$sup" ] || fail "the program (pid $target) is not the child of unotify (pid $sup) but of $ppid"
wait_for "five answers of 42" count_42 5
say "ok: the program (pid $target) gets 42 from its supervisor (pid $sup)"

say "== kill -9 the supervisor"
kill -9 "$sup"
{ wait "$sup"; } 2>/dev/null || true
before=$(lines)
wait_for "the program's next calls" new_lines "$before"
kill -0 "$target" 2>/dev/null ||
	fail "the program died with its supervisor: cannot show that its calls fail closed (PDEATHSIG?): $(tail -3 "$T/out")"
kill -9 "$target" 2>/dev/null || true

say "== every call after the supervisor's death failed with ENOSYS"
# The line printed while kill -9 was on its way may still be 42; after it,
# every line must be ENOSYS. A real getppid (the new parent) must never show.
bad=$(grep -v -e '^pid=' -e '^ret=42$' -e '^err ENOSYS$' "$T/out" | head -3 || true)
[ -z "$bad" ] || fail "unexpected result after the supervisor died: $bad"
after=$(tail -n +"$((before + 1))" "$T/out")
nosys=$(printf '%s\n' "$after" | grep -c '^err ENOSYS$' || true)
[ "$nosys" -ge 10 ] || fail "expected at least 10 ENOSYS after the kill, got $nosys: $after"
if printf '%s\n' "$after" | grep -q '^ret='; then
	fail "a call succeeded after the supervisor died: $(printf '%s\n' "$after" | grep '^ret=' | head -1)"
fi
last42=$(grep -n '^ret=42$' "$T/out" | tail -1 | cut -d: -f1)
first_nosys=$(grep -n '^err ENOSYS$' "$T/out" | head -1 | cut -d: -f1)
[ "$last42" -lt "$first_nosys" ] || fail "42 again after ENOSYS (line $last42 > $first_nosys)"
say "ok: $(grep -c '^ret=42$' "$T/out") answers of 42, then $(grep -c '^err ENOSYS$' "$T/out") ENOSYS, nothing else"

say "PASS: failclosed"
