/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The whole-policy checks run once every text is added: rules that can never
 * decide anything, a missing default. Then the per-syscall index the
 * compiler and the evaluator walk.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

/* "line 4" in the same file, "base.policy:4" across files. */
static void check_where(const struct policy_rule *by, const struct policy_rule *r, char *buf,
			size_t size)
{
	if (strcmp(by->file, r->file) == 0)
		snprintf(buf, size, "%d", by->line);
	else
		snprintf(buf, size, "%s:%d", by->file, by->line);
}

/* Does diagnostics name this entry by itself (a syscall word, not a group or category)? */
static bool check_entry_named(const struct policy_rule *r, size_t e)
{
	return !(r->syscall_roles[e] & (ENTRY_CATEGORY | ENTRY_GROUP));
}

/* Would the two rules do the same with a call? */
static bool check_same_outcome(const struct policy_rule *a, const struct policy_rule *b)
{
	return a->action == b->action && (a->action != POLICY_DENY || a->error == b->error) &&
	       (a->action != POLICY_RETURN || a->value == b->value);
}

/* The name of an implicit rule's set: its file is "implicit:NAME". */
static const char *check_implicit_set(const struct policy_rule *by)
{
	const char *colon = strchr(by->file, ':');

	return colon ? colon + 1 : by->file;
}

/*
 * Entries of r that an implicit rule decides first, doing something else
 * than r would (the same outcome is no news: 'deny mount' next to path
 * rules). Not an error: the policy is safe, and may have been written
 * before the implicit rules; a warning says how to get r's effect back.
 */
static int check_rule_implicit(const struct policy *p, const struct policy_rule *r,
			       const size_t *decided_by, bool whole, struct policy_diags *diags)
{
	char hint[200];

	for (size_t i = 0; i < r->n_syscalls; i++) {
		size_t by = decided_by[r->syscalls[i]];
		const struct policy_rule *b = by ? &p->rules[by - 1] : NULL;

		if (!b || !b->implicit || check_same_outcome(b, r) ||
		    (!whole && !check_entry_named(r, i)))
			continue;
		snprintf(hint, sizeof(hint),
			 "write 'implicit %s off' if the program must, and the rules it guards "
			 "can then be walked around",
			 check_implicit_set(b));
		return diag_add(diags, POLICY_WARNING, r->file, r->line, r->syscall_cols[i], hint,
				"%s'%s' is decided first by the implicit rule %s:%d, which keeps "
				"the policy's rules from being walked around",
				whole ? "this rule never applies: " : "", policy_syscall_name(r->syscalls[i]),
				b->file, b->line);
	}
	return 0;
}

/*
 * The first rule that matches every call of a syscall decides them all:
 * later rules never see one. A rule is unreachable (an error: the policy
 * does not say what its author meant) when that holds for every syscall it
 * names; when it holds for some only, the rule still works for the others
 * and a warning names the shadowed ones (those named by themselves: a group
 * overlapping earlier rules is ordinary). A rule whose conditions cannot
 * hold for any of its syscalls gets a warning. Implicit rules shadowing it:
 * check_rule_implicit.
 */
static int check_rule_shadow(const struct policy *p, const struct policy_rule *r,
			     const size_t *decided_by, struct policy_diags *diags)
{
	size_t shadowed = 0, never = 0, implicit = 0;
	char where[512];
	int e = 0;

	for (size_t i = 0; i < r->n_syscalls; i++) {
		size_t by = decided_by[r->syscalls[i]];
		struct kform kf;

		kform_build(r, i, &kf);
		if (by && p->rules[by - 1].implicit)
			implicit++;
		else if (by)
			shadowed++;
		else if (kf.kind == KF_FALSE)
			never++;
	}
	if (implicit) {
		e = check_rule_implicit(p, r, decided_by,
					shadowed + never + implicit == r->n_syscalls, diags);
		/* The ones earlier rules of the author's decide are said too. */
		if (e < 0 || shadowed == 0)
			return e;
	}
	if (shadowed == 0 && never < r->n_syscalls)
		return 0;
	if (shadowed == 0)
		return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
				"see the CONDITIONS of unotify.policy(5)",
				"this rule can never match: its conditions cannot hold for any "
				"syscall it names");
	for (size_t i = 0; i < r->n_syscalls && e == 0; i++) {
		size_t by = decided_by[r->syscalls[i]];
		const char *name = policy_syscall_name(r->syscalls[i]);

		if (!by)
			continue;
		check_where(&p->rules[by - 1], r, where, sizeof(where));
		if (shadowed + never == r->n_syscalls) {
			e = diag_add(
				diags, POLICY_ERROR, r->file, r->line, r->syscall_cols[i],
				"remove it, or move it above the rule that decides",
				"unreachable: syscall '%s' is already decided by the rule at %s",
				name, where);
			if (!check_entry_named(r, i))
				break; /* one is enough for a group */
		} else if (check_entry_named(r, i)) {
			e = diag_add(diags, POLICY_WARNING, r->file, r->line, r->syscall_cols[i],
				     "remove it from this rule",
				     "syscall '%s' is already decided by the rule at %s: this "
				     "rule never applies to it",
				     name, where);
		}
	}
	return e < 0 ? e : shadowed + never == r->n_syscalls;
}

