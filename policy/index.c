/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The evaluation index, built once by policy_finish: for each syscall, the
 * rules that can match one of its calls, split into those without path=
 * (walked in order) and those with path=, grouped by the paths they need
 * ({0}, {1} or {0,1}: rename's source, its target, or both) and indexed by
 * pattern prefix (pathset.c). evaluate.c merges them back in rule order.
 * Rules that can never match a syscall (kform KF_FALSE) are left out.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

static int index_push(size_t **arr, size_t *n, size_t v)
{
	size_t *a = reallocarray(*arr, *n + 1, sizeof(size_t));

	if (!a)
		return -ENOMEM;
	*arr = a;
	a[(*n)++] = v;
	return 0;
}

/*
 * The class of a rule with path= for one syscall, by the path it can be
 * ruled out on without reading any other: 0 when it needs path 0 to match
 * (it reads path 0 first and stops there when it does not), 1 when it only
 * looks at path 1, 2 when either path may do (a rule that stops the call,
 * on both of rename's paths): those are walked, not indexed. -1: no path=.
 */
static int index_class(const struct policy_rule *r, size_t entry)
{
	unsigned int paths;

	if (!r->n_paths)
		return -1;
	paths = kform_entry_paths(r, entry, policy_pathcall_find(r->syscalls[entry]));
	if (paths == 3 && kform_any_path(r, entry))
		return 2;
	return paths == 2 ? 1 : 0;
}

static int index_add(struct policy_nr_index *ix, const struct policy_rule *r, size_t entry,
		     size_t i)
{
	int c = index_class(r, entry), e;

	if (c < 0)
		return index_push(&ix->plain, &ix->n_plain, i);
	e = index_push(&ix->cls[c], &ix->n_cls[c], i);
	if (c == 2)
		return e;
	if (e == 0 && !ix->sets[c])
		e = pathset_new(&ix->sets[c]);
	for (size_t k = 0; e == 0 && k < r->n_paths; k++)
		e = pathset_add(ix->sets[c], r->paths[k], i);
	return e;
}

int index_build(struct policy *p)
{
	index_free(p);
	p->index = calloc(POLICY_NR_MAX, sizeof(*p->index));
	if (!p->index)
		return -ENOMEM;
	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		struct policy_nr_index *ix = &p->index[nr];

		for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
			const struct policy_rule *r = &p->rules[p->by_nr[k]];
			struct kform kf;
			int e;

			kform_build(r, p->by_entry[k], &kf);
			if (kf.kind == KF_FALSE)
				continue;
			e = index_add(ix, r, p->by_entry[k], p->by_nr[k]);
			if (e < 0)
				return e;
		}
		for (int c = 0; c < 3; c++)
			if (ix->sets[c] && pathset_finish(ix->sets[c]) < 0)
				return -ENOMEM;
	}
	return 0;
}

/*
 * The rule that decides every call of nr whatever its arguments, the
 * default when no rule can match one, or NULL when an argument can matter:
 * the first rule that can match (kform: not KF_FALSE) matches them all
 * (KF_TRUE), as the kernel layer reads it. Calls that take a path or an
 * address are left to the walk, which reads their memory and its moves.
 */
bool policy_listen_binds(const struct policy *p)
{
	for (size_t k = p->by_nr_start[SYS_bind]; k < p->by_nr_start[SYS_bind + 1]; k++) {
		const struct policy_rule *r = &p->rules[p->by_nr[k]];
		struct kform kf;

		/* bind through @file-create alone decides a unix path, which no listen makes. */
		if (entry_unix_bind_only(r->syscall_roles[p->by_entry[k]]))
			continue;
		kform_build(r, p->by_entry[k], &kf);
		if (kf.kind != KF_FALSE)
			return kf.kind != KF_TRUE || r->action != POLICY_ALLOW;
	}
	return !p->has_default || p->def.action != POLICY_ALLOW;
}

static const struct policy_rule *index_fixed_rule(const struct policy *p, int nr, bool *is_default)
{
	if (policy_pathcall_find(nr) || net_syscall_has_address(nr) || moves_checked(p, nr))
		return NULL;
	/* A listen that binds is decided as a bind too (daemon/engine/enforce-listen.c). */
	if (nr == SYS_listen && policy_listen_binds(p))
		return NULL;
	*is_default = false;
	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
		const struct policy_rule *r = &p->rules[p->by_nr[k]];
		struct kform kf;

		kform_build(r, p->by_entry[k], &kf);
		if (kf.kind != KF_FALSE)
			return kf.kind == KF_TRUE ? r : NULL;
	}
	*is_default = true;
	return &p->def;
}

/*
 * A decision that depends on no argument is taken once here, not on every
 * call: a call the supervisor answers with a value (`return getppid 42`)
 * then costs a table lookup, and touches no rule.
 */
int index_fixed_build(struct policy *p)
{
	free(p->fixed);
	memset(p->fixed_bits, 0, sizeof(p->fixed_bits));
	p->fixed = calloc(POLICY_NR_MAX, sizeof(*p->fixed));
	if (!p->fixed)
		return -ENOMEM;
	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		bool is_default;
		const struct policy_rule *r = index_fixed_rule(p, nr, &is_default);

		if (!r)
			continue;
		evaluate_decide(r, is_default, false, &p->fixed[nr]);
		p->fixed_bits[nr / 64] |= UINT64_C(1) << (nr % 64);
	}
	return 0;
}

void index_free(struct policy *p)
{
	free(p->fixed);
	p->fixed = NULL;
	memset(p->fixed_bits, 0, sizeof(p->fixed_bits));
	if (!p->index)
		return;
	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		free(p->index[nr].plain);
		for (int c = 0; c < 3; c++) {
			free(p->index[nr].cls[c]);
			pathset_free(p->index[nr].sets[c]);
		}
	}
	free(p->index);
	p->index = NULL;
}
