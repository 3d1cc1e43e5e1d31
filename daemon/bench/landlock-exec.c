/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify bench landlock -- CMD`: CMD under a Landlock ruleset that does
 * the file job of contrib/bench/build.sh's default policy (everything
 * allowed but opening /etc/shadow) in the kernel, with no supervisor: the
 * baseline of what a kernel-side layer costs on the same build.
 *
 * Landlock grants, it cannot carve a denial out of a granted tree; so the
 * ruleset grants every right beneath each entry of / but etc, and beneath
 * each entry of /etc but shadow, and only READ_DIR on / itself (inherited
 * by /etc). Rights are those of the kernel's ABI, probed.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "floor.h"
#include "lib/util.h"

/* Bits 0-12 are ABI 1; REFER (13) came with 2, TRUNCATE (14) with 3, IOCTL_DEV (15) with 5. */
static uint64_t landlock_fs_rights(int abi)
{
	uint64_t all = (1ULL << 13) - 1;

	if (abi >= 2)
		all |= 1ULL << 13;
	if (abi >= 3)
		all |= 1ULL << 14;
	if (abi >= 5)
		all |= 1ULL << 15;
	return all;
}

/* What a rule on a non-directory may hold: execute, write, read, truncate, ioctl_dev. */
#define LANDLOCK_FILE_RIGHTS ((1ULL << 0) | (1ULL << 1) | (1ULL << 2) | (1ULL << 14) | (1ULL << 15))

static int landlock_grant(int ruleset, int dir, const char *name, uint64_t rights)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = rights };
	_cleanup_close_ int fd = openat(dir, name, O_PATH | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return 0; /* a dangling symlink, a file gone meanwhile: nothing to grant */
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LANDLOCK_FILE_RIGHTS;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		return negative_errno();
	return 0;
}

/* Every entry of dir (an open directory fd) but skip. */
static int landlock_grant_all_but(int ruleset, const char *dir, const char *skip,
				  uint64_t rights)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;

	if (!d)
		return negative_errno();
	while (r >= 0 && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, skip))
			r = landlock_grant(ruleset, dirfd(d), e->d_name, rights);
	closedir(d);
	return r;
}

static int landlock_apply(void)
{
	struct landlock_ruleset_attr attr = { 0 };
	_cleanup_close_ int ruleset = -1;
	int abi, r;

	abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1)
		return -EOPNOTSUPP;
	attr.handled_access_fs = landlock_fs_rights(abi);
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return negative_errno();
	r = landlock_grant(ruleset, AT_FDCWD, "/", 1ULL << 3 /* READ_DIR */);
	if (r >= 0)
		r = landlock_grant_all_but(ruleset, "/", "etc", attr.handled_access_fs);
	if (r >= 0)
		r = landlock_grant_all_but(ruleset, "/etc", "shadow", attr.handled_access_fs);
	if (r < 0)
		return r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		return negative_errno();
	return 0;
}

int landlock_exec(char *const *argv)
{
	int r = landlock_apply();

	if (r < 0) {
		fprintf(stderr, "unotify bench landlock: %s\n",
			r == -EOPNOTSUPP ? "this kernel has no Landlock" : strerror(-r));
		return 125;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "unotify bench landlock: %s: %s\n", argv[0], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
