/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail's budget (--log-limit): at most so many bytes of records
 * per sandbox in each window of so many seconds. Without one, a program
 * refused as fast as it asks writes as fast as the supervisor answers (an
 * exec's record alone holds up to some 40 KiB of its argv), and fills the
 * file system the trail is on. Records over the budget are held back:
 * counted, and summed up in one record of their own ("suppressed") when
 * the next window's first record is written, or when the sandbox ends.
 * Nothing is lost without a trace: every decision is still counted
 * (unotify run --stats, unotifyd's status).
 */
#ifndef UNOTIFY_AUDIT_LIMIT_H
#define UNOTIFY_AUDIT_LIMIT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Some 13,000 records of a denied open per minute; a day of flooding writes under 6 GiB. */
#define AUDIT_BUDGET_DEFAULT "4M/60"

struct audit_budget {
	uint64_t bytes;      /* per window; 0: no limit */
	uint32_t seconds;    /* the window */
};

/*
 * "SIZE/SECONDS" (SIZE in bytes, or with K, M or G: KiB, MiB, GiB;
 * SECONDS from 1 to 86400, an 's' may follow), or "none": no limit.
 * -EINVAL for anything else, *ret untouched.
 */
int audit_budget_parse(const char *s, struct audit_budget *ret);
/* "4M/60s", "1500/1s" or "none", as parsed. */
void audit_budget_format(const struct audit_budget *b, char *buf, size_t size);

/* Records held back in a window: how many, their bytes, since when (CLOCK_REALTIME). */
struct audit_held {
	uint64_t records, bytes;
	struct timespec since;
};

/* One sandbox's use of the budget; several supervising threads share it. */
struct audit_limit {
	pthread_mutex_t lock;
	uint64_t window_start; /* CLOCK_MONOTONIC ns; 0: no record yet */
	uint64_t used;         /* bytes written in the window */
	struct audit_held held;
	atomic_ullong suppressed; /* records held back in all */
	/*
	 * NULL, or a budget this one shares with other sandboxes (unotifyd:
	 * the registering user's, so that sandboxes registered one after
	 * another do not each bring a budget of their own). A record goes
	 * through only when both have room. One held back for want of room
	 * in the shared budget is summed up by that budget (a record per
	 * user and window, however many sandboxes), and counted here too.
	 */
	struct audit_limit *shared;
	long owner_uid; /* a shared budget's user; -1: a sandbox's own; AUDIT_UID_OTHERS */
};

/* owner_uid of the budget users share when none is left for each (user=others). */
#define AUDIT_UID_OTHERS (-2L)

/* What the caller writes before the record, and whether it is written at all. */
struct audit_admit {
	bool admit;
	struct audit_held held;        /* the sandbox's window that ended (records 0: none) */
	struct audit_held shared_held; /* the shared budget's window that ended */
	bool first;                    /* the record is the first its sandbox's window holds */
	bool shared_first;             /* ... the first the shared budget's window holds */
};

void audit_limit_init(struct audit_limit *l);
void audit_limit_destroy(struct audit_limit *l);
/*
 * May a record of cost bytes be written now (ret->admit)? When a window
 * with records held back has ended, the caller sums them up before this
 * record; when this record is a window's first held back, the caller says
 * so at once (a supervisor killed before the summary leaves that trace).
 */
void audit_limit_admit(struct audit_limit *l, const struct audit_budget *b, uint64_t cost,
		       struct audit_admit *ret);
/* What is held back and not summed up yet, taken (the sandbox ends). */
void audit_limit_take(struct audit_limit *l, struct audit_held *ret_held);

#endif
