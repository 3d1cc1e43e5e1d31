/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Spreading a sandbox's calls over CPUs (lib/pool.c's header says where it
 * fits): while several target threads' calls queue behind the receiver, a
 * costly call is decided on another thread (pool_should_spread,
 * pool_spread), and the first such thread stays in RECV beside the
 * receiver while calls keep meeting (pool_partner). What a decision of
 * each system call costs is learnt here too (pool_learn_cost).
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
 * The thread a spread woke runs (pool_spread): when that took longer than
 * a decision worth spreading (POOL_SPREAD_NS), the CPU it ran on was not
 * free (a halted vCPU to wake, or another compiler to preempt), and the
 * spread cost more than it could save: none for POOL_SPREAD_QUIET_NS.
 */
void pool_spread_woken_locked(struct pool *p)
{
	uint64_t now = pool_now_ns();

	if (now - p->spread_woken > POOL_SPREAD_NS)
		atomic_store_explicit(&p->quiet_until, now + POOL_SPREAD_QUIET_NS,
				      memory_order_relaxed);
	p->spread_woken = 0;
}

/*
 * What a decision of each system call costs, learnt (a moving average of
 * the time from receive to verdict, 1/8 per call). Written by whichever
 * thread decided; relaxed, a lost update only slows the learning.
 */
static uint32_t pool_cost(struct pool *p, const struct seccomp_notif *req)
{
	uint32_t nr = (uint32_t)req->data.nr;

	return nr < POOL_NR_MAX ? atomic_load_explicit(&p->cost[nr], memory_order_relaxed) : 0;
}

void pool_learn_cost(struct pool *p, const struct seccomp_notif *req, uint64_t ns)
{
	uint32_t nr = (uint32_t)req->data.nr, old;

	if (nr >= POOL_NR_MAX)
		return;
	if (ns > UINT32_MAX)
		ns = UINT32_MAX;
	old = atomic_load_explicit(&p->cost[nr], memory_order_relaxed);
	atomic_store_explicit(&p->cost[nr], old - old / 8 + (uint32_t)ns / 8, memory_order_relaxed);
}

/*
 * The row of calls the receiver found waiting (RECV returned at once: it
 * did not sleep), each of another target thread than the call before it.
 * Its sign that the receiver alone keeps target threads waiting: three
 * different threads in a row (at least two waited behind each decision),
 * or two taking turns for POOL_SPREAD_TURNS calls (threads that only call,
 * as a file scanner's do). Two compilers (make -j2) are not: their calls
 * meet now and then, each waits for one decision at most, and the CPU a
 * second decider would take runs the other compiler.
 */
static bool pool_queue_sign(struct pool *p, uint32_t pid, bool queued)
{
	uint32_t one = atomic_load_explicit(&p->queued_pid[0], memory_order_relaxed);
	uint32_t two = atomic_load_explicit(&p->queued_pid[1], memory_order_relaxed);
	unsigned int turns = atomic_load_explicit(&p->turns, memory_order_relaxed);
	bool sign = false;

	if (!queued) {
		one = two = 0; /* the receiver slept: the row ends */
		turns = 0;
	} else if (pid == one) {
		two = 0; /* one thread twice: a single thread's calls never spread */
		turns = 0;
	} else {
		turns++;
		sign = (two != 0 && pid != two) || turns >= POOL_SPREAD_TURNS;
		two = one;
		one = pid;
	}
	atomic_store_explicit(&p->queued_pid[0], one, memory_order_relaxed);
	atomic_store_explicit(&p->queued_pid[1], two, memory_order_relaxed);
	atomic_store_explicit(&p->turns, turns, memory_order_relaxed);
	return sign;
}

/*
 * Spreading lasts POOL_SPREAD_CALLS calls after a sign, one call less for
 * each without; the calls left. Relaxed: a lost update only shortens or
 * lengthens spreading by a call.
 */
static unsigned int pool_spread_count(struct pool *p, bool sign)
{
	unsigned int spread = atomic_load_explicit(&p->spread, memory_order_relaxed);

	if (sign)
		spread = POOL_SPREAD_CALLS;
	else if (spread > 0)
		spread--;
	atomic_store_explicit(&p->spread, spread, memory_order_relaxed);
	return spread;
}

