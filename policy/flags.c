/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Open flags: the access= and flags= conditions, and the role an open plays
 * (read, write, create) as a function of its flags.
 *
 * Everything here is a set of terms (flags & mask) == value, any of which
 * may hold. For open and openat the flags are a register, so a rule whose
 * conditions reduce to such terms stays in the kernel filter: one
 * libseccomp rule per term (compile.c). The role of an open is taken from
 * policy_pathcall_roles() itself, over every combination of the bits it
 * reads, so the filter and the evaluator can never disagree on it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

/* The bits policy_pathcall_roles() reads, O_PATH aside (a unit test holds it to that). */
#define FLAGS_ROLE_BITS ((uint64_t)(O_ACCMODE | O_TRUNC | O_CREAT | O_TMPFILE))
/* Terms over those six bits: 3^6 at most. */
#define FLAGS_QM_MAX 729
_Static_assert(__builtin_popcountll(FLAGS_ROLE_BITS) == 6,
	       "a combination of the role bits is one bit of a uint64_t");

struct flags_name {
	const char *name;
	uint64_t bits;
};

static const struct flags_name flags_names[] = {
	{ "O_CREAT", O_CREAT },       { "O_EXCL", O_EXCL },         { "O_NOCTTY", O_NOCTTY },
	{ "O_TRUNC", O_TRUNC },       { "O_APPEND", O_APPEND },     { "O_NONBLOCK", O_NONBLOCK },
	{ "O_NDELAY", O_NDELAY },     { "O_DSYNC", O_DSYNC },       { "O_SYNC", O_SYNC },
	{ "O_ASYNC", O_ASYNC },       { "O_DIRECT", O_DIRECT },     { "O_DIRECTORY", O_DIRECTORY },
	{ "O_NOFOLLOW", O_NOFOLLOW }, { "O_NOATIME", O_NOATIME },   { "O_CLOEXEC", O_CLOEXEC },
	{ "O_PATH", O_PATH },         { "O_TMPFILE", O_TMPFILE },
};

/* ---- Where an open's flags are ---- */

enum flags_source flags_source_of(const struct policy_pathcall *pc, int *ret_arg,
				  uint64_t *ret_const)
{
	if (!pc || pc->perform != POLICY_PERFORM_OPEN)
		return FLAGS_NONE;
	if (pc->role[0] != POLICY_ROLE_BY_OPEN_FLAGS) {
		/* creat(path, mode) is open(path, O_CREAT | O_WRONLY | O_TRUNC, mode). */
		*ret_const = O_CREAT | O_WRONLY | O_TRUNC;
		return FLAGS_CONST;
	}
	if (pc->flags_arg < 0)
		return FLAGS_MEM; /* openat2: in struct open_how */
	*ret_arg = pc->flags_arg;
	return FLAGS_REG;
}

/* ---- Terms ---- */

static bool flags_term_holds(const struct policy_flagterm *t, uint64_t flags)
{
	return (flags & t->mask) == t->value;
}

bool flags_terms_hold(const struct policy_flagterm *t, size_t n, uint64_t flags)
{
	for (size_t i = 0; i < n; i++)
		if (flags_term_holds(&t[i], flags))
			return true;
	return false;
}

/*
 * Do the roles a path has fit a rule's categories? A rule that lets the
 * call run needs every role covered (an O_RDWR open is not only a read);
 * one that stops it needs one.
 */
bool flags_roles_fit(unsigned int have, unsigned int want, bool permissive)
{
	if (permissive)
		return have && !(have & ~want);
	return (have & want) != 0;
}

/* Does an open with these flags meet the rule's role (through categories) and flags conditions? */
bool flags_entry_holds(const struct policy_rule *r, unsigned int roles,
		       const struct policy_pathcall *pc, uint64_t flags)
{
	if ((roles & ENTRY_ROLES) &&
	    !flags_roles_fit(policy_pathcall_roles(pc, 0, flags), roles & ENTRY_ROLES,
			     kform_permissive(r)))
		return false;
	for (size_t i = 0; i < r->n_fconds; i++)
		if (!flags_terms_hold(r->fconds[i].terms, r->fconds[i].n_terms, flags))
			return false;
	return true;
}

/* Does a subsume b (every flags value b accepts, a accepts)? */
static bool flags_term_subsumes(const struct policy_flagterm *a, const struct policy_flagterm *b)
{
	return (a->mask & b->mask) == a->mask && (b->value & a->mask) == a->value;
}

