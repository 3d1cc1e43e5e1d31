/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Live tests of the opens performed on a target's behalf
 * (unotify_open_prepare / unotify_open_perform).
 *
 * Every case runs twice, each time in a fresh fixture and a fresh child set
 * up as the case says (user, groups, capabilities, cwd, chroot, umask,
 * dirfd): once natively, once under a filter that sends open, openat and
 * openat2 to us. We resolve and perform the call as the target and inject
 * the fd. The two outcomes must be the same (errno; the very file, or a new
 * file with the same owner and mode), and the resolved path and errno the
 * policy would see must be what the case expects.
 *
 * TAP-like output; exit 0 (all passed), 1 (a failure), 77 (not root, or no
 * seccomp user notification here; the reason is printed).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/openat2.h>

#include "unotify.h"
#include "util.h"

#define NOBODY     65534
#define GROUP      4242
#define DIRFD_SLOT 10    /* the fd number a case's dirfd gets in the child */
#define BAD_DIRFD  999

struct tcase {
	const char *name;
	long nr;                /* 0: openat */
	const char *dirfd;      /* NULL: AT_FDCWD; "-": an fd that is not open; else opened */
	const char *path;       /* '@' stands for the fixture directory */
	int flags;
	mode_t mode;
	uint64_t resolve;       /* openat2 */
	uid_t uid;              /* the target's user (its group is the same number) */
	int ngroups;
	gid_t groups[2];
	bool nocaps;            /* no effective capabilities */
	const char *cwd;        /* NULL: the fixture */
	const char *root;       /* chroot there first */
	mode_t umask;           /* 0: 022 */
	/* What the policy sees: '@' fixture, '%p' the target's pid. */
	const char *want_path;
	int want_plan_error;
	bool want_creates;
	/* What the target gets. */
	int want_errno;
	const char *want_head;  /* found in the first bytes read through the fd */
	mode_t want_mode;       /* a created file's permission bits */
	bool want_symlink;      /* an O_PATH fd on the symlink itself */
	bool no_native;         /* natively it would block: supervised only */
	bool deviates;          /* supervised, the target gets sup_errno instead (documented) */
	int sup_errno;
	/* Harder targets and supervisors. */
	bool thread;            /* the call comes from a second thread with its own cwd and user */
	bool mountns;           /* the target has its own mount namespace, a tmpfs on allowed/sub */
	bool pidns;             /* the target is pid 1 of a pid namespace, with its own /proc */
	uid_t sup_uid;          /* the supervisor runs as this user, without capabilities */
	int want_prepare_error; /* unotify_open_prepare fails so (the target gets ENOSYS) */
	const char *sysctl;     /* "protected_symlinks=1": set under /proc/sys/fs for the case */
};

