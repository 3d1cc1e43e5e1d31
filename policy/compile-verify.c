/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What libseccomp made of one syscall's rules, checked before the kernel
 * layer relies on it.
 *
 * libseccomp 2.5 ORs the chains (rules) of a syscall into one decision tree
 * over the registers' 32-bit halves, and gets that tree wrong for some sets
 * that compare by !=, <, <=, > or >= (round 16's review: next to `deny
 * socket arg0==2`, `deny socket arg0!=16 arg1==3` let socket(AF_INET,
 * SOCK_STREAM) run; two ranges on one argument, one constant past 32 bits,
 * lost calls). One chain alone, and any number of equalities, it compiles
 * exactly; Docker's default profile has such a set (socket: arg0<38,
 * arg0==39, arg0>40), which it compiles right.
 *
 * Without masks, such a filter compares each argument's high and low
 * halves with the halves of the set's constants, and nothing else. So
 * which way it goes depends only on where each half of each argument lies
 * among those constants' halves: below, at, between or above them. Values
 * that take every such position, for all arguments at once, take every
 * path through the filter: where each of them is decided as the chains
 * say, every call is. A set with a mask beside an ordering, or too many
 * such values, is not checked: the caller sends its calls to the
 * supervisor.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <linux/seccomp.h>

#include "lib/util.h"
#include "policy/compile-verify.h"
#include "policy/internal.h"

/*
 * Chains of different lengths, some of 3 comparisons or more, that
 * libseccomp 2.5 takes at most in one set: adding a chain walks both
 * branches of every node of the tree built so far, and with long chains
 * beside short ones on other arguments that walk grows exponentially
 * (round 16's second review: 6 comparisons beside 1, 16 chains 0.00 s, 24
 * 0.5 s, 32 10 s, 40 not done in minutes; with masks, 18 chains 8 s).
 * Chains all of one length stayed fast at 200, and so do sets of 1 and 2
 * comparisons (the implicit sets' ioctl refusals: 67 chains).
 */
#define TRUST_MIXED_CHAINS 12
/* Half-values per argument half: 3 per constant, 0 and UINT32_MAX. */
#define VERIFY_HALVES 64
/* Calls tried at most: beyond, the set is not checked. */
#define VERIFY_CALLS 65536

static bool verify_ordered(const struct scmp_arg_cmp *c)
{
	return c->op != SCMP_CMP_EQ && c->op != SCMP_CMP_MASKED_EQ;
}

/*
 * An ordering in a set on several arguments, or beside a mask, is never
 * given to libseccomp: such sets kept libseccomp 2.5 busy in
 * seccomp_rule_add_exact_array() for longer than anyone waited (the
 * review's, with ranges on three arguments; `arg0!=10 arg2==0x100000000`
 * next to `arg0==-1 arg1==16` and `arg2==1`), so `unotify run` never
 * started. On one argument alone it compiled every set test-policy tries,
 * not always right: those are checked. Nor is a set of more than
 * TRUST_MIXED_CHAINS chains of different lengths, equalities or not.
 */
enum compile_chains_trust compile_chains_trust(const struct compile_chains *ch)
{
	bool ordered = false, mask = false, several = false, lengths = false, long_chain = false;
	unsigned int arg = ch->n ? ch->items[0].cmp[0].arg : 0;

	if (ch->n < 2)
		return CHAINS_EXACT;
	for (size_t i = 0; i < ch->n; i++) {
		lengths |= ch->items[i].n != ch->items[0].n;
		long_chain |= ch->items[i].n >= 3;
		for (unsigned int k = 0; k < ch->items[i].n; k++) {
			const struct scmp_arg_cmp *c = &ch->items[i].cmp[k];

			mask |= c->op == SCMP_CMP_MASKED_EQ;
			ordered |= verify_ordered(c);
			several |= c->arg != arg;
		}
	}
	if (lengths && long_chain && ch->n > TRUST_MIXED_CHAINS)
		return CHAINS_REFUSE;
	if (!ordered)
		return CHAINS_EXACT;
	return mask || several ? CHAINS_REFUSE : CHAINS_CHECK;
}

static bool verify_cmp_holds(const struct scmp_arg_cmp *c, uint64_t v)
{
	switch (c->op) {
	case SCMP_CMP_NE:
		return v != c->datum_a;
	case SCMP_CMP_LT:
		return v < c->datum_a;
	case SCMP_CMP_LE:
		return v <= c->datum_a;
	case SCMP_CMP_EQ:
		return v == c->datum_a;
	case SCMP_CMP_GE:
		return v >= c->datum_a;
	case SCMP_CMP_GT:
		return v > c->datum_a;
	case SCMP_CMP_MASKED_EQ:
		return (v & c->datum_a) == c->datum_b;
	default:
		return false;
	}
}

static bool verify_chains_hold(const struct compile_chains *ch, const uint64_t args[6])
{
	for (size_t i = 0; i < ch->n; i++) {
		bool all = true;

		for (unsigned int k = 0; k < ch->items[i].n && all; k++)
			all = verify_cmp_holds(&ch->items[i].cmp[k], args[ch->items[i].cmp[k].arg]);
		if (all)
			return true;
	}
	return false;
}

static size_t verify_add(uint32_t *set, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return n;
	set[n] = v;
	return n + 1;
}

/* The positions one half (high: the upper 32 bits) of argument arg can take; 0 when too many. */
static size_t verify_halves(const struct compile_chains *ch, unsigned int arg, bool high,
			    uint32_t *out)
{
	size_t n = verify_add(out, 0, 0);

	n = verify_add(out, n, UINT32_MAX);
	for (size_t i = 0; i < ch->n; i++)
		for (unsigned int k = 0; k < ch->items[i].n; k++) {
			const struct scmp_arg_cmp *c = &ch->items[i].cmp[k];
			uint32_t h = (uint32_t)(high ? c->datum_a >> 32 : c->datum_a);

			if (c->arg != arg)
				continue;
			if (n + 3 > VERIFY_HALVES)
				return 0;
			n = verify_add(out, n, h);
			if (h > 0)
				n = verify_add(out, n, h - 1);
			if (h < UINT32_MAX)
				n = verify_add(out, n, h + 1);
		}
	return n;
}

struct verify_arg {
	uint32_t hi[VERIFY_HALVES], lo[VERIFY_HALVES];
	size_t n_hi, n_lo;
};

static bool verify_arg_used(const struct compile_chains *ch, unsigned int arg)
{
	for (size_t i = 0; i < ch->n; i++)
		for (unsigned int k = 0; k < ch->items[i].n; k++)
			if (ch->items[i].cmp[k].arg == arg)
				return true;
	return false;
}

/* The argument's candidate values, hi x lo (one, 0, if no chain reads it); false when too many. */
static bool verify_arg_init(const struct compile_chains *ch, unsigned int arg,
			    struct verify_arg *a, uint64_t *calls)
{
	if (!verify_arg_used(ch, arg)) {
		a->hi[0] = a->lo[0] = 0;
		a->n_hi = a->n_lo = 1;
		return true;
	}
	a->n_hi = verify_halves(ch, arg, true, a->hi);
	a->n_lo = verify_halves(ch, arg, false, a->lo);
	if (!a->n_hi || !a->n_lo)
		return false;
	*calls *= a->n_hi * a->n_lo;
	return *calls <= VERIFY_CALLS;
}

/* Advances the odometer idx over the arguments' values; false after the last. */
static bool verify_next(const struct verify_arg a[6], size_t idx[6])
{
	for (unsigned int arg = 0; arg < 6; arg++) {
		if (++idx[arg] < a[arg].n_hi * a[arg].n_lo)
			return true;
		idx[arg] = 0;
	}
	return false;
}

int compile_chains_check(const struct compile_chains *ch, const struct sock_fprog *prog, int nr,
			 uint32_t action, uint32_t def)
{
	struct verify_arg a[6];
	size_t idx[6] = { 0 };
	uint64_t calls = 1;

	if (compile_chains_trust(ch) != CHAINS_CHECK)
		return -E2BIG;
	for (unsigned int arg = 0; arg < 6; arg++)
		if (!verify_arg_init(ch, arg, &a[arg], &calls))
			return -E2BIG;
	do {
		struct seccomp_data d = { .nr = nr, .arch = seccomp_arch_native() };
		uint64_t args[6];
		uint32_t got;

		for (unsigned int arg = 0; arg < 6; arg++) {
			size_t i = idx[arg];

			args[arg] = (uint64_t)a[arg].hi[i / a[arg].n_lo] << 32 |
				    a[arg].lo[i % a[arg].n_lo];
			d.args[arg] = args[arg];
		}
		if (policy_bpf_run(prog, &d, &got) < 0)
			return -EINVAL;
		if (got != (verify_chains_hold(ch, args) ? action : def))
			return -EDOM;
	} while (verify_next(a, idx));
	return 0;
}
