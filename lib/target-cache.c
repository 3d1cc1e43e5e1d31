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
 *  - its supplementary groups do not matter: it is root and its effective
 *    and permitted sets hold every capability that overrides a group check
 *    of the calls performed with a kept state (read, search, owner, set-id
 *    and chown overrides). Groups are never kept for anyone else: the task
 *    behind a thread id changes when another thread of its process execs
 *    (the exec'ing thread takes the leader's id, with its own groups), and
 *    neither PIDFD_GET_INFO nor capget shows the groups or that exec. That
 *    a thread had no CAP_SETGID proves nothing about the thread that takes
 *    its id (capabilities are per thread);
 *  - its root and user namespace cannot have changed: the caller says the
 *    sandbox's view is fixed (the policy's kernel layer refuses chroot,
 *    pivot_root, setns and new mount or user namespaces: the implicit set
 *    fixed-view), and the root was the pinned root when the entry was made.
 * On a listener that watches credentials (unotify_listener_watch_creds:
 * its filter notifies every call that changes them, lib/creds-calls.h),
 * the ids, capabilities and groups need no proof: such a call drops the
 * thread's entry before it runs (target_cache_watch, before the call is
 * decided), and the thread cannot make another call until it has run. So
 * an entry holds while its thread lives: one poll of its pidfd (readable
 * once the thread has exited, before its number can be reused), about
 * half of PIDFD_GET_INFO alone, and every target keeps its state, not
 * only root. What remains is the thread id changing hands at an exec by a
 * thread that is not its process's leader (it takes the leader's id, and
 * the pidfd of that id follows it, while the old leader may still be
 * calling): such an exec ends all keeping on the listener.
 *
 * That poll also proves a read of the thread's memory made before it (the
 * path of an open), as ID_VALID after the read would, when the call was
 * made after the notification that proved the entry (their ids say so):
 * the thread, alive after the read, held its tid from that notification
 * on, so the call is its own and the read was of its process. The one way
 * a live thread's tid changes hands, a non-leader's exec, empties the
 * cache before it runs: an entry found after the read shows no such exec
 * ran before the read. Whether the call is still pending is not proved:
 * the reply is that check, as for a call interrupted right after an
 * ID_VALID (what was performed was the thread's own call, decided on what
 * was performed). Without the watch a kept state proves no earlier read.
 *
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
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "creds-calls.h"
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
	uint64_t proved_id;    /* the notification whose ID_VALID proved pidfd the thread */
	struct target t;       /* groups owned; rootfd -1 (the pinned root is borrowed) */
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
	bool stopped;   /* a non-leader exec was seen: nothing is kept any more */
	uint64_t epoch; /* credential changes seen: a state read before one is not kept */
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
	e->t.mem = target_mem_unref(e->t.mem);
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

