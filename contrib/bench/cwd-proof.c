/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cwd-proof: what naming a relative path's start costs. A relative path is
 * decided on the absolute name of the target's working directory, which
 * unotify proves for each call (lib/emulate-path.c, guess_start_name):
 * the directory's identity through the magic link /proc/TID/cwd, then its
 * name looked up again from the root with no symlink and no mount crossed
 * (openat2), that fd's identity, and the close. The floor opens
 * /proc/PID/cwd and resolves from it, naming nothing. Also timed: two
 * proofs that were considered instead, the readlink of a kept fd's own
 * link (/proc/self/fd/N) and a statx of the name.
 *
 * Each call alternates the steps, in a child process sitting in DIR
 * (default /tmp), so that the machine's drift affects all alike. Prints
 * each step's median and 10th percentile, with the machine and kernel.
 *
 *   make contrib/bench/cwd-proof && contrib/bench/cwd-proof [CALLS [DIR]]
 */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "micro.h"

enum step { CWD_STATX, NAME_PROOF, FLOOR_OPEN, KEPT_READLINK, NAME_STATX, STEPS };

static const char *const step_names[STEPS] = {
	[CWD_STATX] = "statx /proc/TID/cwd (unotify: the directory's identity)",
	[NAME_PROOF] = "openat2 + statx + close of the name (unotify: the proof)",
	[FLOOR_OPEN] = "open + close of /proc/PID/cwd (the floor)",
	[KEPT_READLINK] = "readlink /proc/self/fd/N of a kept fd (considered)",
	[NAME_STATX] = "statx of the name (considered)",
};

struct ctx {
	int proc, root, kept;
	char cwd_link[64], kept_link[64];
	const char *name; /* the directory's absolute name */
};

/* One step; 0 when it did what it should. */
static int run_step(const struct ctx *c, enum step s)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	struct statx stx;
	char buf[PATH_MAX];
	int fd;

	switch (s) {
	case CWD_STATX:
		return statx(c->proc, c->cwd_link, 0, STATX_INO | STATX_MNT_ID, &stx);
	case NAME_PROOF:
		fd = (int)syscall(SYS_openat2, c->root, c->name, &how, sizeof(how));
		if (fd < 0)
			return -1;
		if (statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &stx) < 0) {
			close(fd);
			return -1;
		}
		return close(fd);
	case FLOOR_OPEN:
		fd = openat(c->proc, c->cwd_link, O_PATH | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -1 : close(fd);
	case KEPT_READLINK:
		return readlinkat(c->proc, c->kept_link, buf, sizeof(buf)) > 0 ? 0 : -1;
	case NAME_STATX:
		return statx(c->root, c->name + 1, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT,
			     STATX_INO | STATX_MNT_ID, &stx);
	default:
		return -1;
	}
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 50000;
	const char *dir = argc > 2 ? argv[2] : "/tmp";
	uint64_t *t[STEPS];
	struct ctx c = { .name = dir };
	struct utsname u;
	int pipefd[2];
	pid_t child;

	if (calls < 10 || dir[0] != '/' || pipe(pipefd) < 0)
		return 2;
	child = fork();
	if (child == 0) {
		char b;

		/* Works in dir, and waits there until killed. */
		_exit(chdir(dir) < 0 || read(pipefd[0], &b, 1) < 0);
	}
	c.proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	c.root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	c.kept = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	snprintf(c.cwd_link, sizeof(c.cwd_link), "%d/cwd", (int)child);
	snprintf(c.kept_link, sizeof(c.kept_link), "self/fd/%d", c.kept);
	usleep(100000); /* the child's chdir */
	for (int s = 0; s < STEPS; s++)
		t[s] = calloc((size_t)calls, sizeof(uint64_t));
	for (long i = 0; i < calls; i++)
		for (int s = 0; s < STEPS; s++) {
			uint64_t t0 = now_ns();

			if (run_step(&c, (enum step)s) < 0) {
				fprintf(stderr, "cwd-proof: %s failed: %m\n", step_names[s]);
				kill(child, SIGKILL);
				return 1;
			}
			t[s][i] = now_ns() - t0;
		}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	uname(&u);
	printf("%s %s, %ld calls each, alternating, in %s\n", u.machine, u.release, calls, dir);
	for (int s = 0; s < STEPS; s++) {
		qsort(t[s], (size_t)calls, sizeof(uint64_t), cmp_u64);
		printf("  median %6" PRIu64 " ns, p10 %6" PRIu64 " ns  %s\n", t[s][calls / 2],
		       t[s][calls / 10], step_names[s]);
		free(t[s]);
	}
	return 0;
}
