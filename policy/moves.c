/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Moves: a rename or a link gives a file (and, for a directory, everything
 * beneath it) a new name. Path rules name files by where they are, so a
 * move can carry a file out of the reach of the rule that protects it:
 * rename(/etc, /etc.x) leaves nothing under /etc to protect, renaming a
 * read-denied file or its parent reads it under the new name. The roles of
 * the two paths (source deleted, target created and deleted: pathcalls.c)
 * cannot say that, whatever rule they meet.
 *
 * So a move the rules let run is also refused, with EXDEV, when it would
 * take a file out of a rule that stops something done to it:
 *  - the moved name itself: some access (each single-path call of the path
 *    table: opens for reading, writing or both, stat, exec, chmod, xattrs,
 *    truncate...) that a rule stops under the old name and the policy lets
 *    run under the new one (never counted: what only the default stops,
 *    so a policy that allows a few names and denies the rest by default
 *    still renames between them);
 *  - the names beneath it: a pattern of a rule that stops calls tells a
 *    name beneath the old from the same name beneath the new (glob.c, the
 *    automaton's states), for they could not all be tried. A file has no
 *    names beneath, but whether the source is one is not known here: the
 *    check holds either way (stricter, never weaker).
 * RENAME_EXCHANGE moves both names: both ways are checked. EXDEV is what
 * rename(2) answers across file systems and Landlock a reparenting that
 * would gain rights: mv(1) then copies and deletes, which the policy
 * decides call by call. Moving a file under a rule (into protection) is
 * the roles' business: the target is created there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

bool moves_syscall(int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	/* Two paths, the first an existing name: rename, renameat(2), link, linkat. */
	return pc && pc->path_arg[0] >= 0 && pc->path_arg[1] >= 0;
}

static int moves_push(struct policy *p, const char *pattern, size_t rule, bool is_unix)
{
	struct policy_move_pattern *m;

	for (size_t i = 0; i < p->n_moves; i++)
		if (strcmp(p->moves[i].pattern, pattern) == 0 && p->moves[i].is_unix == is_unix)
			return 0;
	m = reallocarray(p->moves, p->n_moves + 1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	p->moves = m;
	m[p->n_moves++] =
		(struct policy_move_pattern){ .pattern = pattern, .rule = rule, .is_unix = is_unix };
	return 0;
}

/* The patterns of the rules that stop calls: what a move must not leave. */
int moves_build(struct policy *p)
{
	int r = 0;

	moves_free(p);
	for (size_t i = 0; i < p->n_rules && r == 0; i++) {
		const struct policy_rule *rule = &p->rules[i];

		if (!policy_action_stops(rule->action))
			continue;
		for (size_t k = 0; k < rule->n_paths && r == 0; k++)
			r = moves_push(p, rule->paths[k], i, false);
		for (size_t k = 0; k < rule->net.n_unix && r == 0; k++)
			if (rule->net.unix_globs[k][0] == '/')
				r = moves_push(p, rule->net.unix_globs[k], i, true);
	}
	return r;
}

void moves_free(struct policy *p)
{
	free(p->moves);
	p->moves = NULL;
	p->n_moves = 0;
}

/* Only patterns of stopping rules can make a name protect more than another. */
bool moves_checked(const struct policy *p, int nr)
{
	return p->n_moves && moves_syscall(nr);
}

/* ---- The moved name: each access, under either name ---- */

struct moves_probe {
	const char *path;
	uint64_t flags;
};

static int moves_probe_path(void *userdata, int n, const char **ret_path)
{
	const struct moves_probe *m = userdata;

	if (n != 0)
		return -ENOSYS;
	*ret_path = m->path;
	return 0;
}

static int moves_probe_flags(void *userdata, uint64_t *ret_flags)
{
	const struct moves_probe *m = userdata;

	*ret_flags = m->flags;
	return 0;
}

static const struct policy_args_ops moves_probe_ops = {
	.path = moves_probe_path,
	.open_flags = moves_probe_flags,
};

/* The call of pc on path with flags, as the rules decide it. */
static int moves_decide(const struct policy *p, const struct policy_pathcall *pc, const char *path,
			uint64_t flags, struct policy_decision *ret)
{
	struct moves_probe m = { .path = path, .flags = flags };
	struct policy_call call = { .nr = pc->nr };

	for (int n = 0; n < 2; n++)
		if (pc->dirfd_arg[n] >= 0)
			call.args[pc->dirfd_arg[n]] = (uint64_t)(int64_t)AT_FDCWD;
	if (pc->flags_arg >= 0 && pc->perform == POLICY_PERFORM_OPEN)
		call.args[pc->flags_arg] = flags;
	return policy_evaluate_args(p, &call, &moves_probe_ops, &m, ret);
}

/* Does a rule stop this access under from while the policy lets it run under to? */
static int moves_loses(const struct policy *p, const struct policy_pathcall *pc, uint64_t flags,
		       const char *from, const char *to, struct policy_decision *ret_by)
{
	struct policy_decision at_from, at_to;
	int r;

	r = moves_decide(p, pc, from, flags, &at_from);
	if (r < 0 || !policy_action_stops(at_from.action) || at_from.line <= 0)
		return r < 0 ? r : 0;
	r = moves_decide(p, pc, to, flags, &at_to);
	if (r < 0)
		return r;
	if (policy_action_stops(at_to.action))
		return 0;
	*ret_by = at_from;
	return 1;
}

/*
 * The accesses: every single-path call of the table but those that only
 * create or delete a name (the move's own roles decide those), and opens
 * for reading, writing and both.
 */
static int moves_name(const struct policy *p, const char *from, const char *to,
		      struct policy_decision *ret_by)
{
	static const uint64_t open_modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	const struct policy_pathcall *pc;
	int r = 0;

	for (size_t i = 0; r == 0 && (pc = policy_pathcall_at(i)); i++) {
		bool opens = pc->role[0] == POLICY_ROLE_BY_OPEN_FLAGS;

		if (policy_pathcall_has(pc, 1) || !policy_pathcall_has(pc, 0) ||
		    (!opens && !(pc->role[0] & ~(POLICY_ROLE_CREATE | POLICY_ROLE_DELETE))))
			continue;
		for (size_t k = 0; r == 0 && k < (opens ? ARRAY_SIZE(open_modes) : 1); k++)
			r = moves_loses(p, pc, opens ? open_modes[k] : 0, from, to, ret_by);
	}
	return r;
}

/* ---- The names beneath, and socket paths ---- */

static bool moves_pattern_loses(const struct policy_move_pattern *m, const char *from,
				const char *to)
{
	/*
	 * unix=: a connect to the socket by its new name, or by the name it
	 * has once its directory moved (rename /run/app /tmp/x: /tmp/x/s.sock).
	 */
	if (m->is_unix && policy_glob_match(m->pattern, from) && !policy_glob_match(m->pattern, to))
		return true;
	return glob_tells_apart_beneath(m->pattern, from, to);
}

int moves_check(const struct policy *p, const char *from, const char *to, bool both,
		struct policy_decision *ret_by)
{
	int r;

	for (int way = 0; way < (both ? 2 : 1); way++) {
		const char *a = way ? to : from, *b = way ? from : to;

		for (size_t i = 0; i < p->n_moves; i++)
			if (moves_pattern_loses(&p->moves[i], a, b)) {
				const struct policy_rule *rule = &p->rules[p->moves[i].rule];

				*ret_by = (struct policy_decision){ .line = rule->line,
								    .file = rule->file };
				return 1;
			}
		r = moves_name(p, a, b, ret_by);
		if (r != 0)
			return r;
	}
	return 0;
}
