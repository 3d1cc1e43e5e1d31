/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the parts of the live libunotify test (test-lib.c: the
 * harness, listener, replies, memory, supervise; test-target.c: the forked
 * targets; test-spawn.c: spawn).
 */
#ifndef UNOTIFY_TEST_LIB_H
#define UNOTIFY_TEST_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "unotify.h"

#define EXPECT(cond)                                                                   \
	do {                                                                           \
		if (!(cond)) {                                                         \
			printf("#   %s:%d: failed: %s\n", __FILE__, __LINE__, #cond);    \
			return false;                                                  \
		}                                                                      \
	} while (0)

#define EXPECT_EQ(a, b)                                                                \
	do {                                                                           \
		long long a_ = (long long)(a), b_ = (long long)(b);                    \
		if (a_ != b_) {                                                        \
			printf("#   %s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, \
			       #a, a_, b_);                                            \
			return false;                                                  \
		}                                                                      \
	} while (0)

struct test_entry {
	const char *name;
	bool (*fn)(void);
	bool root;       /* needs root */
	bool in_process; /* loads filters in this process (not under valgrind) */
};

/* What the decide callbacks saw; shared by the supervise and spawn tests. */
struct counts {
	int decided, gates, replied, execve;
	bool stop_after_first;
	volatile bool stop;
	int fd; /* for an FD verdict, or -1 */
};

/* This program, exec'd as a target (--target) or a spawned program (--child). */
extern char self_exe[4096];

/* test-target.c: a forked target (`test-lib --target NAME`) and its listener. */
struct seccomp_notif;
struct target {
	pid_t pid;
	int sock;
	unotify_listener *l;
};
/* In the target: its end of the socket pair, which target_finish closes. */
extern int target_sock;
/* In the exec'd target: loads the filter, hands the listener over, runs fn when told. */
_Noreturn void target_child(int sock, int (*fn)(pid_t));
bool target_start(struct target *t, const char *name);
void target_go(struct target *t);
/* The child's status as a shell shows it; the listener is freed. */
int target_finish(struct target *t);
/* The next notification, which must be t's getppid. */
bool recv_getppid(unotify_listener *l, pid_t pid, const struct seccomp_notif **ret);

/* test-lib.c: the target whose notified getppid must fail with ENOSYS. */
int child_enosys(pid_t parent);

/* test-spawn.c: the gate and spawn tests, and `test-lib --child MODE`. */
bool test_gate_match(void);
extern const struct test_entry spawn_tests[];
extern const size_t spawn_tests_count;
int spawn_child_main(const char *mode);

#endif
