/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * threads-own N DIR ITER: N threads each make calls whose answers are
 * theirs alone, all at once, ITER times: an open of DIR/fI (its first line
 * must be "fI"), a readlink of DIR/lI (it must read "tI"), a stat of DIR/fI
 * (its inode, read before the threads start) and an open of DIR/denied
 * (EACCES). When several supervising threads answer at once, an fd, a
 * link's text or a stat written to the wrong thread, or one thread's
 * verdict given to another, shows here: each thread checks only its own.
 * Prints "ok N", or "fail F of N*ITER" and the first wrong answer.
 *
 * threads-own N DIR ITER PHASES: the same PHASES times, each time after
 * thread 0 alone made OWN_ALONE rounds of its calls: the supervisor's
 * second receiver (formed while the threads' calls meet) parks while one
 * thread calls, and forms again, each time with the answers checked.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "probe.h"

#define OWN_MAX 64
#define OWN_ALONE 300 /* rounds of 4 calls: more than the 1,024 a second receiver outlasts */

struct own_shared {
	pthread_barrier_t start;
	const char *dir;
	long iterations;
	atomic_long failures;
	atomic_flag reported;
};

struct own_thread {
	struct own_shared *s;
	pthread_t tid;
	int index;
	char file[4096], link[4096], denied[4096];
	char expect_line[32], expect_link[32];
	ino_t ino;
};

static void own_report(struct own_thread *t, const char *what, const char *got)
{
	if (!atomic_flag_test_and_set(&t->s->reported))
		fprintf(stderr, "probe: thread %d: %s: %s\n", t->index, what, got);
}

static bool own_open(struct own_thread *t)
{
	char buf[64] = "";
	ssize_t n;
	int fd = openat(AT_FDCWD, t->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		own_report(t, "open", strerror(errno));
		return false;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (strcmp(buf, t->expect_line) != 0) {
		own_report(t, "open read", buf);
		return false;
	}
	return true;
}

static bool own_readlink(struct own_thread *t)
{
	char buf[64];
	ssize_t n = readlinkat(AT_FDCWD, t->link, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (n < 0 || strcmp(buf, t->expect_link) != 0) {
		own_report(t, "readlink", n < 0 ? strerror(errno) : buf);
		return false;
	}
	return true;
}

static bool own_stat(struct own_thread *t)
{
	struct stat st;

	if (stat(t->file, &st) < 0 || st.st_ino != t->ino) {
		own_report(t, "stat", "another inode, or an error");
		return false;
	}
	return true;
}

static bool own_denied(struct own_thread *t)
{
	int fd = openat(AT_FDCWD, t->denied, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		own_report(t, "denied open", "succeeded");
		return false;
	}
	if (errno != EACCES) {
		own_report(t, "denied open", strerror(errno));
		return false;
	}
	return true;
}

/* Rounds of the thread's four calls, each round that got a wrong answer counted. */
static void own_rounds(struct own_thread *t, long rounds)
{
	for (long i = 0; i < rounds; i++) {
		bool ok = own_open(t);

		ok &= own_readlink(t);
		ok &= own_stat(t);
		ok &= own_denied(t);
		if (!ok)
			atomic_fetch_add(&t->s->failures, 1);
	}
}

static void *own_worker(void *arg)
{
	struct own_thread *t = arg;

	pthread_barrier_wait(&t->s->start);
	own_rounds(t, t->s->iterations);
	return NULL;
}

/* The N threads at once, ITER rounds each; -1 when one cannot start. */
static int own_together(struct own_thread *threads, long n)
{
	for (int i = 0; i < n; i++)
		if (pthread_create(&threads[i].tid, NULL, own_worker, &threads[i]) != 0)
			return -1;
	for (int i = 0; i < n; i++)
		pthread_join(threads[i].tid, NULL);
	return 0;
}

/* The names and the expected answers of thread i; -1 when DIR lacks its files. */
static int own_prepare(struct own_thread *t, struct own_shared *s, int i)
{
	struct stat st;

	t->s = s;
	t->index = i;
	snprintf(t->file, sizeof(t->file), "%s/f%d", s->dir, i);
	snprintf(t->link, sizeof(t->link), "%s/l%d", s->dir, i);
	snprintf(t->denied, sizeof(t->denied), "%s/denied", s->dir);
	snprintf(t->expect_line, sizeof(t->expect_line), "f%d", i);
	snprintf(t->expect_link, sizeof(t->expect_link), "t%d", i);
	if (stat(t->file, &st) < 0) {
		fprintf(stderr, "probe: %s: %s\n", t->file, strerror(errno));
		return -1;
	}
	t->ino = st.st_ino;
	return 0;
}

static int probe_cmd_threads_own(int argc, char **argv)
{
	static struct own_thread threads[OWN_MAX];
	struct own_shared s = {.reported = ATOMIC_FLAG_INIT};
	long n, phases = 0;

	if ((argc != 3 && argc != 4) || probe_parse_long(argv[0], &n) < 0 || n < 1 ||
	    n > OWN_MAX || probe_parse_long(argv[2], &s.iterations) < 0 || s.iterations < 1 ||
	    (argc == 4 && (probe_parse_long(argv[3], &phases) < 0 || phases < 1)))
		return 2;
	s.dir = argv[1];
	for (int i = 0; i < n; i++)
		if (own_prepare(&threads[i], &s, i) < 0)
			return 2;
	pthread_barrier_init(&s.start, NULL, (unsigned int)n);
	for (long phase = 0; phase < (phases ? phases : 1); phase++) {
		if (phases)
			own_rounds(&threads[0], OWN_ALONE);
		if (own_together(threads, n) < 0)
			return 3;
	}
	if (atomic_load(&s.failures) == 0)
		printf("ok %ld\n", n);
	else
		printf("fail %ld of %ld\n", atomic_load(&s.failures),
		       (phases ? phases : 1) * (n * s.iterations + (phases ? OWN_ALONE : 0)));
	return 0;
}

const struct probe_cmd probe_threads_cmds[] = {
	{"threads-own", probe_cmd_threads_own},
	{NULL, NULL},
};