/* Drops the terms another term subsumes (the first of equal ones stays). */
static size_t flags_terms_reduce(struct policy_flagterm *t, size_t n)
{
	size_t out = 0;

	for (size_t i = 0; i < n; i++) {
		bool drop = false;

		for (size_t j = 0; j < n && !drop; j++)
			if (j != i && flags_term_subsumes(&t[j], &t[i]) &&
			    (!flags_term_subsumes(&t[i], &t[j]) || j < i))
				drop = true;
		if (!drop)
			t[out++] = t[i];
	}
	return out;
}

/* The terms of (any of a) and (any of b), into out (size max): the count, or -E2BIG. */
int flags_terms_and(const struct policy_flagterm *a, size_t na, const struct policy_flagterm *b,
		    size_t nb, struct policy_flagterm *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			/* Contradictory where both care: no flags value meets both. */
			if ((a[i].value & b[j].mask) != (b[j].value & a[i].mask))
				continue;
			if (n == max)
				return -E2BIG;
			out[n++] = (struct policy_flagterm){ a[i].mask | b[j].mask,
							     a[i].value | b[j].value };
		}
	return (int)flags_terms_reduce(out, n);
}

/* Adds t to set (size n) unless there already: the new count. */
static size_t flags_set_add(struct policy_flagterm *set, size_t n, struct policy_flagterm t)
{
	for (size_t i = 0; i < n; i++)
		if (set[i].mask == t.mask && set[i].value == t.value)
			return n;
	set[n] = t;
	return n + 1;
}

/* One Quine-McCluskey round: merges cur's pairs into next, moves the unmerged to primes. */
static size_t flags_qm_round(const struct policy_flagterm *cur, size_t n_cur,
			     struct policy_flagterm *next, struct policy_flagterm *primes,
			     size_t *n_primes)
{
	bool merged[FLAGS_QM_MAX] = { false };
	size_t n_next = 0;

	for (size_t i = 0; i < n_cur; i++)
		for (size_t j = i + 1; j < n_cur; j++) {
			uint64_t diff = cur[i].value ^ cur[j].value;

			if (cur[i].mask != cur[j].mask || !diff || (diff & (diff - 1)))
				continue;
			n_next = flags_set_add(next, n_next,
					       (struct policy_flagterm){ cur[i].mask & ~diff,
									 cur[i].value & ~diff });
			merged[i] = merged[j] = true;
		}
	for (size_t i = 0; i < n_cur; i++)
		if (!merged[i])
			*n_primes = flags_set_add(primes, *n_primes, cur[i]);
	return n_next;
}

/* The role bits, lowest first: combination c of flags_role_value() sets bit k where c's bit k is set. */
static size_t flags_role_bits(uint64_t bits[static 6])
{
	size_t n = 0;

	for (uint64_t bit = 1; bit && n < 6; bit <<= 1)
		if (FLAGS_ROLE_BITS & bit)
			bits[n++] = bit;
	return n;
}

/* Which combinations of FLAGS_ROLE_BITS give the open roles that fit: bit c for combination c. */
static uint64_t flags_role_fits(const struct policy_pathcall *pc, unsigned int roles,
				bool permissive)
{
	uint64_t bits[6], map = 0;
	size_t nbits = flags_role_bits(bits);

	for (size_t combo = 0; combo < (1u << nbits); combo++) {
		uint64_t v = 0;

		for (size_t k = 0; k < nbits; k++)
			if (combo & (1u << k))
				v |= bits[k];
		if (flags_roles_fit(policy_pathcall_roles(pc, 0, v), roles, permissive))
			map |= UINT64_C(1) << combo;
	}
	return map;
}

/*
 * The terms for the combinations map holds (flags_role_fits), reduced to
 * prime implicants (Quine-McCluskey, small enough to do in full), then a
 * greedy cover. With read_fits, an O_PATH open fits too. Returns the count
 * (0: no open flags give such a role).
 */
