#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, files reached with no path call under file categories that name
# no path (found by an adversarial review): 'default allow' + 'deny
# @file-write @file-create @file-delete' (a read-only sandbox) got only the
# implicit sets a file category guards, not io-uring, file-handles,
# inode-flags or subvolumes, which only path rules brought:
#  - io_uring's OPENAT(O_WRONLY|O_TRUNC) and WRITE changed a file;
#  - as root (CAP_DAC_READ_SEARCH), open_by_handle_at(O_WRONLY|O_TRUNC)
#    and a write changed it too;
#  - FS_IOC_SETFLAGS and FS_IOC_FSSETXATTR ran under 'deny @file-attr',
#    and btrfs's and XFS's ioctls with the same policy; each number is
#    tried on the working directory and must be the filter's EPERM.
# Guards: each attack works natively.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

printf 'default allow\ndeny @file-write @file-create @file-delete EROFS\n' >"$T/ro.policy"
printf 'default allow\ndeny @file-attr EROFS\n' >"$T/attr.policy"

# write_attack CMD WANT: CMD cannot write under ro.policy.
write_attack() {
	expect_unwritten "$T/ro.policy" "$@"
}

case_begin uring-write "io_uring OPENAT(O_WRONLY|O_TRUNC) + WRITE under a category-only read-only policy"
write_attack r11-uring-write "WROTE 5 bytes through io_uring"

case_begin handle-write "open_by_handle_at(O_WRONLY|O_TRUNC) + write under the same policy (root)"
if [ "$(id -u)" != 0 ]; then
	case_skip "needs root (CAP_DAC_READ_SEARCH)"
else
	write_attack r11-handle-write "WROTE 5 bytes by handle"
fi

# Round 14 (adversarial review): no write opens refused by name, not by a
# category, brought no file-handles set.
case_begin handle-write-by-name "open_by_handle_at(O_WRONLY|O_TRUNC) + write under deny openat arg2&0x3==0x1 (root)"
printf 'default allow\ndeny creat openat2 EROFS\ndeny openat arg2&0x3==0x1 EROFS\ndeny openat arg2&0x3==0x2 EROFS\n' \
	>"$T/byname.policy"
if [ "$(id -u)" != 0 ]; then
	case_skip "needs root (CAP_DAC_READ_SEARCH)"
else
	expect_unwritten "$T/byname.policy" r11-handle-write "WROTE 5 bytes by handle"
fi

# FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR under @file-attr; XFS OPEN_BY_HANDLE, btrfs
# SNAP_DESTROY and SEND under the read-only policy.
for c in attr:0x40086602 attr:0x401c5820 ro:0xc038586b ro:0x5000940f ro:0x40489426; do
	pol=${c%%:*} nr=${c#*:}
	case_begin "ioctl-$nr" "ioctl $nr refused by the filter ($pol.policy: no path)"
	expect_ioctl_refused "$T/$pol.policy" "$nr"
done

finish
