#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 18, what the kernel charges to the real uid (found by round 17's
# review of the ids a performed call takes). A POSIX message queue counts
# against its creator's RLIMIT_MSGQUEUE, in the user of its real uid. The
# supervising thread takes the program's effective uid but keeps its own
# real uid (a thread of the program's real uid could be signalled by it),
# so a queue created by name on an mqueue mount, by open(O_CREAT) or by
# mknod, was charged to root: a program running as nobody created queues
# past its own quota and filled root's. Now such a create is performed by
# a helper process that is the program (all of its ids, its limit).
# The forbidden effects: a queue created past the program's quota; the
# program's queues not counted against its uid.
# Round 19's review of that helper: it stays in the supervisor's user
# namespace, so a queue made from a container's user namespace counted as
# a host uid's, each uid the container maps with a quota of its own (the
# kernel charges the namespace's uid and, in ours, whoever made the
# namespace). Even from a namespace the program's own uid made, where
# that charge in ours is the helper's, the queue is not counted in the
# program's namespace: mq_open there then found a fresh quota (twice the
# program's limit), and the limit its maker had did not hold. Such a
# create is now refused with EACCES, as other performed calls bound to a
# namespace are.
# Guards: natively, the same calls fail (or count) the same way; root's
# create still works.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "--user nobody and an mqueue mount"
setup_tmp
ATTACK=${ATTACK:-$top_builddir/tests/adversarial/attack}
MQ=$T/mq
P=r18q$$x
mkdir "$MQ"
mount -t mqueue none "$MQ" 2>/dev/null || skip "cannot mount an mqueue file system here"
on_cleanup "rm -f '$MQ'/$P* 2>/dev/null; umount '$MQ'"
printf 'default allow\ndeny @file-read @file-write @file-create path=%s/nothing/** EACCES\n' "$T" \
	>"$T/q.policy"
# The same, and the program may make a user namespace.
printf 'implicit fixed-view off\n%s\n' "$(cat "$T/q.policy")" >"$T/qns.policy"

clear_queues() {
	rm -f "$MQ"/$P*
}

# nobody ARGS...: the attack natively as nobody; OUT its result.
nobody() {
	bounded 20 "$ATTACK" --user 65534 "$@"
}

# sandboxed ARGS...: the attack under unotify run as nobody; OUT its result.
sandboxed() {
	urun --policy "$T/q.policy" --user nobody -- "$ATTACK" "$@"
}

# Nobody's quota filled natively: a create by name fails as it does natively.
quota_full_case() {
	_how=$1
	case_begin "full-$_how" "as nobody with its queue quota full, a queue created by $_how: EMFILE, as natively"
	clear_queues
	nobody r18-mq-fill "${P}fill"
	_fill=$OUT
	nobody r18-mq-create "$MQ" "${P}native" 1 "$_how"
	_native=$OUT
	sandboxed r18-mq-create "$MQ" "${P}sandbox" 1 "$_how"
	case "$_fill|$_native" in
	"FILLED "*" then EMFILE|CREATED 0 then EMFILE") ;;
	*)
		case_fail "the guard: natively $_fill; $_native"
		return
		;;
	esac
	if [ "$OUT" = "$_native" ]; then
		case_pass "$OUT ($_fill natively)"
	else
		case_fail "expected $_native (charged to the supervisor's uid): $OUT"
	fi
}

quota_full_case open
quota_full_case mknod

# The program's queues count against its own uid: after it creates three,
# nobody can create as many fewer natively as after three native creates.
case_begin charged "as nobody, three queues created by name count against nobody's quota"
clear_queues
nobody r18-mq-create "$MQ" "${P}native" 3 open
nobody r18-mq-fill "${P}fill"
native=$OUT
clear_queues
sandboxed r18-mq-create "$MQ" "${P}sandbox" 3 open
made=$OUT
nobody r18-mq-fill "${P}fill"
clear_queues
if [ "$made" != "CREATED 3" ]; then
	case_fail "the program's creates: $made"
elif [ "$OUT" = "$native" ]; then
	case_pass "then $OUT, as natively"
else
	case_fail "expected $native after the program's three (not counted as nobody's): $OUT"
fi