/* Is c's argument one of the call's paths? */
static bool check_cond_on_path(const struct policy_cond *c, int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	return pc && ((int)c->arg == pc->path_arg[0] || (int)c->arg == pc->path_arg[1]);
}

/* A register condition on a pointer argument compares the address, not what it points to. */
static int check_rule_pointers(const struct policy_rule *r, struct policy_diags *diags)
{
	for (size_t c = 0; c < r->n_conds; c++)
		for (size_t i = 0; i < r->n_syscalls; i++) {
			const struct policy_cond *cond = &r->conds[c];
			const char *name = policy_syscall_name(r->syscalls[i]);

			if (!check_entry_named(r, i))
				continue;
			if (check_cond_on_path(cond, r->syscalls[i]))
				return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
						"write path=GLOB to decide on the path",
						"'%s' compares the address of %s's path, not the path",
						cond->text, name);
			if (argkinds_of(r->syscalls[i], cond->arg) == ARGKIND_POINTER)
				return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
						"no register condition can read memory; see Register "
						"conditions in unotify.policy(5)",
						"'%s' compares the address %s's argument %u points to, "
						"not what it points to",
						cond->text, name, cond->arg);
		}
	return 0;
}

/*
 * Can a value with stray high bits, the same to the kernel, get past the
 * rule by this comparison of all 64 bits? Setting high bits makes the
 * value differ from any low one and only larger: a refusal by ==, < or
 * <= misses it, an allow by !=, > or >= takes it. (The other way round
 * the rule fails closed: an allow missed, a refusal taken.)
 */
static bool check_cond_escapes(const struct policy_cond *c, bool permissive)
{
	switch (c->op) {
	case POLICY_CMP_EQ:
	case POLICY_CMP_LT:
	case POLICY_CMP_LE:
		return !permissive;
	case POLICY_CMP_MASKED_EQ:
		return !permissive && (c->mask >> 32);
	case POLICY_CMP_NE:
	case POLICY_CMP_GT:
	case POLICY_CMP_GE:
		return permissive;
	}
	return false;
}

/*
 * A condition on all 64 bits of an argument the kernel takes as a 32-bit
 * int, that a value with other high bits gets past. A mask within the
 * low 32 bits is what holds.
 */
static int check_rule_ints(const struct policy_rule *r, struct policy_diags *diags)
{
	char hint[160];

	for (size_t c = 0; c < r->n_conds; c++)
		for (size_t i = 0; i < r->n_syscalls; i++) {
			const struct policy_cond *cond = &r->conds[c];

			if (!check_entry_named(r, i) ||
			    argkinds_of(r->syscalls[i], cond->arg) != ARGKIND_INT ||
			    !check_cond_escapes(cond, kform_permissive(r)))
				continue;
			if (cond->op == POLICY_CMP_EQ)
				snprintf(hint, sizeof(hint), "write arg%u&0xffffffff==%#" PRIx64,
					 cond->arg, cond->value & 0xffffffffu);
			else
				snprintf(hint, sizeof(hint),
					 "compare the low 32 bits with a mask (arg%u&0xffffffff==V)",
					 cond->arg);
			return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col, hint,
					"'%s' compares all 64 bits of %s's argument %u, a 32-bit int "
					"to the kernel: the same value with other high bits set gets "
					"past this rule",
					cond->text, policy_syscall_name(r->syscalls[i]), cond->arg);
		}
	return 0;
}

/*
 * A rule decided on memory for a syscall the supervisor cannot perform
 * (execve: the kernel reads the path again after the decision) is
 * enforced with CONTINUE: a racing thread can swap the memory in between.
 */
/*
 * With `deny @file-exec kernel` the exec rules may go to the Landlock
 * layer, which checks them in the kernel (no race); whether they do
 * depends on the kernel and the rest of the policy: explain says.
 */
static bool check_kernel_exec(const struct policy *p)
{
	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t e = 0; p->rules[i].kernel_answer && e < p->rules[i].n_syscalls; e++)
			if (p->rules[i].syscalls[e] == SYS_execve)
				return true;
	return false;
}

