#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor as a process. Under a default-allow policy a program that
# may act on processes of its uid acts on its supervisor: it takes the
# listener with pidfd_getfd, stops the supervisor and answers its own denied
# open CONTINUE; it signals, ptraces, reads and writes the supervisor's
# memory (process_vm_*), changes its limits, affinity and priority, counts
# its events (perf), compares its files (kcmp); a signal to the process
# group names no pid of the supervisor's at all. RLIMIT_NOFILE 0 leaves the
# supervisor spinning after the program ends. Against unotifyd, one sandbox
# takes every sandbox's listener and answers another's calls.
#
# Runs as root (no --user), as nobody supervised by nobody (same uid), and as
# nobody supervised by root (--user: the kernel refuses, a regression guard).
# Each case asserts the supervisor was not stopped, killed or changed (the
# attack checks the kernel's view of it) and the denied file was not read.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs programs and supervisors as root and as nobody"
need_cmd setpriv
setup_tmp

NEEDLE=secret-$(token)
DENIED=$(secret "$T/$NEEDLE")
cat >"$T/p.policy" <<EOF
default allow
deny openat open path=$T/$NEEDLE EACCES
EOF
chmod 644 "$T/p.policy"

# srun KIND ARGS...: the attack under `unotify run`; KIND root, same-uid or user.
srun() {
	_kind=$1
	shift
	case $_kind in
	root) urun --policy "$T/p.policy" -- "$ATTACK" "$@" ;;
	user) urun --user 65534 --policy "$T/p.policy" -- "$ATTACK" "$@" ;;
	same-uid)
		rm -f "$T/.sup"
		bounded "${URUN_TIMEOUT:-$RUN_TIMEOUT}" sh -c 'ATTACK_SUP=$$; export ATTACK_SUP
			exec setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"' sh \
			"$UNOTIFY" run -q --policy "$T/p.policy" -- "$ATTACK" "$@"
		;;
	esac
}

for kind in root same-uid user; do
	case_begin "steal-listener-$kind" "($kind) pidfd_getfd the supervisor's listener, SIGSTOP it, CONTINUE our own denied open"
	srun "$kind" steal-listener "$T/$NEEDLE"
	if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi
done

for how in kill tgkill sigqueue pidfd; do
	case_begin "sigstop-$how" "(root) SIGSTOP the supervisor by $how"
	srun root signal 19 "$how"
	if expect_blocked; then case_pass "not stopped"; fi
done

case_begin sigstop-pgrp "(root) SIGSTOP the supervisor's process group (no supervisor pid in the call)"
srun root signal 19 pgrp
if expect_blocked; then case_pass "not stopped"; fi

case_begin sigstop-same-uid "(same uid) SIGSTOP the supervisor"
srun same-uid signal 19 kill
if expect_blocked; then case_pass "not stopped"; fi

case_begin sigstop-user "(--user nobody) SIGSTOP the root supervisor"
srun user signal 19 kill
if expect_blocked; then case_pass "refused"; fi

case_begin sigkill "(root) SIGKILL the supervisor"
srun root signal 9 kill
# A killed supervisor leaves the program running on its own: wait for its verdict.
wait_until 5 grep -qv '^# ' "$T/.out" || true
OUT=$(cat "$T/.out")
if expect_blocked; then
	if [ "$RC" = 137 ]; then
		case_fail "unotify run ended by SIGKILL (status 137)"
	else
		case_pass "alive, exit status $RC"
	fi
fi

for kind in root same-uid; do
	case_begin "ptrace-$kind" "($kind) PTRACE_SEIZE the supervisor"
	srun "$kind" ptrace @SUP
	if expect_blocked; then case_pass "refused"; fi
done

for c in "kcmp kcmp" "affinity affinity" "nice nice" "perf perf"; do
	set -- $c
	case_begin "$1-root" "(root) $2 on the supervisor"
	srun root "$2" @SUP
	if expect_blocked; then case_pass "refused"; fi
done

case_begin vm-read-root "(root) process_vm_readv the supervisor's memory for the deny rule's path"
srun root vm-scan @SUP "$NEEDLE"
if expect_blocked; then case_pass "not read"; fi

case_begin vm-write-root "(root) process_vm_writev over the deny rule's path, then open it"
srun root vm-flip @SUP "$NEEDLE" "$T/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "not written, not read"; fi

# The program's parent is the sandbox's init (pid 1 of its namespace): outside
# the policy, so it must hold nothing of the supervisor's (a fresh image).
case_begin init-vm-read-root "(root) process_vm_readv the sandbox's init (the parent) for the deny rule's path"
srun root vm-scan 1 "$NEEDLE"
if expect_blocked; then case_pass "not in its memory"; fi

case_begin init-vm-write-root "(root) process_vm_writev the sandbox's init, then open the denied file"
srun root vm-flip 1 "$NEEDLE" "$T/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "nothing to flip, not read"; fi

# RLIMIT_NOFILE 0 on the supervisor: then the denied open, and the program's end.
case_begin prlimit-nofile "(root) prlimit RLIMIT_NOFILE 0 on the supervisor"
URUN_TIMEOUT=8 srun root prlimit @SUP nofile 0 "$T/$NEEDLE"
PRLIMIT_OUT=$OUT
PRLIMIT_RC=$RC
PRLIMIT_HUNG=$HUNG
if results | grep -q '^CHANGED'; then
	case_fail "the supervisor's limit was changed: $(results | grep '^CHANGED')"
else
	case_pass "refused"
fi

case_begin prlimit-fail-closed "the denied open made after that fails (never CONTINUEd)"
OUT=$PRLIMIT_OUT RC=$PRLIMIT_RC
if printf '%s\n' "$OUT" | grep -q -- "$DENIED" || printf '%s\n' "$OUT" | grep -q '^then LEAK'; then
	case_fail "the denied file was read"
else
	case_pass "$(printf '%s\n' "$OUT" | grep '^then' || echo 'no open made')"
fi

case_begin prlimit-exit "the supervisor exits once the program has ended (8 s bound)"
OUT=$PRLIMIT_OUT RC=$PRLIMIT_RC HUNG=$PRLIMIT_HUNG
if hung; then
	case_fail "unotify run was still running 8 s after the start: it spins once the program is gone, and ignores SIGTERM"
else
	case_pass "exit status $RC"
fi

# ---- unotifyd: one sandbox against every other ----
policy a 'default allow
return getppid 1111'
policy b 'default allow
return getppid 2222'
start_daemon

case_begin daemon-steal "a root sandbox takes every listener of unotifyd and answers another sandbox's getppid"
"$ATTACK" daemon-run "$SOCK" b getppid "$ATTACK" getppid-loop 2222 6 "$T/victim.ready" \
	>"$T/victim.out" 2>&1 &
VICTIM=$!
track_pid "$VICTIM"
wait_until 10 test -e "$T/victim.ready" || fail "the victim sandbox never started"
drun a getppid steal-daemon "$DPID" 2 6666
ATTACKER_OUT=$OUT
wait "$VICTIM" || true
# Both must be BLOCKED: the attacker's lines follow a comment naming it.
OUT="$(cat "$T/victim.out")
# attacker:
$ATTACKER_OUT"
if expect_blocked; then case_pass "the victim got only 2222"; fi

case_begin daemon-state "unotifyd is alive and running (not stopped) after that"
state=$(daemon_state)
if daemon_alive && [ "$state" != T ]; then
	case_pass "state $state"
else
	RC=- OUT= ERR=$(cat "$T/d.err")
	case_fail "unotifyd state: $state"
fi
kill -CONT "$DPID" 2>/dev/null || true

finish