static size_t flags_role_terms_compute(uint64_t map, bool read_fits, struct policy_flagterm *out,
				       size_t max)
{
	struct policy_flagterm mins[FLAGS_QM_MAX], a[FLAGS_QM_MAX], b[FLAGS_QM_MAX];
	struct policy_flagterm primes[FLAGS_QM_MAX];
	bool covered[FLAGS_QM_MAX] = { false };
	size_t n_mins = 0, n_cur, n_primes = 0, n_out = 0, left;
	uint64_t bits[6];
	size_t nbits = flags_role_bits(bits);

	for (size_t combo = 0; combo < (1u << nbits); combo++) {
		uint64_t v = 0;

		if (!(map & (UINT64_C(1) << combo)))
			continue;
		for (size_t k = 0; k < nbits; k++)
			if (combo & (1u << k))
				v |= bits[k];
		mins[n_mins++] = (struct policy_flagterm){ FLAGS_ROLE_BITS, v };
	}
	memcpy(a, mins, n_mins * sizeof(*a));
	for (n_cur = n_mins; n_cur;) {
		n_cur = flags_qm_round(a, n_cur, b, primes, &n_primes);
		memcpy(a, b, n_cur * sizeof(*a));
	}
	for (left = n_mins; left > 0 && n_out < max;) {
		size_t best = 0, best_count = 0;

		for (size_t p = 0; p < n_primes; p++) {
			size_t count = 0;

			for (size_t m = 0; m < n_mins; m++)
				count += !covered[m] && flags_term_holds(&primes[p], mins[m].value);
			if (count > best_count) {
				best = p;
				best_count = count;
			}
		}
		for (size_t m = 0; m < n_mins; m++)
			if (!covered[m] && flags_term_holds(&primes[best], mins[m].value)) {
				covered[m] = true;
				left--;
			}
		out[n_out++] = primes[best];
	}
	if (left)
		return 0;
	/*
	 * O_PATH: the kernel drops every other flag (build_open_how), and the
	 * supervisor performs such an open as a read (lib/open.c): a read.
	 */
	for (size_t i = 0; i < n_out; i++)
		out[i].mask |= O_PATH;
	if (read_fits) {
		if (n_out == max)
			return 0;
		out[n_out++] = (struct policy_flagterm){ O_PATH, O_PATH };
	}
	return n_out;
}

/*
 * The terms for "the open's roles fit roles" (flags_roles_fit): the
 * combinations of FLAGS_ROLE_BITS for which they do, as terms. Memoized by
 * those combinations, which few (pathcall, roles) questions tell apart: a
 * policy with thousands of rules on @file-write asks the same question for
 * each, and the reduction costs milliseconds. Per thread, so the library
 * needs no lock.
 */
size_t flags_role_terms(const struct policy_pathcall *pc, unsigned int roles, bool permissive,
			struct policy_flagterm *out, size_t max)
{
	static __thread struct {
		bool used;
		uint64_t map;
		bool read_fits;
		size_t n;
		struct policy_flagterm terms[32];
	} cache[32];
	static __thread unsigned int next;
	uint64_t map = flags_role_fits(pc, roles, permissive);
	bool read_fits = flags_roles_fit(POLICY_ROLE_READ, roles, permissive);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cache); i++)
		if (cache[i].used && cache[i].map == map && cache[i].read_fits == read_fits)
			break;
	if (i == ARRAY_SIZE(cache)) {
		i = next++ % ARRAY_SIZE(cache);
		cache[i].used = true;
		cache[i].map = map;
		cache[i].read_fits = read_fits;
		cache[i].n = flags_role_terms_compute(map, read_fits, cache[i].terms,
						      ARRAY_SIZE(cache[i].terms));
	}
	if (cache[i].n > max)
		return 0;
	memcpy(out, cache[i].terms, cache[i].n * sizeof(out[0]));
	return cache[i].n;
}

/* ---- Parsing ---- */

