/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The pool's own parts, shared by lib/pool.c (its threads, the receiver
 * role, workers, the watchdog), lib/pool-spread.c (spreading calls over
 * CPUs) and lib/pool-partner.c (the partner receiver). Nothing outside
 * these files uses them.
 */
#ifndef UNOTIFY_POOL_H
#define UNOTIFY_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "internal.h"

#define POOL_NR_MAX 512
#define POOL_QUEUED_NS 2000        /* RECV returned this fast: the call was already waiting */
#define POOL_SPREAD_NS 20000       /* a decision this costly is worth a wake-up to spread */
#define POOL_SPREAD_CALLS 64       /* spreading lasts this many calls after the last sign */
#define POOL_SPREAD_TURNS 32       /* two threads this long in turns: they only call */
#define POOL_PARTNERS 1            /* threads in RECV beside the receiver, while calls meet */
#define POOL_PARTNER_CALLS 1024    /* the partner stays this many calls after calls last met */
#define POOL_SPREAD_QUIET_NS (50ULL * 1000 * 1000) /* no spreading after a slow wake-up */
#define POOL_REPLYING (1ULL << 63) /* in p->busy: the receiver replies, leave it be */

enum pool_role {
	POOL_PARKED,   /* waits for the role (or the end) */
	POOL_RECEIVER, /* holds the role: in RECV, or deciding a call inline */
	POOL_WORKER,   /* deciding a call it gave the role away for */
	POOL_GONE,     /* returned */
};

struct pool_thread {
	struct pool *p;
	pthread_t thread;
	bool started;             /* one of ours (joined at the end), not the caller's */
	enum pool_role role;      /* under p->lock */
	struct seccomp_notif *req;
	_Atomic uint64_t id;      /* the call being decided, set before p->busy */
	_Atomic uint32_t pid;     /* its target thread (0: not in our pid namespace) */
	atomic_bool signalled;    /* interrupted: the target has a signal to handle */
	bool spreading;           /* gave the role away to spread calls, or partners (under p->lock) */
	bool partnering;          /* receives beside the receiver (idem, pool_partner) */
	bool replying;            /* the partner replies: not to be interrupted (idem) */
	bool waiting;             /* in a wait pool_may_block/pool_wait_begin announced (idem) */
	bool interrupted;         /* sent UNOTIFY_INTERRUPT_SIGNAL in that wait (idem) */
	int helper;               /* the child it waits on, written by clone (CLONE_PARENT_SETTID) */
};

struct pool {
	unotify_listener *l;
	const struct unotify_loop_ops *ops;
	const volatile bool *stop;
	pthread_mutex_t lock;
	pthread_cond_t parked;    /* a parked thread was given the role, or the end */
	pthread_cond_t watch;     /* the watchdog's sleep */
	pthread_cond_t gone;      /* a thread returned */
	_Atomic uint64_t busy;    /* the receiver's call number while it decides, else 0 */
	_Atomic uint64_t seq;     /* call numbers, written by the role holder only */
	int watch_ready;          /* 1 once the watchdog runs, -errno if it cannot */
	atomic_bool watch_idle;   /* the watchdog sleeps longer than a tick: kick it */
	bool want_spare;          /* asked of the watchdog: a parked thread */
	bool want_partner;        /* asked of the watchdog: a partner, of a new thread if need be */
	uint64_t want;            /* asked of the watchdog: take the role from this call */
	atomic_bool done;         /* written under the lock, read by receivers without */
	bool watch_stop;
	int error;
	struct pool_thread *receiver;
	unsigned int n, max;
	/* Spreading calls over CPUs (pool_should_spread): the role holder's, but for cost. */
	unsigned int cpus;        /* CPUs we may run on */
	unsigned int spreading;   /* workers deciding spread calls, and the partner (under the lock) */
	unsigned int partners;    /* threads receiving beside the receiver (idem) */
	atomic_bool partnered;    /* a partner receives, or is asked for (written under the lock) */
	atomic_bool partner_busy; /* the partner decides a call (not yet replying) */
	_Atomic uint64_t partner_seq; /* the partner's calls, counted for the watchdog */
	atomic_uint partner_left; /* the partner's calls left (lib/pool-partner.c) */
	_Atomic uint32_t last_pid;      /* the receiver's last call's target thread */
	_Atomic uint32_t queued_pid[2]; /* the last two calls found waiting, in a row */
	atomic_uint turns;        /* calls found waiting in a row, each of another thread */
	atomic_uint spread;
	uint64_t spread_woken;    /* when a spread gave the role away (under the lock) */
	_Atomic uint64_t quiet_until; /* no spreading before: a spread's wake-up was slow */
	_Atomic uint32_t cost[POOL_NR_MAX];
	/* For unotify_supervise_counted (under the lock). */
	uint64_t partners_formed, spreads;
	uint64_t waits;           /* calls that said they may wait (pool_may_block) */
	uint64_t slow;            /* calls taken over after a whole tick */
	pthread_t watchdog;
	struct pool_thread threads[];
};

static inline uint64_t pool_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * A life counted in calls (spreading's, the partner's): full again at a
 * sign, one call less for each call without; the calls left. Relaxed: a
 * lost update only shortens or lengthens it by a call.
 */
static inline unsigned int pool_count_calls(atomic_uint *left, bool sign, unsigned int full)
{
	unsigned int n = atomic_load_explicit(left, memory_order_relaxed);

	if (sign)
		n = full;
	else if (n > 0)
		n--;
	atomic_store_explicit(left, n, memory_order_relaxed);
	return n;
}

/* pool.c */
void pool_finish(struct pool *p, int err);
void pool_finish_locked(struct pool *p, int err);
struct pool_thread *pool_spare_locked(struct pool *p, bool create);
bool pool_takeover_locked(struct pool *p, uint64_t v, bool create);
void pool_request_locked(struct pool *p, uint64_t v);
void pool_wait_done_locked(struct pool_thread *t);
void pool_kick(struct pool *p);
int pool_decide(struct pool_thread *t, uint64_t *seq, uint64_t got, uint64_t *ret_done);

/* pool-spread.c */
void pool_learn_cost(struct pool *p, const struct seccomp_notif *req, uint64_t ns);
bool pool_should_spread(struct pool *p, const struct seccomp_notif *req, uint64_t got,
			uint64_t waited);
void pool_spread(struct pool_thread *t, uint64_t seq);
void pool_spread_woken_locked(struct pool *p);

/* pool-partner.c */
bool pool_partner_form_locked(struct pool *p, bool create);
void pool_partner_asked_locked(struct pool *p);
void pool_partner_meet(struct pool *p, uint32_t pid, bool queued);
uint64_t pool_partner_reply(struct pool_thread *t, struct unotify_verdict *v, uint64_t got);
int pool_partner(struct pool_thread *t);

#endif
