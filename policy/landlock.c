/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which rules the kernel's sandbox (Landlock) enforces exactly. See
 * landlock.h for what moves and docs/LANDLOCK.md for why it is exact; in
 * short, for one family of calls (the opens; exec):
 *
 *   allow ROLES path=DIR/"**" path=FILE ...    grants, in any number
 *   deny  ROLES kernel                       the refusal, no condition
 *   (an allow after it, or default allow)    for the roles not refused
 *
 * A call of the family with roles r at path p is allowed by the policy iff
 * one allow covers all of r at p, or r meets no refused role; Landlock
 * allows it iff each refused role of r is granted at p by some rule. The
 * two agree when every grant holds read and write together (else the opens
 * that read and write stay with the supervisor: open_notify_rdwr), when a
 * directory rule DIR/"**" that grants read is joined by one for DIR itself
 * (Landlock grants a directory with what is beneath it), and when the
 * program can neither remove nor replace what a rule binds to, nor an
 * ancestor of it: Landlock binds the inode found at start, the policy
 * names a path. Anything else keeps the family with the supervisor, with
 * the reason, rule by rule, for `unotify policy explain`.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include "lib/uapi.h"
#include "lib/util.h"
#include "policy/internal.h"
#include "policy/landlock.h"

#include "policy/landlock-internal.h"

/*
 * The calls Landlock decides come first: their rules make the ruleset.
 * openat2 (flags in memory) and creat (always creates) stay notified, and
 * the supervisor performs them outside the sandbox: any rules will do.
 */

static const int ll_open_calls[] = {
	SYS_openat,
#ifdef SYS_open
	SYS_open,
#endif
	SYS_openat2,
#ifdef SYS_creat
	SYS_creat,
#endif
};
static const int ll_exec_calls[] = {SYS_execve, SYS_execveat};
static const int ll_connect_calls[] = {SYS_connect};
static const int ll_bind_calls[] = {SYS_bind};

static const struct {
	const char *name;
	const int *calls;
	size_t n_calls;
	size_t n_decided;
	unsigned int roles;
} ll_families[POLICY_LANDLOCK_FAMILIES] = {
#ifdef SYS_open
	[POLICY_LANDLOCK_OPEN] = {"opens", ll_open_calls, ARRAY_SIZE(ll_open_calls), 2,
				  ROLE_R | ROLE_W | ROLE_C},
#else
	[POLICY_LANDLOCK_OPEN] = {"opens", ll_open_calls, ARRAY_SIZE(ll_open_calls), 1,
				  ROLE_R | ROLE_W | ROLE_C},
#endif
	[POLICY_LANDLOCK_EXEC] = {"exec", ll_exec_calls, ARRAY_SIZE(ll_exec_calls), 2, ROLE_X},
	[POLICY_LANDLOCK_CONNECT] = {"connect", ll_connect_calls, 1, 1, 0},
	[POLICY_LANDLOCK_BIND] = {"bind", ll_bind_calls, 1, 1, 0},
};

/* ---- Helpers ---- */

/*
 * Texts never come back NULL: out of memory, the reason reads so (and a
 * family with a reason is not decided: failing keeps the supervisor).
 */
char ll_oom[] = "out of memory";

void ll_text_free(char *s)
{
	if (s != ll_oom)
		free(s);
}

char *ll_printf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? ll_oom : s;
}

/* "FILE:LINE" of rule i (the default when i == n_rules). */
static void ll_where(const struct policy *p, size_t i, char *buf, size_t size)
{
	const struct policy_rule *r = i == p->n_rules ? &p->def : &p->rules[i];

	if (r->file && r->line > 0)
		snprintf(buf, size, "%s:%d", r->file, r->line);
	else
		snprintf(buf, size, "the default");
}

/* Why rule i keeps the family with the supervisor: "FILE:LINE: REASON". */
char *ll_blame(const struct policy *p, size_t i, const char *reason)
{
	char where[512];

	ll_where(p, i, where, sizeof(where));
	return ll_printf("%s: %s", where, reason);
}