static int flags_push_term(struct policy_flagcond *fc, uint64_t mask, uint64_t value)
{
	struct policy_flagterm *t = reallocarray(fc->terms, fc->n_terms + 1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	fc->terms = t;
	t[fc->n_terms++] = (struct policy_flagterm){ mask, value };
	return 0;
}

/* The rule's access= (or flags=) condition: several words of one kind: any holds. */
static struct policy_flagcond *flags_cond_of(struct policy_rule *r, bool is_access)
{
	struct policy_flagcond *fc;

	for (size_t i = 0; i < r->n_fconds; i++)
		if (r->fconds[i].is_access == is_access)
			return &r->fconds[i];
	fc = reallocarray(r->fconds, r->n_fconds + 1, sizeof(*fc));
	if (!fc)
		return NULL;
	r->fconds = fc;
	r->fconds[r->n_fconds] = (struct policy_flagcond){ .is_access = is_access };
	return &r->fconds[r->n_fconds++];
}

/*
 * One access= mode, as the kernel checks the open's permissions (ACC_MODE,
 * and MAY_WRITE for O_TRUNC): access mode 3 is checked for both, and so is
 * O_RDONLY|O_TRUNC, which reads and truncates: rw holds for them, r does
 * not (a read-only open changes nothing), w for O_WRONLY alone.
 */
static int flags_access_push(struct policy_flagcond *fc, uint64_t mode)
{
	const uint64_t mask = O_ACCMODE | O_TRUNC;

	if (mode == O_RDONLY)
		return flags_push_term(fc, mask, O_RDONLY);
	if (mode == O_WRONLY)
		return flags_push_term(fc, O_ACCMODE, O_WRONLY);
	if (flags_push_term(fc, O_ACCMODE, O_RDWR) < 0 ||
	    flags_push_term(fc, O_ACCMODE, O_ACCMODE) < 0)
		return -ENOMEM;
	return flags_push_term(fc, mask, O_RDONLY | O_TRUNC);
}

/* access=r|w|rw, alternatives separated by ','. */
void flags_parse_access(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	static const struct flags_name modes[] = {
		{ "r", O_RDONLY }, { "w", O_WRONLY }, { "rw", O_RDWR },
	};
	_cleanup_free_ char *copy = strdup(t->text + strlen("access="));
	struct policy_flagcond *fc;
	bool any = false;
	char *save = NULL;

	if (!copy) {
		ps->oom = true;
		return;
	}
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(modes) && strcmp(w, modes[i].name) != 0; i++)
			;
		if (i == ARRAY_SIZE(modes)) {
			parser_error(ps, t->col, "access= takes r, w or rw, e.g. access=w,rw",
				     "unknown access mode '%s'", w);
			return;
		}
		fc = flags_cond_of(r, true);
		if (!fc || flags_access_push(fc, modes[i].bits) < 0) {
			ps->oom = true;
			return;
		}
		any = true;
	}
	if (!any)
		parser_error(ps, t->col, "e.g. access=w,rw", "access= needs a mode");
}

static int flags_lookup(const char *name, uint64_t *ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(flags_names); i++)
		if (strcmp(name, flags_names[i].name) == 0) {
			*ret = flags_names[i].bits;
			return 0;
		}
	return names_parse_u64(name, ret) == 0 && *ret ? 0 : -ENOENT;
}

static const char *flags_suggest(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(flags_names); i++)
		if (names_distance(name, flags_names[i].name, 2) <= 2)
			return flags_names[i].name;
	return NULL;
}

static void flags_bad_name(struct parser *ps, const struct lexer_token *t, const char *w)
{
	const char *near = flags_suggest(w);
	char hint[64];

	if (strcmp(w, "O_RDONLY") == 0 || strcmp(w, "O_WRONLY") == 0 || strcmp(w, "O_RDWR") == 0) {
		parser_error(ps, t->col, "the access mode is not a bit: write access=r, w or rw",
			     "'%s' in flags=", w);
		return;
	}
	if (near)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
	parser_error(ps, t->col, near ? hint : "flags= takes O_* names joined by '|'",
		     "unknown open flag '%s'", w);
}

/* flags=O_CREAT|O_TRUNC: all set; !O_EXCL: not set. */
void flags_parse_flags(struct parser *ps, struct policy_rule *r, const struct lexer_token *t)
{
	_cleanup_free_ char *copy = strdup(t->text + strlen("flags="));
	uint64_t set = 0, clear = 0, bits;
	struct policy_flagcond *fc;
	char *save = NULL;

	if (!copy) {
		ps->oom = true;
		return;
	}
	for (char *w = strtok_r(copy, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		bool neg = w[0] == '!';

		if (flags_lookup(w + neg, &bits) < 0) {
			flags_bad_name(ps, t, w + neg);
			return;
		}
		if (neg)
			clear |= bits;
		else
			set |= bits;
	}
	if (!(set | clear)) {
		parser_error(ps, t->col, "e.g. flags=O_CREAT|O_TRUNC", "flags= needs a flag");
		return;
	}
	if ((set | clear) & O_ACCMODE) {
		parser_error(ps, t->col, "the access mode is not a bit: write access=r, w or rw",
			     "flags= on the access mode in '%s'", t->text);
		return;
	}
	if (set & clear) {
		parser_error(ps, t->col, "a flag is either set or not",
			     "'%s' can never hold: a flag is both set and not set", t->text);
		return;
	}
	fc = flags_cond_of(r, false);
	if (!fc || flags_push_term(fc, set | clear, set & ~clear) < 0)
		ps->oom = true;
}
