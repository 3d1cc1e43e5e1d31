/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Connections being read, per client. Each message is read under the
 * client timeout, and the daemon accepted in the order clients connected,
 * DAEMON_MAX_PENDING at a time. One allowed client (or a program it
 * sandboxed, which has its uid) that kept hundreds of silent connections
 * queued made every other registration wait two seconds per 128 of them,
 * past its client's patience: a runtime's container never started.
 *
 * Now the main thread accepts up to DAEMON_MAX_PENDING_HARD; past
 * DAEMON_MAX_PENDING (saturated) a client that has PENDING_PER_CLIENT
 * connections being read gets any more closed as they are accepted, which
 * costs a few system calls each and empties the queue at that pace. Below
 * saturation no one is limited: a runtime starting many containers at once
 * is read in parallel. A client is a uid in a pid namespace: a program
 * sandboxed by `unotify run` lives in a pid namespace of its own, so it
 * cannot use up the share of the root or the user that started it; the
 * pid namespace is the one just below the daemon's on the way up from the
 * peer's, so that a client nesting namespaces (unshare -p, as often as it
 * likes) stays one client.
 *
 * But any user may make sibling pid namespaces, as many as it likes
 * (unshare -Urp, then fork): 32 clients of one uid held 8 each, filled the
 * hard limit, and the daemon stopped accepting anyone. So while saturated
 * a uid also has a share, PENDING_PER_UID, counted across its clients on
 * each side of the daemon's pid namespace: in it (a runtime, a user's own
 * `unotify run`), and outside it (the programs those sandboxed, the
 * namespaces of its own making). Whatever one uid does, it holds at most
 * DAEMON_MAX_PENDING (taken below saturation) plus PENDING_PER_UID on the
 * other side, which leaves room below the hard limit for everyone else.
 * Root inside (a runtime) is spared the shares (pending_is_runtime): a
 * hostile program a root runtime sandboxed is uid 0 outside the daemon's
 * pid namespace, counted as any uid there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "lib/util.h"
#include "pending.h"

static uint64_t pending_ns_ino_self(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
}

void pending_init(struct pending_table *t)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->own_pidns = pending_ns_ino_self();
}

