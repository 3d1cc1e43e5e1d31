#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Next to path rules (the implicit set fixed-view) the kernel layer sends
# every credential change the policy lets run to the supervisor, which
# drops what it kept of the thread and lets the call run: the program's
# setresuid, setresgid, setgroups, capset and execve work as without a
# supervisor, show in --stats as continued, and an open after a drop of
# privileges is refused as the kernel refuses it (the kept state of the
# thread that opened as root is not used again). A refusal the policy
# writes stays in the kernel, and without fixed-view nothing is notified.
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "the program drops from root to nobody"
need_cmd setpriv
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
setup_tmp
chmod 755 "$T"

echo rootonly >"$T/rootonly"
chmod 600 "$T/rootonly"
NUID=$(id -u nobody)
NGID=$(id -g nobody)

# stats_line SYSCALL: the syscall's line of the last run's table (on stderr).
stats_line() {
	printf '%s\n' "$ERR" | sed -n '/^unotify: supervised calls/,$p' | grep -E "^$1 " || true
}

# continued WHAT SYSCALL: the table has SYSCALL, every call continued.
continued() {
	_line=$(stats_line "$2")
	if ! printf '%s\n' "$_line" | awk '{ exit !($2 > 0 && $2 == $3) }'; then
		show_run
		fail "$1: expected $2 in the table, every call continued, got '$_line'"
	fi
	say "ok: $1"
}

# absent WHAT SYSCALL: the table has no line for SYSCALL (decided in the kernel).
absent() {
	if [ -n "$(stats_line "$2")" ]; then
		show_run
		fail "$1: $2 reached the supervisor: $(stats_line "$2")"
	fi
	say "ok: $1"
}

# The program: reads as root (its state kept), drops to nobody, reads again.
DROP="cat '$T/rootonly'; cat '$T/rootonly'; setpriv --reuid=$NUID --regid=$NGID --clear-groups -- cat '$T/rootonly'; echo rc=\$?"

printf 'default allow\ndeny @file-read path=%s/denied/** EACCES\n' "$T" >"$T/watch.policy"
urun --stats --log-level none --policy "$T/watch.policy" -- sh -c "$DROP"
expect_grep "as root: read, twice" "$OUT" '^rootonly$'
expect_grep "as nobody: refused as the kernel refuses it" "$ERR" 'rootonly: Permission denied'
expect_grep "the dropping program ran to its end" "$OUT" '^rc=1$'
[ "$(printf '%s\n' "$OUT" | grep -c '^rootonly$')" = 2 ] || fail "root did not read twice: $OUT"
continued "setresuid is notified and runs" setresuid
continued "setresgid is notified and runs" setresgid
continued "setgroups is notified and runs" setgroups
continued "execve is notified and runs" execve
absent "getuid is not notified" getuid

say "== a refusal the policy writes stays in the kernel"
printf 'default allow\ndeny @file-read path=%s/denied/** EACCES\ndeny setresuid EPERM\n' "$T" >"$T/refuse.policy"
urun --stats --log-level none --policy "$T/refuse.policy" -- sh -c "$DROP"
expect_grep "setpriv cannot drop" "$ERR" 'setresuid|Operation not permitted'
absent "setresuid refused in the kernel" setresuid
continued "execve (allowed) is still notified" execve

say "== without fixed-view, credential changes stay in the kernel"
printf 'default allow\ndeny @file-read path=%s/denied/** EACCES\nimplicit fixed-view off\n' "$T" >"$T/off.policy"
urun --stats --log-level none --policy "$T/off.policy" -- sh -c "$DROP"
expect_grep "as nobody: refused" "$ERR" 'rootonly: Permission denied'
absent "setresuid not notified" setresuid
absent "execve not notified" execve

say "== no path rule: nothing is kept, nothing watched"
urun --stats --log-level none --rule 'default allow' --rule 'return getppid 7' -- sh -c "$DROP"
expect_grep "as nobody: refused" "$ERR" 'rootonly: Permission denied'
absent "setresuid not notified" setresuid
