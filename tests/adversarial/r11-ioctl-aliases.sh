#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, ioctls the implicit sets refuse, by another number the kernel
# takes for the same thing (found by an adversarial review):
#  - BTRFS_IOC_SEND_32 (0x40449426), the send of a 32-bit program, which a
#    64-bit kernel with CONFIG_COMPAT takes in btrfs's native handler too:
#    it streamed out a subvolume holding a file the policy refused;
#  - EXT4_IOC_SETVERSION (0x40086604), FS_IOC_SETVERSION by ext4's own
#    number, set the inode generation through a read-only descriptor.
# The sets now refuse by direction, type and number, whatever the size;
# btrfs-admin refuses the rest of btrfs's ioctls that reach files or
# devices with no path call.
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

# btrfs-admin (a review of the fix above): TREE_SEARCH read a refused file's
# inline data and a hidden directory's names, ADD_DEV had the kernel open a
# write-protected block device by path and write a superblock on it. The
# numbers as btrfs defines them: TREE_SEARCH(_V2), INO_LOOKUP, INO_PATHS,
# LOGICAL_INO(_V2), INO_LOOKUP_USER, ADD_DEV, RM_DEV(_V2), DEV_REPLACE,
# SCAN_DEV, FORGET_DEV, DEVICES_READY, RESIZE, DEFAULT_SUBVOL, SCRUB.
for nr in 0xd0009411 0xd0009412 0xc0389423 0xc0389424 0xc038943b 0xd000943e 0x5000940a \
	0x5000940b 0x5000943a 0xca289435 0x50009404 0x50009405 0x90009427 0x50009403 \
	0x40089413 0xc400941b; do
	case_begin "btrfs-admin-$nr" "btrfs ioctl $nr refused by the filter (a path policy)"
	expect_ioctl_refused "$T/p.policy" "$nr"
done
printf 'default allow\ndeny @file-write @file-create @file-delete EROFS\n' >"$T/ro.policy"
case_begin btrfs-admin-category "ADD_DEV refused by the filter under a file category with no path"
expect_ioctl_refused "$T/ro.policy" 0x5000940a

case_begin ioctl-other-size "(guard) FS_IOC_GETFLAGS, a read, still runs"
URUN_CWD=$T urun --policy "$T/p.policy" -- "$ATTACK" r10-ioctl 0x80086601
if results | grep -qx 'BLOCKED EPERM'; then
	case_fail "refused: $(results | head -1)"
else
	case_pass "$(results | head -1)"
fi

finish
