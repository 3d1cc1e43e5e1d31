/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The partner (lib/pool.c's header says where it fits): a second thread in
 * RECV beside the receiver while two target threads' calls meet, as two
 * compilers' calls of a make -j2 do. The kernel wakes both receivers for
 * each call, on the caller's CPU (the same-CPU hint); one takes it, the
 * other sleeps again there: a wake-up on that CPU per call, which costs
 * less than a call kept waiting for another's decision, and no hand-off of
 * a call to another CPU. The reply still comes from the thread the kernel
 * woke on the target's CPU.
 *
 * It forms at the first meeting (pool_partner_meet): a parked thread is
 * woken once and goes straight to RECV, no call handed over. It lasts
 * POOL_PARTNER_CALLS calls after the last meeting, and then parks: one
 * target thread left calling pays for at most that many wasted wake-ups.
 * One thread's calls never form it; make -j1's processes, which call one
 * after another, seldom do.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "internal.h"
#include "pool.h"

/*
 * A parked thread (create: or a new one) becomes the partner: false when
 * none may (the end, a partner already, or every CPU but the receiver's
 * taken by spread workers) or none is spare. The partner is counted as a
 * spread worker: at most one per CPU besides the receiver.
 */
bool pool_partner_form_locked(struct pool *p, bool create)
{
	struct pool_thread *t;

	if (atomic_load(&p->done) || p->partners >= POOL_PARTNERS || p->spreading + 1 >= p->cpus)
		return false;
	t = pool_spare_locked(p, create);
	if (!t)
		return false;
	t->role = POOL_WORKER;
	t->partnering = true;
	t->spreading = true;
	p->partners++;
	p->spreading++;
	p->partners_formed++;
	atomic_store(&t->id, 0); /* between calls: the watchdog leaves it be */
	pthread_cond_broadcast(&p->parked);
	return true;
}

/* The first meeting: a parked thread, or one the watchdog makes (pool_partner_asked_locked). */
static void pool_partner_want(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	if (!atomic_load_explicit(&p->partnered, memory_order_relaxed)) {
		atomic_store_explicit(&p->partnered, true, memory_order_relaxed);
		if (!pool_partner_form_locked(p, false)) {
			p->want_partner = true;
			pthread_cond_signal(&p->watch);
		}
	}
	pthread_mutex_unlock(&p->lock);
}

/*
 * The watchdog's part: the partner asked for, of a new thread if need be.
 * None spare (every thread at the limit waits in a call): asked again at
 * its next tick, while calls still meet, rather than at every meeting by
 * the receiver, which would wake the watchdog each time.
 */
void pool_partner_asked_locked(struct pool *p)
{
	if (!p->want_partner)
		return;
	if (pool_partner_form_locked(p, true)) {
		p->want_partner = false;
	} else if (atomic_load(&p->done) ||
		   atomic_load_explicit(&p->partner_left, memory_order_relaxed) == 0) {
		p->want_partner = false;
		atomic_store_explicit(&p->partnered, false, memory_order_relaxed);
	}
}

/*
 * The partner lasts POOL_PARTNER_CALLS calls after calls last met, one
 * call less for each of either thread without. A meeting with no partner
 * (formed, or asked of the watchdog) forms one.
 */
static void pool_partner_count(struct pool *p, bool met)
{
	pool_count_calls(&p->partner_left, met, POOL_PARTNER_CALLS);
	if (met && !atomic_load_explicit(&p->partnered, memory_order_relaxed))
		pool_partner_want(p);
}

/*
 * The receiver's call met another: it was waiting when RECV began (it
 * returned at once) and is another target thread's than the call before
 * (the first call has none), which the receiver was deciding meanwhile;
 * or the partner is deciding a call (not yet replying: its target's next
 * call cannot come before the reply). Targets outside our pid namespace
 * all have pid 0, and meet by the second way only.
 */
void pool_partner_meet(struct pool *p, uint32_t pid, bool queued)
{
	uint32_t last = atomic_load_explicit(&p->last_pid, memory_order_relaxed);

	atomic_store_explicit(&p->last_pid, pid, memory_order_relaxed);
	pool_partner_count(p, (queued && last != 0 && pid != last) || atomic_load(&p->partner_busy));
}

/*
 * A partner's reply, as the receiver's: not interrupted. A signal the
 * watchdog sent before is taken first (pool_wait_done_locked), and none is
 * sent while t->replying is set: both under the lock, which nobody else
 * holds long, so no system call is added to the partner's calls.
 */
uint64_t pool_partner_reply(struct pool_thread *t, struct unotify_verdict *v, uint64_t got)
{
	struct pool *p = t->p;
	uint64_t done;

	atomic_store(&p->partner_busy, false); /* a call now may be this target's next */
	pthread_mutex_lock(&p->lock);
	pool_wait_done_locked(t);
	t->replying = true;
	pthread_mutex_unlock(&p->lock);
	done = supervise_reply(p->l, p->ops, t->req, v, got, false, true);
	pthread_mutex_lock(&p->lock);
	t->replying = false;
	pthread_mutex_unlock(&p->lock);
	return done;
}

/* A partner's call is over: a partner again, or parked (true) once calls stopped meeting. */
static bool pool_after_partner(struct pool_thread *t, int decided)
{
	struct pool *p = t->p;
	bool over;

	pthread_mutex_lock(&p->lock);
	pool_wait_done_locked(t);
	atomic_store(&t->id, 0);
	if (decided == -ENOTRECOVERABLE || (p->stop && *p->stop))
		pool_finish_locked(p, decided == -ENOTRECOVERABLE ? decided : 0);
	over = atomic_load(&p->done) ||
	       atomic_load_explicit(&p->partner_left, memory_order_relaxed) == 0;
	if (over) {
		t->partnering = false;
		p->partners--;
		t->spreading = false;
		p->spreading--;
		atomic_store_explicit(&p->partnered, false, memory_order_relaxed);
		if (t->role == POOL_WORKER)
			t->role = POOL_PARKED;
	}
	pthread_mutex_unlock(&p->lock);
	return over;
}

/*
 * Receives beside the receiver while calls meet. The watchdog checks its
 * call as a worker's; between calls its id is 0, which the watchdog leaves
 * be, and it replies as the receiver does, never interrupted
 * (pool_partner_reply). A call it takes while the receiver decides one
 * (not yet replying) is a meeting, as one the receiver takes while the
 * partner decides (pool_partner_meet). A call that blocks holds the
 * partner only: the receiver goes on receiving.
 */
int pool_partner(struct pool_thread *t)
{
	struct pool *p = t->p;
	int decided;

	do {
		uint64_t seq = 0, got, done, busy;
		int r = listener_recv_into(p->l, t->req);

		decided = 0;
		if (r < 0 && r != -EINTR && r != -ENOENT)
			pool_finish(p, r == -EPIPE ? 0 : r);
		if (r < 0)
			continue;
		got = pool_now_ns();
		atomic_store_explicit(&t->pid, t->req->pid, memory_order_relaxed);
		atomic_store_explicit(&t->signalled, false, memory_order_relaxed);
		atomic_store(&t->id, t->req->id);
		atomic_fetch_add_explicit(&p->partner_seq, 1, memory_order_relaxed);
		if (atomic_load(&p->watch_idle))
			pool_kick(p); /* the watchdog then checks its call as a worker's */
		busy = atomic_load(&p->busy);
		pool_partner_count(p, busy != 0 && !(busy & POOL_REPLYING));
		atomic_store(&p->partner_busy, true); /* until its reply: pool_partner_reply */
		decided = pool_decide(t, &seq, got, &done);
	} while (!pool_after_partner(t, decided));
	return 1;
}
