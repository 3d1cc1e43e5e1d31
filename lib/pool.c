/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Several supervising threads on one listener, one in RECV (two while
 * target threads' calls meet: lib/pool-partner.c).
 *
 * The kernel wakes every thread blocked in RECV on a listener for each
 * notification (Linux 6.6+), on the target's CPU with the same-CPU hint:
 * two receivers cost a wake-up per call, worth it only while calls meet
 * (the partner). So one thread holds the receiver role at a time. It
 * decides and answers each call inline, as the single-threaded loop does,
 * and the reply comes from the CPU the target sleeps on. A call that
 * blocks (a FIFO's open, a connect that is not accepted, a slow file
 * system) must not hold the calls of every other thread of the sandbox
 * behind it: the thread deciding it gives the role away, becomes a worker
 * that finishes that one call, and parks.
 *
 * The role is given away by the thread itself when the library knows a
 * call may wait (pool_may_block: a FIFO's open, a connect), or taken by the
 * watchdog when a call has taken one whole tick (a file the program could
 * not predict would block: a file another holds a lease on, a device,
 * FUSE, NFS).
 * The new receiver is a parked thread or a new one, up to ops->threads.
 *
 * The receiver's fast path takes no lock: the number of the call it is
 * deciding goes in p->busy before deciding (the watchdog reads it), and a
 * compare-and-exchange back to 0 after replying tells it whether it still
 * holds the role (the watchdog's own exchange took it otherwise). No
 * system call either while calls come: the watchdog's tick slows down by
 * itself while none does, and only the first call after a quiet tick wakes
 * it (pool_kick), so that a call that blocks is taken over within two ticks
 * whether the sandbox was busy or idle.
 *
 * Several target threads calling at once (make -jN) queue behind the
 * receiver while it decides. The first call found waiting that is another
 * thread's than the one just decided forms the partner
 * (lib/pool-partner.c): a parked thread goes to RECV beside the receiver
 * while calls keep meeting, two receivers each woken by the kernel on the
 * caller's CPU, with no call handed over. More threads calling than two
 * receivers take (three different ones found waiting in a row:
 * lib/pool-spread.c, pool_should_spread) make a costly call (a decided
 * open, not a getppid) give the role away before it is decided, so the
 * next call is decided on another CPU meanwhile, at most one such worker
 * (the partner included) per CPU besides the receiver, and only while the
 * threads it wakes find a CPU free (a spread that waits for one costs more
 * than it saves). Every reply still comes from the thread the kernel woke
 * on the target's CPU.
 *
 * A worker whose call went away (the target was killed) is interrupted (so
 * is the receiver inside a wait it announced, when no thread was spare):
 * the watchdog finds its id invalid, kills the helper it waits on (the
 * network calls' helper, pool_helper_slot) and signals the thread
 * (UNOTIFY_INTERRUPT_SIGNAL, handler without SA_RESTART) so that its
 * blocking call returns EINTR. A worker whose target has a signal to
 * handle (held by WAIT_KILLABLE_RECV) is interrupted too, and answers
 * ERESTARTSYS: the kernel restarts the call or fails it with EINTR, as for
 * its own. A worker never replies without first checking that its
 * notification is still valid (the partner, which receives its calls as
 * the receiver does, replies as the receiver does), and no reply is ever
 * interrupted (pool_reply says why).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "pool.h"
#include "target.h"
#include "util.h"

#define POOL_TICK_NS (4 * 1000 * 1000)
/* Without calls, the watchdog's tick doubles up to this (no wake-up on the round trip). */
#define POOL_IDLE_MAX_NS (1000ULL * 1000 * 1000)
#define POOL_WORKER_MAX_NS (128ULL * 1000 * 1000) /* while a worker waits: its call checked */
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define POOL_STACK (256 * 1024)     /* a decision's, as unotifyd's connection threads have */
#define POOL_WATCH_STACK (64 * 1024)
#define POOL_ERESTARTSYS 512 /* the kernel's, never seen by a program that has its signal */

static __thread struct pool_thread *pool_self;

static void pool_on_signal(int sig)
{
	(void)sig;
}

/* Once per process: the signal interrupts, it does not restart (no SA_RESTART). */
static void pool_signal_once(void)
{
	struct sigaction sa = { .sa_handler = pool_on_signal };

	sigemptyset(&sa.sa_mask);
	(void)sigaction(UNOTIFY_INTERRUPT_SIGNAL, &sa, NULL);
}

static void pool_unblock_signal(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, UNOTIFY_INTERRUPT_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* The first error ends it; 0 is an ordinary end (no task uses the filter, or *stop). */
void pool_finish_locked(struct pool *p, int err)
{
	if (!atomic_load(&p->done))
		p->error = err;
	atomic_store(&p->done, true);
	pthread_cond_broadcast(&p->parked);
	pthread_cond_signal(&p->watch);
}

void pool_finish(struct pool *p, int err)
{
	pthread_mutex_lock(&p->lock);
	pool_finish_locked(p, err);
	pthread_mutex_unlock(&p->lock);
}

static void *pool_thread_main(void *arg);

/*
 * A thread to hold the role next: a parked one, else (create) a new one;
 * NULL at the limit. Only the watchdog creates threads: a new thread
 * shares its creator's fs context until it unshares it and inherits its
 * credentials, and a deciding thread may be acting as a target (chrooted,
 * the target's ids and capabilities) at any moment. The watchdog never is.
 */
struct pool_thread *pool_spare_locked(struct pool *p, bool create)
{
	struct pool_thread *t;
	pthread_attr_t attr;
	int r;

	for (unsigned int i = 0; i < p->n; i++)
		if (p->threads[i].role == POOL_PARKED)
			return &p->threads[i];
	if (!create || p->n >= p->max)
		return NULL;
	t = &p->threads[p->n];
	t->req = calloc(1, p->l->sizes.seccomp_notif);
	if (!t->req)
		return NULL;
	t->p = p;
	t->role = POOL_PARKED;
	t->started = true;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, POOL_STACK);
	r = pthread_create(&t->thread, &attr, pool_thread_main, t);
	pthread_attr_destroy(&attr);
	if (r != 0) {
		free(t->req);
		t->req = NULL;
		return NULL;
	}
	p->n++;
	return t;
}

/*
 * Takes the role from the receiver deciding call number v, for a spare
 * thread. False when v is over (the exchange fails) or no thread is spare:
 * the calls then wait for this one, as with a single thread.
 */
bool pool_takeover_locked(struct pool *p, uint64_t v, bool create)
{
	struct pool_thread *next, *old = p->receiver;
	uint64_t expected = v;

	if (atomic_load(&p->done) || v == 0 || (v & POOL_REPLYING) || !old)
		return false;
	next = pool_spare_locked(p, create);
	if (!next)
		return false;
	if (!atomic_compare_exchange_strong(&p->busy, &expected, 0))
		return false;
	old->role = POOL_WORKER;
	next->role = POOL_RECEIVER;
	p->receiver = next;
	pthread_cond_broadcast(&p->parked);
	return true;
}

/* No parked thread: the watchdog makes one (and takes the role from call v, if not 0). */
void pool_request_locked(struct pool *p, uint64_t v)
{
	p->want_spare = true;
	if (v)
		p->want = v;
	pthread_cond_signal(&p->watch);
}

/*
 * The end of an announced wait, under the lock. A signal the watchdog sent
 * for it (t->interrupted) is queued by now, but may not have been handled
 * yet (it raced the wait's end): it is taken here, so that it cannot reach
 * a later system call of this thread, least of all the reply (an ADDFD with
 * SEND interrupted completes the target's call with 0).
 */
void pool_wait_done_locked(struct pool_thread *t)
{
	static const struct timespec now = { 0, 0 };
	sigset_t set, saved;

	t->waiting = false;
	if (!t->interrupted)
		return;
	t->interrupted = false;
	sigemptyset(&set);
	sigaddset(&set, UNOTIFY_INTERRUPT_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &set, &saved);
	(void)sigtimedwait(&set, NULL, &now);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

bool pool_may_block(void)
{
	struct pool_thread *t = pool_self;
	struct pool *p;
	uint64_t v;

	if (!t)
		return false;
	p = t->p;
	pthread_mutex_lock(&p->lock);
	t->waiting = true;
	p->waits++;
	v = atomic_load(&p->busy);
	if (p->receiver == t && t->role == POOL_RECEIVER && !pool_takeover_locked(p, v, false))
		pool_request_locked(p, v);
	pthread_mutex_unlock(&p->lock);
	return true;
}

bool pool_wait_begin(void)
{
	struct pool_thread *t = pool_self;

	if (!t)
		return false;
	pthread_mutex_lock(&t->p->lock);
	t->waiting = true;
	pthread_mutex_unlock(&t->p->lock);
	return true;
}

void pool_wait_end(void)
{
	struct pool_thread *t = pool_self;

	if (!t)
		return;
	pthread_mutex_lock(&t->p->lock);
	pool_wait_done_locked(t);
	pthread_mutex_unlock(&t->p->lock);
}

bool pool_running(void)
{
	return pool_self != NULL;
}

int *pool_helper_slot(void)
{
	static __thread int none;

	return pool_self ? &pool_self->helper : &none;
}

void pool_helper_done(void)
{
	struct pool_thread *t = pool_self;

	if (!t)
		return;
	/* Under the lock: the watchdog kills the helper only while it is ours (unreaped). */
	pthread_mutex_lock(&t->p->lock);
	__atomic_store_n(&t->helper, 0, __ATOMIC_RELAXED);
	pool_wait_done_locked(t);
	pthread_mutex_unlock(&t->p->lock);
}

/* A worker's call is gone (or the pool ends): stop what it waits in. */
static void pool_interrupt_locked(struct pool_thread *t)
{
	int helper = __atomic_load_n(&t->helper, __ATOMIC_RELAXED);

	if (helper > 0)
		kill(helper, SIGKILL);
	t->interrupted = true;
	pthread_kill(t->thread, UNOTIFY_INTERRUPT_SIGNAL);
}

/*
 * Workers, and a receiver in a wait it announced (no thread was spare to
 * take RECV from it: every one already waits): a call gone (the target was
 * killed) is interrupted, its helper killed; a call whose target has a
 * signal to handle is interrupted (the thread only: a helper's result would
 * be lost), and answered ERESTARTSYS (pool_decide). Sent again every tick:
 * a signal that came before the thread entered its wait did not interrupt
 * it. A receiver is never interrupted outside such a wait: its reply is not
 * protected from the signal (pool_reply), and the wait's end takes any
 * signal left (pool_wait_done_locked).
 */
static void pool_check_workers_locked(struct pool *p)
{
	for (unsigned int i = 0; i < p->n; i++) {
		struct pool_thread *t = &p->threads[i];
		uint64_t id = atomic_load_explicit(&t->id, memory_order_relaxed);

		if (t->replying) {
			continue; /* checked at the next tick, its reply sent */
		} else if (atomic_load(&p->done) &&
			   (t->role == POOL_WORKER ||
			    (t->role == POOL_RECEIVER && atomic_load(&p->busy) == 0))) {
			pool_interrupt_locked(t);
		} else if (t->role != POOL_WORKER && !(t->role == POOL_RECEIVER && t->waiting)) {
			continue;
		} else if (id == 0) {
			continue; /* a partner between calls (pool_partner) */
		} else if (unotify_id_valid(p->l, id) == -ENOENT) {
			pool_interrupt_locked(t);
		} else if (__atomic_load_n(&t->helper, __ATOMIC_RELAXED) <= 0 &&
			   pool_target_signalled(atomic_load_explicit(&t->pid,
								      memory_order_relaxed))) {
			atomic_store(&t->signalled, true);
			t->interrupted = true;
			pthread_kill(t->thread, UNOTIFY_INTERRUPT_SIGNAL);
		}
	}
}

/* Workers deciding a call (a partner waiting for one is not). */
static bool pool_has_workers_locked(struct pool *p)
{
	for (unsigned int i = 0; i < p->n; i++)
		if (p->threads[i].role == POOL_WORKER && atomic_load(&p->threads[i].id) != 0)
			return true;
	return false;
}

static void pool_sleep_locked(struct pool *p, uint64_t ns)
{
	struct timespec ts;

	monotonic_deadline(ns, &ts);
	pthread_cond_timedwait(&p->watch, &p->lock, &ts);
}

/*
 * The tick: POOL_TICK_NS while calls come (a new call number since the
 * last tick, or one in progress), doubling while none does, up to 1 s
 * (128 ms while a worker waits, whose call must be checked): an idle
 * sandbox costs a wake-up a second. The receiver wakes the watchdog only
 * for the first call after it slowed down (pool_kick: one futex wake, not
 * one per call), so a call that blocks is taken over within two ticks.
 */
static void *pool_watch_main(void *arg)
{
	struct pool *p = arg;
	uint64_t last = 0, last_seq = 0, last_partner = 0, period = POOL_TICK_NS;

	/* A clean fs context of our own, which the threads we start copy (pool_spare_locked). */
	int r = unshare(CLONE_FS) < 0 ? negative_errno() : 0;

	pthread_mutex_lock(&p->lock);
	p->watch_ready = r < 0 ? r : 1;
	pthread_cond_broadcast(&p->gone);
	while (r == 0 && !p->watch_stop) {
		uint64_t v = atomic_load(&p->busy);
		uint64_t seq = atomic_load_explicit(&p->seq, memory_order_relaxed);
		uint64_t partner = atomic_load_explicit(&p->partner_seq, memory_order_relaxed);
		bool active = v != 0 || seq != last_seq || partner != last_partner ||
			      atomic_load(&p->done);

		/* Asked for by a thread about to wait (pool_may_block), to spread, or to partner. */
		if (p->want_spare)
			pool_spare_locked(p, true);
		pool_partner_asked_locked(p);
		if (p->want && p->want == v && pool_takeover_locked(p, v, true))
			v = 0;
		p->want_spare = false;
		p->want = 0;
		/* The same call in progress at two ticks: it has taken a whole tick. */
		if (v != 0 && v == last && pool_takeover_locked(p, v, true)) {
			p->slow++;
			v = 0;
		}
		last = v;
		last_seq = seq;
		last_partner = partner;
		pool_check_workers_locked(p);
		if (active)
			period = POOL_TICK_NS;
		else
			period = MIN(period * 2, pool_has_workers_locked(p) ? POOL_WORKER_MAX_NS
									  : POOL_IDLE_MAX_NS);
		/*
		 * Idle, then busy read again: a receiver that set busy meanwhile
		 * either sees watch_idle and kicks, or is seen here (both seq_cst).
		 */
		atomic_store(&p->watch_idle, period > POOL_TICK_NS);
		if (period > POOL_TICK_NS && atomic_load(&p->busy) != 0) {
			atomic_store(&p->watch_idle, false);
			period = POOL_TICK_NS;
		}
		pool_sleep_locked(p, period);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/*
 * A call arrived while the watchdog sleeps long (no call for a tick): back
 * to its tick, so that this call, should it block, is taken over in time.
 * The call is in p->busy already (a partner's in p->partner_seq): the
 * watchdog counts it as its first.
 */
void pool_kick(struct pool *p)
{
	pthread_mutex_lock(&p->lock);
	if (atomic_load_explicit(&p->watch_idle, memory_order_relaxed)) {
		atomic_store_explicit(&p->watch_idle, false, memory_order_relaxed);
		pthread_cond_signal(&p->watch);
	}
	pthread_mutex_unlock(&p->lock);
}

/* Waits for the role (1) or the partner's (2, pool_partner_form_locked); 0 at the end. */
static int pool_wait_role(struct pool_thread *t)
{
	struct pool *p = t->p;
	int r;

	pthread_mutex_lock(&p->lock);
	while (!atomic_load(&p->done) && t->role == POOL_PARKED)
		pthread_cond_wait(&p->parked, &p->lock);
	r = atomic_load(&p->done) ? 0 : t->role == POOL_RECEIVER ? 1 : 2;
	if (p->spread_woken)
		pool_spread_woken_locked(p);
	pthread_mutex_unlock(&p->lock);
	return r;
}

/* A call decided after the role was given away: parked, or the end. */
static void pool_after_worker(struct pool_thread *t, int decided)
{
	struct pool *p = t->p;
	bool stop = p->stop && *p->stop; /* the flag this call's decision may have set */

	pthread_mutex_lock(&p->lock);
	pool_wait_done_locked(t);
	if (t->role == POOL_WORKER)
		t->role = POOL_PARKED;
	if (t->spreading) {
		t->spreading = false;
		p->spreading--;
	}
	/* *stop is checked after every call (unotify.h), a worker's too. */
	if (decided == -ENOTRECOVERABLE || stop)
		pool_finish_locked(p, decided == -ENOTRECOVERABLE ? decided : 0);
	pthread_mutex_unlock(&p->lock);
}

/*
 * Never interrupted while it replies: an ADDFD with SEND interrupted by a
 * signal after the kernel marked the call replied, and before the target
 * took the fd, completes the target's call with 0 (seen: an open returning
 * stdin). The receiver sets POOL_REPLYING in busy, which the watchdog then
 * neither takes over nor interrupts; a worker (the exchange fails: the
 * role was taken) blocks the signal for its reply instead (a signal sent
 * meanwhile is handled after it, harmlessly).
 */
static uint64_t pool_reply(struct pool_thread *t, uint64_t *seq, struct unotify_verdict *v,
			   uint64_t got)
{
	struct pool *p = t->p;
	uint64_t expected = *seq, done;
	sigset_t set, saved;

	if (*seq != 0 && atomic_compare_exchange_strong(&p->busy, &expected, *seq | POOL_REPLYING)) {
		*seq |= POOL_REPLYING;
		return supervise_reply(p->l, p->ops, t->req, v, got, false, true);
	}
	if (t->partnering)
		return pool_partner_reply(t, v, got);
	/* A worker: checks that the call is still pending first, nothing is injected into one gone. */
	sigemptyset(&set);
	sigaddset(&set, UNOTIFY_INTERRUPT_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &set, &saved);
	done = supervise_reply(p->l, p->ops, t->req, v, got, true, true);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return done;
}

/*
 * One call; *seq is what p->busy holds for it after the reply, if we still
 * receive; *ret_done when the reply was sent. Two clock reads a call, each
 * some 20 to 50 ns: when RECV returned (the round trip's start) and when
 * the reply was sent, which is the round trip's end, the decision's cost
 * (with its reply: well under what POOL_SPREAD_NS tells apart) and, for
 * the receiver, the start of its next RECV.
 */
int pool_decide(struct pool_thread *t, uint64_t *seq, uint64_t got, uint64_t *ret_done)
{
	struct pool *p = t->p;
	struct unotify_verdict v;
	int decided = supervise_decide(p->l, p->ops, t->req, &v);

	/*
	 * Interrupted for the target's signal: ERESTARTSYS, which the kernel
	 * turns into a restart (SA_RESTART) or EINTR as it delivers the signal,
	 * as it does for its own interrupted calls.
	 */
	if (atomic_load(&t->signalled) && v.kind == UNOTIFY_VERDICT_ERRNO && v.error == EINTR)
		v.error = POOL_ERESTARTSYS;
	*ret_done = pool_reply(t, seq, &v, got);
	pool_learn_cost(p, t->req, *ret_done - got);
	return decided;
}

/* Holds the role until it gives it away (1) or the end (0). */
static int pool_receive(struct pool_thread *t)
{
	struct pool *p = t->p;

	/* When this thread's RECV began: the previous reply's time, read once for both. */
	uint64_t before = pool_now_ns();

	for (;;) {
		uint64_t seq, got;
		int r = listener_recv_into(p->l, t->req);

		if (r == -EINTR || r == -ENOENT) {
			if (r == -EINTR && atomic_load(&p->done))
				return 0;
			before = pool_now_ns();
			continue;
		}
		if (r < 0) {
			pool_finish(p, r == -EPIPE ? 0 : r);
			return 0;
		}
		got = pool_now_ns();
		seq = atomic_load_explicit(&p->seq, memory_order_relaxed) + 1;
		atomic_store_explicit(&p->seq, seq, memory_order_relaxed);
		atomic_store_explicit(&t->id, t->req->id, memory_order_relaxed);
		atomic_store_explicit(&t->pid, t->req->pid, memory_order_relaxed);
		atomic_store_explicit(&t->signalled, false, memory_order_relaxed);
		atomic_store(&p->busy, seq);
		if (atomic_load(&p->watch_idle))
			pool_kick(p);
		if (pool_should_spread(p, t->req, got, got - before))
			pool_spread(t, seq);
		r = pool_decide(t, &seq, got, &before);
		if (!atomic_compare_exchange_strong(&p->busy, &seq, 0)) {
			pool_after_worker(t, r);
			return 1;
		}
		if (r == -ENOTRECOVERABLE || (p->stop && *p->stop)) {
			pool_finish(p, r == -ENOTRECOVERABLE ? r : 0);
			return 0;
		}
	}
}

/* Until the end: the role and calls, or a partner's calls; parked; again. */
static void pool_loop(struct pool_thread *t)
{
	struct pool *p = t->p;
	int r;

	pool_self = t;
	pool_unblock_signal();
	do {
		r = pool_wait_role(t);
		if (r == 1)
			r = pool_receive(t);
		else if (r == 2)
			r = pool_partner(t);
	} while (r == 1);
	pthread_mutex_lock(&p->lock);
	t->role = POOL_GONE;
	if (p->receiver == t)
		p->receiver = NULL;
	pthread_cond_broadcast(&p->gone);
	pthread_mutex_unlock(&p->lock);
	pool_self = NULL;
}

/*
 * Each thread acts as targets in an fs context of its own, captured before
 * its first decision (name resolution under /proc needs it, not only the
 * opens, which would call it themselves). Without one it must not decide:
 * supervision ends, fail closed (the caller reports it).
 */
static void *pool_thread_main(void *arg)
{
	struct pool_thread *t = arg;
	int r = unotify_thread_init();

	if (r < 0)
		pool_finish(t->p, r);
	pool_loop(t);
	return NULL;
}

/* Every thread returned (the watchdog interrupts their calls meanwhile), then joined. */
static void pool_join(struct pool *p)
{
	bool running;

	pthread_mutex_lock(&p->lock);
	pool_finish_locked(p, 0);
	do {
		running = false;
		for (unsigned int i = 0; i < p->n; i++)
			running |= p->threads[i].role != POOL_GONE;
		if (running)
			pthread_cond_wait(&p->gone, &p->lock);
	} while (running);
	p->watch_stop = true;
	pthread_cond_signal(&p->watch);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->watchdog, NULL);
	for (unsigned int i = 0; i < p->n; i++)
		if (p->threads[i].started)
			pthread_join(p->threads[i].thread, NULL);
}

static void pool_free(struct pool *p)
{
	for (unsigned int i = 0; i < p->n; i++)
		free(p->threads[i].req);
	pthread_cond_destroy(&p->parked);
	pthread_cond_destroy(&p->watch);
	pthread_cond_destroy(&p->gone);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/* After pool_join: nobody else writes. */
static void pool_stats(const struct pool *p, struct unotify_supervise_stats *s)
{
	uint64_t partner = atomic_load(&p->partner_seq);

	*s = (struct unotify_supervise_stats){
		.threads = p->n,
		.calls = atomic_load(&p->seq) + partner,
		.partner_calls = partner,
		.partners = p->partners_formed,
		.spread = p->spreads,
		.waited = p->waits,
		.slow = p->slow,
	};
}

static unsigned int pool_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return (unsigned int)CPU_COUNT(&set);
}

static struct pool *pool_new(unotify_listener *l, const struct unotify_loop_ops *ops,
			     const volatile bool *stop)
{
	struct pool *p = calloc(1, sizeof(*p) + ops->threads * sizeof(p->threads[0]));
	pthread_condattr_t attr;

	if (!p)
		return NULL;
	p->threads[0].req = calloc(1, l->sizes.seccomp_notif);
	if (!p->threads[0].req) {
		free(p);
		return NULL;
	}
	p->l = l;
	p->ops = ops;
	p->stop = stop;
	p->max = ops->threads;
	p->cpus = pool_cpus();
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->watch, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&p->parked, NULL);
	pthread_cond_init(&p->gone, NULL);
	/* The caller's thread is the first receiver. */
	p->threads[0].p = p;
	p->threads[0].thread = pthread_self();
	p->threads[0].role = POOL_RECEIVER;
	p->receiver = &p->threads[0];
	p->n = 1;
	return p;
}

int pool_supervise(unotify_listener *l, const struct unotify_loop_ops *ops,
		   const volatile bool *stop, struct unotify_supervise_stats *ret)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct pool *p = pool_new(l, ops, stop);
	pthread_attr_t attr;
	sigset_t saved;
	int r;

	if (!p)
		return -ENOMEM;
	pthread_once(&once, pool_signal_once);
	pthread_sigmask(SIG_SETMASK, NULL, &saved);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, POOL_WATCH_STACK);
	r = -pthread_create(&p->watchdog, &attr, pool_watch_main, p);
	pthread_attr_destroy(&attr);
	if (r < 0) {
		pool_free(p);
		return r;
	}
	/* Not a call decided before the watchdog has its own fs context (we may chroot next). */
	pthread_mutex_lock(&p->lock);
	while (p->watch_ready == 0)
		pthread_cond_wait(&p->gone, &p->lock);
	r = p->watch_ready < 0 ? p->watch_ready : 0;
	pthread_mutex_unlock(&p->lock);
	if (r < 0) {
		pthread_join(p->watchdog, NULL);
		pool_free(p);
		return r;
	}
	pool_loop(&p->threads[0]);
	pool_join(p);
	if (ret)
		pool_stats(p, ret);
	r = p->error;
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	pool_free(p);
	return r;
}
