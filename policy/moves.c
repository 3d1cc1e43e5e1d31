/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Moves: a rename or a link gives a file (and, for a directory, everything
 * beneath it) a new name. Path rules name files by where they are, so a
 * move can carry a file out of the reach of the rules written for it:
 * rename(/etc, /etc.x) leaves nothing under /etc to protect, a link of
 * a read-denied file to /tmp reads it there. The roles of the two paths
 * (source deleted, target created and, when it exists, deleted: pathcalls.c)
 * cannot say that, whatever rule they meet.
 *
 * So a move the rules let run is also checked against every path pattern of
 * the policy: when a pattern tells the old name from the new one, or a name
 * beneath the one from the same name beneath the other (glob.c), the move
 * would change what the policy says of some file, and it is refused with
 * EXDEV, what rename(2) answers across file systems and Landlock answers a
 * reparenting it does not allow: mv(1) and its kind then copy and delete,
 * which the policy decides file by file. Where no pattern tells the names
 * apart, every rule treats the file alike under either name, and the move
 * changes nothing the policy can see. Whether the source is a directory
 * does not matter: its names beneath are checked either way (a file has
 * none to lose). RENAME_EXCHANGE moves both names: the check is symmetric.
 */
#include "config.h"

#include <errno.h>
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

static int moves_push(struct policy *p, const char *pattern, size_t rule)
{
	struct policy_move_pattern *m;

	for (size_t i = 0; i < p->n_moves; i++)
		if (strcmp(p->moves[i].pattern, pattern) == 0)
			return 0;
	m = reallocarray(p->moves, p->n_moves + 1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	p->moves = m;
	m[p->n_moves++] = (struct policy_move_pattern){ .pattern = pattern, .rule = rule };
	return 0;
}

int moves_build(struct policy *p)
{
	int r = 0;

	free(p->moves);
	p->moves = NULL;
	p->n_moves = 0;
	for (size_t i = 0; i < p->n_rules && r == 0; i++) {
		const struct policy_rule *rule = &p->rules[i];

		for (size_t k = 0; k < rule->n_paths && r == 0; k++)
			r = moves_push(p, rule->paths[k], i);
		for (size_t k = 0; k < rule->net.n_unix && r == 0; k++)
			if (rule->net.unix_globs[k][0] == '/')
				r = moves_push(p, rule->net.unix_globs[k], i);
	}
	return r;
}

void moves_free(struct policy *p)
{
	free(p->moves);
	p->moves = NULL;
	p->n_moves = 0;
}

bool moves_checked(const struct policy *p, int nr)
{
	return p->n_moves && moves_syscall(nr);
}

int moves_check(const struct policy *p, const char *from, const char *to, size_t *ret_rule)
{
	for (size_t i = 0; i < p->n_moves; i++)
		if (policy_glob_tells_apart(p->moves[i].pattern, from, to)) {
			*ret_rule = p->moves[i].rule;
			return 1;
		}
	return 0;
}
