/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Landlock, the kernel's own file sandbox: its ABI, probed; whether a rule
 * of the policy layer (policy/landlock.c) binds here what its path means;
 * and the child's side, which binds the rules and restricts itself just
 * before it gives up its user and loads the seccomp filter.
 *
 * What each ABI adds, as this file uses it: 1 the file rights (execute,
 * read, write, make and remove); 2 refer (moving between directories: any
 * ruleset refuses it without); 3 truncate; 4 TCP ports (one rule per port
 * granted to connect or bind); 5 ioctl on devices;
 * 6 scoping of abstract Unix sockets and signals; 7 audit controls. The
 * ruleset attribute grew with them: its size follows the ABI.
 *
 * Landlock binds a rule to the inode the path leads to when the ruleset is
 * built; the policy matches the path each call resolves to. The two agree
 * when the path leads to exactly this inode and nothing else does:
 *  - no symbolic link on the way (the policy never sees a path through one:
 *    RESOLVE_NO_SYMLINKS, and such a rule matches nothing: left out);
 *  - a file with one name (a hard link elsewhere would carry the rule);
 *  - a directory mounted nowhere else (a bind mount of it, or of a
 *    directory above it, would carry the rule to another path);
 * and when the program cannot remove or replace it, which the policy layer
 * checked on the rules. Files created later beneath a directory rule, and
 * renames within it, are covered: Landlock walks up the path at each access.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "uapi.h"
#include "util.h"

#define LANDLOCK_FILE_RIGHTS                                                                       \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                              \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |                              \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define LANDLOCK_READ_DIR_RIGHTS LANDLOCK_ACCESS_FS_READ_DIR

int landlock_probe_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	/* ENOSYS: not built; EOPNOTSUPP: built, not enabled (lsm=). */
	return abi > 0 ? (int)abi : 0;
}

/* The rights an ABI knows: a newer right in a ruleset makes the kernel refuse it (EINVAL). */
static uint64_t landlock_fs_known(int abi)
{
	uint64_t known = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;

	if (abi >= 2)
		known |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		known |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		known |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return known;
}

static int landlock_open(const char *path)
{
	/* struct open_how, spelled out for older headers. */
	struct {
		uint64_t flags, mode, resolve;
	} how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS};
	long fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	return fd < 0 ? negative_errno() : (int)fd;
}

/* ---- Is the directory mounted elsewhere too? ---- */

/* mountinfo escapes blanks and backslashes as \ooo. */
static void landlock_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

struct landlock_mount {
	uint64_t id;
	unsigned int major, minor;
	char root[4096];
	char point[4096];
};

static bool landlock_mount_parse(char *line, struct landlock_mount *m)
{
	unsigned long long id;
	int n = 0;

	if (sscanf(line, "%llu %*u %u:%u %4095s %4095s%n", &id, &m->major, &m->minor, m->root,
		   m->point, &n) < 5)
		return false;
	m->id = id;
	landlock_unescape(m->root);
	landlock_unescape(m->point);
	return true;
}

/* Is a (a path in a file system) b or above it? */
static bool landlock_above(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (strcmp(a, "/") == 0)
		return true;
	return strncmp(a, b, n) == 0 && (b[n] == '\0' || b[n] == '/');
}

/* Where path is within its file system, from its own mount (mnt_id). */
static int landlock_fs_path(FILE *f, uint64_t mnt_id, const char *path, char *out, size_t size,
			    struct landlock_mount *ret)
{
	char *line = NULL;
	size_t cap = 0;
	int r = -ENOENT;

	while (r == -ENOENT && getline(&line, &cap, f) > 0) {
		const char *rest;

		if (!landlock_mount_parse(line, ret) || ret->id != mnt_id)
			continue;
		rest = strcmp(ret->point, "/") == 0 ? path : path + strlen(ret->point);
		if (!landlock_above(ret->point, path))
			r = -EXDEV;
		else if (snprintf(out, size, "%s%s", strcmp(ret->root, "/") == 0 ? "" : ret->root,
				  rest) >= (int)size)
			r = -ENAMETOOLONG;
		else
			r = 0;
	}
	free(line);
	if (r == 0 && !out[0])
		snprintf(out, size, "/");
	return r;
}