/* Is path p the directory a or beneath it? */
bool ll_beneath(const char *a, const char *p)
{
	size_t n = strlen(a);

	if (strcmp(a, "/") == 0)
		return true;
	return strncmp(a, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

static void ll_roles_text(unsigned int roles, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s%s%s", roles & ROLE_R ? "read" : "",
		 (roles & ROLE_R) && (roles & (ROLE_W | ROLE_X)) ? ", " : "",
		 roles & ROLE_W ? "write" : "", (roles & ROLE_W) && (roles & ROLE_X) ? ", " : "",
		 roles & ROLE_X ? "execute" : "");
}

bool landlock_answers_syscall(int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);
	unsigned int roles = 0;

	if (!pc)
		return false;
	for (int n = 0; n < 2; n++)
		/* The f- xattr reads: a read of the descriptor's file, refused as the open. */
		if (pc->path_arg[n] >= 0 || pc->path_arg[n] == POLICY_PATH_FD)
			roles |= pc->role[n] == POLICY_ROLE_BY_OPEN_FLAGS
					 ? (ROLE_R | ROLE_W | POLICY_ROLE_CREATE)
					 : pc->role[n];
	return roles && !(roles & (POLICY_ROLE_STAT | POLICY_ROLE_ATTR));
}

/*
 * What Landlock can bind a pattern to: 1 and the directory of DIR/"**" (or
 * "/" for /"**"), or the path itself when it has no wildcard; 0 when the
 * pattern can never match a resolved path ("//", ".", "..", a trailing
 * "/"), so it grants nothing; -1 when it is not expressible (a wildcard
 * anywhere else: Landlock has no patterns).
 */
static int ll_pattern(const char *glob, char *out, size_t size, bool *ret_beneath)
{
	size_t len = strlen(glob), end = len, o = 0;
	bool beneath = len >= 3 && strcmp(glob + len - 3, "/**") == 0 &&
		       (len < 4 || glob[len - 4] != '\\');

	if (beneath)
		end = len - 3;
	for (size_t i = 0; i < end; i++) {
		char c = glob[i];

		if (c == '*' || c == '?')
			return -1;
		if (c == '\\' && i + 1 < end)
			c = glob[++i];
		if (o + 2 > size)
			return -1;
		out[o++] = c;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	if (strstr(out, "//") || strstr(out, "/./") || strstr(out, "/../") ||
	    (o > 1 && out[o - 1] == '/') || (o >= 2 && strcmp(out + o - 2, "/.") == 0) ||
	    (o >= 3 && strcmp(out + o - 3, "/..") == 0))
		return 0;
	*ret_beneath = beneath;
	return 1;
}

static void ll_scan_free(struct ll_scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->g[i].path);
	free(s->g);
	ll_text_free(s->fail);
	ll_text_free(s->create_fail);
	*s = (struct ll_scan){0};
}

