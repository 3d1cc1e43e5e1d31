#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, files reached with no path call, and input typed outside the
# sandbox (found by an adversarial review):
#  - a fanotify group hands the program, per event, the file opened by the
#    kernel with the group's flags: an open the policy allows read-only
#    gave a descriptor it wrote through (implicit set fanotify-fds);
#  - XFS's ioctls by handle open files, links and extended attributes with
#    no path (file-handles); btrfs's snapshot, subvolume and send ioctls
#    give files names no rule knows, delete or stream them (subvolumes);
#    here every number is tried on the working directory, where the kernel
#    says ENOTTY, so the refusal is the filter's (EPERM);
#  - TIOCSTI types into the terminal the program shares with the shell
#    that started it, which runs the line outside (terminal-input, in every
#    policy).
# Guards: each attack works natively; a fanotify group reporting file ids
# (no descriptors) is still made.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "fanotify and TIOCSTI on another terminal need CAP_SYS_ADMIN"
setup_tmp

mkdir -p "$T/ro"
echo original >"$T/ro/app.conf"
printf 'default allow\ndeny @file-write @file-create @file-delete @file-attr path=%s/ro path=%s/ro/** EROFS\n' \
	"$T" "$T" >"$T/p.policy"
printf 'default allow\n' >"$T/none.policy"

# expect_result WANT: the last run's result line is WANT.
expect_result() {
	if hung; then
		case_fail "the run did not end within its time limit"
	elif results | grep -qx "$1"; then
		case_pass "$1"
	else
		case_fail "expected $1: $(results | head -1)"
	fi
}

case_begin fanotify-write "a read-only open's fanotify event descriptor, opened O_RDWR, written"
if [ "$(native_result r10-fanotify fd "$T/ro/app.conf")" != WROTE ]; then
	case_skip "natively no event descriptor was written: $(native_result r10-fanotify fd "$T/ro/app.conf")"
else
	echo original >"$T/ro/app.conf"
	urun --policy "$T/p.policy" -- "$ATTACK" r10-fanotify fd "$T/ro/app.conf"
	if [ "$(cat "$T/ro/app.conf")" != original ]; then
		case_fail "the write-protected file was written: $(cat "$T/ro/app.conf")"
	else
		expect_result 'BLOCKED EPERM'
	fi
fi

case_begin fanotify-fid "(guard) a group that reports file ids, no descriptors, is made"
urun --policy "$T/p.policy" -- "$ATTACK" r10-fanotify fid "$T/ro/app.conf"
expect_result ALLOWED

# XFS OPEN_BY_HANDLE, READLINK_BY_HANDLE, ATTRLIST_BY_HANDLE, ATTRMULTI_BY_HANDLE;
# btrfs SNAP_CREATE(_V2), SUBVOL_CREATE(_V2), SNAP_DESTROY(_V2), SEND.
for nr in 0xc038586b 0xc038586c 0x4058587a 0x4048587b \
	0x50009401 0x50009417 0x5000940e 0x50009418 0x5000940f 0x5000943f 0x40489426; do
	case_begin "ioctl-$nr" "ioctl $nr refused by the filter (a path policy)"
	if [ "$(native_result r10-ioctl "$nr")" != "BLOCKED ENOTTY" ]; then
		case_skip "natively not ENOTTY here: $(native_result r10-ioctl "$nr")"
		continue
	fi
	URUN_CWD=$T urun --policy "$T/p.policy" -- "$ATTACK" r10-ioctl "$nr"
	expect_result 'BLOCKED EPERM'
done

case_begin tiocsti "TIOCSTI into a terminal, under a policy with no rule"
if [ "$(native_result r10-tiocsti)" != INJECTED ]; then
	case_skip "natively TIOCSTI types nothing here: $(native_result r10-tiocsti)"
else
	urun --policy "$T/none.policy" -- "$ATTACK" r10-tiocsti
	expect_result 'BLOCKED EPERM'
fi

case_begin tioclinux "TIOCLINUX refused by the filter (a policy with no rule)"
URUN_CWD=$T urun --policy "$T/none.policy" -- "$ATTACK" r10-ioctl 0x541c
expect_result 'BLOCKED EPERM'

finish
