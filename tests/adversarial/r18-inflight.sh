#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 18, a sandbox kept from starting by descriptors in flight (found
# by round 18's review of the queue helper). The kernel refuses an
# SCM_RIGHTS send from a process without CAP_SYS_RESOURCE while its uid
# has more descriptors in flight than that process's RLIMIT_NOFILE
# (ETOOMANYREFS). The program's process sent `unotify run` its pidfd that
# way after it had taken the program's uid: any process of that uid
# holding descriptors in flight kept every sandbox of that uid from
# starting ("Too many references"). Now it sends before it takes the uid.
# The forbidden effect: the program not started.
# Guard: natively, a process of that uid and limit cannot send one.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "--user nobody"
setup_tmp
ATTACK=${ATTACK:-$top_builddir/tests/adversarial/attack}
LIMIT=256
printf 'default allow\ndeny @file-read path=%s/nothing/** EACCES\n' "$T" >"$T/p.policy"

"$ATTACK" --user 65534 r18-inflight $((LIMIT + 100)) hold >"$T/held" 2>&1 &
track_pid $!
wait_until 10 grep -q INFLIGHT "$T/held" || fail "the holder did not start: $(cat "$T/held")"

case_begin start "as nobody, with nobody's descriptors in flight over the limit: unotify run --user nobody starts the program"
bounded 20 prlimit --nofile=$LIMIT "$ATTACK" --user 65534 r18-inflight 1
native=$OUT
bounded "$RUN_TIMEOUT" prlimit --nofile=$LIMIT "$UNOTIFY" run -q --policy "$T/p.policy" \
	--user nobody -- sh -c 'echo STARTED'
if [ "$native" != "INFLIGHT 0 then ETOOMANYREFS" ]; then
	case_fail "the guard: natively $native (holder: $(cat "$T/held"))"
elif [ "$RC" = 0 ] && [ "$OUT" = STARTED ]; then
	case_pass "$OUT (natively $native)"
else
	case_fail "expected STARTED: status $RC, $OUT $ERR"
fi
finish