# The same through unotifyd, whose own filter kills it on a call it did not
# list (--seccomp-default kill): the helper's calls are among the works'.
case_begin daemon "through unotifyd, as nobody: a queue by open and by mknod, then EMFILE with the quota full"
clear_queues
policy q "$(cat "$T/q.policy")"
policy qns "$(cat "$T/qns.policy")"
UNOTIFYD_ARGS="--socket-mode 0666 --allow-group nogroup --allow-group 100000"
start_daemon
dsandboxed() {
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name q \
		--user nobody -- "$ATTACK" "$@"
}
fds=$(daemon_fds)
dsandboxed r18-mq-create "$MQ" "${P}dopen" 1 open
made=$OUT
dsandboxed r18-mq-create "$MQ" "${P}dmknod" 1 mknod
made="$made; $OUT"
nobody r18-mq-fill "${P}fill"
dsandboxed r18-mq-create "$MQ" "${P}dfull" 1 open
clear_queues
if ! daemon_alive; then
	case_fail "unotifyd died: $(tail -3 "$T/d.err")"
elif ! wait_until 10 daemon_fds_are "$fds"; then
	case_fail "unotifyd holds $(daemon_fds) descriptors, $fds before"
elif [ "$made" != "CREATED 1; CREATED 1" ]; then
	case_fail "expected two queues made: $made"
elif [ "$OUT" = "CREATED 0 then EMFILE" ]; then
	case_pass "$made; full: $OUT"
else
	case_fail "expected CREATED 0 then EMFILE with nobody's quota full: $OUT"
fi

# From a container's user namespace (made by root, ids 0-65535 mapped to
# 100000-): natively charged in that namespace and, in ours, to root that
# made it; here refused rather than charged to host uid 100000.
case_begin container "as root of a container's user namespace, through unotifyd: a queue created by name: EACCES, not host uid 100000's"
clear_queues
bounded 20 "$ATTACK" r19-container-ns "$ATTACK" r18-mq-create "$MQ" "${P}native" 1 open
native=$OUT
bounded "$RUN_TIMEOUT" "$ATTACK" r19-container-ns "$UNOTIFY" run -q --daemon --socket "$SOCK" \
	--policy-name qns -- "$ATTACK" r18-mq-create "$MQ" "${P}daemon" 1 open
daemon=$OUT
left=$(ls "$MQ" | grep -c "^${P}daemon" || true)
clear_queues
if [ "$native" != "CREATED 1" ]; then
	case_fail "the guard: natively $native"
elif [ "$daemon" = "CREATED 0 then EACCES" ] && [ "$left" = 0 ]; then
	case_pass "$daemon (natively $native)"
else
	case_fail "expected CREATED 0 then EACCES and no queue: $daemon, $left made"
fi

# A user namespace of the program's own (nobody's unshare under run, and
# the one a non-root `unotify run --daemon` makes): refused too; natively
# made, charged in that namespace as well, which the helper cannot do.
case_begin own-ns "as nobody in a user namespace of its own, a queue created by name: EACCES, not a second quota"
clear_queues
nobody r19-mq-userns "$MQ" "${P}native"
native=$OUT
urun --policy "$T/qns.policy" --user nobody -- "$ATTACK" r19-mq-userns "$MQ" "${P}run"
run=$OUT
bounded "$RUN_TIMEOUT" setpriv --reuid=65534 --regid=65534 --clear-groups "$UNOTIFY" run -q \
	--daemon --socket "$SOCK" --policy-name q -- "$ATTACK" r18-mq-create "$MQ" "${P}own" 1 open
daemon=$OUT
left=$(ls "$MQ" | grep -c "^${P}[ro]" || true)
clear_queues
if [ "${native%% *}" = UNSHARE ]; then
	case_skip "nobody cannot make a user namespace here: $native"
elif [ "$native" != CREATED ]; then
	case_fail "the guard: natively $native"
elif [ "$run" = "OPEN EACCES" ] && [ "$daemon" = "CREATED 0 then EACCES" ] && [ "$left" = 0 ]; then
	case_pass "run: $run; non-root run --daemon: $daemon (natively $native)"
else
	case_fail "expected EACCES and no queue: run $run, run --daemon $daemon $ERR, $left made"
fi

case_begin root "(guard) as root, a queue created by name"
urun --policy "$T/q.policy" -- "$ATTACK" r18-mq-create "$MQ" "${P}root" 1 open
clear_queues
if [ "$OUT" = "CREATED 1" ]; then
	case_pass "$OUT"
else
	case_fail "expected CREATED 1: $OUT"
fi
finish
