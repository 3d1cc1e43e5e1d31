/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The checks of the Landlock layer on the grants of a family, beyond their
 * shape (landlock.c): what a rule binds to must stay where it is, a
 * directory rule with read needs one for the directory itself, what may run
 * must be readable when reads are refused, and the mounts must be refused.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "lib/util.h"
#include "policy/landlock-internal.h"

/* ---- What the rules bind to must stay where it is ---- */

/*
 * Can the program make path go away or be replaced, through a call whose
 * path n plays role (POLICY_ROLE_DELETE: unlink, rmdir, a rename's source;
 * POLICY_ROLE_CREATE: a rename onto it)? The path exists (lib's check
 * refuses a rule whose path does not, so creating it by name fails). The rules of each such
 * call are read in order: one that may let the call run, with path= that
 * can match path, says yes; a refusal that surely catches it (no register
 * condition) says no for that call; the default decides the rest. Returns
 * the index of the rule that lets it happen (n_rules: the default), or -1.
 */
static ssize_t ll_may_change(const struct policy *p, const char *path, unsigned int role)
{
	const struct policy_pathcall *pc;

	for (size_t t = 0; (pc = policy_pathcall_at(t)); t++) {
		for (int n = 0; n < 2; n++) {
			bool refused = false;

			if (pc->path_arg[n] < 0 || pc->role[n] == POLICY_ROLE_BY_OPEN_FLAGS ||
			    !(pc->role[n] & role) || pc->nr < 0 || pc->nr >= POLICY_NR_MAX)
				continue;
			/*
			 * A name is made over an existing one only by a rename (mkdir, mknod,
			 * symlink, link answer EEXIST): creating counts as its target alone.
			 */
			if (!(pc->role[n] & role & POLICY_ROLE_DELETE) &&
			    !(n == 1 && (pc->role[0] & POLICY_ROLE_DELETE)))
				continue;
			for (size_t k = p->by_nr_start[pc->nr];
			     k < p->by_nr_start[pc->nr + 1] && !refused; k++) {
				const struct policy_rule *r = &p->rules[p->by_nr[k]];
				bool match = r->n_paths == 0;
				struct kform kf;

				kform_build(r, p->by_entry[k], &kf);
				if (kf.kind == KF_FALSE ||
				    !(kform_entry_paths(r, p->by_entry[k], pc) & (1u << n)))
					continue;
				for (size_t j = 0; j < r->n_paths && !match; j++)
					match = policy_glob_match(r->paths[j], path);
				if (!match)
					continue;
				if (kform_permissive(r))
					return (ssize_t)p->by_nr[k];
				refused = r->n_conds == 0 && net_is_empty(&r->net);
			}
			if (!refused && kform_permissive(&p->def))
				return (ssize_t)p->n_rules;
		}
	}
	return -1;
}

/* The anchor and each directory above it (not "/", which nothing removes). */
static char *ll_check_stable(const struct policy *p, const struct ll_grant *g)
{
	char dir[POLICY_PATTERN_MAX + 1], why[POLICY_PATTERN_MAX + 512];
	ssize_t i;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", g->path);
	if (strcmp(dir, "/") == 0)
		return NULL;
	i = ll_may_change(p, dir, POLICY_ROLE_DELETE | POLICY_ROLE_CREATE);
	while (i < 0 && (slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		i = ll_may_change(p, dir, POLICY_ROLE_DELETE);
	}
	if (i < 0)
		return NULL;
	snprintf(why, sizeof(why),
		 "lets the program remove, rename or replace %s, which "
		 "Landlock binds %s at start: the rule would stay with what was there (refuse "
		 "@file-delete and @file-create on it)",
		 dir, strcmp(dir, g->path) ? "a rule beneath" : "a rule to");
	return ll_blame(p, (size_t)i, why);
}

/* A directory rule grants read on the directory itself too: the policy must as well. */
static bool ll_reads_itself(const struct ll_scan *s, const struct ll_grant *g)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ll_grant *o = &s->g[i];

		if (!(o->roles & ROLE_R))
			continue;
		if (!o->beneath && strcmp(o->path, g->path) == 0)
			return true;
		if (o->beneath && strcmp(o->path, g->path) != 0 && ll_beneath(o->path, g->path))
			return true;
	}
	return false;
}