/*
 * Several target threads calling at once (-jN): while the receiver decides
 * one, the others' calls queue behind it. For POOL_SPREAD_CALLS calls after
 * a sign of it (pool_queue_sign, or the partner deciding a call meanwhile:
 * pool_partner), a call whose decision costs more than a wake-up
 * (POOL_SPREAD_NS: a decided open, not a getppid) gives the role to a
 * parked thread before it is decided, so that the next call is received,
 * and decided, on another CPU meanwhile; at most one such worker per CPU we
 * may run on besides the receiver. Not while a recent spread's thread was
 * slow to run (pool_spread_woken_locked): no CPU was free for it. A single
 * target thread, or cheap calls, never pay for it.
 */
bool pool_should_spread(struct pool *p, const struct seccomp_notif *req, uint64_t got,
			uint64_t waited)
{
	unsigned int spread;

	if (p->cpus < 2)
		return false;
	spread = pool_spread_count(p, pool_queue_sign(p, req->pid, waited < POOL_QUEUED_NS) ||
					      atomic_load(&p->partner_busy));
	return spread > 0 && pool_cost(p, req) > POOL_SPREAD_NS &&
	       got >= atomic_load_explicit(&p->quiet_until, memory_order_relaxed);
}

void pool_spread(struct pool_thread *t, uint64_t seq)
{
	struct pool *p = t->p;

	pthread_mutex_lock(&p->lock);
	if (p->spreading + 1 < p->cpus && p->receiver == t && t->role == POOL_RECEIVER) {
		if (pool_takeover_locked(p, seq, false)) {
			t->spreading = true;
			p->spreading++;
			p->spread_woken = pool_now_ns();
		} else {
			pool_request_locked(p, 0); /* a spare for the next one */
		}
	}
	pthread_mutex_unlock(&p->lock);
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

/* A partner's call is over: a partner again, or parked (true) once spreading ends. */
static bool pool_after_partner(struct pool_thread *t, int decided)
{
	struct pool *p = t->p;
	bool over;

	pthread_mutex_lock(&p->lock);
	pool_wait_done_locked(t);
	atomic_store(&t->id, 0);
	if (decided == -ENOTRECOVERABLE || (p->stop && *p->stop))
		pool_finish_locked(p, decided == -ENOTRECOVERABLE ? decided : 0);
	over = atomic_load(&p->done) || atomic_load_explicit(&p->spread, memory_order_relaxed) == 0;
	if (over) {
		t->partnering = false;
		p->partners--;
		t->spreading = false;
		p->spreading--;
		if (t->role == POOL_WORKER)
			t->role = POOL_PARKED;
	}
	pthread_mutex_unlock(&p->lock);
	return over;
}

/*
 * A call the partner took while the receiver decides one (not yet
 * replying: its target's next call cannot come before the reply) is
 * another target thread's: calls still meet, spreading goes on. Without
 * it, one call less of spreading, as for the receiver's calls.
 */
static void pool_partner_sign(struct pool *p)
{
	uint64_t busy = atomic_load(&p->busy);

	pool_spread_count(p, busy != 0 && !(busy & POOL_REPLYING));
}

/*
 * A worker that spread a call receives beside the receiver while spreading
 * lasts: two threads in RECV, as two target threads calling at once need.
 * The kernel wakes both for each call, on the caller's CPU (the same-CPU
 * hint); one takes it, the other sleeps again there: a wake-up on that
 * CPU, not a hand-off to another one per call. The watchdog checks its
 * call as a worker's; between calls its id is 0, which the watchdog leaves
 * be, and it replies as the receiver does, never interrupted
 * (pool_partner_reply). A call it takes while the receiver decides one is a
 * sign that it is needed (pool_partner_sign), and so is one the receiver
 * takes while it decides (pool_should_spread); it parks after a call once
 * the calls of both showed none for POOL_SPREAD_CALLS calls. A call that
 * blocks holds the partner only: the receiver goes on receiving.
 */
int pool_partner(struct pool_thread *t)
{
	struct pool *p = t->p;
	int decided;

	do {
		uint64_t seq = 0, got, done;
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
		pool_partner_sign(p);
		atomic_store(&p->partner_busy, true); /* until its reply: pool_partner_reply */
		decided = pool_decide(t, &seq, got, &done);
	} while (!pool_after_partner(t, decided));
	return 1;
}
