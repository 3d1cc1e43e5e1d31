#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: the supervisor stalled by its own read of the program's memory.
# One thread opens a path that lies in a page registered with userfaultfd
# and never filled: the supervisor's read of the path (process_vm_readv or
# /proc/PID/mem) waits for a fault the program never serves, and no
# timeout or non-blocking open helps. Another thread then makes an allowed
# intercepted call (getppid, answered 42 by the policy); it must get its
# answer. Bounded at 8 s: a hang is a failure.
#   - a userfaultfd that handles the kernel's faults (userfaultfd(2), or
#     ioctl USERFAULTFD_IOC_NEW of /dev/userfaultfd) is refused next to path
#     rules (implicit set userfaultfd): the attack cannot be set up, though
#     the same program outside the sandbox can;
#   - a user-mode-only one (allowed) does not hold a remote read: the open
#     fails, getppid is answered;
#   - the same through unotifyd under `unotify run --daemon`, whose filter
#     is the policy's kernel layer.
# r2-stall-daemon.sh has a sandbox whose filter is not the kernel layer.
# (stall.sh has the performed calls that block; this one blocks earlier.)

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "userfaultfd of kernel faults, unotifyd"
setup_tmp

cat >"$T/p.policy" <<EOF2
default allow
return getppid 42
deny openat open path=$T/never EACCES
EOF2

# expect_refused MODE: the attack could not make its userfaultfd inside
# (or, made, the other thread was answered all the same).
expect_refused() {
	uffd_here "$1" || return 0
	if ! hung && results | grep -q '^SETUP userfaultfd EPERM$'; then
		case_pass "refused: $(results | head -1)"
	else
		expect_answered
	fi
}

# A userfaultfd of MODE can be made outside the sandbox (else: skipped).
uffd_here() {
	"$ATTACK" uffd-probe "$1" 2>/dev/null | grep -q '^MADE' && return 0
	case_skip "no $1 userfaultfd here, even outside the sandbox"
	return 1
}

for mode in kernel dev; do
	case_begin "uffd-$mode" "a $mode userfaultfd: one thread's openat path in a page no one fills; another calls getppid"
	URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" uffd-stall "$mode"
	expect_refused "$mode"
done

case_begin uffd-user "a user-mode-only userfaultfd: the same"
URUN_TIMEOUT=8 urun --policy "$T/p.policy" -- "$ATTACK" uffd-stall user
uffd_here user && expect_answered

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-run-uffd "(unotify run --daemon, the policy's kernel layer) a kernel userfaultfd, the same"
bounded 8 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p -- "$ATTACK" uffd-stall kernel
expect_refused kernel

finish