/* 1 when another mount of the same file system shows fs_path (or a directory above it). */
static int landlock_mounted_elsewhere(FILE *f, const struct landlock_mount *own,
				      const char *fs_path)
{
	struct landlock_mount m;
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	rewind(f);
	while (!found && getline(&line, &cap, f) > 0)
		found = landlock_mount_parse(line, &m) && m.id != own->id &&
			m.major == own->major && m.minor == own->minor &&
			landlock_above(m.root, fs_path);
	free(line);
	return found;
}

static int landlock_check_mounts(int fd, const char *path)
{
	_cleanup_free_ struct landlock_mount *own = malloc(sizeof(*own));
	_cleanup_free_ char *fs_path = malloc(PATH_MAX * 2);
	struct statx stx;
	FILE *f;
	int r;

	if (!own || !fs_path)
		return -ENOMEM;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return negative_errno();
	if (!(stx.stx_mask & STATX_MNT_ID))
		return -EOPNOTSUPP;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return negative_errno();
	r = landlock_fs_path(f, stx.stx_mnt_id, path, fs_path, PATH_MAX * 2, own);
	if (r == 0)
		r = landlock_mounted_elsewhere(f, own, fs_path) ? -EBUSY : 0;
	fclose(f);
	return r;
}

/* ---- The parent's check ---- */

int unotify_landlock_check(const struct unotify_landlock_rule *r, const char **ret_why)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	int k;

	if (!r || !r->path || r->path[0] != '/' || !ret_why)
		return -EINVAL;
	fd = landlock_open(r->path);
	if (fd == -ELOOP || fd == -ENOTDIR) {
		*ret_why = "a symbolic link or a file lies on the way: no resolved path goes there";
		return 0;
	}
	if (fd == -ENOENT) {
		/* Bound to nothing, it would stay refused if it came to exist. */
		*ret_why = "it does not exist (Landlock binds what is there at start: create it "
			   "first)";
		return -ENOENT;
	}
	if (fd < 0) {
		*ret_why = "it cannot be opened";
		return fd;
	}
	if (fstat(fd, &st) < 0) {
		*ret_why = "it cannot be looked at";
		return negative_errno();
	}
	if (r->beneath && !S_ISDIR(st.st_mode)) {
		/* Nothing is beneath it, so the rule grants nothing: fine, unless it is replaced.
		 */
		*ret_why = "not a directory: nothing is beneath it";
		return 0;
	}
	if (!r->beneath && S_ISDIR(st.st_mode)) {
		/* Landlock would grant beneath it: fine only for what is granted there anyway. */
		*ret_why = "a directory, which directory rules grant the same to";
		if ((r->access & ~r->covered &
		     (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_READ_DIR_RIGHTS |
		      LANDLOCK_ACCESS_FS_MAKE_REG)) == 0)
			return 0;
		*ret_why = "a directory: Landlock would grant what is beneath it too (write "
			   "DIR and DIR/** with the same rights)";
		return -EISDIR;
	}
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
		*ret_why = "the file has other names (hard links), which the rule would cover too";
		return -EMLINK;
	}
	k = landlock_check_mounts(fd, r->path);
	if (k == -EBUSY)
		*ret_why = "it is mounted at another path too (a bind mount), which the rule "
			   "would cover too";
	else if (k < 0)
		*ret_why = "its mount could not be found in /proc/self/mountinfo";
	return k < 0 ? k : 1;
}

/* ---- In the child ---- */

static size_t landlock_attr_size(int abi)
{
	/* handled_access_fs (1), handled_access_net (4), scoped (6). */
	if (abi >= 6)
		return sizeof(struct unotify_ll_ruleset_attr);
	if (abi >= 4)
		return offsetof(struct unotify_ll_ruleset_attr, scoped);
	return offsetof(struct unotify_ll_ruleset_attr, handled_access_net);
}

