/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The implicit rule sets (implicit.c says when each is added, and how):
 * each a name, what it guards, what a program can do once it is off, and
 * its rules as policy text.
 */
#include "config.h"

#include "policy/implicit-sets.h"
#include "policy/internal.h"

/* clone(2)'s flags register: s390 passes the stack first (CLONE_BACKWARDS2). */
#if defined(__s390x__) || defined(__s390__)
#define CLONE_FLAGS "arg1"
#else
#define CLONE_FLAGS "arg0"
#endif

/*
 * An ioctl by its direction, type and number, whatever the size its number
 * carries (bits 16-29): a handler that takes a 32-bit program's struct
 * under the same number with another size (BTRFS_IOC_SEND_32, accepted by
 * the native handler on a 64-bit kernel with CONFIG_COMPAT) or a long as
 * an int (FS_IOC32_SETFLAGS) is refused with it. The high 32 bits of the
 * register do not count: the command is an unsigned int.
 */
#define IOCTL_ANY_SIZE(dir_type_nr) "arg1&0xc000ffff==" dir_type_nr

/*
 * CLONE_NEWNS 0x20000, CLONE_NEWUSER 0x10000000. setns(fd, 0) joins
 * whatever namespace fd is, a mount or user one included. clone3 keeps its
 * flags in memory, which the filter cannot read: ENOSYS, and libc falls
 * back to clone(2), whose flags are a register. S_IFMT 0xf000, S_IFBLK
 * 0x6000, S_IFCHR 0x2000 (a character device 0:0 is an overlayfs whiteout,
 * not a device). The socket family, type and protocol are ints: only the
 * low 32 bits count.
 *
 * A file category with no path= holds for every file, so what only gives
 * a file another name (fixed-view, device-nodes: a disk's node is opened,
 * read and written by the calls the category decides) needs path rules;
 * what changes or reads files with none of those calls (by handle, by
 * ioctl, through io_uring) is refused next to a file category too.
 */