static const struct tcase cases[] = {
	{ .name = "absolute", .path = "@/allowed/a.txt", .want_path = "@/allowed/a.txt",
	  .want_head = "allowed" },
	{ .name = "relative to cwd", .cwd = "@/allowed", .path = "a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "open(2) relative", .nr = SYS_open, .cwd = "@/allowed", .path = "./sub/../a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "dotdot", .path = "@/allowed/../secret/s.txt", .want_path = "@/secret/s.txt",
	  .want_head = "secret" },
	{ .name = "dotdot beyond the root", .path = "/../../..@/allowed/a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "dotdot from cwd", .cwd = "@/allowed/sub", .path = "../../secret//s.txt",
	  .want_path = "@/secret/s.txt" },
	{ .name = "dirfd", .dirfd = "@/secret", .path = "s.txt", .want_path = "@/secret/s.txt" },
	{ .name = "bad dirfd", .dirfd = "-", .path = "s.txt", .want_path = "/s.txt",
	  .want_plan_error = EBADF, .want_errno = EBADF },
	{ .name = "bad dirfd, absolute path", .dirfd = "-", .path = "@/allowed/a.txt",
	  .want_path = "@/allowed/a.txt" },
	{ .name = "dirfd on a file", .dirfd = "@/allowed/a.txt", .path = "x",
	  .want_path = "@/allowed/a.txt/x", .want_plan_error = ENOTDIR, .want_errno = ENOTDIR },
	{ .name = "symlink inside", .path = "@/allowed/link-in", .want_path = "@/allowed/a.txt" },
	{ .name = "symlink pointing outside", .path = "@/allowed/link-out",
	  .want_path = "@/secret/s.txt" },
	{ .name = "absolute symlink", .cwd = "@/allowed", .path = "link-abs",
	  .want_path = "@/secret/s.txt" },
	{ .name = "missing file behind a symlink", .path = "@/allowed/link-dir/missing",
	  .want_path = "@/secret/missing", .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "missing, lexical guess", .path = "@/nowhere/../x/./y",
	  .want_path = "@/x/y", .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "symlink loop", .path = "@/allowed/loop1", .want_path = "@/allowed/loop1",
	  .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "O_NOFOLLOW on a symlink", .path = "@/allowed/link-in", .flags = O_NOFOLLOW,
	  .want_path = "@/allowed/link-in", .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "O_PATH|O_NOFOLLOW on a symlink", .path = "@/allowed/link-in",
	  .flags = O_PATH | O_NOFOLLOW, .want_path = "@/allowed/link-in", .want_symlink = true,
	  .deviates = true, .sup_errno = EOPNOTSUPP },
	{ .name = "O_PATH on a file", .path = "@/allowed/link-in", .flags = O_PATH,
	  .want_path = "@/allowed/a.txt" },
	{ .name = "O_PATH|O_DIRECTORY", .uid = NOBODY, .path = "@/allowed/sub/",
	  .flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .want_path = "@/allowed/sub" },
	{ .name = "O_PATH|O_CREAT: O_CREAT ignored", .path = "@/allowed/nothere",
	  .flags = O_PATH | O_CREAT, .mode = 0644, .want_path = "@/allowed/nothere",
	  .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "O_PATH on an unreadable file", .uid = NOBODY, .path = "@/secret/s.txt",
	  .flags = O_PATH, .want_path = "@/secret/s.txt", .deviates = true, .sup_errno = EACCES },
	{ .name = "O_PATH on a FIFO", .path = "@/fifo", .flags = O_PATH, .want_path = "@/fifo",
	  .deviates = true, .sup_errno = EOPNOTSUPP },
	{ .name = "trailing slash follows", .path = "@/allowed/link-dir/", .flags = O_NOFOLLOW,
	  .want_path = "@/secret" },
	{ .name = "/proc/self", .path = "/proc/self/status", .want_path = "/proc/%p/status",
	  .want_head = "\nTgid:\t%p\n" },
	{ .name = "/proc/thread-self", .path = "/proc/thread-self/status",
	  .want_path = "/proc/%p/task/%p/status", .want_head = "\nPid:\t%p\n" },
	{ .name = "/proc/mounts (-> self/mounts)", .path = "/proc/mounts",
	  .want_path = "/proc/%p/mounts" },
	{ .name = "/proc/self/fd magic link", .dirfd = "@/secret", .path = "/proc/self/fd/10/s.txt",
	  .want_path = "@/secret/s.txt", .want_head = "secret" },
	{ .name = "symlink to /proc/self/fd", .dirfd = "@/secret", .path = "@/allowed/self-fd/10",
	  .flags = O_DIRECTORY, .want_path = "@/secret" },
	{ .name = "proc from cwd /proc", .cwd = "/proc", .path = "self/status",
	  .want_path = "/proc/%p/status", .want_head = "\nTgid:\t%p\n" },
	{ .name = "create as nobody with umask", .uid = NOBODY, .umask = 027,
	  .path = "@/world/new", .flags = O_CREAT | O_WRONLY, .mode = 0666,
	  .want_path = "@/world/new", .want_creates = true, .want_mode = 0640 },
	{ .name = "create relative", .cwd = "@/world", .path = "new2",
	  .flags = O_CREAT | O_EXCL | O_RDWR, .mode = 0600, .want_path = "@/world/new2",
	  .want_creates = true, .want_mode = 0600 },
	{ .name = "create through dangling symlink", .path = "@/allowed/dangling",
	  .flags = O_CREAT | O_WRONLY, .mode = 0644, .want_path = "@/allowed/newfile",
	  .want_creates = true, .want_mode = 0644 },
	{ .name = "O_EXCL on dangling symlink", .path = "@/allowed/dangling",
	  .flags = O_CREAT | O_EXCL | O_WRONLY, .mode = 0644, .want_path = "@/allowed/dangling",
	  .want_plan_error = EEXIST, .want_errno = EEXIST },
	{ .name = "O_EXCL on existing file", .path = "@/allowed/a.txt",
	  .flags = O_CREAT | O_EXCL | O_WRONLY, .mode = 0644, .want_path = "@/allowed/a.txt",
	  .want_plan_error = EEXIST, .want_errno = EEXIST },
	{ .name = "O_CREAT on existing file", .path = "@/allowed/a.txt", .flags = O_CREAT | O_RDWR,
	  .mode = 0644, .want_path = "@/allowed/a.txt", .want_head = "allowed" },
	{ .name = "O_CREAT in a locked dir", .uid = NOBODY, .path = "@/allowed/new",
	  .flags = O_CREAT | O_WRONLY, .mode = 0644, .want_path = "@/allowed/new",
	  .want_creates = true, .want_errno = EACCES },
	{ .name = "O_CREAT with trailing slash", .path = "@/world/x/", .flags = O_CREAT | O_WRONLY,
	  .mode = 0644, .want_path = "@/world/x", .want_plan_error = EISDIR, .want_errno = EISDIR },
	{ .name = "O_CREAT on a directory", .path = "@/allowed", .flags = O_CREAT | O_RDONLY,
	  .mode = 0644, .want_path = "@/allowed", .want_plan_error = EISDIR, .want_errno = EISDIR },
	{ .name = "O_CREAT on dot", .cwd = "@/allowed", .path = ".", .flags = O_CREAT | O_EXCL,
	  .mode = 0644, .want_path = "@/allowed", .want_plan_error = EEXIST,
	  .want_errno = EEXIST },
	{ .name = "O_DIRECTORY on a file", .path = "@/allowed/a.txt", .flags = O_DIRECTORY,
	  .want_path = "@/allowed/a.txt", .want_plan_error = ENOTDIR, .want_errno = ENOTDIR },
	{ .name = "trailing slash on a file", .path = "@/allowed/a.txt/",
	  .want_path = "@/allowed/a.txt", .want_plan_error = ENOTDIR, .want_errno = ENOTDIR },
	{ .name = "directory for writing", .path = "@/allowed", .flags = O_WRONLY,
	  .want_path = "@/allowed", .want_errno = EISDIR },
	{ .name = "nobody, root-only file", .uid = NOBODY, .path = "@/secret/s.txt",
	  .want_path = "@/secret/s.txt", .want_errno = EACCES },
	{ .name = "nobody, unsearchable dir", .uid = NOBODY, .path = "@/locked/x.txt",
	  .want_path = "@/locked/x.txt", .want_plan_error = EACCES, .want_errno = EACCES },
	{ .name = "nobody, own file", .uid = NOBODY, .path = "@/secret/nobody.txt",
	  .flags = O_RDWR, .want_path = "@/secret/nobody.txt" },
	{ .name = "nobody, supplementary group", .uid = NOBODY, .ngroups = 1, .groups = { GROUP },
	  .path = "@/secret/group.txt", .want_path = "@/secret/group.txt", .want_head = "group" },
	{ .name = "nobody, without the group", .uid = NOBODY, .path = "@/secret/group.txt",
	  .want_path = "@/secret/group.txt", .want_errno = EACCES },
	{ .name = "root without capabilities", .nocaps = true, .path = "@/secret/nobody.txt",
	  .want_path = "@/secret/nobody.txt", .want_errno = EACCES },
	{ .name = "root without capabilities, own file", .nocaps = true, .path = "@/secret/s.txt",
	  .want_path = "@/secret/s.txt" },
	{ .name = "chroot", .root = "@/root", .path = "/etc/hostname", .want_path = "/etc/hostname",
	  .want_head = "chroot" },
	{ .name = "chroot, dotdot", .root = "@/root", .path = "/../../../etc/../etc/hostname",
	  .want_path = "/etc/hostname", .want_head = "chroot" },
	{ .name = "chroot, absolute symlink", .root = "@/root", .path = "/link-abs",
	  .want_path = "/etc/hostname", .want_head = "chroot" },
	{ .name = "chroot, missing", .root = "@/root", .path = "/../etc/shadow",
	  .want_path = "/etc/shadow", .want_plan_error = ENOENT, .want_errno = ENOENT },
	{ .name = "O_TRUNC", .path = "@/allowed/trunc.txt", .flags = O_WRONLY | O_TRUNC,
	  .want_path = "@/allowed/trunc.txt" },
	{ .name = "O_APPEND|O_NONBLOCK|O_CLOEXEC", .path = "@/allowed/a.txt",
	  .flags = O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC, .want_path = "@/allowed/a.txt" },
	{ .name = "O_TMPFILE", .uid = NOBODY, .umask = 077, .path = "@/world",
	  .flags = O_TMPFILE | O_RDWR, .mode = 0666, .want_path = "@/world", .want_mode = 0600 },
	{ .name = "FIFO, non-blocking", .path = "@/fifo", .flags = O_RDONLY | O_NONBLOCK,
	  .want_path = "@/fifo" },
	{ .name = "FIFO, blocking reader", .path = "@/fifo", .flags = O_RDONLY,
	  .want_path = "@/fifo", .no_native = true },
	{ .name = "empty path", .path = "", .want_path = "/", .want_plan_error = ENOENT,
	  .want_errno = ENOENT },
	{ .name = "name too long",
	  .path = "@/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	  .want_plan_error = ENAMETOOLONG, .want_errno = ENAMETOOLONG },
	{ .name = "O_DIRECTORY|O_CREAT", .path = "@/world/d", .flags = O_DIRECTORY | O_CREAT,
	  .want_path = "@/world/d", .want_plan_error = EINVAL, .want_errno = EINVAL },
	{ .name = "thread with its own cwd and user", .thread = true, .uid = NOBODY,
	  .cwd = "@/allowed", .path = "a.txt", .want_path = "@/allowed/a.txt" },
	{ .name = "thread's own user decides", .thread = true, .uid = NOBODY,
	  .path = "@/secret/s.txt", .want_path = "@/secret/s.txt", .want_errno = EACCES },
	{ .name = "thread-self in a thread", .thread = true, .path = "/proc/thread-self/status",
	  .want_path = "/proc/%p/task/%t/status", .want_head = "\nPid:\t%t\n" },
	{ .name = "mount namespace", .mountns = true, .path = "@/allowed/sub/m.txt",
	  .want_path = "@/allowed/sub/m.txt", .want_head = "mounted" },
	{ .name = "mount namespace, RESOLVE_NO_XDEV", .mountns = true, .nr = SYS_openat2,
	  .dirfd = "@/allowed", .path = "sub/m.txt", .resolve = RESOLVE_NO_XDEV,
	  .want_path = "@/allowed/sub/m.txt", .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "pid namespace with its own /proc", .pidns = true, .path = "/proc/self/status",
	  .want_path = "/proc/%p/status", .want_head = "\nTgid:\t%p\n" },
	{ .name = "unprivileged supervisor", .sup_uid = NOBODY, .uid = NOBODY, .cwd = "@/allowed",
	  .path = "link-in", .want_path = "@/allowed/a.txt", .want_head = "allowed" },
	{ .name = "unprivileged supervisor, create", .sup_uid = NOBODY, .uid = NOBODY,
	  .path = "@/world/u", .flags = O_CREAT | O_WRONLY, .mode = 0666,
	  .want_path = "@/world/u", .want_creates = true, .want_mode = 0644 },
	{ .name = "unprivileged supervisor, target with more groups", .sup_uid = NOBODY,
	  .uid = NOBODY, .ngroups = 1, .groups = { GROUP }, .path = "@/secret/group.txt",
	  .want_prepare_error = EPERM },
	{ .name = "protected_symlinks", .sysctl = "protected_symlinks=1", .uid = NOBODY,
	  .path = "@/sticky/lnk", .want_path = "@/sticky/lnk", .want_plan_error = EACCES,
	  .want_errno = EACCES },
	{ .name = "protected_symlinks off", .sysctl = "protected_symlinks=0", .uid = NOBODY,
	  .path = "@/sticky/lnk", .want_path = "@/allowed/a.txt" },
	{ .name = "protected_symlinks, own link", .sysctl = "protected_symlinks=1", .uid = 1000,
	  .path = "@/sticky/lnk", .want_path = "@/allowed/a.txt" },
	{ .name = "protected_regular", .sysctl = "protected_regular=1", .uid = NOBODY,
	  .path = "@/sticky/reg", .flags = O_CREAT | O_WRONLY, .mode = 0644,
	  .want_path = "@/sticky/reg", .want_plan_error = EACCES, .want_errno = EACCES },
	{ .name = "protected_regular off", .sysctl = "protected_regular=0", .uid = NOBODY,
	  .path = "@/sticky/reg", .flags = O_CREAT | O_WRONLY, .mode = 0644,
	  .want_path = "@/sticky/reg" },
	{ .name = "setgid directory", .uid = NOBODY, .path = "@/sgid/new",
	  .flags = O_CREAT | O_WRONLY, .mode = 0666, .want_path = "@/sgid/new",
	  .want_creates = true, .want_mode = 0644 },
	{ .name = "openat2", .nr = SYS_openat2, .path = "@/allowed/link-out",
	  .want_path = "@/secret/s.txt" },
	{ .name = "openat2 RESOLVE_BENEATH escaping", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "../secret/s.txt", .resolve = RESOLVE_BENEATH, .want_path = "@/secret/s.txt",
	  .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "openat2 RESOLVE_BENEATH symlink escaping", .nr = SYS_openat2,
	  .dirfd = "@/allowed", .path = "link-out", .resolve = RESOLVE_BENEATH,
	  .want_path = "@/secret/s.txt", .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "openat2 RESOLVE_BENEATH inside", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "sub/../link-in", .resolve = RESOLVE_BENEATH, .want_path = "@/allowed/a.txt" },
	{ .name = "openat2 RESOLVE_BENEATH absolute", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "@/allowed/a.txt", .resolve = RESOLVE_BENEATH, .want_path = "@/allowed/a.txt",
	  .want_plan_error = EXDEV, .want_errno = EXDEV },
	{ .name = "openat2 RESOLVE_IN_ROOT", .nr = SYS_openat2, .dirfd = "@/allowed",
	  .path = "/../../a.txt", .resolve = RESOLVE_IN_ROOT, .want_path = "@/allowed/a.txt" },
	{ .name = "openat2 RESOLVE_IN_ROOT absolute symlink", .nr = SYS_openat2,
	  .dirfd = "@/root", .path = "link-abs", .resolve = RESOLVE_IN_ROOT,
	  .want_path = "@/root/etc/hostname", .want_head = "chroot" },
	{ .name = "openat2 RESOLVE_NO_SYMLINKS", .nr = SYS_openat2, .path = "@/allowed/link-in",
	  .resolve = RESOLVE_NO_SYMLINKS, .want_path = "@/allowed/link-in",
	  .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "openat2 RESOLVE_NO_MAGICLINKS", .nr = SYS_openat2, .dirfd = "@/secret",
	  .path = "/proc/self/fd/10", .resolve = RESOLVE_NO_MAGICLINKS,
	  .want_path = "/proc/%p/fd/10", .want_plan_error = ELOOP, .want_errno = ELOOP },
	{ .name = "openat2 RESOLVE_NO_XDEV", .nr = SYS_openat2, .path = "/proc/self/status",
	  .resolve = RESOLVE_NO_XDEV, .want_path = "/proc/self/status", .want_plan_error = EXDEV,
	  .want_errno = EXDEV },
	{ .name = "openat2 unknown resolve flag", .nr = SYS_openat2, .path = "@/allowed/a.txt",
	  .resolve = 0x4000, .want_path = "@/allowed/a.txt", .want_plan_error = EINVAL,
	  .want_errno = EINVAL },
	{ .name = "openat2 mode without O_CREAT", .nr = SYS_openat2, .path = "@/allowed/a.txt",
	  .mode = 0644, .want_path = "@/allowed/a.txt", .want_plan_error = EINVAL,
	  .want_errno = EINVAL },
};

static char fixture[64];
static int test_count, test_failures;

/* ---- Fixture ---- */

static void die(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(1);
}

static void fx_path(const char *rel, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", fixture, rel);
}

static void fx_dir(const char *rel, mode_t mode)
{
	char p[PATH_MAX];

	fx_path(rel, p, sizeof(p));
	if (mkdir(p, mode) < 0 || chmod(p, mode) < 0)
		die(p);
}

static void fx_file(const char *rel, const char *text, mode_t mode, uid_t uid, gid_t gid)
{
	char p[PATH_MAX];
	int fd;

	fx_path(rel, p, sizeof(p));
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, text, strlen(text)) < 0 || fchown(fd, uid, gid) < 0 ||
	    fchmod(fd, mode) < 0)
		die(p);
	close(fd);
}