/* Is the thread the entry describes still alive (a thread pidfd polls readable once it exited)? */
static bool cache_entry_lives(const struct cache_entry *e)
{
	struct pollfd p = { .fd = e->pidfd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
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
	return t->same_userns && t->uid == 0 && (eff & CACHE_GROUPS_MOOT) == CACHE_GROUPS_MOOT &&
	       (prm & CACHE_GROUPS_MOOT) == CACHE_GROUPS_MOOT;
}

static int cache_copy(const struct target *from, struct target *ret)
{
	*ret = *from;
	ret->mem = target_mem_ref(from->mem);
	ret->groups = NULL;
	if (from->ngroups) {
		ret->groups = malloc(from->ngroups * sizeof(*ret->groups));
		if (!ret->groups) {
			ret->mem = target_mem_unref(ret->mem);
			return -ENOMEM;
		}
		memcpy(ret->groups, from->groups, from->ngroups * sizeof(*ret->groups));
	}
	ret->rootfd = -1;
	ret->rootfd_borrowed = true;
	return 0;
}

/*
 * Was req made after the notification that proved e (ids grow by one per
 * notification of a filter, from a random start: compared modulo 2^64)?
 * Then e's thread held its tid when req was made, so req is its call.
 */
static bool cache_entry_before(const struct cache_entry *e, const struct seccomp_notif *req)
{
	return (int64_t)(req->id - e->proved_id) > 0;
}

int target_cache_get(unotify_listener *l, const struct seccomp_notif *req, struct target *ret,
		     uint64_t *ret_epoch)
{
	struct target_cache *c = cache_of(l);
	pid_t tid = (pid_t)req->pid;
	struct cache_entry *e;
	bool proves = false;
	int r = 0;

	*ret_epoch = UINT64_MAX; /* no cache: nothing will be kept */
	if (!c)
		return 0;
	pthread_mutex_lock(&c->lock);
	*ret_epoch = c->epoch;
	e = cache_slot(c, tid);
	if (e->used && e->tid == tid) {
		/* Watched: no credential change since, so its thread alive is proof enough. */
		if (l->creds_watched ? cache_entry_lives(e) : cache_entry_holds(e)) {
			r = cache_copy(&e->t, ret) < 0 ? -ENOMEM : 1;
			proves = l->creds_watched && cache_entry_before(e, req);
		} else {
			cache_entry_clear(e);
		}
	}
	pthread_mutex_unlock(&c->lock);
	if (r == 1) {
		ret->rootfd = ret->pinned_rootfd;
		ret->proves_reads = proves;
		/* Its address space is this call's only where the call is proved the thread's. */
		if (!proves)
			ret->mem = target_mem_unref(ret->mem);
	}
	return r;
}

void target_cache_put(unotify_listener *l, const struct target *t, int pidfd, uint64_t id,
		      uint64_t epoch)
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
	/*
	 * A credential change seen since t was read (say by a signal handler
	 * of the thread, its call interrupted after we proved it pending) may
	 * have made t stale before this entry could be dropped: not kept.
	 */
	if (c->stopped || c->epoch != epoch) {
		pthread_mutex_unlock(&c->lock);
		target_release(&copy);
		pidfd = safe_close(pidfd);
		return;
	}
	e = cache_slot(c, t->tid);
	cache_entry_clear(e);
	*e = (struct cache_entry){
		.used = true,
		.tid = t->tid,
		.pidfd = pidfd,
		.proved_id = id,
		.t = copy,
	};
	pthread_mutex_unlock(&c->lock);
}

/*
 * Is tid, whose exec is pending, its process's leader? pidfd_open without
 * PIDFD_THREAD opens leaders only; then ID_VALID proves tid was still the
 * caller's. Any doubt says no.
 */
static bool cache_exec_by_leader(unotify_listener *l, const struct seccomp_notif *req)
{
	int pidfd = (int)syscall(SYS_pidfd_open, (pid_t)req->pid, 0);
	bool leader = pidfd >= 0;

	if (pidfd >= 0)
		pidfd = safe_close(pidfd);
	return leader && unotify_id_valid(l, req->id) == 0;
}

int target_cache_watch(unotify_listener *l, const struct seccomp_notif *req)
{
	struct target_cache *c;
	struct cache_entry *e;
	bool stop;

	if (!creds_call(req->data.nr))
		return 0;
	/* Without the cache the stop could not be recorded: the caller fails the call. */
	c = cache_of(l);
	if (!c)
		return -ENOMEM;
	stop = creds_call_is_exec(req->data.nr) && !cache_exec_by_leader(l, req);
	pthread_mutex_lock(&c->lock);
	c->epoch++;
	e = cache_slot(c, (pid_t)req->pid);
	if (e->used && e->tid == (pid_t)req->pid)
		cache_entry_clear(e);
	if (stop) {
		c->stopped = true;
		for (size_t i = 0; i < CACHE_SLOTS; i++)
			cache_entry_clear(&c->slot[i]);
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
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
