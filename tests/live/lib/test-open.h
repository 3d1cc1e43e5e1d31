/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared by the parts of the live open test: test-open.c (the supervisor side
 * and main), test-open-target.c (the fixture and the target child) and
 * test-open-cases.c (the cases and how their outcomes are checked).
 */
#ifndef UNOTIFY_TEST_OPEN_H
#define UNOTIFY_TEST_OPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define NOBODY     65534
#define GROUP      4242
#define DIRFD_SLOT 10    /* the fd number a case's dirfd gets in the child */
#define BAD_DIRFD  999

struct tcase {
	const char *name;
	long nr;                /* 0: openat */
	const char *dirfd;      /* NULL: AT_FDCWD; "-": an fd that is not open; else opened */
	const char *path;       /* '@' stands for the fixture directory */
	int flags;
	mode_t mode;
	uint64_t resolve;       /* openat2 */
	uid_t uid;              /* the target's user (its group is the same number) */
	int ngroups;
	gid_t groups[2];
	bool nocaps;            /* no effective capabilities */
	const char *cwd;        /* NULL: the fixture */
	const char *root;       /* chroot there first */
	mode_t umask;           /* 0: 022 */
	/* What the policy sees: '@' fixture, '%p' the target's pid. */
	const char *want_path;
	int want_plan_error;
	bool want_creates;
	/* What the target gets. */
	int want_errno;
	const char *want_head;  /* found in the first bytes read through the fd */
	mode_t want_mode;       /* a created file's permission bits */
	bool want_symlink;      /* an O_PATH fd on the symlink itself */
	bool no_native;         /* natively it would block: supervised only */
	bool deviates;          /* supervised, the target gets sup_errno instead (documented) */
	int sup_errno;
	/* Harder targets and supervisors. */
	bool thread;            /* the call comes from a second thread with its own cwd and user */
	bool mountns;           /* the target has its own mount namespace, a tmpfs on allowed/sub */
	bool pidns;             /* the target is pid 1 of a pid namespace, with its own /proc */
	uid_t sup_uid;          /* the supervisor runs as this user, without capabilities */
	int want_prepare_error; /* unotify_open_prepare fails so (the target gets ENOSYS) */
	const char *sysctl;     /* "protected_symlinks=1": set under /proc/sys/fs for the case */
	bool nodump;            /* the target is not dumpable (as runc's init is) */
	bool pin_root;          /* the supervisor pins the target's root (names are relative to it) */
	bool want_unnamed;      /* the plan says its path is no name of the file under the root */
};

/* What the target saw, sent to us after its setup and again after its call. */
struct report {
	int setup_error;
	int err;
	pid_t pid;
	pid_t tid;
	struct stat st;
	int fl;
	int fdfl;
	char head[512];
};

/* What the supervisor saw and did. */
struct seen {
	int prepare;
	bool called;
	char path[4096];
	int plan_error;
	bool creates;
	bool unnamed;
	int perform;
	int result;
};

/* test-open-target.c: the fixture directory and the target child. */
extern char fixture[64];
extern pid_t supervisor_pid; /* "%s" in paths: the supervising process, whose /proc is off limits */
void die(const char *what);
void fixture_reset(void);
void expand_tid(const char *in, pid_t pid, pid_t tid, char *out, size_t size);
ssize_t recv_msg(int sock, void *buf, size_t len, int *ret_fd);
void __attribute__((noreturn)) child_main(const struct tcase *c, int sock, bool supervised);

/* test-open-cases.c: the cases; skip_reason is set when the last case was skipped. */
extern const struct tcase cases[];
extern const size_t cases_count;
extern const char *skip_reason;
bool run_case_sysctl(const struct tcase *c);

/* test-open.c: runs the case in a child, supervised or not. */
int run_child(const struct tcase *c, bool supervised, struct report *rep, struct seen *seen);

#endif