static int ll_scan_add(struct ll_scan *s, const char *path, bool beneath, unsigned int roles,
		       size_t rule)
{
	struct ll_grant *g = reallocarray(s->g, s->n + 1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	s->g = g;
	g[s->n] = (struct ll_grant){
		.path = strdup(path), .beneath = beneath, .roles = roles, .rule = rule};
	if (!g[s->n].path)
		return -ENOMEM;
	s->n++;
	return 0;
}

/* ---- One syscall's rules ---- */

static void ll_note(struct policy_landlock_state *st, enum policy_landlock_family f, size_t i,
		    char *text)
{
	if (!st->notes[f][i])
		st->notes[f][i] = text;
	else
		ll_text_free(text);
}

/* An allow: its paths become grants. 0, or -ENOMEM; s->fail when not expressible. */
static int ll_scan_grant(struct policy_landlock_state *st, size_t i, unsigned int roles,
			 struct ll_scan *s)
{
	const struct policy_rule *r = &st->p->rules[i];
	char path[POLICY_PATTERN_MAX + 1];
	bool beneath;
	int k;

	if (r->n_paths == 0) {
		/* Everywhere: "/" and all beneath it. */
		if (ll_scan_add(s, "/", true, roles, i) < 0 ||
		    ll_scan_add(s, "/", false, roles, i) < 0)
			return -ENOMEM;
		return 0;
	}
	for (size_t j = 0; j < r->n_paths; j++) {
		k = ll_pattern(r->paths[j], path, sizeof(path), &beneath);
		if (k < 0) {
			char why[POLICY_PATTERN_MAX + 256];

			snprintf(why, sizeof(why),
				 "path=%s: Landlock binds a directory with what "
				 "is beneath it (DIR/**) or one file, not a pattern",
				 r->paths[j]);
			s->fail = ll_blame(st->p, i, why);
			return 0;
		}
		if (k > 0 && ll_scan_add(s, path, beneath, roles, i) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Why a restrictive rule on these calls keeps them with the supervisor. */
static const char *ll_refusal_obstacle(const struct policy_rule *r)
{
	if (r->action == POLICY_KILL)
		return "kill: only the supervisor kills";
	if (r->action == POLICY_RETURN)
		return "return: only the supervisor answers with a value";
	if (!r->kernel_answer)
		return "a denial with its own errno: the kernel's sandbox answers EACCES, and "
		       "ENOENT for a file that does not exist (write 'kernel' to ask for the "
		       "kernel's answer)";
	if (r->n_paths)
		return "a refusal of some paths only: Landlock allows, it cannot refuse part of "
		       "what it allows (put the allows first and refuse everything else)";
	return "a refusal with conditions: Landlock refuses without conditions";
}

static int ll_scan_syscall(struct policy_landlock_state *st, enum policy_landlock_family f, int nr,
			   struct ll_scan *s)
{
	const struct policy *p = st->p;
	unsigned int all = ll_families[f].roles, core = all & ~ROLE_C;
	bool complete = false;
	int r = 0;

	for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1] && !complete; k++) {
		size_t i = p->by_nr[k], e = p->by_entry[k];
		const struct policy_rule *rule = &p->rules[i];
		unsigned int roles = rule->syscall_roles[e] & ENTRY_CATEGORY
					     ? rule->syscall_roles[e] & ENTRY_ROLES & all
					     : all;
		const char *obstacle = NULL;
		struct kform kf;

		kform_build(rule, e, &kf);
		if (kf.kind == KF_FALSE || !roles)
			continue;
		if (rule->action == POLICY_LOG)
			obstacle = "log: a logged call goes to the supervisor";
		else if (rule->n_conds || rule->n_fconds || !net_is_empty(&rule->net))
			obstacle = "register or flag conditions: Landlock looks at paths only";
		else if (!kform_permissive(rule) &&
			 !(rule->action == POLICY_DENY && rule->kernel_answer && !rule->n_paths))
			obstacle = ll_refusal_obstacle(rule);
		/* A rule on creating alone (@file-create) keeps only the creating opens. */
		if (obstacle && !(roles & core)) {
			if (!s->create_fail)
				s->create_fail = ll_blame(p, i, obstacle);
			continue;
		}
		if (obstacle) {
			s->fail = ll_blame(p, i, obstacle);
			return 0;
		}
		if (kform_permissive(rule)) {
			unsigned int eff = roles & ~s->refused, rw = eff & (ROLE_R | ROLE_W);

			if (eff && (r = ll_scan_grant(st, i, eff, s)) < 0)
				return r;
			if (core == (ROLE_R | ROLE_W) && rw && rw != core)
				s->split = true;
			complete = kf.kind == KF_TRUE;
		} else {
			char text[64];

			s->refused |= roles;
			ll_roles_text(roles, text, sizeof(text));
			ll_note(st, f, i, ll_printf("Landlock: refuses %s everywhere else", text));
			complete = (s->refused & core) == core;
		}
		if (s->fail)
			return 0;
	}
	if (!complete && s->refused && p->def.action != POLICY_ALLOW)
		s->fail = ll_blame(p, p->n_rules,
				   "what no rule refuses falls to a default that "
				   "does not allow it: Landlock can only allow it");
	else if (!complete && s->refused)
		ll_note(st, f, p->n_rules, ll_printf("Landlock: allows what no rule refuses"));
	return 0;
}

/* ---- A family: the same scan for each of its syscalls ---- */

static bool ll_grant_in(const struct ll_grant *g, const struct ll_scan *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->g[i].beneath == g->beneath && s->g[i].roles == g->roles &&
		    strcmp(s->g[i].path, g->path) == 0)
			return true;
	return false;
}

static bool ll_scan_same(const struct ll_scan *a, const struct ll_scan *b)
{
	if (a->refused != b->refused)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (!ll_grant_in(&a->g[i], b))
			return false;
	for (size_t i = 0; i < b->n; i++)
		if (!ll_grant_in(&b->g[i], a))
			return false;
	return true;
}

static int ll_scan_family(struct policy_landlock_state *st, enum policy_landlock_family f)
{
	struct ll_scan *s = &st->fam[f];
	int r;

	for (size_t c = 0; c < ll_families[f].n_decided; c++) {
		int nr = ll_families[f].calls[c];
		struct ll_scan other = {0};

		if (c == 0) {
			r = ll_scan_syscall(st, f, nr, s);
			if (r < 0 || s->fail)
				return r;
			continue;
		}
		r = ll_scan_syscall(st, f, nr, &other);
		if (r == 0 && !s->create_fail && other.create_fail)
			s->create_fail = steal_pointer(&other.create_fail);
		if (r == 0 && other.fail) {
			s->fail = steal_pointer(&other.fail);
		} else if (r == 0 && !ll_scan_same(s, &other)) {
			s->fail =
				ll_printf("%s is not ruled as %s: one Landlock ruleset holds for "
					  "both (write the rules on the categories, @file-read...)",
					  policy_syscall_name(nr),
					  policy_syscall_name(ll_families[f].calls[0]));
		}
		s->split |= other.split;
		ll_scan_free(&other);
		if (r < 0 || s->fail)
			return r;
	}
	if (!s->refused && !s->fail)
		s->fail = ll_printf("no rule asks for the kernel's answer ('deny ... kernel'): "
				    "nothing for Landlock to refuse");
	return 0;
}

/* ---- The layer: the families decided, their rules ---- */

static uint64_t ll_rights(const struct policy_landlock *ll, unsigned int roles)
{
	uint64_t a = 0;

	if (roles & ROLE_R)
		a |= LL_READ;
	if (roles & ROLE_W)
		a |= LANDLOCK_ACCESS_FS_WRITE_FILE |
		     (ll->abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
	if (roles & ROLE_X)
		a |= LANDLOCK_ACCESS_FS_EXECUTE;
	if ((roles & ROLE_C) && ll->open_create)
		a |= LANDLOCK_ACCESS_FS_MAKE_REG;
	return a;
}

/*
 * Do the opens that create move too (landlock.h: open_create)? With the
 * make-reg right refused where no rule grants creating, Landlock refuses a
 * creation before anything exists; an open with O_CREAT of a file that is
 * already there is, for the policy, a create all the same, which only a
 * grant of read, write and create together answers as Landlock does (it
 * checks the open's rights alone): so every grant holds the three.
 */
static char *ll_create_why(const struct ll_scan *s)
{
	if (s->create_fail)
		return ll_printf("%s", s->create_fail);
	if (!(s->refused & ROLE_C))
		return ll_printf("no rule refuses creating with the kernel's answer");
	for (size_t i = 0; i < s->n; i++)
		if ((s->g[i].roles & (ROLE_R | ROLE_W | ROLE_C)) != (ROLE_R | ROLE_W | ROLE_C))
			return ll_printf(
				"a rule grants some of read, write and create without the "
				"others, and an open with O_CREAT of a file that exists is "
				"all three to the policy, its open rights alone to Landlock");
	return NULL;
}

static int ll_rule_add(struct policy_landlock *ll, const struct policy *p, const struct ll_grant *g,
		       uint64_t access, enum policy_landlock_family f)
{
	const struct policy_rule *src = &p->rules[g->rule];
	struct policy_landlock_rule *r;

	for (size_t i = 0; i < ll->n_rules; i++) {
		r = &ll->rules[i];
		if (r->beneath == g->beneath && strcmp(r->path, g->path) == 0) {
			r->access |= access;
			r->families |= 1u << f;
			return 0;
		}
	}
	r = reallocarray(ll->rules, ll->n_rules + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	ll->rules = r;
	r += ll->n_rules;
	*r = (struct policy_landlock_rule){.path = strdup(g->path),
					   .beneath = g->beneath,
					   .access = access,
					   .families = 1u << f,
					   .file = src->file,
					   .line = src->line};
	if (!r->path)
		return -ENOMEM;
	ll->n_rules++;
	return 0;
}

static void ll_rules_free(struct policy_landlock *ll)
{
	for (size_t i = 0; i < ll->n_rules; i++)
		free(ll->rules[i].path);
	free(ll->rules);
	ll->rules = NULL;
	ll->n_rules = 0;
}

static void ll_undecide(struct policy_landlock *ll, enum policy_landlock_family f, char *why)
{
	ll->decided[f] = false;
	ll_text_free(ll->why_not[f]);
	ll->why_not[f] = why;
}

/* What a rule grants, of what the family refuses: its note for explain. */
static void ll_grant_notes(struct policy_landlock_state *st, enum policy_landlock_family f)
{
	const struct ll_scan *s = &st->fam[f];

	for (size_t k = 0; k < s->n; k++) {
		size_t i = s->g[k].rule;
		unsigned int roles = 0;
		char text[64];

		if (k > 0 && s->g[k - 1].rule == i)
			continue; /* one note per rule: its grants come one after the other */
		for (size_t j = k; j < s->n && s->g[j].rule == i; j++)
			roles |= s->g[j].roles & s->refused;
		ll_roles_text(roles, text, sizeof(text));
		ll_text_free(st->notes[f][i]);
		st->notes[f][i] =
			roles ? ll_printf("Landlock: grants %s on these paths", text)
			      : ll_printf("Landlock: nothing to grant (what it allows is not "
					  "refused)");
	}
}

/* The rules and rights of the decided families; the checks across them. */
static int ll_finish(struct policy_landlock *ll)
{
	struct policy_landlock_state *st = ll->state;
	char *why;
	int r;

	ll_rules_free(ll);
	ll->handled_fs = 0;
	ll_text_free(steal_pointer(&ll->create_why));
	ll->open_create = false;
	why = ll->decided[POLICY_LANDLOCK_OPEN] ? ll_check_exec_reads(ll, st) : NULL;
	if (why)
		ll_undecide(ll, POLICY_LANDLOCK_OPEN, why);
	if (ll->decided[POLICY_LANDLOCK_OPEN]) {
		ll->create_why = ll_create_why(&st->fam[POLICY_LANDLOCK_OPEN]);
		ll->open_create = !ll->create_why;
		ll->open_refused = st->fam[POLICY_LANDLOCK_OPEN].refused;
	}
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++) {
		const struct ll_scan *s = &st->fam[f];

		if (!ll->decided[f])
			continue;
		ll_grant_notes(st, (enum policy_landlock_family)f);
		ll->handled_fs |= ll_rights(ll, s->refused);
		for (size_t i = 0; i < s->n; i++) {
			unsigned int roles = s->g[i].roles & s->refused;

			if (roles && (r = ll_rule_add(ll, st->p, &s->g[i], ll_rights(ll, roles),
						      (enum policy_landlock_family)f)) < 0)
				return r;
		}
	}
	/* What the directory rules grant beneath a file rule's path (landlock.h: covered). */
	for (size_t i = 0; i < ll->n_rules; i++)
		for (size_t j = 0; j < ll->n_rules; j++)
			if (!ll->rules[i].beneath && ll->rules[j].beneath &&
			    ll_beneath(ll->rules[j].path, ll->rules[i].path))
				ll->rules[i].covered |= ll->rules[j].access;
	ll->open_notify_rdwr = st->fam[POLICY_LANDLOCK_OPEN].split;
	return ll_net_finish(ll, st);
}

static int ll_build_state(struct policy_landlock *ll, const struct policy *p)
{
	struct policy_landlock_state *st = ll->state;
	char *global = NULL;
	int r;

	if (ll->abi < 1)
		global = ll_printf("no Landlock here (the kernel lacks it, or the layer is off)");
	else
		global = ll_check_mounts(p);
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++) {
		st->notes[f] = calloc(p->n_rules + 1, sizeof(char *));
		if (!st->notes[f]) {
			ll_text_free(global);
			return -ENOMEM;
		}
		if (ll_is_net_family((enum policy_landlock_family)f)) {
			/* TCP ports: no file is bound, so the mounts do not matter. */
			r = ll_net_scan_family(st, (enum policy_landlock_family)f, ll->abi);
			if (r < 0) {
				ll_text_free(global);
				return r;
			}
			ll->decided[f] = !st->fam[f].fail;
			if (!ll->decided[f])
				ll->why_not[f] = ll_printf("%s", st->fam[f].fail);
			continue;
		}
		r = ll_scan_family(st, (enum policy_landlock_family)f);
		if (r < 0) {
			ll_text_free(global);
			return r;
		}
		if (!st->fam[f].fail)
			st->fam[f].fail = ll_check_grants(st, (enum policy_landlock_family)f);
		ll->decided[f] = !global && !st->fam[f].fail;
		if (!ll->decided[f])
			ll->why_not[f] = ll_printf("%s", global ? global : st->fam[f].fail);
	}
	ll_text_free(global);
	return 0;
}

/*
 * The first rule that sends some connect or send to the supervisor (an
 * address condition, a log), or NULL. The supervisor performs those calls
 * it lets run, from a helper outside the program's Landlock domain, where
 * no scope holds: an abstract socket bound outside the sandbox is then
 * reached (a domain cannot be lent). Connects Landlock decides (TCP ports)
 * never reach the supervisor.
 */
static const struct policy_rule *ll_scope_performed(const struct policy_landlock *ll,
						    const struct policy *p)
{
	static const char *const calls[] = { "connect", "sendto", "sendmsg", "sendmmsg" };

	for (size_t c = 0; c < ARRAY_SIZE(calls); c++) {
		int nr;

		if (names_lookup_syscall(calls[c], &nr) < 0 || nr < 0 || nr >= POLICY_NR_MAX ||
		    policy_landlock_decides(ll, nr))
			continue;
		for (size_t k = p->by_nr_start[nr]; k < p->by_nr_start[nr + 1]; k++) {
			const struct policy_rule *r = &p->rules[p->by_nr[k]];
			enum kform_kind kind = kform_kind_of(p, p->by_nr[k], nr);

			if (kind == KF_MEMORY || (kind != KF_FALSE && r->action == POLICY_LOG))
				return r;
		}
	}
	if (p->def.action == POLICY_LOG)
		return &p->def;
	return NULL;
}

/* The policy's `scope`: Landlock's, from ABI 6; asked without it, why the program cannot start. */
static void ll_scope(struct policy_landlock *ll, const struct policy *p)
{
	const char *file = NULL;
	int line = 0;
	unsigned int asked = policy_scope(p, &file, &line);
	char names[64] = "";

	if (!asked)
		return;
	if (ll->abi >= 6 && (asked & POLICY_SCOPE_ABSTRACT_UNIX)) {
		const struct policy_rule *by = ll_scope_performed(ll, p);

		if (by) {
			ll->scope_why = ll_printf(
				"%s:%d: scope abstract-unix cannot be kept next to the rule at "
				"%s:%d: the supervisor performs the connects and sends it "
				"decides from outside the sandbox's Landlock domain, where "
				"the scope does not hold, so the program is not started "
				"(decide connect and send on registers only, or drop the "
				"scope)",
				file ? file : "?", line, by->file ? by->file : "the default",
				by->line);
			return;
		}
	}
	if (ll->abi >= 6) {
		if (asked & POLICY_SCOPE_ABSTRACT_UNIX)
			ll->scoped |= LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
		if (asked & POLICY_SCOPE_SIGNAL)
			ll->scoped |= LANDLOCK_SCOPE_SIGNAL;
		return;
	}
	for (unsigned int bit = 1; bit <= POLICY_SCOPE_SIGNAL; bit <<= 1)
		if (asked & bit)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? " " : "", policy_scope_name(bit));
	ll->scope_why = ll_printf("%s:%d: scope %s needs Landlock ABI 6 (here: %d; 0: none, or "
				  "the layer is off): nothing else enforces it, so the program "
				  "is not started",
				  file ? file : "?", line, names, ll->abi);
}

