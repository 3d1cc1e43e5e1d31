#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: unotifyd stalled by its own read of a sandbox's memory. The
# sandbox registers with a filter of its own (as an OCI runtime's seccomp
# profile is), not the policy's kernel layer, so the implicit set
# userfaultfd is not in it: one thread's openat path lies in a page
# registered with a userfaultfd that handles the kernel's faults and is
# never filled; the daemon's read of the path waits for that fault. Another
# thread's getppid (answered 42 by the policy) must still be answered:
# the supervision of a sandbox must not wait on a read of its memory
# (lib/supervise.c, daemon/unotifyd/sandbox.c). Bounded at 8 s.
# r2-stall.sh has the cases the kernel layer closes.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "userfaultfd of kernel faults, unotifyd"
setup_tmp

cat >"$T/p.policy" <<EOF2
default allow
return getppid 42
deny openat open path=$T/never EACCES
EOF2

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-own-filter-uffd "(unotifyd, a filter of the program's own: no kernel layer) the same"
RUN_TIMEOUT=8 drun p getppid,openat uffd-stall kernel
if ! "$ATTACK" uffd-probe kernel 2>/dev/null | grep -q '^MADE'; then
	case_skip "no kernel userfaultfd here, even outside the sandbox"
else
	expect_answered
fi
if ! daemon_alive; then
	case_begin daemon-alive "(unotifyd) after the stalled sandbox"
	case_fail "unotifyd is gone"
fi

finish
