/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names that can be changed under the policy. A path rule names a file by
 * the path the supervisor reads back for it; a program that changes its
 * root, its mount namespace or the mounts it sees changes that name while
 * the file stays the same. Each command changes the name one way, then
 * opens the denied file under its new name.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "attack.h"
#include "lib/uapi.h"

/* chroot-read DIR PATH: chroot(DIR), then PATH inside it ("/shadow" in "/etc"). */
static int cmd_chroot_read(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (chroot(argv[0]) < 0 || chdir("/") < 0)
		return setup_failed("chroot", errno);
	return leak_path(AT_FDCWD, argv[1]);
}

/* userns-chroot-read DIR PATH: as an unprivileged user, the same in a new user namespace. */
static int cmd_userns_chroot_read(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	if (unshare(CLONE_NEWUSER) < 0)
		return setup_failed("unshare-user", errno);
	if (chroot(argv[0]) < 0 || chdir("/") < 0)
		return setup_failed("chroot", errno);
	return leak_path(AT_FDCWD, argv[1]);
}

/* A private mount namespace (a new user namespace first unless we are root). */
static int private_mounts(bool userns)
{
	if (unshare(CLONE_NEWNS | (userns ? CLONE_NEWUSER : 0)) < 0)
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return -errno;
	return 0;
}

/* bind-read SRC DST [userns]: bind the denied SRC over the allowed DST, then read DST. */
static int cmd_bind_read(int argc, char **argv)
{
	int r;

	if (argc < 2 || argc > 3)
		return 2;
	r = private_mounts(argc == 3 && strcmp(argv[2], "userns") == 0);
	if (r < 0)
		return setup_failed("unshare-mount", -r);
	if (mount(argv[0], argv[1], NULL, MS_BIND, NULL) < 0)
		return setup_failed("bind", errno);
	return leak_path(AT_FDCWD, argv[1]);
}

/* pivot-read NEWROOT PATH: NEWROOT becomes "/" (NEWROOT/old the old one), then PATH. */
static int cmd_pivot_read(int argc, char **argv)
{
	char old[4096];
	int r;

	if (argc != 2)
		return 2;
	r = private_mounts(false);
	if (r < 0)
		return setup_failed("unshare-mount", -r);
	snprintf(old, sizeof(old), "%s/old", argv[0]);
	mkdir(old, 0700);
	if (mount(argv[0], argv[0], NULL, MS_BIND | MS_REC, NULL) < 0)
		return setup_failed("bind-newroot", errno);
	if (syscall(SYS_pivot_root, argv[0], old) < 0 || chdir("/") < 0)
		return setup_failed("pivot_root", errno);
	return leak_path(AT_FDCWD, argv[1]);
}

/* tree-read DIR NAME: a detached copy of DIR's mount (open_tree), NAME opened in it. */
static int cmd_tree_read(int argc, char **argv)
{
	int tree, r;

	if (argc != 2)
		return 2;
	tree = (int)syscall(SYS_open_tree, AT_FDCWD, argv[0], OPEN_TREE_CLONE | O_CLOEXEC);
	if (tree < 0)
		return setup_failed("open_tree", errno);
	r = leak_path(tree, argv[1]);
	close(tree);
	return r;
}

/* tree-move-read SRC DST: open_tree(SRC) moved onto DST (move_mount), then DST read. */
static int cmd_tree_move_read(int argc, char **argv)
{
	int tree, r;

	if (argc != 2)
		return 2;
	r = private_mounts(false);
	if (r < 0)
		return setup_failed("unshare-mount", -r);
	tree = (int)syscall(SYS_open_tree, AT_FDCWD, argv[0], OPEN_TREE_CLONE | O_CLOEXEC);
	if (tree < 0)
		return setup_failed("open_tree", errno);
	if (syscall(SYS_move_mount, tree, "", AT_FDCWD, argv[1], MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return setup_failed("move_mount", errno);
	close(tree);
	return leak_path(AT_FDCWD, argv[1]);
}

/* fsmount-read TYPE SOURCE NAME: a new mount of SOURCE (fsopen/fsmount), NAME read in it. */
static int cmd_fsmount_read(int argc, char **argv)
{
	int fs, mnt, r;

	if (argc != 3)
		return 2;
	fs = (int)syscall(SYS_fsopen, argv[0], FSOPEN_CLOEXEC);
	if (fs < 0)
		return setup_failed("fsopen", errno);
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "source", argv[1], 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return setup_failed("fsconfig", errno);
	mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY);
	if (mnt < 0)
		return setup_failed("fsmount", errno);
	r = leak_path(mnt, argv[2]);
	close(mnt);
	close(fs);
	return r;
}

/* setns-read NSFILE PATH: join another mount namespace (where PATH is something else), read. */
static int cmd_setns_read(int argc, char **argv)
{
	int ns;

	if (argc != 2)
		return 2;
	ns = open(argv[0], O_RDONLY | O_CLOEXEC);
	if (ns < 0)
		return setup_failed("open-ns", errno);
	if (setns(ns, CLONE_NEWNS) < 0)
		return setup_failed("setns", errno);
	close(ns);
	return leak_path(AT_FDCWD, argv[1]);
}

const struct attack_cmd attack_ns_cmds[] = {
	{ "chroot-read", "DIR PATH      chroot(DIR), read PATH", cmd_chroot_read },
	{ "userns-chroot-read", "DIR PATH  unshare(USER), chroot(DIR), read PATH",
	  cmd_userns_chroot_read },
	{ "bind-read", "SRC DST [userns]  private bind of SRC on DST, read DST", cmd_bind_read },
	{ "pivot-read", "NEWROOT PATH   pivot_root(NEWROOT), read PATH", cmd_pivot_read },
	{ "tree-read", "DIR NAME         open_tree(DIR) detached, read NAME in it", cmd_tree_read },
	{ "tree-move-read", "SRC DST    open_tree(SRC) + move_mount on DST, read DST",
	  cmd_tree_move_read },
	{ "fsmount-read", "TYPE SRC NAME  fsopen/fsmount SRC, read NAME in it",
	  cmd_fsmount_read },
	{ "setns-read", "NSFILE PATH    setns(mnt), read PATH", cmd_setns_read },
	{ NULL, NULL, NULL },
};