int policy_landlock_build(const struct policy *p, int abi, struct policy_landlock **ret)
{
	struct policy_landlock *ll;
	int r;

	if (!p || !ret || !p->finished || p->failed)
		return -EINVAL;
	ll = calloc(1, sizeof(*ll));
	if (!ll)
		return -ENOMEM;
	ll->abi = abi < 0 ? 0 : abi;
	ll->state = calloc(1, sizeof(*ll->state));
	if (!ll->state) {
		free(ll);
		return -ENOMEM;
	}
	ll->state->p = p;
	r = ll_build_state(ll, p);
	if (r == 0)
		r = ll_finish(ll);
	if (r == 0)
		ll_scope(ll, p);
	if (r < 0) {
		policy_landlock_free(ll);
		return r;
	}
	*ret = ll;
	return 0;
}

int policy_landlock_disable(struct policy_landlock *ll, enum policy_landlock_family f,
			    const char *why)
{
	if (!ll || f < 0 || f >= POLICY_LANDLOCK_FAMILIES)
		return -EINVAL;
	ll_undecide(ll, f, ll_printf("%s", why ? why : "turned off"));
	return ll_finish(ll);
}

void policy_landlock_free(struct policy_landlock *ll)
{
	if (!ll)
		return;
	ll_text_free(ll->create_why);
	ll_text_free(ll->scope_why);
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++) {
		ll_text_free(ll->why_not[f]);
		if (ll->state) {
			ll_scan_free(&ll->state->fam[f]);
			for (size_t i = 0; ll->state->notes[f] && i <= ll->state->p->n_rules; i++)
				ll_text_free(ll->state->notes[f][i]);
			free(ll->state->notes[f]);
		}
	}
	ll_rules_free(ll);
	ll_net_free(ll, ll->state);
	free(ll->state);
	free(ll);
}