static int landlock_add(int ruleset, const struct unotify_landlock_rule *r, uint64_t handled)
{
	struct unotify_ll_path_beneath_attr pb = {.allowed_access = r->access & handled};
	struct stat st;
	int fd = landlock_open(r->path), k;

	if (fd < 0)
		return fd == -ENOMEM ? fd : -ESTALE;
	/* The parent saw what it checked; anything else now is a race: do not bind it. */
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode) != r->beneath) {
		fd = safe_close(fd);
		return -ESTALE;
	}
	if (!S_ISDIR(st.st_mode))
		pb.allowed_access &= LANDLOCK_FILE_RIGHTS;
	pb.parent_fd = fd;
	k = pb.allowed_access ? (int)syscall(SYS_landlock_add_rule, ruleset,
					     LANDLOCK_RULE_PATH_BENEATH, &pb, 0)
			      : 0;
	if (k < 0)
		k = negative_errno();
	fd = safe_close(fd);
	return k;
}

/*
 * memfds live on an internal mount, which Landlock never checks: with the
 * execute right handled, fexecve of a memfd (or execve of its
 * /proc/self/fd link) would run any program. vm.memfd_noexec 2 makes every
 * memfd of this pid namespace (and those below) non-executable, and refuses
 * MFD_EXEC; the kernel takes it from a process in the namespace with
 * CAP_SYS_ADMIN there, and never lowers what a parent namespace says.
 */
static int landlock_memfd_noexec(void)
{
	_cleanup_close_ int fd = open("/proc/sys/vm/memfd_noexec", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return negative_errno();
	if (write(fd, "2\n", 2) != 2)
		return negative_errno();
	return 0;
}

/* One port rule per granted port (the kernel takes one port per rule). */
static int landlock_add_ports(int ruleset, const struct unotify_landlock *ll, uint64_t handled)
{
	for (size_t i = 0; i < ll->n_ports; i++) {
		struct unotify_ll_net_port_attr np = {
			.allowed_access = ll->ports[i].access & handled, .port = ll->ports[i].port};

		if (np.allowed_access &&
		    syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_NET_PORT, &np, 0) < 0)
			return negative_errno();
	}
	return 0;
}

int landlock_apply(const struct unotify_landlock *ll)
{
	struct unotify_ll_ruleset_attr attr = {
		.handled_access_fs = ll->handled_fs & landlock_fs_known(ll->abi),
		.handled_access_net = ll->abi >= 4
					      ? ll->handled_net & (LANDLOCK_ACCESS_NET_BIND_TCP |
								   LANDLOCK_ACCESS_NET_CONNECT_TCP)
					      : 0,
		.scoped = ll->abi >= 6 ? ll->scoped & (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET |
						       LANDLOCK_SCOPE_SIGNAL)
				       : 0,
	};
	int ruleset, r = 0;

	/* A scope or TCP right asked and not known here: the caller was to keep it. */
	if ((ll->scoped & ~attr.scoped) || (ll->handled_net & ~attr.handled_access_net))
		return -EOPNOTSUPP;
	if (ll->memfd_noexec && (r = landlock_memfd_noexec()) < 0)
		return r;
	if (!attr.handled_access_fs && !attr.handled_access_net && !attr.scoped)
		return 0;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, landlock_attr_size(ll->abi), 0);
	if (ruleset < 0)
		return negative_errno();
	for (size_t i = 0; i < ll->n_rules && r == 0; i++)
		r = landlock_add(ruleset, &ll->rules[i], attr.handled_access_fs);
	if (r == 0)
		r = landlock_add_ports(ruleset, ll, attr.handled_access_net);
	/* restrict_self needs no_new_privs (or CAP_SYS_ADMIN); spawn sets it anyway. */
	if (r == 0 && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		r = negative_errno();
	if (r == 0 && syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		r = negative_errno();
	ruleset = safe_close(ruleset);
	return r;
}
