/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files the kernel binds to the namespaces of the task that looks them up
 * or opens them, not to those of the task that later reads the fd:
 *  - the sysctl tables registered per namespace: a lookup in /proc/sys
 *    follows the link it meets into the set of the looker's namespace
 *    (sysctl_follow_link, lookup_header_set): /proc/sys/net (net),
 *    /proc/sys/kernel's IPC tunables and /proc/sys/fs/mqueue (ipc),
 *    /proc/sys/user (user). /proc/sys/kernel/pid_max (per pid namespace
 *    since Linux 6.14) is not refused: its value tells nothing, and a
 *    write needs CAP_SYS_ADMIN over our user namespace, which puts a
 *    program beyond any sandbox (and a root `unotify run` program is
 *    always in a pid namespace below ours: every ps would be refused);
 *  - the files of /proc/sysvipc, whose open takes the opener's IPC namespace;
 *  - /dev/net/tun (misc 10:200), whose open takes the opener's network
 *    namespace for the interface TUNSETIFF makes. /dev/ppp does not:
 *    its PPPIOCNEWUNIT takes the namespace of the task making the ioctl,
 *    the target itself.
 * Performed for a target in other namespaces (a container under
 * unotifyd), they would be the supervisor's: the daemon's (the host's)
 * interfaces and tunables. The supervisor cannot join the target's
 * namespaces (setns wants CAP_SYS_ADMIN, which unotifyd does not keep), so
 * such a call is refused (EACCES) when the namespace differs, and made as
 * before when it is the same (unotify run, a daemon in the container).
 * Nothing here runs for an ordinary file: the walk calls in only on a
 * procfs directory or file of no task, or a character device 10:200.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target.h"
#include "util.h"

#define PROC_ROOT_INO 1
/* /proc/sys/net/ipv4/conf/all/... is 6 deep; deeper than this is no sysctl we know. */
#define NS_PROC_DEPTH_MAX 16

enum ns_kind {
	NS_KIND_NONE = 0,
	NS_KIND_NET = 1 << 0,
	NS_KIND_IPC = 1 << 1,
	NS_KIND_USER = 1 << 2,
	NS_KIND_ANY = NS_KIND_NET | NS_KIND_IPC | NS_KIND_USER,
};

/* ipc/ipc_sysctl.c: the IPC tunables of /proc/sys/kernel. */
static const char *const ns_ipc_kernel[] = {
	"msgmax", "msgmnb", "msgmni", "msg_next_id", "sem", "sem_next_id", "shmall",
	"shmmax", "shmmni", "shm_next_id", "shm_rmid_forced", "auto_msgmni",
};

int resolve_ns_differs(int dirfd, const char *a, const char *b)
{
	struct stat x, y;

	if (fstatat(dirfd, a, &x, 0) < 0 || fstatat(dirfd, b, &y, 0) < 0)
		return negative_errno();
	return x.st_dev != y.st_dev || x.st_ino != y.st_ino;
}

/* Is the target's namespace of this kind (ns/net, ns/ipc) another than this thread's? */
static int ns_link_differs(const struct target *t, const char *kind)
{
	char theirs[64], ours[64];
	int r, q;

	snprintf(theirs, sizeof(theirs), "%d/ns/%s", (int)t->tid, kind);
	snprintf(ours, sizeof(ours), "thread-self/ns/%s", kind);
	/* Our own credentials: a target that is not dumpable hides its links from itself. */
	r = target_suspend();
	if (r < 0)
		return r;
	q = resolve_ns_differs(target_proc_fd(), theirs, ours);
	r = target_resume();
	return r < 0 ? r : q;
}

/* The kinds of namespace the target has apart from ours: a mask of ns_kind. */
static int ns_foreign_kinds(const struct target *t)
{
	int kinds = 0, r;

	r = ns_link_differs(t, "net");
	if (r < 0)
		return r;
	kinds |= r ? NS_KIND_NET : 0;
	r = ns_link_differs(t, "ipc");
	if (r < 0)
		return r;
	kinds |= r ? NS_KIND_IPC : 0;
	kinds |= t->same_userns ? 0 : NS_KIND_USER;
	return kinds;
}

static bool ns_name_under(const char *rel, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(rel, dir, n) == 0 && (rel[n] == '\0' || rel[n] == '/');
}

/* The namespace a name relative to the procfs root ("sys/net/ipv4") is bound to. */
static enum ns_kind ns_kind_of(const char *rel)
{
	if (ns_name_under(rel, "sys/net"))
		return NS_KIND_NET;
	if (ns_name_under(rel, "sys/user"))
		return NS_KIND_USER;
	if (ns_name_under(rel, "sys/fs/mqueue") || strncmp(rel, "sysvipc/", 8) == 0)
		return NS_KIND_IPC;
	if (strncmp(rel, "sys/kernel/", 11) == 0)
		for (size_t i = 0; i < ARRAY_SIZE(ns_ipc_kernel); i++)
			if (strcmp(rel + 11, ns_ipc_kernel[i]) == 0)
				return NS_KIND_IPC;
	return NS_KIND_NONE;
}

/*
 * How many ".." from the procfs directory fd to the root of its mount (the
 * instance's root, or a bind mount's: runc binds /proc/sys onto itself,
 * read-only), 0 to NS_PROC_DEPTH_MAX, that root's identity in ret_root;
 * -ENOENT when the climb cannot go on.
 */
static int ns_mount_depth(int fd, struct target_stat *ret_root)
{
	_cleanup_close_ int cur = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	struct target_stat st, up;

	if (cur < 0 || target_fstat(cur, &st) < 0)
		return -ENOENT;
	for (int depth = 0; depth <= NS_PROC_DEPTH_MAX; depth++) {
		int next;

		if (S_ISDIR(st.mode) && st.fid.ino == PROC_ROOT_INO) {
			*ret_root = st;
			return depth;
		}
		next = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (next < 0)
			return -ENOENT;
		cur = safe_close(cur);
		cur = next;
		if (target_fstat(cur, &up) < 0)
			return -ENOENT;
		/* ".." of a mount's root is its mount point's parent, in another mount. */
		if (up.fid.mnt != st.fid.mnt || target_fid_equal(&up.fid, &st.fid)) {
			*ret_root = st;
			return depth;
		}
		st = up;
	}
	return -ENOENT;
}

/* One space-separated field of a mountinfo line into out, its \ooo escapes undone. */
static const char *ns_mountinfo_field(const char *s, char *out, size_t size)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	for (; *s && *s != ' ' && *s != '\n' && n + 1 < size; n++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			out[n] = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			out[n] = *s++;
		}
	}
	out[n] = '\0';
	return s;
}

