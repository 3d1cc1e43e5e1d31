/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of test-policy. */
#ifndef UNOTIFY_TEST_POLICY_H
#define UNOTIFY_TEST_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* policy/bpf-run.c: policy_bpf_run() runs a seccomp filter on d. */
#include "policy/internal.h"

/* policy-args.c: what a test call has in memory, and the callbacks that hand it over. */
#include "policy/policy.h"

struct targs {
	bool has_path[2];
	const char *path[2];
	int path_error[2];
	int path_calls[2];
	bool has_flags;
	uint64_t flags;
	int flags_error;
	int flags_calls;
	bool has_sa;
	struct policy_sockaddr sa;
	int sa_error;
	int sa_calls;
};

extern const struct policy_args_ops targs_ops;
int targs_parse_word(struct targs *a, const char *w);
const char *targs_misuse(const struct targs *a);
/* env:, needs:, group: directives; on failure -EINVAL and why in bad. */
int directive_env(char *val, struct policy_env *env, char *bad, size_t size);
size_t directive_rule_index(const struct policy *p, const char *s);
int directive_needs(const struct policy *p, char *val, char *bad, size_t size);
int directive_group(char *val, char *bad, size_t size);

/*
 * The random tests' share: 1, or N from UNOTIFY_TEST_RANDOM_SHARE (they
 * run 1/N of their policies, and scale their counts' floors by as much).
 * valgrind.sh asks for a share: the whole runs natively and under the
 * sanitizers; under valgrind, 30 times slower, a part exercises the same code.
 */
int random_share(void);

/* policy-landlock.c: the Landlock layer's directives and the model of Landlock. */
struct policy_landlock;
int directive_landlock(const struct policy_landlock *ll, const char *key, char *val, char *bad,
		       size_t size);
/* Would Landlock let this call (let run by the filter) through? */
bool landlock_model_allows(const struct policy_landlock *ll, const struct policy_call *call,
			   const char *path, bool dir, bool missing);
/* 0 when the policy's decision d is what Landlock decides; -EINVAL and why. */
/* landlock_agrees for connect and bind: Landlock's TCP port check on the call's address. */
int landlock_agrees_net(const struct policy_landlock *ll, const struct policy_call *call,
			const struct policy_sockaddr *sa, const struct policy_decision *d,
			char *bad, size_t size);
int landlock_agrees(const struct policy_landlock *ll, const struct policy_call *call,
		    const char *path, bool dir, bool missing, const struct policy_decision *d,
		    char *bad, size_t size);

/* Random policies of the layer's shape: evaluator and Landlock's model agree. */
bool landlock_random_agree(void);
/* policy-landlock-net.c: the same for TCP ports of connect and bind. */
bool landlock_net_random_agree(void);

/* policy-random.c: the cases over many generated inputs. */
void random_run_all(void (*report)(const char *name, bool ok));
/* policy-random.c: the next of a seeded sequence (xorshift), each file its own state. */
uint64_t xorshift64(uint64_t *state);
/*
 * policy-random.c: does the kernel layer's answer to call (unless it
 * notifies: ret_settled false) say what the evaluator decided, d?
 */
bool random_kernel_agrees(const struct policy_program *prog, const struct policy_call *call,
			  const struct policy_decision *d, bool *ret_settled);
/* policy-registers.c: several register rules of every comparison, both layers. */
bool registers_random_agree(void);

/* policy-builtin.c: runs every built-in case, reporting each. */
void builtin_run_all(void (*report)(const char *name, bool ok));

#endif