const struct implicit_set implicit_sets[] = {
	{
		"fixed-view",
		GUARDS_PATHS,
		"chroot, pivot_root, mounts and new mount or user namespaces change what a "
		"path names",
		{
			{ "chroot pivot_root mount umount umount2 move_mount open_tree fsopen "
			  "fsconfig fsmount fspick mount_setattr open_tree_attr",
			  "EPERM" },
			{ "unshare", "arg0&0x20000==0x20000 EPERM" },
			{ "unshare", "arg0&0x10000000==0x10000000 EPERM" },
			{ "clone", CLONE_FLAGS "&0x20000==0x20000 EPERM" },
			{ "clone", CLONE_FLAGS "&0x10000000==0x10000000 EPERM" },
			{ "setns", "arg1&0xffffffff==0 EPERM" },
			{ "setns", "arg1&0x20000==0x20000 EPERM" },
			{ "setns", "arg1&0x10000000==0x10000000 EPERM" },
			{ "clone3", "ENOSYS" },
		},
	},
	{
		/*
		 * fixed-view's mount calls again, for the file categories
		 * without path= too, with the other calls that write a file
		 * system with none of the file calls: an overlayfs mount
		 * empties its workdir's "work" (in a user namespace of its
		 * own, by any user), a disk's mount and unmount write its
		 * superblock, swapon discards a file's blocks, quotactl_fd
		 * writes quotas (quotactl's writes are file-calls'). And a
		 * file system's own ioctls, on any of its
		 * descriptors, a read-only one too, with CAP_SYS_ADMIN:
		 * FS_IOC_SETFSLABEL ('0x94' 50), ext4's SETFSUUID ('f' 44),
		 * SET_TUNE_SB_PARAM ('f' 46, Linux 6.18), CHECKPOINT with its
		 * journal zeroing ('f' 43), GROUP_EXTEND, GROUP_ADD,
		 * RESIZE_FS ('f' 7, 8, 16), MIGRATE ('f' 9: a file's blocks
		 * rewritten), the shutdown of ext4, XFS and f2fs ('X' 125),
		 * FIFREEZE, FITHAW, FITRIM ('X' 119-121: every writer of
		 * the file system hangs, free blocks are discarded); XFS's
		 * FSGROWFSDATA, FSGROWFSLOG, FSGROWFSRT ('X' 110-112) and
		 * SET_RESBLKS ('X' 114: its free space reserved away from
		 * everyone); fscrypt's ADD, REMOVE and REMOVE_..._ALL_USERS
		 * ('f' 23-25: an encrypted tree locked or opened for every
		 * user); every loop device ioctl (0x4c00-0x4cff: a host's
		 * loop device detached, or its offset moved under a mounted
		 * file system); a block device's BLKROSET, BLKRRPART, BLKPG
		 * (0x125d, 0x125f, 0x1269: made read-only for the host, its
		 * partitions re-read, added or removed); a disk's commands
		 * passed through, which root may send through a descriptor
		 * opened for reading: SG_IO (0x2285), SCSI_IOCTL_SEND_COMMAND
		 * (1, the number FIBMAP shares), NVMe's ADMIN_CMD, SUBMIT_IO,
		 * IO_CMD and their 64-bit forms ('N' 0x41-0x43, 0x47, 0x48).
		 * Namespaces alone write nothing: they stay fixed-view's.
		 */
		"file-systems",
		GUARDS_FILES,
		"mounts, swap, quotas, a file system's own ioctls (label, UUID, shutdown, "
		"freeze, trim, journal, growth, reserved blocks, encryption keys) and those of "
		"loop and block devices, and a disk's commands passed through (SG_IO, NVMe), "
		"write a file system with none of the calls the file rules decide, through a "
		"read-only descriptor too",
		{
			{ "mount umount umount2 move_mount open_tree fsopen fsconfig fsmount fspick "
			  "mount_setattr open_tree_attr swapon swapoff quotactl_fd",
			  "EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009432") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000662c") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000662e") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000662b") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40006607") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40006608") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40006610") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x00006609") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x8000587d") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0005877") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0005878") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0005879") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000586e") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000586f") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40005870") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0005872") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0006617") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0006618") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0006619") " EPERM" },
			{ "ioctl", "arg1&0xc000ff00==0x4c00 EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x0000125d") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x0000125f") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x00001269") " EPERM" },
			{ "ioctl", "arg1&0xffffffff==0x2285 EPERM" },
			{ "ioctl", "arg1&0xffffffff==0x1 EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0004e41") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40004e42") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0004e43") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0004e47") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0004e48") " EPERM" },
		},
	},
	{
		/*
		 * XFS has the same as ioctls of any descriptor on it (by
		 * number, of any size: their compat forms are smaller):
		 * OPEN_BY_HANDLE (107), READLINK_BY_HANDLE (108),
		 * ATTRLIST_BY_HANDLE (122, which lists) and
		 * ATTRMULTI_BY_HANDLE (123, which reads and writes extended
		 * attributes). Making a handle (PATH_TO_HANDLE and its kin)
		 * opens nothing, as name_to_handle_at alone would not.
		 */
		"file-handles",
		GUARDS_PATHS | GUARDS_FILES,
		"open_by_handle_at, and XFS's ioctls by handle, open a file, read a link or "
		"its extended attributes by handle, with no path",
		{
			{ "open_by_handle_at", "EPERM" },
			{ "name_to_handle_at", "EOPNOTSUPP" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc000586b") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc000586c") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000587a") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000587b") " EPERM" },
		},
	},
	{
		/*
		 * A fanotify group that reports descriptors (no
		 * FAN_REPORT_FID 0x200 or FAN_REPORT_DIR_FID 0x400) hands the
		 * program, for each event, the file opened by the kernel with
		 * the group's event_f_flags (O_RDWR too), whatever rule names
		 * the file: an open it may make read-only gives it a writable
		 * one, a mark on the whole file system every file anyone
		 * opens. A permission class (FAN_CLASS_CONTENT 0x4,
		 * FAN_CLASS_PRE_CONTENT 0x8) holds the opens of other
		 * processes, the supervisor's among them. Both need
		 * CAP_SYS_ADMIN; EPERM is what the kernel says without it.
		 * Groups that report file ids are left: a handle opens
		 * nothing without open_by_handle_at (file-handles).
		 */
		"fanotify-fds",
		GUARDS_PATHS | GUARDS_FILES,
		"a fanotify group hands the program a descriptor of every file an event "
		"reports (one it may only read, opened for writing; a file no rule lets it "
		"open), and a permission group holds other processes' opens",
		{
			{ "fanotify_init", "arg0&0x600==0 EPERM" },
			{ "fanotify_init", "arg0&0xc==0x4 EPERM" },
			{ "fanotify_init", "arg0&0xc==0x8 EPERM" },
			{ "fanotify_init", "arg0&0xc==0xc EPERM" },
		},
	},
	{
		/*
		 * Btrfs's ioctls (magic 0x94) that give every file of a
		 * subvolume new names (SNAP_CREATE 1 and its V2 23, with no
		 * capability for the subvolume's owner), make a directory
		 * (SUBVOL_CREATE 14 and V2 24), remove a subvolume with all
		 * it holds (SNAP_DESTROY 15 and V2 63) or stream its files
		 * out (SEND 38, and SEND_32), or read a file's extents through
		 * a descriptor opened only for writing (ENCODED_READ 64, and
		 * ENCODED_READ_32: CAP_SYS_ADMIN, and the handler asks no read
		 * access of the descriptor). SET_RECEIVED_SUBVOL (a
		 * subvolume's received UUID) and ENCODED_WRITE (which asks
		 * a writable descriptor) read or change no file the rules did
		 * not open for the program.
		 */
		"subvolumes",
		GUARDS_PATHS | GUARDS_FILES,
		"btrfs snapshots give every file of a subvolume a name no rule knows, and "
		"deleting or sending a subvolume removes or reads its files with no path "
		"call",
		{
			{ "ioctl", IOCTL_ANY_SIZE("0x40009401") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009417") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000940e") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009418") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000940f") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000943f") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009426") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x80009440") " EPERM" },
		},
	},
	{
		/*
		 * The rest of btrfs's type that reaches files or devices with no
		 * path call the rules decide: TREE_SEARCH(_V2) (17) reads a
		 * subvolume's trees, small files' data stored inline and every
		 * directory's names; INO_LOOKUP (18), INO_PATHS (35),
		 * LOGICAL_INO(_V2) (36, 59) and INO_LOOKUP_USER (62) name
		 * files by number; ADD_DEV (10), RM_DEV(_V2) (11, 58),
		 * DEV_REPLACE (53), SCAN_DEV (4), FORGET_DEV (5) and
		 * DEVICES_READY (39) have the kernel open a device by the path
		 * they carry, and write to it; RESIZE (3), DEFAULT_SUBVOL (19)
		 * and SCRUB (27) change or rewrite the file system under every
		 * sandbox on it.
		 */
		"btrfs-admin",
		GUARDS_PATHS | GUARDS_FILES,
		"btrfs's tree search and inode lookups read files' data and names with no "
		"path call, and its device ioctls have the kernel open and write a device by "
		"a path no rule reads",
		{
			{ "ioctl", IOCTL_ANY_SIZE("0xc0009411") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0009412") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0009423") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0009424") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc000943b") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc000943e") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000940a") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000940b") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x4000943a") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc0009435") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009404") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009405") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x80009427") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009403") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40009413") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0xc000941b") " EPERM" },
		},
	},
	{
		"device-nodes",
		GUARDS_PATHS,
		"a block or character device node made in an allowed directory reads and "
		"writes the device (a disk holds every file), and a rename with "
		"RENAME_WHITEOUT creates a node at its source that no create rule decides",
		{
			{ "mknod", "arg1&0xf000==0x6000 EPERM" },
			{ "mknod", "arg1&0xf000==0x2000 arg2!=0 EPERM" },
			{ "mknodat", "arg2&0xf000==0x6000 EPERM" },
			{ "mknodat", "arg2&0xf000==0x2000 arg3!=0 EPERM" },
			/* RENAME_WHITEOUT (4): the source's name is deleted, a 0:0 node made there. */
			{ "renameat2", "arg4&4==4 EPERM" },
		},
	},
	{
		"inode-flags",
		GUARDS_PATHS | GUARDS_FILES,
		"ioctl(FS_IOC_SETFLAGS, FS_IOC_FSSETXATTR, FS_IOC_ENABLE_VERITY, ...) changes "
		"a file's attributes (immutable, append-only, verity) through any descriptor, "
		"a read-only one too, with no path",
		{
			{ "ioctl", IOCTL_ANY_SIZE("0x40006602") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40005820") " EPERM" },
			/*
			 * On a read-only descriptor too: FS_IOC_ENABLE_VERITY (the
			 * file can never be written again), FS_IOC_SETVERSION and
			 * ext4's own number for it, EXT4_IOC_SETVERSION ('f' 4:
			 * the inode generation), FS_IOC_SET_ENCRYPTION_POLICY (an
			 * empty directory).
			 */
			{ "ioctl", IOCTL_ANY_SIZE("0x40006685") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40007602") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x40006604") " EPERM" },
			{ "ioctl", IOCTL_ANY_SIZE("0x80006613") " EPERM" },
		},
	},
	{
		"io-uring",
		GUARDS_PATHS | GUARDS_NET | GUARDS_FILES | GUARDS_URING,
		"io_uring opens files, connects, binds and sends without the system calls "
		"the rules decide",
		{
			{ "io_uring_setup io_uring_enter io_uring_register", "ENOSYS" },
		},
	},
	{
		/*
		 * Linux AIO: an iocb submitted with io_submit reads, writes,
		 * syncs or polls a descriptor (IOCB_CMD_PREAD(V), _PWRITE(V),
		 * _FSYNC, _FDSYNC, _POLL) past a refusal of those calls by
		 * name (`deny write arg0==1`). glibc's POSIX AIO uses threads
		 * and the ordinary calls, not these.
		 */
		"aio",
		GUARDS_AIO,
		"io_submit reads, writes, syncs and polls descriptors without the system "
		"calls the rules decide",
		{
			{ "io_setup io_submit", "ENOSYS" },
		},
	},
	{
		"raw-sockets",
		GUARDS_ADDRESS,
		"raw, packet and SCTP sockets choose their destination outside the address "
		"the supervisor reads (IP_HDRINCL, link-layer frames, sctp_connectx), and "
		"raw ones receive for ports no bind took",
		{
			{ "socket", "arg0&0xffffffff==17 EPERM" },		     /* AF_PACKET */
			{ "socket", "arg0&0xffffffff==44 EPERM" },		     /* AF_XDP */
			{ "socket", "arg0&0xffffffff==2 arg1&0xf==3 EPERM" },  /* INET RAW */
			{ "socket", "arg0&0xffffffff==10 arg1&0xf==3 EPERM" }, /* INET6 RAW */
			{ "socket", "arg0&0xffffffff==2 arg1&0xf==10 EPERM" }, /* SOCK_PACKET */
			{ "socket", "arg0&0xffffffff==2 arg1&0xf==5 EPERM" },  /* SEQPACKET: SCTP */
			{ "socket", "arg0&0xffffffff==10 arg1&0xf==5 EPERM" },
			{ "socket", "arg0&0xffffffff==2 arg2&0xffffffff==132 EPERM" }, /* SCTP */
			{ "socket", "arg0&0xffffffff==10 arg2&0xffffffff==132 EPERM" },
		},
	},
	{
		/*
		 * A source route makes the first hop an address the packet
		 * carries, not the one connect or sendto names, and needs no
		 * privilege: IP_OPTIONS (4) at IPPROTO_IP (0); IPV6_RTHDR (57),
		 * IPV6_2292RTHDR (5), IPV6_2292PKTOPTIONS (6: control data
		 * kept, a routing header included) at IPPROTO_IPV6 (41). The
		 * same as sendmsg control data is refused by the engine.
		 */
		"source-routes",
		GUARDS_ADDRESS,
		"an IP source route (IP_OPTIONS, IPV6_RTHDR) sends the packet first to an "
		"address the supervisor never reads",
		{
			{ "setsockopt", "arg1&0xffffffff==0 arg2&0xffffffff==4 EPERM" },
			{ "setsockopt", "arg1&0xffffffff==41 arg2&0xffffffff==57 EPERM" },
			{ "setsockopt", "arg1&0xffffffff==41 arg2&0xffffffff==5 EPERM" },
			{ "setsockopt", "arg1&0xffffffff==41 arg2&0xffffffff==6 EPERM" },
		},
	},
	{
		/*
		 * Calls that change files by path and that the engine cannot
		 * perform as the program: ENOSYS, as a kernel without them says,
		 * and programs fall back to the calls the rules decide
		 * (setxattr, removexattr; file_setattr to ioctl(FS_IOC_FSSETXATTR),
		 * which inode-flags refuses). acct(2) makes the kernel append
		 * to a file it opens by path, quotactl(Q_QUOTAON) write quota
		 * records to one (QCMD(0x800002, type): the command's high 24
		 * bits; both need capabilities a root program may keep), and
		 * its other writes change the quota files and limits with no
		 * file call: Q_QUOTAOFF, Q_SETINFO, Q_SETQUOTA (0x800003, 6,
		 * 8) and XFS's Q_XQUOTAON, Q_XQUOTAOFF, Q_XSETQLIM,
		 * Q_XQUOTARM (0x5801, 2, 4, 6). Its reads run.
		 */
		"file-calls",
		GUARDS_PATHS | GUARDS_FILES,
		"setxattrat and removexattrat (Linux 6.13), file_setattr (6.17), acct and "
		"quotactl's writes change a file's extended attributes, ACL, inode flags, "
		"contents or quotas by path, outside every category",
		{
			{ "setxattrat removexattrat file_setattr", "ENOSYS" },
			{ "acct", "EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x80000200 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x80000300 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x80000600 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x80000800 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x580100 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x580200 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x580400 EPERM" },
			{ "quotactl", "arg0&0xffffff00==0x580600 EPERM" },
		},
	},
	{
		/*
		 * A userfaultfd that handles faults of the kernel (not
		 * UFFD_USER_MODE_ONLY, 1) holds the supervisor's read of a
		 * path or an address placed in a page it never fills: that
		 * read, and the sandbox's supervision with it, waits forever.
		 * A user-mode-only one makes the read fail (EFAULT: the call is
		 * denied). userfaultfd(flags); ioctl(USERFAULTFD_IOC_NEW
		 * 0xaa00, flags) of /dev/userfaultfd. EPERM is what the kernel
		 * says to an unprivileged caller (vm.unprivileged_userfaultfd 0).
		 */
		"userfaultfd",
		GUARDS_PATHS | GUARDS_NET,
		"a userfaultfd that handles the kernel's faults stalls the supervisor's read "
		"of a path or an address, and with it every call of the sandbox",
		{
			{ "userfaultfd", "arg0&1==0 EPERM" },
			{ "ioctl", "arg1&0xffffffff==0xaa00 arg2&1==0 EPERM" },
		},
	},
	{
		/*
		 * A core dump is a file the kernel writes in the program's
		 * working directory with no system call (core_pattern "core"):
		 * no rule can stop it. `unotify run` starts the program with
		 * RLIMIT_CORE 0:0 (RLIMIT_CORE is 4); these keep it there for a
		 * program that holds CAP_SYS_RESOURCE. The new limit is in
		 * memory, which the filter cannot read, so every setting is
		 * refused (EPERM, what raising a hard limit without the
		 * capability gets); prlimit64 with no new limit (arg2 NULL)
		 * only reads it and runs.
		 */
		"core-dumps",
		GUARDS_PATHS | GUARDS_FILES,
		"a program that raises its RLIMIT_CORE dumps core (core_pattern 'core') into "
		"its working directory, a file the kernel writes with no system call",
		{
			{ "setrlimit", "arg0&0xffffffff==4 EPERM" },
			{ "prlimit64", "arg1&0xffffffff==4 arg2!=0 EPERM" },
		},
	},
	{
		/*
		 * pidfd_getfd takes a descriptor from any process the caller
		 * may ptrace, in any pid namespace: a program that holds
		 * CAP_SYS_PTRACE and a pidfd of a supervisor (or of the helper
		 * that performs its connects and sends) takes the listener and
		 * answers its own refused calls, or another sandbox's. The
		 * kernel hands a program such pidfds with no pid to name:
		 * SO_PEERPIDFD of a socket whose peer is unotifyd or a
		 * performed connect, SCM_PIDFD of a performed send
		 * (SO_PASSPIDFD), FAN_REPORT_PIDFD (Linux 6.5+). Every other use
		 * of a pidfd checks the caller's pid namespace (signals) or asks
		 * for CAP_SYS_ADMIN over the target (setns), so this one call is
		 * refused, with the EPERM it gives when ptrace is not allowed.
		 * Every policy, with or without rules: the listener guards
		 * every call the supervisor decides, and unotifyd's
		 * descriptors are the listeners of other sandboxes, which a
		 * sandbox with no rule of its own can reach too.
		 */
		"borrowed-fds",
		GUARDS_ANY,
		"a program with CAP_SYS_PTRACE takes the supervisor's listener (or unotifyd's) "
		"through a pidfd the kernel hands it, and answers its own refused calls",
		{
			{ "pidfd_getfd", "EPERM" },
		},
	},
	{
		/*
		 * TIOCSTI (0x5412) pushes bytes into a terminal's input as if
		 * typed: `unotify run` leaves the program the terminal it was
		 * started from, and the shell that started it reads them once
		 * it exits, outside the sandbox. Unprivileged while the
		 * kernel's dev.tty.legacy_tiocsti is 1, and with CAP_SYS_ADMIN
		 * always. TIOCLINUX (0x541c) pastes a virtual console's
		 * selection into its input the same way. Every policy: the
		 * escape walks around all of them.
		 */
		"terminal-input",
		GUARDS_ANY,
		"TIOCSTI (and TIOCLINUX's paste) types into the terminal the program shares "
		"with the shell that started it: a command that runs outside the sandbox",
		{
			{ "ioctl", "arg1&0xffffffff==0x5412 EPERM" },
			{ "ioctl", "arg1&0xffffffff==0x541c EPERM" },
		},
	},
	{
		/*
		 * A Landlock domain is part of a task's credentials: no other
		 * task can take it, so the calls the supervisor performs for
		 * the program (opens, connects) would not honour a domain the
		 * program gives itself. EOPNOTSUPP is what a kernel with
		 * Landlock disabled says: best-effort users carry on, knowing
		 * they are not restricted. unotify's own Landlock layer is
		 * bound before the filter and is not affected.
		 */
		"self-landlock",
		GUARDS_PATHS | GUARDS_NET,
		"a Landlock domain the program gives itself is not honoured by the opens and "
		"connects the supervisor performs for it",
		{
			{ "landlock_create_ruleset landlock_add_rule landlock_restrict_self",
			  "EOPNOTSUPP" },
		},
	},
	{
		/*
		 * MPTCP (IPPROTO_MPTCP 262) and SMC (AF_SMC 43, or
		 * IPPROTO_SMC 256 on an IP socket) are stream sockets that
		 * reach TCP ports and fall back to plain TCP on the wire, and
		 * SCTP (132) has stream sockets too, but none is a TCP socket:
		 * proto=tcp does not hold for them, and Landlock's TCP rights
		 * do not check them. The answers are a kernel's without them:
		 * programs fall back to TCP.
		 */
		"tcp-variants",
		GUARDS_PROTO,
		"MPTCP, SMC and SCTP stream sockets reach ports, and proto=tcp rules (and "
		"Landlock's TCP rights) do not hold for them",
		{
			{ "socket", "arg0&0xffffffff==2 arg2&0xffffffff==132 EPROTONOSUPPORT" },
			{ "socket", "arg0&0xffffffff==10 arg2&0xffffffff==132 EPROTONOSUPPORT" },
			{ "socket", "arg0&0xffffffff==2 arg2&0xffffffff==262 EPROTONOSUPPORT" },
			{ "socket", "arg0&0xffffffff==10 arg2&0xffffffff==262 EPROTONOSUPPORT" },
			{ "socket", "arg0&0xffffffff==2 arg2&0xffffffff==256 EPROTONOSUPPORT" },
			{ "socket", "arg0&0xffffffff==10 arg2&0xffffffff==256 EPROTONOSUPPORT" },
			{ "socket", "arg0&0xffffffff==43 EAFNOSUPPORT" },
		},
	},
};

_Static_assert(sizeof(implicit_sets) / sizeof(implicit_sets[0]) == POLICY_IMPLICIT_SETS,
	       "internal.h sizes the per-policy state of the sets");
