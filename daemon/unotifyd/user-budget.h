/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit trail's budget of a user who registers sandboxes (user-budget.c).
 * Each sandbox has a budget of its own (--log-limit); a user who is not
 * root registering short sandboxes one after another would bring a fresh
 * one with each, and write the budget once per sandbox. So the sandboxes
 * a user registers also share one budget of the same size: together they
 * write no more than one sandbox may. Root (a runtime starting containers)
 * is trusted with the daemon's disk: its sandboxes have their own only.
 */
#ifndef UNOTIFYD_USER_BUDGET_H
#define UNOTIFYD_USER_BUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "audit/audit.h"

/*
 * Users whose budgets are kept: past them, the one unused the longest is
 * reused (what it holds back summed up first); when every one is in use,
 * the users left over share one more.
 */
#define USER_BUDGETS 64

struct user_budget {
	bool used;
	uid_t uid;
	unsigned int refs;      /* sandboxes using it */
	uint64_t released_ns;   /* when the last one let go (CLOCK_MONOTONIC) */
	struct audit_limit limit;
};

struct user_budgets {
	pthread_mutex_t lock;
	struct user_budget slot[USER_BUDGETS];
	struct user_budget others; /* the users left over, all slots in use */
};

void user_budgets_init(struct user_budgets *b);
/* uid's shared budget, referenced; NULL for root. a: where a reused slot's summary goes. */
struct audit_limit *user_budget_get(struct user_budgets *b, struct audit *a, uid_t uid);
void user_budget_put(struct user_budgets *b, struct audit_limit *limit);
/* The daemon stops: what each budget holds back is summed up in a. */
void user_budgets_flush(struct user_budgets *b, struct audit *a);

#endif