static void fx_link(const char *rel, const char *target)
{
	char p[PATH_MAX], t[PATH_MAX];

	fx_path(rel, p, sizeof(p));
	snprintf(t, sizeof(t), "%s", target);
	if (t[0] == '@')
		snprintf(t, sizeof(t), "%s%s", fixture, target + 1);
	if (symlink(t, p) < 0)
		die(p);
}

static void fixture_reset(void)
{
	char cmd[128], p[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture);
	if (system(cmd) != 0 || mkdir(fixture, 0755) < 0)
		die("fixture");
	fx_dir("allowed", 0755);
	fx_dir("allowed/sub", 0755);
	fx_file("allowed/a.txt", "allowed\n", 0644, 0, 0);
	fx_file("allowed/trunc.txt", "some content\n", 0666, 0, 0);
	fx_link("allowed/link-in", "a.txt");
	fx_link("allowed/link-out", "../secret/s.txt");
	fx_link("allowed/link-abs", "@/secret/s.txt");
	fx_link("allowed/link-dir", "../secret");
	fx_link("allowed/dangling", "newfile");
	fx_link("allowed/loop1", "loop2");
	fx_link("allowed/loop2", "loop1");
	fx_link("allowed/self-fd", "/proc/self/fd");
	fx_dir("secret", 0755);
	fx_file("secret/s.txt", "secret\n", 0600, 0, 0);
	fx_file("secret/group.txt", "group\n", 0640, 0, GROUP);
	fx_file("secret/nobody.txt", "nobody\n", 0600, NOBODY, NOBODY);
	fx_dir("locked", 0700);
	fx_file("locked/x.txt", "x\n", 0644, 0, 0);
	fx_dir("world", 0777);
	fx_dir("root", 0755);
	fx_dir("root/etc", 0755);
	fx_file("root/etc/hostname", "chroot\n", 0644, 0, 0);
	fx_link("root/link-abs", "/etc/hostname");
	fx_dir("sticky", 01777);
	fx_link("sticky/lnk", "../allowed/a.txt");
	fx_path("sticky/lnk", p, sizeof(p));
	if (lchown(p, 1000, 1000) < 0)
		die(p);
	fx_file("sticky/reg", "reg\n", 0666, 1000, 1000);
	fx_dir("sgid", 02777);
	fx_path("sgid", p, sizeof(p));
	if (chown(p, 0, GROUP) < 0 || chmod(p, 02777) < 0)
		die(p);
	fx_path("fifo", p, sizeof(p));
	if (mkfifo(p, 0666) < 0)
		die(p);
}

