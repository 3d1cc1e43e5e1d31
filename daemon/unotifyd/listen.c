/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The listening socket: the one systemd passes (socket activation), or one we
 * bind at --socket. Ours is created 0600 (umask around bind) and only then
 * opened up to --socket-mode and --socket-group, so there is no moment where
 * it is wider than configured. A stale socket file left by a crashed daemon is
 * replaced; a live one is not.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/util.h"
#include "closing.h"
#include "listen.h"
#include "log.h"
#include "notify.h"
#include "peer.h"

/* An inherited fd must be a listening AF_UNIX stream socket. */
static int listen_check_inherited(int fd)
{
	int domain = 0, type = 0, listening = 0;
	socklen_t len = sizeof(int);

	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) < 0)
		return negative_errno();
	if (domain != AF_UNIX || type != SOCK_STREAM || !listening)
		return -EPROTOTYPE;
	return 0;
}

/* Creates the socket's directory (one level, 0755), as RuntimeDirectory= would. */
static int listen_make_dir(const char *path)
{
	char copy[sizeof(((struct sockaddr_un *)0)->sun_path)];

	snprintf(copy, sizeof(copy), "%s", path);
	if (mkdir(dirname(copy), 0755) < 0 && errno != EEXIST)
		return negative_errno();
	return 0;
}

/* Removes a socket file nobody listens on any more; -EADDRINUSE if someone does. */
static int listen_remove_stale(const struct sockaddr_un *sa)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	if (lstat(sa->sun_path, &st) < 0)
		return errno == ENOENT ? 0 : negative_errno();
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return negative_errno();
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
		return -EADDRINUSE;
	if (errno != ECONNREFUSED)
		return negative_errno();
	if (unlink(sa->sun_path) < 0 && errno != ENOENT)
		return negative_errno();
	return 0;
}

static int listen_bind(const struct daemon_config *c, int *ret_fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	_cleanup_close_ int fd = -1;
	mode_t old;
	int r;

	if (strlen(c->socket_path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, c->socket_path);
	r = listen_make_dir(c->socket_path);
	if (r >= 0)
		r = listen_remove_stale(&sa);
	if (r < 0)
		return r;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return negative_errno();
	old = umask(0177);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0)
		return negative_errno();
	if ((c->socket_gid != (gid_t)-1 && chown(sa.sun_path, (uid_t)-1, c->socket_gid) < 0) ||
	    chmod(sa.sun_path, c->socket_mode) < 0 || listen(fd, SOMAXCONN) < 0) {
		r = negative_errno();
		unlink(sa.sun_path);
		return r;
	}
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* Socket activation (one AF_UNIX stream socket) or a socket of our own. */
static int listen_open_socket(const struct daemon_config *c, int *ret_fd, bool *ret_activated)
{
	int fd, r;

	r = notify_listen_fds(&fd);
	if (r < 0)
		return r;
	if (r > 0) {
		r = listen_check_inherited(fd);
		if (r < 0) {
			fd = safe_close(fd);
			return r;
		}
		if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 ||
		    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
			r = negative_errno();
			fd = safe_close(fd);
			return r;
		}
		*ret_fd = fd;
		*ret_activated = true;
		return 0;
	}
	r = listen_bind(c, &fd);
	if (r < 0)
		return r;
	*ret_fd = fd;
	*ret_activated = false;
	return 0;
}

const char *listen_name(int fd, char *buf, size_t size)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	size_t n;

	if (getsockname(fd, (struct sockaddr *)&sa, &len) < 0 || len <= sizeof(sa_family_t))
		return "(unnamed socket)";
	n = len - sizeof(sa_family_t);
	if (sa.sun_path[0] != '\0')
		snprintf(buf, size, "%.*s", (int)strnlen(sa.sun_path, n), sa.sun_path);
	else /* abstract: shown as ss(8) does */
		snprintf(buf, size, "@%.*s", (int)(n - 1), sa.sun_path + 1);
	return buf;
}

static void listen_warn(const char *name, const char *what)
{
	log_warning("%s %s, whom the daemon then refuses (neither root nor in an --allow-group): "
		    "a refusal's close can be made slow; give the socket an --allow-group's "
		    "group and mode 0660",
		    name, what);
}

/*
 * Who may connect is the socket file's permissions: the kernel refuses a
 * connect without write access to it (an abstract socket has none, and
 * lets in everyone in its network namespace). One whom we then refuse
 * costs us a close of whatever it queued, which it can make slow
 * (closing.c): say so when the socket lets such users in.
 */
static void listen_warn_mode(const struct daemon_config *c, int fd)
{
	char name[sizeof(((struct sockaddr_un *)0)->sun_path) + 2], what[128];
	struct stat st;
	bool group_ok;

	listen_name(fd, name, sizeof(name));
	if (name[0] == '@') {
		listen_warn(name, "is an abstract socket: every user of its network namespace "
				  "may connect");
		return;
	}
	if (name[0] != '/' || stat(name, &st) < 0)
		return;
	snprintf(what, sizeof(what), "(mode %04o, owner %u, group %u) lets users connect",
		 (unsigned int)(st.st_mode & 07777), (unsigned int)st.st_uid,
		 (unsigned int)st.st_gid);
	/* Root's group is the default, and root alone is in it on most systems. */
	group_ok = st.st_gid == 0 || peer_gid_allowed(c, st.st_gid);
	if ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && !group_ok) ||
	    ((st.st_mode & S_IWUSR) && st.st_uid != 0))
		listen_warn(name, what);
	else if (getxattr(name, "system.posix_acl_access", NULL, 0) >= 0)
		log_warning("%s has an access ACL: check that it lets in no one the daemon refuses "
			    "(neither root nor in an --allow-group)",
			    name);
}

int listen_open(const struct daemon_config *c, int *ret_fd, bool *ret_activated)
{
	int r = listen_open_socket(c, ret_fd, ret_activated);

	if (r == 0)
		listen_warn_mode(c, *ret_fd);
	return r;
}

void listen_close(const struct daemon_config *c, int fd, bool activated)
{
	/*
	 * The name first, while we still listen: a daemon starting meanwhile
	 * finds the path free, or ours answering (listen_remove_stale leaves
	 * a live socket be), never its own socket unlinked by us. An
	 * activated socket belongs to systemd, which keeps listening on it.
	 */
	if (!activated && fd >= 0)
		unlink(c->socket_path);
	/*
	 * Not here: the last close releases every connection still in the
	 * backlog, and the descriptors queued on them (closing.c).
	 */
	fd = closing_apart(fd);
}
