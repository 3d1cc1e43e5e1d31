/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The supervision loop: one listener, a blocking RECV (so that the same-CPU
 * wake-up takes effect: no poll or epoll in front), in the calling thread;
 * with ops->threads > 1, in the pool of pool.c (one receiver at a time,
 * workers for the calls that block).
 */
#include "config.h"

#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "target.h"
#include "util.h"

int unotify_reply_verdict(unotify_listener *l, uint64_t id, struct unotify_verdict *verdict)
{
	int r;

	switch (verdict->kind) {
	case UNOTIFY_VERDICT_ERRNO:
		return unotify_reply_errno(l, id, verdict->error);
	case UNOTIFY_VERDICT_VALUE:
		return unotify_reply_value(l, id, verdict->value);
	case UNOTIFY_VERDICT_CONTINUE:
		return unotify_reply_continue(l, id);
	case UNOTIFY_VERDICT_FD:
		r = unotify_reply_addfd(l, id, verdict->fd, verdict->fd_flags);
		if (verdict->fd >= 0)
			verdict->fd = safe_close(verdict->fd);
		verdict->fd = -1;
		return r < 0 ? r : 0;
	case UNOTIFY_VERDICT_REPLIED:
		return 0;
	}
	return -EINVAL;
}

static uint64_t supervise_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t supervise_start(const struct unotify_loop_ops *ops)
{
	return ops->replied ? supervise_now_ns() : 0;
}

/* A failed decision or an unusable verdict: the call fails, it never runs. */
static void supervise_fail_closed(struct unotify_verdict *v)
{
	if (v->kind == UNOTIFY_VERDICT_FD && v->fd >= 0)
		v->fd = safe_close(v->fd);
	*v = unotify_verdict_errno(ENOSYS);
}

/*
 * A verdict the kernel refused to reply: the call fails. A descriptor the
 * target's table has no room for (its RLIMIT_NOFILE reached) fails with
 * EMFILE, as the target's own open would; anything else with ENOSYS. The
 * call was performed: what it did (a file created, truncated) stays, where
 * the kernel, which takes the descriptor's number first, does nothing.
 */
static void supervise_fail_reply(struct unotify_verdict *v, int r)
{
	bool no_room = v->kind == UNOTIFY_VERDICT_FD && r == -EMFILE;

	supervise_fail_closed(v);
	if (no_room)
		*v = unotify_verdict_errno(EMFILE);
}

int supervise_decide(unotify_listener *l, const struct unotify_loop_ops *ops,
		     const struct seccomp_notif *req, struct unotify_verdict *ret)
{
	int decided;

	*ret = unotify_verdict_errno(ENOSYS);
	/* Before any decision: what a credential change makes stale is never used again. */
	if (l->creds_watched && target_cache_watch(l, req) < 0)
		return -ENOMEM; /* ENOSYS: the change does not happen */
	decided = ops->decide(l, req, ret, ops->userdata);
	if (decided < 0)
		supervise_fail_closed(ret);
	return decided;
}

uint64_t supervise_reply(unotify_listener *l, const struct unotify_loop_ops *ops,
			 const struct seccomp_notif *req, struct unotify_verdict *v, uint64_t start,
			 bool check_pending, bool want_done)
{
	uint64_t done = 0;
	uint64_t id = req->id;
	int r;

	if (check_pending && unotify_id_valid(l, id) < 0) {
		/* Gone while a worker performed it: nothing to reply to, nothing to inject. */
		if (v->kind == UNOTIFY_VERDICT_FD && v->fd >= 0)
			v->fd = safe_close(v->fd);
		r = -ENOENT;
	} else {
		r = unotify_reply_verdict(l, id, v);
	}
	if (r < 0 && r != -ENOENT && !(v->kind == UNOTIFY_VERDICT_ERRNO && v->error == ENOSYS)) {
		/* e.g. an errno out of range: still answer, or the target waits for ever. */
		supervise_fail_reply(v, r);
		r = unotify_reply_verdict(l, id, v);
	}
	if (ops->replied || want_done)
		done = supervise_now_ns();
	if (ops->replied)
		ops->replied(req, v, r, done - start, ops->userdata);
	return done;
}

/* Returns -ENOTRECOVERABLE when the decision says the thread cannot go on. */
static int supervise_one(unotify_listener *l, const struct unotify_loop_ops *ops,
			 const struct seccomp_notif *req)
{
	struct unotify_verdict v;
	uint64_t start = supervise_start(ops);
	int decided = supervise_decide(l, ops, req, &v);

	(void)supervise_reply(l, ops, req, &v, start, false, false);
	return decided == -ENOTRECOVERABLE ? decided : 0;
}

/* The calling thread alone; *calls counts the notifications received. */
static int supervise_single(unotify_listener *l, const struct unotify_loop_ops *ops,
			    const volatile bool *stop, uint64_t *calls)
{
	const struct seccomp_notif *req;
	int r;

	for (;;) {
		r = unotify_listener_recv(l, &req);
		if (r == -EPIPE)
			return 0;
		if (r == 0) {
			(*calls)++;
			r = supervise_one(l, ops, req);
			if (r < 0)
				return r;
		} else if (r != -ENOENT)
			return r;
		if (stop && *stop)
			return 0;
	}
}

int unotify_supervise_counted(unotify_listener *l, const struct unotify_loop_ops *ops,
			      const volatile bool *stop, struct unotify_supervise_stats *ret)
{
	uint64_t calls = 0;
	int r;

	if (!ops || !ops->decide)
		return -EINVAL;
	if (ops->threads > 1)
		return pool_supervise(l, ops, stop, ret);
	r = supervise_single(l, ops, stop, &calls);
	if (ret)
		*ret = (struct unotify_supervise_stats){ .threads = 1, .calls = calls };
	return r;
}

int unotify_supervise(unotify_listener *l, const struct unotify_loop_ops *ops,
		      const volatile bool *stop)
{
	return unotify_supervise_counted(l, ops, stop, NULL);
}