/* '@' becomes the fixture, "%p" the pid, "%t" the tid. */
static void expand_tid(const char *in, pid_t pid, pid_t tid, char *out, size_t size)
{
	size_t n = 0;

	for (; *in && n + 1 < size; in++) {
		int w = 0;

		if (*in == '@')
			w = snprintf(out + n, size - n, "%s", fixture);
		else if (in[0] == '%' && in[1] == 'p')
			w = snprintf(out + n, size - n, "%d", (int)pid), in++;
		else if (in[0] == '%' && in[1] == 't')
			w = snprintf(out + n, size - n, "%d", (int)tid), in++;
		else
			out[n] = *in, w = 1;
		n += (size_t)w < size - n ? (size_t)w : size - n - 1;
	}
	out[n] = '\0';
}

static void expand(const char *in, pid_t pid, char *out, size_t size)
{
	expand_tid(in, pid, pid, out, size);
}

/* ---- The target ---- */

struct report {
	int setup_error;
	int err;
	pid_t pid;
	pid_t tid;
	struct stat st;
	int fl;
	int fdfl;
	char head[512];
};

static int send_msg(int sock, const void *buf, size_t len, int fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *cm;

		msg.msg_control = control;
		msg.msg_controllen = sizeof(control);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) < 0 ? -errno : 0;
}