/*
 * Where mount mnt's root is in its file system (mountinfo's fourth field:
 * "/sys" for a bind of /proc/sys), read from the target's mountinfo as
 * ourselves: 0, or -ENOENT when no line of its names it.
 */
static int ns_mount_root(const struct target *t, uint64_t mnt, char *out, size_t size)
{
	_cleanup_free_ char *info = NULL;
	char name[64], field[32];
	int r, q;

	snprintf(name, sizeof(name), "%d/mountinfo", (int)t->tid);
	r = target_suspend();
	if (r < 0)
		return r;
	q = target_read_file(target_proc_fd(), name, &info);
	r = target_resume();
	if (r < 0 || q < 0)
		return r < 0 ? r : q;
	for (const char *line = info; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		const char *s = ns_mountinfo_field(line, field, sizeof(field));

		if (strtoull(field, NULL, 10) != mnt)
			continue;
		s = ns_mountinfo_field(s, field, sizeof(field)); /* parent */
		s = ns_mountinfo_field(s, field, sizeof(field)); /* major:minor */
		ns_mountinfo_field(s, out, size);
		return out[0] == '/' ? 0 : -ENOENT;
	}
	return -ENOENT;
}

/*
 * The name of procfs directory fd relative to its instance's root: the
 * root of its mount within the instance, then its text's last components
 * below that root. A part of /proc bound elsewhere, even onto another
 * procfs directory, is named by what it is, not where it is mounted.
 */
static int ns_proc_name(const struct target *t, int fd, char *out, size_t size)
{
	char link[64], text[PATH_MAX], root[PATH_MAX];
	struct target_stat mroot;
	int depth = ns_mount_depth(fd, &mroot), r;
	const char *p, *below;
	ssize_t n;

	if (depth < 0)
		return depth;
	strcpy(root, "/");
	if (mroot.fid.ino != PROC_ROOT_INO) {
		r = ns_mount_root(t, mroot.fid.mnt, root, sizeof(root));
		if (r < 0)
			return r;
	}
	snprintf(link, sizeof(link), "self/fd/%d", fd);
	n = readlinkat(target_proc_fd(), link, text, sizeof(text) - 1);
	if (n <= 0)
		return -ENOENT;
	text[n] = '\0';
	for (p = text + n; depth > 0 && p > text; depth--)
		while (--p > text && *p != '/')
			;
	if (depth > 0 || (p != text + n && *p != '/') || strchr(p, ' '))
		return -ENOENT; /* too few components, or " (deleted)" */
	below = p == text + n ? "" : p + 1;
	for (p = root; *p == '/'; p++)
		;
	if ((size_t)snprintf(out, size, "%s%s%s", p, *p && *below ? "/" : "", below) >= size)
		return -ENAMETOOLONG;
	return 0;
}

int resolve_ns_proc_foreign(const struct target *t, int *kinds, int fd, const char *name)
{
	char rel[PATH_MAX];
	int r;

	if (*kinds < 0) {
		r = ns_foreign_kinds(t);
		if (r < 0)
			return r;
		*kinds = r;
	}
	if (*kinds == 0)
		return 0;
	r = ns_proc_name(t, fd, rel, sizeof(rel));
	if (r == 0 && name && snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "%s%s",
				       rel[0] ? "/" : "", name) >= (int)(sizeof(rel) - strlen(rel)))
		r = -ENAMETOOLONG;
	/* Where it is cannot be told: in doubt, as if bound to a namespace that differs. */
	if (r < 0)
		return 1;
	return (ns_kind_of(rel) & *kinds) != 0;
}

int resolve_ns_dev_foreign(const struct target *t, const struct target_stat *st, bool fresh)
{
	int r;

	if (!S_ISCHR(st->mode) || st->rdev != makedev(10, 200))
		return 0;
	if (!fresh)
		return !t->same_netns;
	r = ns_link_differs(t, "net");
	return r < 0 ? r : r != 0;
}