static int check_rule_unsafe(const struct policy *p, const struct policy_rule *r,
			     struct policy_diags *diags)
{
	for (size_t i = 0; i < r->n_syscalls; i++) {
		struct kform kf;

		kform_build(r, i, &kf);
		if (kf.kind == KF_MEMORY && kform_permissive(r) && r->syscalls[i] == SYS_sendmmsg)
			return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
					"allow sendmmsg by name, before, if the program needs it",
					"the supervisor does not read sendmmsg's addresses: this "
					"rule never allows it (it is denied with EPERM)");
		/* A refusal with the kernel's answer never lets the call run. */
		if (kf.kind != KF_MEMORY || r->kernel_answer ||
		    policy_enforcement_of(r->syscalls[i]) != POLICY_ENFORCED_UNSAFE)
			continue;
		return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
				check_kernel_exec(p)
					? "the Landlock layer enforces it in the kernel where it "
					  "takes the exec rules: unotify policy explain says if it "
					  "does here"
					: "decide it on the syscall alone (log execve, deny execve), "
					  "or confine the program with mounts",
				"%s's %s: this rule cannot be enforced safely",
				policy_syscall_name(r->syscalls[i]),
				policy_enforcement_reason(r->syscalls[i]));
	}
	return 0;
}

/* Where dynamic loaders live (x86-64, i386, arm64; glibc and musl), through the usual links. */
static const char *const check_loaders[] = {
	"/lib64/ld-linux-x86-64.so.2",
	"/usr/lib64/ld-linux-x86-64.so.2",
	"/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	"/lib/ld-linux.so.2",
	"/usr/lib/i386-linux-gnu/ld-linux.so.2",
	"/lib/ld-linux-aarch64.so.1",
	"/usr/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1",
	"/lib/ld-musl-x86_64.so.1",
	"/lib/ld-musl-aarch64.so.1",
};

/*
 * The supervisor refuses the dynamic loader run as a program (it runs any
 * file it may read: `ld.so FILE`) unless a rule lets it by its exact name
 * (policy_evaluate_named): such a rule lets the loader run what no exec
 * rule allows, and only refusing reads stops that.
 */
static int check_rule_loader(const struct policy_rule *r, struct policy_diags *diags)
{
	bool exec = false;

	for (size_t i = 0; i < r->n_syscalls; i++)
		exec |= r->syscalls[i] == SYS_execve || r->syscalls[i] == SYS_execveat;
	if (!exec || !kform_permissive(r))
		return 0;
	for (size_t i = 0; i < r->n_paths; i++)
		for (size_t k = 0; k < ARRAY_SIZE(check_loaders); k++) {
			if (!glob_is_literal(r->paths[i]) ||
			    !policy_glob_match(r->paths[i], check_loaders[k]))
				continue;
			return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
					"refuse reading what may not run (deny @file-read "
					"path=...), or name the loader only if a program runs "
					"it itself (ldd does)",
					"path=%s names the dynamic loader: it may run as a "
					"program, and then runs any file it may read, which no "
					"exec rule decides",
					r->paths[i]);
		}
	return 0;
}

/*
 * flags= on O_APPEND decides the open, not what follows: the program can
 * clear O_APPEND with fcntl(F_SETFL) and write anywhere (pwrite), or cut
 * the file (ftruncate), on the very descriptor the rule let it open.
 */
static int check_rule_append(const struct policy_rule *r, struct policy_diags *diags)
{
	for (size_t i = 0; i < r->n_fconds; i++)
		for (size_t t = 0; !r->fconds[i].is_access && t < r->fconds[i].n_terms; t++) {
			if (!(r->fconds[i].terms[t].mask & O_APPEND))
				continue;
			return diag_add(diags, POLICY_WARNING, r->file, r->line, r->flags_col,
					"make the file append-only where it lives (chattr +a), "
					"or deny writing it",
					"O_APPEND decides the open only: fcntl(F_SETFL) can clear "
					"it and ftruncate cut the file through the descriptor, so "
					"this rule does not keep a file append-only");
		}
	return 0;
}

/*
 * A core dump is a file the kernel writes with no system call: with
 * core_pattern "core" (Debian's default without systemd-coredump) a
 * program that crashes creates "core" in its working directory, or
 * replaces one there, wherever the rules keep it from creating or writing
 * files. Where the policy's kernel layer is the program's filter, its
 * implicit set core-dumps keeps the RLIMIT_CORE 0 that `unotify run`
 * gives the program (turned off, the set's own warning says what opens).
 * What stays open is a container an OCI runtime starts under unotifyd
 * with a seccomp profile of its own: its limits are the runtime's. Said
 * once, at the first rule on file changes by path.
 */
