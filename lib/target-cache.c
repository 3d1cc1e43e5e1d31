/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a target thread is, kept between its calls. Reading /proc/TID/status,
 * its user namespace and its root costs more than the rest of a decided
 * call together (about 45 us of a 100 us open here), and almost none of it
 * changes between two calls of one thread. So the state read by
 * target_read() is kept per listener, by thread id, and used again only
 * while it provably still holds:
 *  - the thread is the same one: the entry keeps a pidfd of the thread
 *    (PIDFD_THREAD), opened and then proved ours by ID_VALID when the entry
 *    was made; PIDFD_GET_INFO on it fails (ESRCH) once that thread is gone,
 *    however its number was reused;
 *  - its eight ids are those of the entry (PIDFD_GET_INFO, Linux 6.13),
 *    and so are its effective and permitted capabilities (capget of the
 *    tid), read afresh for every call;
 *  - its supplementary groups cannot have changed: setgroups needs
 *    CAP_SETGID, which a thread that had none in its permitted set when
 *    the entry was made cannot have got since under no_new_privs (an exec
 *    grants nothing; a new user namespace is refused, below), or they do
 *    not matter: it is root and its effective and permitted sets hold
 *    every capability that overrides a group check of the calls performed
 *    with a kept state (read, search, owner, set-id and chown overrides);
 *  - its root and user namespace cannot have changed: the caller says the
 *    sandbox's view is fixed (the policy's kernel layer refuses chroot,
 *    pivot_root, setns and new mount or user namespaces: the implicit set
 *    fixed-view), and the root was the pinned root when the entry was made.
 * What is not kept: the umask and the signal dispositions (the target
 * changes them without a system call we see), so only calls that use
 * neither take a kept state (unotify_target_new_cached: opens that create
 * nothing, the stat family). Anything else reads afresh, as before.
 *
 * Several threads may supervise one listener: the cache has one mutex,
 * held to find, check (two system calls) and copy an entry, or to store one.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "internal.h"
#include "target.h"
#include "uapi.h"
#include "util.h"

/*
 * Slots by tid: a pidfd each, so few (unotifyd keeps a cache per sandbox).
 * A thread whose slot another took is read afresh and takes it back.
 */
#define CACHE_SLOTS 32

#define CAP_BIT(c) (UINT64_C(1) << (c))
/* With these effective, no group decides a lookup, open, stat, access or readlink. */
#define CACHE_GROUPS_MOOT                                                                  \
	(CAP_BIT(CAP_DAC_OVERRIDE) | CAP_BIT(CAP_DAC_READ_SEARCH) | CAP_BIT(CAP_FOWNER) |  \
	 CAP_BIT(CAP_FSETID) | CAP_BIT(CAP_CHOWN))

struct cache_entry {
	bool used;
	pid_t tid;
	int pidfd;             /* owned: the thread itself */
	struct target t;       /* groups owned; rootfd -1 (the pinned root is borrowed) */
	bool groups_fixed;     /* no_new_privs and no CAP_SETGID permitted when read */
};

/* Names of the directories relative paths start from (emulate_guess_text), proved per use. */
#define CACHE_DIRS 8

struct cache_dir {
	struct target_fid fid;
	bool used;
	char name[PATH_MAX];
};

struct target_cache {
	pthread_mutex_t lock;
	struct cache_entry slot[CACHE_SLOTS];
	struct cache_dir dir[CACHE_DIRS];
	unsigned int dir_next;
};

static void cache_entry_clear(struct cache_entry *e)
{
	if (!e->used)
		return;
	if (e->pidfd >= 0)
		e->pidfd = safe_close(e->pidfd);
	free(e->t.groups);
	*e = (struct cache_entry){ .pidfd = -1 };
}

void target_cache_free(struct target_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < CACHE_SLOTS; i++)
		cache_entry_clear(&c->slot[i]);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static struct target_cache *cache_of(unotify_listener *l)
{
	struct target_cache *c = atomic_load(&l->cache);
	struct target_cache *none = NULL;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	pthread_mutex_init(&c->lock, NULL);
	for (size_t i = 0; i < CACHE_SLOTS; i++)
		c->slot[i].pidfd = -1;
	if (!atomic_compare_exchange_strong(&l->cache, &none, c)) {
		target_cache_free(c);
		return none;
	}
	return c;
}

static struct cache_entry *cache_slot(struct target_cache *c, pid_t tid)
{
	return &c->slot[(unsigned int)tid % CACHE_SLOTS];
}

