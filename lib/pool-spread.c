/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Spreading a sandbox's calls over CPUs (lib/pool.c's header says where it
 * fits): while more target threads' calls queue than the receiver and its
 * partner (lib/pool-partner.c) take, a costly call is decided on another
 * thread (pool_should_spread, pool_spread). What a decision of each system
 * call costs is learnt here too (pool_learn_cost).
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
 * Its sign that the receivers keep target threads waiting: three
 * different threads in a row (at least two waited behind each decision),
 * or two taking turns for POOL_SPREAD_TURNS calls (threads that only call,
 * as a file scanner's do). Two compilers (make -j2) are not: their calls
 * meet now and then, each waits for one decision at most, the partner
 * takes them, and the CPU a third decider would take runs a compiler.
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
 * More target threads calling at once than two receivers take (-jN, N > 2):
 * while the receiver decides one, the others' calls queue behind it. For
 * POOL_SPREAD_CALLS calls after a sign of it (pool_queue_sign), a call
 * whose decision costs more than a wake-up (POOL_SPREAD_NS: a decided
 * open, not a getppid) gives the role to a parked thread before it is
 * decided, so that the next call is received, and decided, on another CPU
 * meanwhile; at most one such worker (the partner included) per CPU we may
 * run on besides the receiver. Not while a recent spread's thread was slow
 * to run (pool_spread_woken_locked): no CPU was free for it. Two threads'
 * calls meeting form the partner instead (pool_partner_meet). A single
 * target thread, or cheap calls, never pay for any of it.
 */
bool pool_should_spread(struct pool *p, const struct seccomp_notif *req, uint64_t got,
			uint64_t waited)
{
	bool queued = waited < POOL_QUEUED_NS;
	unsigned int spread;

	if (p->cpus < 2)
		return false;
	pool_partner_meet(p, req->pid, queued);
	spread = pool_count_calls(&p->spread, pool_queue_sign(p, req->pid, queued),
				  POOL_SPREAD_CALLS);
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
			p->spreads++;
			p->spread_woken = pool_now_ns();
		} else {
			pool_request_locked(p, 0); /* a spare for the next one */
		}
	}
	pthread_mutex_unlock(&p->lock);
}