/* Is role granted at g's path and, for a directory rule, everywhere beneath it? */
static bool ll_covers(const struct ll_scan *s, const struct ll_grant *g, unsigned int role)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ll_grant *o = &s->g[i];

		if (!(o->roles & role))
			continue;
		if (o->beneath && ll_beneath(o->path, g->path))
			return true;
		if (!g->beneath && !o->beneath && strcmp(o->path, g->path) == 0)
			return true;
	}
	return false;
}

/* The checks on the family's grants; a reason, or NULL. */
char *ll_check_grants(const struct policy_landlock_state *st, enum policy_landlock_family f)
{
	const struct ll_scan *s = &st->fam[f];
	char why[POLICY_PATTERN_MAX + 256], *fail;

	for (size_t i = 0; i < s->n; i++) {
		const struct ll_grant *g = &s->g[i];

		if (!(g->roles & s->refused))
			continue;
		if (g->beneath && (g->roles & s->refused & ROLE_R) && !ll_reads_itself(s, g)) {
			snprintf(why, sizeof(why),
				 "path=%s/** allows what is beneath %s, not %s "
				 "itself, which Landlock allows to read with it (add path=%s)",
				 strcmp(g->path, "/") ? g->path : "", g->path, g->path, g->path);
			return ll_blame(st->p, g->rule, why);
		}
		fail = ll_check_stable(st->p, g);
		if (fail)
			return fail;
	}
	return NULL;
}

/*
 * The kernel asks for the read right to run a program, and its
 * interpreters, as well as for the execute right: with reads refused, exec
 * must be in the layer too, and what may run must be readable.
 */
char *ll_check_exec_reads(const struct policy_landlock *ll, const struct policy_landlock_state *st)
{
	const struct ll_scan *o = &st->fam[POLICY_LANDLOCK_OPEN],
			     *x = &st->fam[POLICY_LANDLOCK_EXEC];
	char why[POLICY_PATTERN_MAX + 256];

	if (!(o->refused & ROLE_R))
		return NULL;
	if (!ll->decided[POLICY_LANDLOCK_EXEC])
		return ll_printf(
			"reads are refused, and the kernel's sandbox asks for the read "
			"right to run a program: exec must be in the kernel layer too (%s)",
			ll->why_not[POLICY_LANDLOCK_EXEC]);
	for (size_t i = 0; i < x->n; i++) {
		if (!(x->g[i].roles & x->refused) || ll_covers(o, &x->g[i], ROLE_R))
			continue;
		snprintf(why, sizeof(why),
			 "%s may run but not be read, and the kernel's sandbox "
			 "asks for both",
			 x->g[i].path);
		return ll_blame(st->p, x->g[i].rule, why);
	}
	return NULL;
}

/*
 * A program in a Landlock domain cannot change its mounts (EPERM): every
 * call that would, the policy must refuse first, without conditions.
 */
char *ll_check_mounts(const struct policy *p)
{
	static const char *const calls[] = {"mount", "umount2", "pivot_root", "move_mount",
					    "fsconfig"};

	for (size_t c = 0; c < ARRAY_SIZE(calls); c++) {
		int nr = policy_syscall_resolve(calls[c]);
		const struct policy_rule *r = &p->def;
		size_t at = p->n_rules;

		if (nr < 0 || nr >= POLICY_NR_MAX)
			continue;
		for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
			if (kform_kind_of(p, p->by_nr[k], nr) == KF_FALSE)
				continue;
			r = &p->rules[p->by_nr[k]];
			at = p->by_nr[k];
			if (kform_kind_of(p, p->by_nr[k], nr) != KF_TRUE)
				r = NULL;
			break;
		}
		if (!r || kform_permissive(r) || r->kernel_answer) {
			char why[256];

			snprintf(why, sizeof(why),
				 "%s may run: a program under Landlock cannot "
				 "change its mounts (EPERM); deny @mount first, without conditions",
				 calls[c]);
			return ll_blame(p, at, why);
		}
	}
	return NULL;
}