/* Has the thread the entry describes the same ids and capabilities now? */
static bool cache_entry_holds(const struct cache_entry *e)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3,
					      .pid = e->tid };
	struct __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3];
	struct pidfd_info info = { .mask = PIDFD_INFO_CREDS };
	const struct target *t = &e->t;
	uint64_t eff, prm;

	if (ioctl(e->pidfd, PIDFD_GET_INFO, &info) < 0)
		return false; /* ESRCH: that thread is gone; ENOTTY: before 6.13 */
	if (info.ruid != t->uid || info.euid != t->euid || info.suid != t->suid ||
	    info.fsuid != t->fsuid || info.rgid != t->gid || info.egid != t->egid ||
	    info.sgid != t->sgid || info.fsgid != t->fsgid)
		return false;
	if (syscall(SYS_capget, &h, caps) < 0)
		return false;
	eff = caps[0].effective | (uint64_t)caps[1].effective << 32;
	prm = caps[0].permitted | (uint64_t)caps[1].permitted << 32;
	if (eff != t->raw_cap_eff || prm != t->raw_cap_prm)
		return false;
	/* Root with them permitted too: access(2), checking with the real ids, keeps them. */
	return e->groups_fixed || (t->same_userns && t->uid == 0 &&
				   (eff & CACHE_GROUPS_MOOT) == CACHE_GROUPS_MOOT &&
				   (prm & CACHE_GROUPS_MOOT) == CACHE_GROUPS_MOOT);
}

static int cache_copy(const struct target *from, struct target *ret)
{
	*ret = *from;
	ret->groups = NULL;
	if (from->ngroups) {
		ret->groups = malloc(from->ngroups * sizeof(*ret->groups));
		if (!ret->groups)
			return -ENOMEM;
		memcpy(ret->groups, from->groups, from->ngroups * sizeof(*ret->groups));
	}
	ret->rootfd = -1;
	ret->rootfd_borrowed = true;
	return 0;
}

int target_cache_get(unotify_listener *l, pid_t tid, struct target *ret)
{
	struct target_cache *c = cache_of(l);
	struct cache_entry *e;
	int r = 0;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock);
	e = cache_slot(c, tid);
	if (e->used && e->tid == tid) {
		if (cache_entry_holds(e))
			r = cache_copy(&e->t, ret) < 0 ? -ENOMEM : 1;
		else
			cache_entry_clear(e);
	}
	pthread_mutex_unlock(&c->lock);
	if (r == 1)
		ret->rootfd = ret->pinned_rootfd;
	return r;
}

void target_cache_put(unotify_listener *l, const struct target *t, int pidfd)
{
	struct target_cache *c = cache_of(l);
	struct cache_entry *e;
	struct target copy;

	if (!c || cache_copy(t, &copy) < 0) {
		pidfd = safe_close(pidfd);
		return;
	}
	copy.rootfd_borrowed = true;
	pthread_mutex_lock(&c->lock);
	e = cache_slot(c, t->tid);
	cache_entry_clear(e);
	*e = (struct cache_entry){
		.used = true,
		.tid = t->tid,
		.pidfd = pidfd,
		.t = copy,
		.groups_fixed = t->nnp && !(t->raw_cap_prm & CAP_BIT(CAP_SETGID)),
	};
	pthread_mutex_unlock(&c->lock);
}

int target_cache_dir_get(unotify_listener *l, const struct target_fid *fid, char *ret, size_t size)
{
	struct target_cache *c = cache_of(l);
	int r = 0;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < CACHE_DIRS && r == 0; i++) {
		const struct cache_dir *d = &c->dir[i];

		if (d->used && target_fid_equal(&d->fid, fid) && strlen(d->name) < size) {
			strcpy(ret, d->name);
			r = 1;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

void target_cache_dir_put(unotify_listener *l, const struct target_fid *fid, const char *name)
{
	struct target_cache *c = cache_of(l);
	struct cache_dir *d;

	if (!c || strlen(name) >= sizeof(d->name))
		return;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < CACHE_DIRS; i++)
		if (c->dir[i].used && target_fid_equal(&c->dir[i].fid, fid))
			c->dir[i].used = false;
	d = &c->dir[c->dir_next++ % CACHE_DIRS];
	d->fid = *fid;
	strcpy(d->name, name);
	d->used = true;
	pthread_mutex_unlock(&c->lock);
}
