/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The chains of the kernel layer's rules, and the check of what libseccomp made of them. */
#ifndef UNOTIFY_POLICY_COMPILE_VERIFY_H
#define UNOTIFY_POLICY_COMPILE_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>
#include <seccomp.h>

/* One set of comparisons, ANDed: a libseccomp rule. */
struct compile_chain {
	struct scmp_arg_cmp cmp[6];
	unsigned int n;
};

struct compile_chains {
	struct compile_chain *items;
	size_t n;
};

enum compile_chains_trust {
	CHAINS_EXACT,  /* one chain, or a few equalities: libseccomp compiles it right */
	CHAINS_CHECK,  /* orderings on one argument, no mask: compile, then check */
	CHAINS_REFUSE, /* anything else with an ordering, or too many mixed chains: never
			  given to libseccomp */
};

/* How far libseccomp 2.5 may be trusted with the chains of one syscall. */
enum compile_chains_trust compile_chains_trust(const struct compile_chains *ch);
/*
 * Does prog (a filter of nr's chains alone) give action for every call of
 * nr that meets one of them, and def for the rest? 0 yes, -EDOM no,
 * -E2BIG when the set is too large to check, -EINVAL when prog is broken.
 */
int compile_chains_check(const struct compile_chains *ch, const struct sock_fprog *prog, int nr,
			 uint32_t action, uint32_t def);

#endif
