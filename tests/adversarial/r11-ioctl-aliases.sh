#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, ioctls the implicit sets refuse, by another number the kernel
# takes for the same thing (found by an adversarial review):
#  - BTRFS_IOC_SEND_32 (0x40449426), the send of a 32-bit program, which a
#    64-bit kernel with CONFIG_COMPAT takes in btrfs's native handler too:
#    it streamed out a subvolume holding a file the policy refused;
#  - EXT4_IOC_SETVERSION (0x40086604), FS_IOC_SETVERSION by ext4's own
#    number, set the inode generation through a read-only descriptor.
# The sets now refuse by direction, type and number, whatever the size.
# Each number is tried on the working directory (the kernel answers
# ENOTTY, or an error of its own), and must get the filter's EPERM; the
# sizes a number was refused with before stay refused.
# Guards: natively no number here gets EPERM (else the case is skipped).

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

printf 'default allow\ndeny @file-read path=%s/secret EACCES\n' "$T" >"$T/p.policy"

# BTRFS_IOC_SEND_32, SEND; ENCODED_READ_32, ENCODED_READ; EXT4_IOC_SETVERSION and its
# 32-bit form; FS_IOC32_SETVERSION; FS_IOC_SETFLAGS's 32-bit form; XFS_IOC_OPEN_BY_HANDLE_32.
for nr in 0x40449426 0x40489426 0x80789440 0x80809440 0x40086604 0x40046604 0x40047602 \
	0x40046602 0xc01c586b; do
	case_begin "ioctl-$nr" "ioctl $nr refused by the filter (a path policy)"
	expect_ioctl_refused "$T/p.policy" "$nr"
done

case_begin ioctl-other-size "(guard) FS_IOC_GETFLAGS, a read, still runs"
URUN_CWD=$T urun --policy "$T/p.policy" -- "$ATTACK" r10-ioctl 0x80086601
if results | grep -qx 'BLOCKED EPERM'; then
	case_fail "refused: $(results | head -1)"
else
	case_pass "$(results | head -1)"
fi

finish