/* The inode of the pid namespace fd is, or 0. */
static uint64_t pending_ns_ino(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/*
 * The client's pid namespace as seen from ours: the one just below ours on
 * the way up from the peer's, so that namespaces a client nests inside its
 * own (unshare -p, as often as it likes) all count as that one.
 */
static uint64_t pending_top_pidns(pid_t pid)
{
	char path[64];
	uint64_t ours, ino = 0;
	int fd, parent;

	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ours = pending_ns_ino_self();
	for (int depth = 0; depth < 64; depth++) {
		ino = pending_ns_ino(fd);
		parent = ioctl(fd, NS_GET_PARENT);
		if (ino == ours || parent < 0) {
			if (parent >= 0)
				close(parent);
			break;
		}
		if (pending_ns_ino(parent) == ours) {
			close(parent);
			break;
		}
		close(fd);
		fd = parent;
	}
	close(fd);
	return ino;
}

/*
 * Is pid a child of ours: the helper that makes a connect a sandbox asked
 * for (lib/emulate-net.c), in our own pid namespace? Its connection is the
 * sandbox's, not a client's inside: a root sandbox connecting to us that
 * way once took the share of root's runtime, and root's registrations
 * failed.
 */
static bool pending_is_our_helper(pid_t pid)
{
	char path[64], buf[1024];
	const char *at;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	fd = safe_close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	at = strstr(buf, "\nPPid:");
	return at && strtol(at + 6, NULL, 10) == (long)getpid();
}

void pending_key_of(const struct ucred *cred, struct pending_key *ret)
{
	/* The pid may be gone or reused by now: the key is a share, never a permission. */
	*ret = (struct pending_key){ .uid = cred->uid };
	/* Unknown (0), as a peer outside our view: never counted as inside. */
	if (!pending_is_our_helper(cred->pid))
		ret->pidns = pending_top_pidns(cred->pid);
}

static bool pending_same(const struct pending_key *a, const struct pending_key *b)
{
	return a->uid == b->uid && a->pidns == b->pidns;
}

/* The client's slot, or a free one (NULL: every slot counts another client). */
static struct pending_client *pending_find(struct pending_table *t, const struct pending_key *key)
{
	struct pending_client *free_slot = NULL;

	for (size_t i = 0; i < PENDING_SLOTS; i++) {
		struct pending_client *c = &t->slot[i];

		if (c->count > 0 && pending_same(&c->key, key))
			return c;
		if (c->count == 0 && !free_slot)
			free_slot = c;
	}
	if (free_slot)
		*free_slot = (struct pending_client){ .key = *key };
	return free_slot;
}

/* The uid's slot on key's side of our pid namespace, or a free one (NULL: none). */
static struct pending_uid *pending_find_uid(struct pending_table *t, const struct pending_key *key)
{
	/* Unknown (0): the peer is gone or outside our view; never counted as inside. */
	bool inside = key->pidns != 0 && key->pidns == t->own_pidns;
	struct pending_uid *free_slot = NULL;

	for (size_t i = 0; i < PENDING_SLOTS; i++) {
		struct pending_uid *u = &t->uid_slot[i];

		if (u->count > 0 && u->uid == key->uid && u->inside == inside)
			return u;
		if (u->count == 0 && !free_slot)
			free_slot = u;
	}
	if (free_slot)
		*free_slot = (struct pending_uid){ .uid = key->uid, .inside = inside };
	return free_slot;
}

/*
 * Root inside our pid namespace: a runtime starting many containers at
 * once, never a sandbox (those are outside, and so are the connects we
 * make for them: pending_is_our_helper). Its burst is not cut by the
 * shares, which once refused some of 240 registrations at once on a
 * loaded machine; the hard limit still bounds it.
 */
static bool pending_is_runtime(const struct pending_uid *u)
{
	return u->uid == 0 && u->inside;
}

bool pending_key_is_runtime(const struct pending_table *t, const struct pending_key *key)
{
	return key->uid == 0 && key->pidns != 0 && key->pidns == t->own_pidns;
}

/* A refusal: 'first' when its holder had none since it last had nothing pending. */
static int pending_refuse(bool *warned, int r, bool *ret_first)
{
	*ret_first = !*warned;
	*warned = true;
	return r;
}

int pending_take(struct pending_table *t, const struct pending_key *key, bool saturated,
		 bool *ret_first)
{
	struct pending_client *c;
	struct pending_uid *u;
	int r = 0;

	*ret_first = false;
	pthread_mutex_lock(&t->lock);
	u = pending_find_uid(t, key);
	c = u ? pending_find(t, key) : NULL;
	if (!u || !c)
		r = -EBUSY;
	else if (saturated && !pending_is_runtime(u) && u->count >= PENDING_PER_UID)
		r = pending_refuse(&u->warned, -EUSERS, ret_first);
	else if (saturated && !pending_is_runtime(u) && c->count >= PENDING_PER_CLIENT)
		r = pending_refuse(&c->warned, -EBUSY, ret_first);
	else {
		u->count++;
		c->count++;
	}
	pthread_mutex_unlock(&t->lock);
	return r;
}

void pending_release(struct pending_table *t, const struct pending_key *key)
{
	struct pending_uid *u;

	pthread_mutex_lock(&t->lock);
	for (size_t i = 0; i < PENDING_SLOTS; i++) {
		struct pending_client *c = &t->slot[i];

		if (c->count > 0 && pending_same(&c->key, key)) {
			if (--c->count == 0)
				c->warned = false;
			break;
		}
	}
	/* The uid has a slot with a count: this connection is in it. */
	u = pending_find_uid(t, key);
	if (u && u->count > 0 && --u->count == 0)
		u->warned = false;
	pthread_mutex_unlock(&t->lock);
}