/* ---- Accessors ---- */

int policy_landlock_family_of(int nr)
{
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++)
		for (size_t c = 0; c < ll_families[f].n_calls; c++)
			if (ll_families[f].calls[c] == nr)
				return f;
	return -1;
}

const char *policy_landlock_family_name(enum policy_landlock_family f)
{
	return f >= 0 && f < POLICY_LANDLOCK_FAMILIES ? ll_families[f].name : NULL;
}

const char *policy_landlock_rule_note(const struct policy_landlock *ll,
				      enum policy_landlock_family f, size_t i)
{
	if (!ll || f < 0 || f >= POLICY_LANDLOCK_FAMILIES || !ll->decided[f] ||
	    i > ll->state->p->n_rules)
		return NULL;
	return ll->state->notes[f][i];
}

bool policy_landlock_decides(const struct policy_landlock *ll, int nr)
{
	int f = policy_landlock_family_of(nr);

	if (!ll || f < 0 || !ll->decided[f])
		return false;
	for (size_t c = 0; c < ll_families[f].n_decided; c++)
		if (ll_families[f].calls[c] == nr)
			return true;
	return false;
}

int policy_landlock_access_names(uint64_t access, char *buf, size_t size)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} names[] = {
		{LANDLOCK_ACCESS_FS_EXECUTE, "execute"},
		{LANDLOCK_ACCESS_FS_WRITE_FILE, "write-file"},
		{LANDLOCK_ACCESS_FS_READ_FILE, "read-file"},
		{LANDLOCK_ACCESS_FS_READ_DIR, "read-dir"},
		{LANDLOCK_ACCESS_FS_TRUNCATE, "truncate"},
		{LANDLOCK_ACCESS_FS_MAKE_REG, "make-reg"},
		{LANDLOCK_ACCESS_FS_REFER, "refer"},
	};
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		int n;

		if (!(access & names[i].bit))
			continue;
		n = snprintf(buf + len, len < size ? size - len : 0, "%s%s", len ? " " : "",
			     names[i].name);
		if (n < 0 || len + (size_t)n >= size)
			return -ERANGE;
		len += (size_t)n;
	}
	return (int)len;
}