static ssize_t recv_msg(int sock, void *buf, size_t len, int *ret_fd)
{
	char control[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;
	ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);

	if (ret_fd)
		*ret_fd = -1;
	if (n < 0)
		return -errno;
	cm = CMSG_FIRSTHDR(&msg);
	if (ret_fd && cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(ret_fd, CMSG_DATA(cm), sizeof(int));
	return n;
}

static int child_drop_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	d[0].effective = d[1].effective = 0;
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

/* A tmpfs over allowed/sub that only the target's mount namespace has. */
static int child_mountns(void)
{
	char p[PATH_MAX];
	int fd;

	fx_path("allowed/sub", p, sizeof(p));
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", p, "tmpfs", 0, "mode=0755") < 0)
		return -errno;
	fx_path("allowed/sub/m.txt", p, sizeof(p));
	fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "mounted\n", 8) != 8)
		return -errno;
	close(fd);
	return 0;
}

static int child_setup(const struct tcase *c)
{
	char p[PATH_MAX];

	if (c->mountns && child_mountns() < 0)
		return -errno;
	if (c->dirfd && strcmp(c->dirfd, "-") == 0) {
		close(BAD_DIRFD);
	} else if (c->dirfd) {
		int fd;

		expand(c->dirfd, 0, p, sizeof(p));
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || dup2(fd, DIRFD_SLOT) < 0)
			return -errno;
	}
	expand(c->cwd && !c->thread ? c->cwd : "@", 0, p, sizeof(p));
	if (chdir(p) < 0)
		return -errno;
	if (c->root) {
		expand(c->root, 0, p, sizeof(p));
		if (chroot(p) < 0 || chdir("/") < 0)
			return -errno;
	}
	umask(c->umask ? c->umask : 022);
	if (setgroups((size_t)c->ngroups, c->groups) < 0)
		return -errno;
	if (!c->thread && c->uid &&
	    (setresgid(c->uid, c->uid, c->uid) < 0 || setresuid(c->uid, c->uid, c->uid) < 0))
		return -errno;
	/* An unprivileged supervisor needs ptrace access, as after exec. */
	if (prctl(PR_SET_DUMPABLE, 1) < 0)
		return -errno;
	return c->nocaps ? child_drop_caps() : 0;
}

static int child_filter(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int fd;

	if (!ctx)
		return -ENOMEM;
	if (seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(openat), 0) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(open), 0) < 0 ||
	    seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(openat2), 0) < 0 ||
	    seccomp_load(ctx) < 0) {
		seccomp_release(ctx);
		return -EPERM;
	}
	fd = seccomp_notify_fd(ctx);
	seccomp_release(ctx);
	return fd;
}

static long child_call(const struct tcase *c, const char *path)
{
	int dirfd = !c->dirfd ? AT_FDCWD : strcmp(c->dirfd, "-") == 0 ? BAD_DIRFD : DIRFD_SLOT;
	struct open_how how = { .flags = (uint64_t)c->flags, .mode = c->mode,
				.resolve = c->resolve };

	switch (c->nr) {
	case SYS_open:
		return syscall(SYS_open, path, c->flags, c->mode);
	case SYS_openat2:
		return syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	default:
		return syscall(SYS_openat, dirfd, path, c->flags, c->mode);
	}
}

static void child_report(long fd, struct report *rep)
{
	rep->err = fd < 0 ? errno : 0;
	rep->pid = getpid();
	rep->tid = gettid();
	if (fd < 0)
		return;
	fstat((int)fd, &rep->st);
	rep->fl = fcntl((int)fd, F_GETFL);
	rep->fdfl = fcntl((int)fd, F_GETFD);
	if (pread((int)fd, rep->head, sizeof(rep->head) - 1, 0) < 0)
		rep->head[0] = '\0';
}

struct child_thread {
	const struct tcase *c;
	const char *path;
	struct report *rep;
};

/* A second thread with its own cwd (CLONE_FS) and its own user (raw, per-thread setresuid). */
static void *child_thread(void *arg)
{
	struct child_thread *a = arg;
	const struct tcase *c = a->c;
	char cwd[PATH_MAX];
	long r;

	expand(c->cwd ? c->cwd : "@", 0, cwd, sizeof(cwd));
	if (unshare(CLONE_FS) < 0 || chdir(cwd) < 0 ||
	    (c->uid && (syscall(SYS_setresgid, c->uid, c->uid, c->uid) < 0 ||
			syscall(SYS_setresuid, c->uid, c->uid, c->uid) < 0))) {
		a->rep->setup_error = errno;
		return NULL;
	}
	r = child_call(c, a->path);
	child_report(r, a->rep);
	return NULL;
}

