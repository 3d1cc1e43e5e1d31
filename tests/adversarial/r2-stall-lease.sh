#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: the supervisor held by a file lease. The program takes a read
# lease on a file it owns (F_SETLEASE, SIGIO ignored, so it never gives it
# back), then one thread opens the file for writing: that open, performed
# by the supervisor, waits in break_lease() for lease-break-time (45 s by
# default), as the program's own open would -- but the program's would
# hold its own thread only. Another thread's getppid (answered 42 by the
# policy) must get its answer meanwhile. Bounded at 8 s. Unsupervised, the
# same program gets it at once (checked first). The same under unotifyd
# (`unotify run --daemon`). (stall.sh has FIFOs and connects, r2-stall.sh
# the memory reads.)

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

cat >"$T/p.policy" <<EOF2
default allow
return getppid 42
deny openat path=$T/never EACCES
EOF2
echo data >"$T/leased"

bounded 8 "$ATTACK" lease-stall "$T/leased"
results | grep -q '^ANSWERED getppid=' ||
	skip "unsupervised, the attack does not get its answer either: $(results | head -1)"

case_begin lease-open "a read lease of ours, another thread's open for writing, then getppid"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" lease-stall "$T/leased"
expect_answered

if [ "$(id -u)" = 0 ]; then
	policy p "$(cat "$T/p.policy")"
	start_daemon
	case_begin daemon-lease-open "(unotify run --daemon) the same"
	bounded 8 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p -- \
		"$ATTACK" lease-stall "$T/leased"
	expect_answered
	if ! daemon_alive; then
		case_begin daemon-alive "(unotifyd) after the held sandbox"
		case_fail "unotifyd is gone"
	fi
fi

finish
