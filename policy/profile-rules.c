/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An OCI profile's entries as first-match rules, with the outcome runc and
 * libseccomp give them.
 *
 * In a profile the entries are a set, not a list: libseccomp merges them
 * per syscall, and an entry without args matches every call of its
 * syscalls whatever conditional entries say (its chain is shorter). So,
 * per syscall: the first applicable entry without args decides it (later
 * ones are dropped), and only when there is none do the conditional
 * entries apply: the most refusing action first (profile_in_round), in
 * profile order within one severity.
 * An entry's conditions are ANDed in one rule, unless two test the same
 * argument: then, as runc does, each condition is a rule of its own.
 * An SCMP_ACT_NOTIFY entry gives no rule: its calls go on to the rules
 * after the include, then the default (still deciding its syscalls when
 * it has no args, as above).
 * Entries with the default's own action (libseccomp's, errno included)
 * are dropped, as runc drops them (libseccomp refuses such a rule), so
 * that they cannot shadow the conditional entries of their syscalls.
 * Rules come out unconditional entries first: an unconditional rule and a
 * conditional one never share a syscall, so the order between them does
 * not matter.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/profile.h"

/*
 * Is the entry's action the default's? As runc decides it: by libseccomp's
 * action and errno, not by the policy action they map to (KILL_PROCESS and
 * TRAP both kill here, but differ there, and runc keeps the entry).
 */
static bool profile_action_equal(const struct profile_action *a, const struct profile_action *b)
{
	return a->scmp == b->scmp;
}

static int profile_rule_conds(struct policy_rule *r, const struct policy_cond *conds, size_t n)
{
	if (!n)
		return 0;
	r->conds = calloc(n, sizeof(*r->conds));
	r->cond_words = calloc(n, sizeof(char *));
	if (!r->conds || !r->cond_words)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r->conds[i] = conds[i];
		r->conds[i].text = strdup(conds[i].text);
		r->cond_words[i] = strdup(conds[i].text);
		r->n_conds = i + 1;
		r->n_cond_words = i + 1;
		if (!r->conds[i].text || !r->cond_words[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * The entry's syscalls not decided yet, under conds (all of the entry's,
 * or one of them), become one rule; decided marks those it decides.
 */
static int profile_emit_rule(struct parser *ps, const struct profile_entry *e,
			     const struct policy_cond *conds, size_t n_conds, bool *decided)
{
	struct policy_rule r = {
		.file = ps->file,
		.line = (int)e->index + 1,
		.action = e->act.action,
		.error = e->act.error,
		.value = e->act.value,
		.generated = true,
	};
	int err = 0;

	for (size_t i = 0; i < e->n_nrs && err == 0; i++) {
		const char *name = policy_syscall_name(e->nrs[i]);

		if (decided[e->nrs[i]])
			continue;
		err = rule_add_syscall(&r, e->nrs[i], 0, ENTRY_DIRECT);
		if (err == 0 && r.n_words < r.n_syscalls) {
			char **w = reallocarray(r.words, r.n_words + 1, sizeof(char *));

			if (!w || !(w[r.n_words] = strdup(name ? name : "?")))
				err = -ENOMEM;
			if (w)
				r.words = w;
			if (err == 0)
				r.n_words++;
		}
	}
	if (err == 0 && r.n_syscalls)
		err = profile_rule_conds(&r, conds, n_conds);
	if (err == 0 && r.n_syscalls) {
		for (size_t i = 0; i < r.n_syscalls && !n_conds; i++)
			decided[r.syscalls[i]] = true;
		err = policy_push_rule(ps->p, &r);
	}
	rule_free(&r);
	return err;
}

/* Do two of the entry's conditions test the same argument? */
static bool profile_entry_repeats_index(const struct profile_entry *e)
{
	for (size_t i = 0; i < e->n_conds; i++)
		for (size_t k = i + 1; k < e->n_conds; k++)
			if (e->conds[i].arg == e->conds[k].arg)
				return true;
	return false;
}

/*
 * runc ANDs an entry's conditions in one rule, unless two of them test
 * the same argument: then each condition is a rule of its own, all of
 * them ORed, those on other arguments too (libcontainer's matchCall).
 */
static int profile_emit_entry(struct parser *ps, const struct profile_entry *e, bool *decided)
{
	int err = 0;

	if (!profile_entry_repeats_index(e))
		return profile_emit_rule(ps, e, e->conds, e->n_conds, decided);
	for (size_t i = 0; i < e->n_conds && err == 0; i++)
		err = profile_emit_rule(ps, e, &e->conds[i], 1, decided);
	return err;
}

/*
 * How much an action refuses: kill (KILL*, TRAP) > deny (ERRNO, TRACE,
 * ERRNO 0's return) > log > allow (and NOTIFY, which gives no rule).
 */
static int profile_severity(const struct profile_action *a)
{
	switch (a->action) {
	case POLICY_KILL:
		return 3;
	case POLICY_DENY:
	case POLICY_RETURN:
		return 2;
	case POLICY_LOG:
		return 1;
	case POLICY_ALLOW:
		break;
	}
	return 0;
}

#define PROFILE_ROUNDS 5 /* the unconditional entries, then one round per severity */

/*
 * Round 0 emits the entries without args, rounds 1 to 4 the conditional
 * ones, the most refusing first. Where conditional entries of one syscall
 * overlap with different actions, libseccomp's tree decides which applies,
 * in an order of its own that is not the profile's; first-match rules in
 * this order give the call the most refusing of them, never less than
 * runc refuses.
 */
static bool profile_in_round(const struct profile_entry *e, int round)
{
	if (round == 0)
		return e->n_conds == 0;
	return e->n_conds > 0 && profile_severity(&e->act) == PROFILE_ROUNDS - 1 - round;
}

int profile_emit(struct parser *ps, struct profile_entry *entries, size_t n, const struct profile_action *def)
{
	_cleanup_free_ bool *decided = calloc(POLICY_NR_MAX, sizeof(bool));
	int err = 0;

	if (!decided)
		return -ENOMEM;
	for (int round = 0; round < PROFILE_ROUNDS && err == 0; round++)
		for (size_t i = 0; i < n && err == 0; i++) {
			const struct profile_entry *e = &entries[i];

			if (!profile_in_round(e, round))
				continue;
			if (def && profile_action_equal(&e->act, def))
				continue;
			if (e->act.skip) {
				/* Sent to the supervisor: the rules after the include decide. */
				for (size_t k = 0; k < e->n_nrs && !e->n_conds; k++)
					decided[e->nrs[k]] = true;
				continue;
			}
			err = profile_emit_entry(ps, e, decided);
		}
	return err;
}