static long child_call_maybe_thread(const struct tcase *c, const char *path, struct report *rep)
{
	struct child_thread a = { c, path, rep };
	pthread_t t;
	long r;

	if (!c->thread) {
		r = child_call(c, path);
		child_report(r, rep);
		return 0;
	}
	if (pthread_create(&t, NULL, child_thread, &a) != 0 || pthread_join(t, NULL) != 0)
		return -1;
	return 0;
}

/* Own pid and mount namespaces, a fresh /proc: we go on as their pid 1. */
static int child_pidns(void)
{
	pid_t p;
	int status;

	if (unshare(CLONE_NEWPID | CLONE_NEWNS) < 0)
		return -errno;
	p = fork();
	if (p < 0)
		return -errno;
	if (p > 0) {
		waitpid(p, &status, 0);
		_exit(0);
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", "/proc", "proc", 0, NULL) < 0)
		return -errno;
	return 0;
}

static void __attribute__((noreturn)) child_main(const struct tcase *c, int sock, bool supervised)
{
	struct report rep = { 0 };
	char path[PATH_MAX];
	int fd = -1;

	expand(c->path, 0, path, sizeof(path));
	rep.setup_error = c->pidns ? -child_pidns() : 0;
	if (!rep.setup_error)
		rep.setup_error = -child_setup(c);
	if (!rep.setup_error && supervised) {
		fd = child_filter();
		if (fd < 0)
			rep.setup_error = -fd;
	}
	send_msg(sock, &rep, sizeof(rep), fd);
	if (rep.setup_error)
		_exit(1);
	if (fd >= 0)
		close(fd);
	if (child_call_maybe_thread(c, path, &rep) < 0)
		rep.setup_error = EAGAIN;
	send_msg(sock, &rep, sizeof(rep), -1);
	_exit(0);
}

/* ---- The supervisor side ---- */

struct seen {
	int prepare;
	bool called;
	char path[4096];
	int plan_error;
	bool creates;
	int perform;
	int result;
};

static int sup_how(unotify_listener *l, const struct seccomp_notif *req, char *path,
		   size_t size, struct unotify_open_how *how)
{
	const __u64 *a = req->data.args;
	int r;

	*how = (struct unotify_open_how){ .dirfd = (int)a[0], .flags = a[2], .mode = a[3] };
	if (req->data.nr == SYS_open)
		*how = (struct unotify_open_how){ .dirfd = AT_FDCWD, .flags = a[1], .mode = a[2] };
	r = unotify_mem_read_string(l, req, req->data.nr == SYS_open ? a[0] : a[1], path, size);
	if (r < 0)
		return r;
	how->path = path;
	if (req->data.nr == SYS_openat2) {
		struct open_how oh;

		r = unotify_mem_read(l, req, a[2], &oh, sizeof(oh));
		if (r < 0)
			return r;
		how->flags = oh.flags;
		how->mode = oh.mode;
		how->resolve = oh.resolve;
	}
	return 0;
}

/* Resolves, performs and answers one notification, as the daemon's enforcer does. */
static int sup_handle(unotify_listener *l, struct seen *seen)
{
	const struct seccomp_notif *req;
	struct unotify_open_plan plan;
	struct unotify_open_how how;
	char path[4096];
	int r, fd;

	r = unotify_listener_recv(l, &req);
	if (r < 0)
		return r;
	r = sup_how(l, req, path, sizeof(path), &how);
	if (r < 0) {
		unotify_reply_errno(l, req->id, ENOSYS);
		return r;
	}
	r = unotify_open_prepare(l, req, &how, &plan);
	seen->prepare = r;
	if (r < 0) {
		/* Fail closed, as the enforcer does. */
		unotify_reply_errno(l, req->id, ENOSYS);
		return 0;
	}
	seen->called = true;
	snprintf(seen->path, sizeof(seen->path), "%s", plan.path);
	seen->plan_error = plan.error;
	seen->creates = plan.creates;
	fd = unotify_open_perform(&plan);
	seen->perform = fd;
	if (fd >= 0) {
		r = unotify_reply_addfd(l, req->id, fd, (how.flags & O_CLOEXEC) ? O_CLOEXEC : 0);
		close(fd);
	} else {
		r = unotify_reply_errno(l, req->id, -fd);
	}
	unotify_open_plan_release(&plan);
	return r < 0 ? r : 0;
}

static int sup_run(int listener, struct seen *seen)
{
	unotify_listener *l;
	int r;

	r = unotify_listener_new(listener, &l);
	if (r < 0)
		return r;
	r = sup_handle(l, seen);
	unotify_listener_free(l);
	return r;
}

/* The supervisor as an ordinary user: a child drops root and every capability. */
static int sup_run_as(uid_t uid, int listener, struct seen *seen)
{
	int pfd[2], status, r;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		r = 0;
		if (setgroups(0, NULL) < 0 || setresgid(uid, uid, uid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			r = -errno;
		if (r == 0)
			r = sup_run(listener, seen);
		else
			close(listener);
		seen->result = r;
		_exit(write(pfd[1], seen, sizeof(*seen)) == sizeof(*seen) ? 0 : 1);
	}
	close(listener);
	close(pfd[1]);
	r = read(pfd[0], seen, sizeof(*seen)) == sizeof(*seen) ? seen->result : -EPROTO;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	return r;
}

/* Runs the case in a child; supervised or not. */
static int run_child(const struct tcase *c, bool supervised, struct report *rep, struct seen *seen)
{
	int sv[2], listener = -1, status;
	struct report first;
	pid_t pid;
	int r = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(sv[0]);
		child_main(c, sv[1], supervised);
	}
	close(sv[1]);
	if (recv_msg(sv[0], &first, sizeof(first), &listener) != sizeof(first))
		r = -EPROTO;
	else if (first.setup_error)
		r = -first.setup_error;
	if (r == 0 && supervised) {
		r = c->sup_uid ? sup_run_as(c->sup_uid, listener, seen) : sup_run(listener, seen);
		listener = -1;
	}
	if (listener >= 0)
		close(listener);
	if (r == 0 && recv_msg(sv[0], rep, sizeof(*rep), NULL) != sizeof(*rep))
		r = -EPROTO;
	close(sv[0]);
	if (r < 0)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return r;
}

/* ---- Checks ---- */

#define CHECK(cond, ...)                                        \
	do {                                                    \
		if (!(cond)) {                                  \
			printf("#   %s: ", c->name);            \
			printf(__VA_ARGS__);                    \
			printf("\n");                           \
			ok = false;                             \
		}                                               \
	} while (0)

static bool check_outcome(const struct tcase *c, const struct report *rep, const char *who,
			  int want_errno)
{
	char want[PATH_MAX];
	bool ok = true;

	CHECK(rep->err == want_errno, "%s: errno %d (%s), expected %d (%s)", who, rep->err,
	      strerror(rep->err), want_errno, strerror(want_errno));
	if (rep->err || want_errno)
		return ok;
	if (c->want_head) {
		expand_tid(c->want_head, rep->pid, rep->tid, want, sizeof(want));
		CHECK(strstr(rep->head, want), "%s: read '%.40s', expected '%s' in it", who,
		      rep->head, want);
	}
	if (c->want_mode)
		CHECK((rep->st.st_mode & 07777) == c->want_mode, "%s: mode %o, expected %o", who,
		      rep->st.st_mode & 07777, c->want_mode);
	CHECK(S_ISLNK(rep->st.st_mode) == c->want_symlink, "%s: symlink %d", who,
	      S_ISLNK(rep->st.st_mode));
	/* ADDFD takes no O_PATH file: the target gets a read-only one (lib/open.c). */
	if ((c->flags & O_PATH) && strcmp(who, "supervised") == 0)
		CHECK((rep->fl & (O_PATH | O_ACCMODE)) == O_RDONLY, "%s: flags %#o", who, rep->fl);
	return ok;
}

static bool check_plan(const struct tcase *c, const struct seen *seen, pid_t pid, pid_t tid)
{
	char want[PATH_MAX];
	bool ok = true;

	CHECK(seen->prepare == -c->want_prepare_error, "prepare returned %d (%s), expected %d",
	      seen->prepare, strerror(-seen->prepare), -c->want_prepare_error);
	if (c->want_prepare_error)
		return ok;
	CHECK(seen->called, "no notification handled");
	if (!seen->called)
		return false;
	if (c->want_path) {
		expand_tid(c->want_path, pid, tid, want, sizeof(want));
		CHECK(strcmp(seen->path, want) == 0, "plan path '%s', expected '%s'", seen->path,
		      want);
	}
	CHECK(seen->plan_error == c->want_plan_error, "plan error %d (%s), expected %d",
	      seen->plan_error, strerror(seen->plan_error), c->want_plan_error);
	CHECK(seen->creates == c->want_creates, "plan creates %d", seen->creates);
	return ok;
}

/* Does the case change the fixture? Then each run gets a fresh one. */
static bool case_mutates(const struct tcase *c)
{
	return c->want_creates || (c->flags & O_TRUNC) || (c->flags & O_TMPFILE) == O_TMPFILE;
}

/* Does the case open a file of the target's own in /proc (one per process)? */
static bool case_proc(const struct tcase *c)
{
	return strstr(c->path, "proc/") || (c->cwd && strcmp(c->cwd, "/proc") == 0);
}

/* The same file, or (created) one with the same owner, mode, flags. */
static bool check_same(const struct tcase *c, const struct report *n, const struct report *s)
{
	const int fl = O_ACCMODE | O_APPEND | O_NONBLOCK | ((c->flags & O_PATH) ? 0 : O_PATH) |
		       O_DIRECT | O_NOATIME;
	bool ok = true;

	if (n->err || s->err || c->deviates)
		return true;
	if (!case_mutates(c) && !case_proc(c))
		CHECK(n->st.st_dev == s->st.st_dev && n->st.st_ino == s->st.st_ino,
		      "supervised opened another file than native");
	CHECK(n->st.st_mode == s->st.st_mode, "mode %o natively, %o supervised", n->st.st_mode,
	      s->st.st_mode);
	CHECK(n->st.st_uid == s->st.st_uid && n->st.st_gid == s->st.st_gid,
	      "owner %d:%d natively, %d:%d supervised", n->st.st_uid, n->st.st_gid, s->st.st_uid,
	      s->st.st_gid);
	CHECK(n->st.st_size == s->st.st_size, "size %lld natively, %lld supervised",
	      (long long)n->st.st_size, (long long)s->st.st_size);
	CHECK((n->fl & fl) == (s->fl & fl), "flags %#o natively, %#o supervised", n->fl & fl,
	      s->fl & fl);
	CHECK(n->fdfl == s->fdfl, "fd flags %d natively, %d supervised", n->fdfl, s->fdfl);
	return ok;
}

static bool run_case(const struct tcase *c)
{
	struct report native = { 0 }, sup = { 0 };
	struct seen seen = { 0 };
	bool ok = true;
	int r;

	if (!c->no_native && !c->want_prepare_error) {
		fixture_reset();
		r = run_child(c, false, &native, NULL);
		CHECK(r == 0, "native run failed: %s", strerror(-r));
		if (r == 0)
			ok = check_outcome(c, &native, "natively", c->want_errno) && ok;
	}
	if (c->no_native || c->want_prepare_error || case_mutates(c))
		fixture_reset();
	r = run_child(c, true, &sup, &seen);
	CHECK(r == 0, "supervised run failed: %s", strerror(-r));
	if (r < 0)
		return false;
	ok = check_plan(c, &seen, sup.pid, sup.tid) && ok;
	if (c->want_prepare_error) {
		CHECK(sup.err == ENOSYS, "the target got %d, expected ENOSYS", sup.err);
		return ok;
	}
	ok = check_outcome(c, &sup, "supervised", c->deviates ? c->sup_errno : c->want_errno) &&
	     ok;
	if (!c->no_native)
		ok = check_same(c, &native, &sup) && ok;
	if (c->no_native && !sup.err)
		CHECK(!(sup.fl & O_NONBLOCK), "a blocking open came back non-blocking");
	return ok;
}

static const char *skip_reason;

static int sysctl_rw(const char *path, char *buf, size_t size, bool write_it)
{
	int fd = open(path, (write_it ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write_it ? write(fd, buf, strlen(buf)) : read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	if (!write_it)
		buf[n] = '\0';
	return 0;
}

/* A case that needs a tunable of fs/ set: set it for the case, then put it back. */
static bool run_case_sysctl(const struct tcase *c)
{
	const char *eq;
	char path[128], old[32], val[32];
	bool ok;

	skip_reason = NULL;
	if (!c->sysctl)
		return run_case(c);
	eq = strchr(c->sysctl, '=');
	snprintf(path, sizeof(path), "/proc/sys/fs/%.*s", (int)(eq - c->sysctl), c->sysctl);
	snprintf(val, sizeof(val), "%s", eq + 1);
	if (sysctl_rw(path, old, sizeof(old), false) < 0 || sysctl_rw(path, val, 0, true) < 0) {
		skip_reason = "cannot set the sysctl";
		return true;
	}
	ok = run_case(c);
	if (sysctl_rw(path, old, 0, true) < 0)
		printf("# could not restore %s to %s", path, old);
	return ok;
}

/* The target dies while we hold its notification: prepare says -ENOENT, nothing else. */
static bool test_gone(void)
{
	static const struct tcase c = { .name = "gone", .path = "@/allowed/a.txt" };
	const struct seccomp_notif *req;
	struct unotify_open_plan plan;
	struct unotify_open_how how = { .dirfd = AT_FDCWD, .path = "/etc/hostname" };
	struct report first;
	unotify_listener *l = NULL;
	int sv[2], listener = -1, status, r = -EPROTO;
	pid_t pid;

	fixture_reset();
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		close(sv[0]);
		child_main(&c, sv[1], true);
	}
	close(sv[1]);
	if (recv_msg(sv[0], &first, sizeof(first), &listener) == sizeof(first) &&
	    unotify_listener_new(listener, &l) == 0 && unotify_listener_recv(l, &req) == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		pid = -1;
		r = unotify_open_prepare(l, req, &how, &plan);
		if (r == 0)
			unotify_open_plan_release(&plan);
	}
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	unotify_listener_free(l);
	close(sv[0]);
	if (r != -ENOENT)
		printf("#   gone: prepare returned %d, expected -ENOENT\n", r);
	return r == -ENOENT;
}

/* ---- The supervising thread must come back exactly as it was ---- */

struct thread_state {
	uid_t fsuid;
	gid_t fsgid;
	int ngroups;
	gid_t groups[64];
	mode_t umask;
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	struct stat root, cwd;
	int fds;
};

static void thread_state(struct thread_state *s)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	memset(s, 0, sizeof(*s));
	s->fsuid = (uid_t)syscall(SYS_setfsuid, -1);
	s->fsgid = (gid_t)syscall(SYS_setfsgid, -1);
	s->ngroups = getgroups(64, s->groups);
	s->umask = umask(0);
	umask(s->umask);
	syscall(SYS_capget, &h, s->caps);
	stat("/", &s->root);
	stat(".", &s->cwd);
	for (int fd = 0; fd < 1024; fd++)
		s->fds += fcntl(fd, F_GETFD) >= 0;
}

static bool thread_state_equal(const struct thread_state *a, const struct thread_state *b)
{
	return a->fsuid == b->fsuid && a->fsgid == b->fsgid && a->ngroups == b->ngroups &&
	       memcmp(a->groups, b->groups, sizeof(a->groups)) == 0 && a->umask == b->umask &&
	       memcmp(a->caps, b->caps, sizeof(a->caps)) == 0 &&
	       a->root.st_ino == b->root.st_ino && a->root.st_dev == b->root.st_dev &&
	       a->cwd.st_ino == b->cwd.st_ino && a->cwd.st_dev == b->cwd.st_dev &&
	       a->fds == b->fds;
}

static int skip(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	return 77;
}

int main(void)
{
	struct thread_state before, after;
	struct unotify_features f;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0)
		return skip("needs root (targets of other users, chroot)");
	if (unotify_features_probe(&f) < 0 || !f.user_notif || !f.addfd || !f.openat2)
		return skip("seccomp user notification with ADDFD and openat2 unavailable");
	if (unotify_thread_init() < 0)
		die("unotify_thread_init");
	snprintf(fixture, sizeof(fixture), "/tmp/unotify-test-open.XXXXXX");
	if (!mkdtemp(fixture))
		die("mkdtemp");
	alarm(300);
	umask(022);
	thread_state(&before);
	printf("1..%zu\n", ARRAY_SIZE(cases) + 2);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool ok = run_case_sysctl(&cases[i]);

		test_count++;
		test_failures += !ok;
		printf("%sok %d - %s%s%s\n", ok ? "" : "not ", test_count, cases[i].name,
		       skip_reason ? " # SKIP " : "", skip_reason ? skip_reason : "");
	}
	test_count++;
	if (test_gone()) {
		printf("ok %d - target gone: -ENOENT\n", test_count);
	} else {
		test_failures++;
		printf("not ok %d - target gone: -ENOENT\n", test_count);
	}
	thread_state(&after);
	test_count++;
	if (!thread_state_equal(&before, &after)) {
		test_failures++;
		printf("not ok %d - supervising thread restored, no fd leaked\n", test_count);
	} else {
		printf("ok %d - supervising thread restored, no fd leaked\n", test_count);
	}
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fixture);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", fixture);
	}
	printf("# %d passed, %d failed\n", test_count - test_failures, test_failures);
	return test_failures ? 1 : 0;
}