static int check_core_dumps(const struct policy *p, struct policy_diags *diags)
{
	const unsigned int changes = POLICY_ROLE_CREATE | POLICY_ROLE_WRITE | POLICY_ROLE_DELETE;

	if (!implicit_is_on(p, "core-dumps"))
		return 0;
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];

		if (r->generated || !r->n_paths)
			continue;
		for (size_t e = 0; e < r->n_syscalls; e++) {
			if (!(r->syscall_roles[e] & changes))
				continue;
			return diag_add(diags, POLICY_WARNING, r->file, r->line, r->col,
					"give such a container RLIMIT_CORE 0 (process.rlimits "
					"in its config.json) or a core_pattern that is a pipe "
					"or an absolute path",
					"under unotifyd, a container an OCI runtime starts with "
					"a seccomp profile of its own can dump core where this "
					"rule protects (the kernel writes the file with no "
					"system call; unotify run keeps the program's "
					"RLIMIT_CORE at 0)");
		}
	}
	return 0;
}

int check_policy(struct policy *p, struct policy_diags *diags)
{
	_cleanup_free_ size_t *decided_by = calloc(POLICY_NR_MAX, sizeof(size_t));
	size_t errors = 0;
	int r;

	if (!decided_by)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *rule = &p->rules[i];
		bool unreachable;

		if (!rule->generated) {
			r = check_rule_shadow(p, rule, decided_by, diags);
			if (r < 0)
				return r;
			errors += r;
			/* An unreachable rule's stray high bits are no news: it never applies. */
			unreachable = r > 0;
			r = check_rule_pointers(rule, diags);
			if (r == 0 && !unreachable)
				r = check_rule_ints(rule, diags);
			if (r == 0)
				r = check_rule_unsafe(p, rule, diags);
			if (r == 0)
				r = check_rule_append(rule, diags);
			if (r == 0)
				r = check_rule_loader(rule, diags);
			if (r == 0)
				r = check_rule_vdso(rule, diags);
			if (r == 0)
				r = check_rule_fastopen(rule, diags);
			if (r == 0)
				r = check_rule_links(p, rule, diags);
			if (r < 0)
				return r;
		}
		for (size_t j = 0; j < rule->n_syscalls; j++) {
			struct kform kf;

			kform_build(rule, j, &kf);
			if (kf.kind == KF_TRUE && !decided_by[rule->syscalls[j]])
				decided_by[rule->syscalls[j]] = i + 1;
		}
	}
	/* (No text read at all, e.g. an unreadable file: its error says enough.) */
	if (!p->has_default && p->n_files > 0) {
		r = diag_add(diags, POLICY_WARNING, p->files[0], 0, 0,
			     "write 'default deny EPERM' to say so",
			     "no default: calls that no rule matches are denied with EPERM");
		if (r < 0)
			return r;
	}
	r = check_core_dumps(p, diags);
	if (r < 0)
		return r;
	return errors ? -EINVAL : 0;
}

/* Counting sort of (syscall, rule) pairs: rules stay in policy order within a syscall. */
int check_index(struct policy *p)
{
	size_t total = 0, *fill;

	memset(p->by_nr_start, 0, sizeof(p->by_nr_start));
	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t j = 0; j < p->rules[i].n_syscalls; j++) {
			p->by_nr_start[p->rules[i].syscalls[j] + 1]++;
			total++;
		}
	for (size_t nr = 0; nr < POLICY_NR_MAX; nr++)
		p->by_nr_start[nr + 1] += p->by_nr_start[nr];
	free(p->by_nr);
	free(p->by_entry);
	p->by_nr = calloc(total ? total : 1, sizeof(size_t));
	p->by_entry = calloc(total ? total : 1, sizeof(size_t));
	fill = calloc(POLICY_NR_MAX, sizeof(size_t));
	if (!p->by_nr || !p->by_entry || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n_rules; i++)
		for (size_t j = 0; j < p->rules[i].n_syscalls; j++) {
			int nr = p->rules[i].syscalls[j];

			p->by_entry[p->by_nr_start[nr] + fill[nr]] = j;
			p->by_nr[p->by_nr_start[nr] + fill[nr]++] = i;
		}
	free(fill);
	return 0;
}

int policy_finish(struct policy *p, struct policy_diags *diags)
{
	int r;

	if (!p)
		return -EINVAL;
	if (p->finished)
		return p->failed ? -EINVAL : 0;
	r = implicit_add(p, diags);
	if (r < 0 && r != -ENOMEM)
		p->failed = true; /* a set's own text is wrong: a bug the tests catch */
	if (r == 0)
		r = check_policy(p, diags);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		p->failed = true;
	r = check_index(p);
	if (r == 0)
		r = index_build(p);
	if (r == 0)
		r = moves_build(p);
	if (r == 0 && !p->failed)
		r = index_fixed_build(p);
	if (r < 0)
		return r;
	p->finished = true;
	return p->failed ? -EINVAL : 0;
}

size_t policy_rule_count(const struct policy *p)
{
	return p ? p->n_rules : 0;
}
