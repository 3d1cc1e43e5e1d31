/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The users' shared budgets (user-budget.h). A budget outlives its last
 * sandbox: the next sandbox of the same user, in the same window, finds
 * what was written already. A slot is reused only when no sandbox uses
 * it, the one let go the longest ago first.
 */
#include "config.h"

#include <stddef.h>

#include "daemon.h"
#include "user-budget.h"

void user_budgets_init(struct user_budgets *b)
{
	*b = (struct user_budgets){ 0 };
	pthread_mutex_init(&b->lock, NULL);
	b->others.used = true;
	audit_limit_init(&b->others.limit);
	b->others.limit.owner_uid = AUDIT_UID_OTHERS;
}

/* Under b->lock: uid's slot, else a free one, else the one let go the longest ago, else others. */
static struct user_budget *user_budget_slot(struct user_budgets *b, struct audit *a, uid_t uid)
{
	struct user_budget *pick = NULL;

	for (size_t i = 0; i < USER_BUDGETS; i++) {
		struct user_budget *u = &b->slot[i];

		if (u->used && u->uid == uid)
			return u;
		if (u->refs)
			continue;
		if (!pick || (pick->used && (!u->used || u->released_ns < pick->released_ns)))
			pick = u;
	}
	if (!pick)
		return &b->others;
	if (pick->used)
		audit_limit_end(a, &pick->limit, NULL);
	*pick = (struct user_budget){ .used = true, .uid = uid };
	audit_limit_init(&pick->limit);
	pick->limit.owner_uid = (long)uid;
	return pick;
}

struct audit_limit *user_budget_get(struct user_budgets *b, struct audit *a, uid_t uid)
{
	struct user_budget *u;

	if (uid == 0)
		return NULL;
	pthread_mutex_lock(&b->lock);
	u = user_budget_slot(b, a, uid);
	u->refs++;
	pthread_mutex_unlock(&b->lock);
	return &u->limit;
}

void user_budget_put(struct user_budgets *b, struct audit_limit *limit)
{
	struct user_budget *u;

	if (!limit)
		return;
	u = (struct user_budget *)((char *)limit - offsetof(struct user_budget, limit));
	pthread_mutex_lock(&b->lock);
	u->refs--;
	u->released_ns = daemon_now_ns();
	pthread_mutex_unlock(&b->lock);
}

void user_budgets_flush(struct user_budgets *b, struct audit *a)
{
	pthread_mutex_lock(&b->lock);
	for (size_t i = 0; i < USER_BUDGETS; i++)
		if (b->slot[i].used)
			audit_limit_flush(a, &b->slot[i].limit, NULL);
	audit_limit_flush(a, &b->others.limit, NULL);
	pthread_mutex_unlock(&b->lock);
}
