/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: races against the supervisor's copy of a pointer argument. One
 * thread calls a system call on a buffer in a loop while another flips the
 * buffer, byte by byte, between an allowed and a denied value. A
 * supervisor that checked the buffer and let the kernel read it again
 * (CONTINUE) would act on the denied value whenever a flip lands between
 * its check and the kernel's read; one that performs the call on its own
 * copy never does. Each command prints
 *   leaked=N allowed=N denied=N other=N
 * where leaked counts calls that acted on the denied value.
 *
 *   race-stat ALLOWED DENIED ITER        newfstatat; leaked: the denied file's inode came back
 *   race-mkdir ALLOWED DENIED ITER       mkdir; leaked: DENIED was created (removed again)
 *   race-connect unix ALLOWED DENIED ITER   connect to one of two listening sockets the
 *   race-connect inet PORT_A PORT_D ITER    probe serves itself; leaked: the peer is DENIED
 *   race-exec ALLOWED DENIED ITER        execve in a child, ITER times; leaked: DENIED ran
 *                                        (ALLOWED must exit 0, DENIED 1: true and false)
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe.h"

#define RACE_BUF 256

struct race {
	volatile unsigned char buf[RACE_BUF];
	unsigned char allowed[RACE_BUF];
	unsigned char denied[RACE_BUF];
	size_t len;
	atomic_bool started;
	atomic_bool stop;
	long leaked, allowed_n, denied_n, other;
};

/* Byte by byte on purpose: the call must also meet half-written values. */
static void race_copy(volatile unsigned char *dst, const unsigned char *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		dst[i] = src[i];
}

static void *race_flipper(void *arg)
{
	struct race *r = arg;
	unsigned int seed = 1;

	while (!atomic_load_explicit(&r->stop, memory_order_relaxed)) {
		race_copy(r->buf, r->denied, r->len);
		atomic_store_explicit(&r->started, true, memory_order_relaxed);
		/* Hold each value a varying while so both land in every window. */
		seed = seed * 1103515245 + 12345;
		for (volatile unsigned int spin = (seed >> 16) % 512; spin > 0; spin--)
			;
		race_copy(r->buf, r->allowed, r->len);
		for (volatile unsigned int spin = (seed >> 20) % 512; spin > 0; spin--)
			;
	}
	return NULL;
}

static int race_start(struct race *r, pthread_t *ret)
{
	race_copy(r->buf, r->allowed, r->len);
	if (pthread_create(ret, NULL, race_flipper, r) != 0)
		return -1;
	/* Short runs would be over before the flipper is scheduled. */
	while (!atomic_load(&r->started))
		sched_yield();
	return 0;
}

static void race_finish(struct race *r, pthread_t flipper)
{
	atomic_store(&r->stop, true);
	pthread_join(flipper, NULL);
	printf("leaked=%ld allowed=%ld denied=%ld other=%ld\n", r->leaked, r->allowed_n,
	       r->denied_n, r->other);
}

/* Two strings of the same length (so every half-flip is one or the other, or a mix). */
static int race_strings(struct race *r, const char *allowed, const char *denied)
{
	size_t len = strlen(allowed) + 1;

	if (len != strlen(denied) + 1 || len > RACE_BUF) {
		fprintf(stderr, "probe: the two paths must have the same length\n");
		return -1;
	}
	memcpy(r->allowed, allowed, len);
	memcpy(r->denied, denied, len);
	r->len = len;
	return 0;
}

static void race_count_error(struct race *r, int err)
{
	if (err == EACCES)
		r->denied_n++;
	else
		r->other++;
}

static int probe_cmd_race_stat(int argc, char **argv)
{
	static struct race r;
	struct stat dst, st;
	pthread_t flipper;
	long iterations;
	int fd;

	if (argc != 3 || probe_parse_long(argv[2], &iterations) < 0 ||
	    race_strings(&r, argv[0], argv[1]) < 0)
		return 2;
	/* By fd (open and fstat are not under test): the policy denies stat on it. */
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_fstat, fd, &dst) < 0) {
		printf("stat denied ");
		probe_print_err(errno);
		return 0;
	}
	close(fd);
	if (race_start(&r, &flipper) < 0)
		return 3;
	for (long i = 0; i < iterations; i++) {
		const char *p = (const char *)(uintptr_t)r.buf;

		if (syscall(SYS_newfstatat, AT_FDCWD, p, &st, 0) < 0)
			race_count_error(&r, errno);
		else if (st.st_ino == dst.st_ino && st.st_dev == dst.st_dev)
			r.leaked++;
		else
			r.allowed_n++;
	}
	race_finish(&r, flipper);
	return 0;
}

static int probe_cmd_race_mkdir(int argc, char **argv)
{
	static struct race r;
	pthread_t flipper;
	long iterations;

	if (argc != 3 || probe_parse_long(argv[2], &iterations) < 0 ||
	    race_strings(&r, argv[0], argv[1]) < 0)
		return 2;
	if (race_start(&r, &flipper) < 0)
		return 3;
	for (long i = 0; i < iterations; i++) {
		const char *p = (const char *)(uintptr_t)r.buf;

		if (syscall(SYS_mkdir, p, 0700) < 0) {
			race_count_error(&r, errno);
			continue;
		}
		/* Which one was made? Remove it again (rmdir is not under test). */
		if (rmdir(argv[1]) == 0)
			r.leaked++;
		else if (rmdir(argv[0]) == 0)
			r.allowed_n++;
		else
			r.other++;
	}
	race_finish(&r, flipper);
	return 0;
}

/*
 * execve cannot be performed for the target: a supervisor can only check
 * the path and CONTINUE, and the kernel reads it again (the documented
 * race). Each child flips the path while its main thread execs it.
 */
static int probe_cmd_race_exec(int argc, char **argv)
{
	static struct race r;
	long iterations;

	if (argc != 3 || probe_parse_long(argv[2], &iterations) < 0 ||
	    race_strings(&r, argv[0], argv[1]) < 0)
		return 2;
	for (long i = 0; i < iterations; i++) {
		pthread_t flipper;
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return 3;
		if (pid == 0) {
			char *const args[] = { (char *)(uintptr_t)r.buf, NULL };

			if (race_start(&r, &flipper) < 0)
				_exit(101);
			execve((const char *)(uintptr_t)r.buf, args, (char *const[]){ NULL });
			_exit(errno == EACCES ? 100 : 101);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			r.other++;
		else if (WEXITSTATUS(status) == 0)
			r.allowed_n++;
		else if (WEXITSTATUS(status) == 1)
			r.leaked++;
		else if (WEXITSTATUS(status) == 100)
			r.denied_n++;
		else
			r.other++;
	}
	printf("leaked=%ld allowed=%ld denied=%ld other=%ld\n", r.leaked, r.allowed_n, r.denied_n,
	       r.other);
	return 0;
}

/* ---- race-connect ---- */

struct race_server {
	int fds[2];
	atomic_bool stop;
};

/* Accepts and closes every connection to both listening sockets until told to stop. */
static void *race_acceptor(void *arg)
{
	struct race_server *s = arg;
	struct pollfd p[2] = { { .fd = s->fds[0], .events = POLLIN },
			       { .fd = s->fds[1], .events = POLLIN } };

	while (!atomic_load(&s->stop)) {
		if (poll(p, 2, 100) <= 0)
			continue;
		for (int i = 0; i < 2; i++) {
			int fd = (p[i].revents & POLLIN) ? accept4(s->fds[i], NULL, NULL, SOCK_CLOEXEC)
							  : -1;

			if (fd >= 0)
				close(fd);
		}
	}
	return NULL;
}

static int race_listen(int domain, const void *addr, socklen_t len)
{
	int one = 1, fd = socket(domain, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, addr, len) < 0 || listen(fd, 4096) < 0) {
		printf("listen ");
		probe_print_err(errno);
		close(fd);
		return -1;
	}
	return fd;
}

/* The two addresses as sockaddrs of the same length, and their listening sockets. */
static int race_addresses(char **argv, struct race *r, struct race_server *s)
{
	bool unix_ = strcmp(argv[0], "unix") == 0;
	struct sockaddr_storage a = { 0 }, d = { 0 };
	socklen_t len;

	if (unix_) {
		struct sockaddr_un *ua = (void *)&a, *ud = (void *)&d;

		if (strlen(argv[1]) != strlen(argv[2]) || strlen(argv[1]) >= sizeof(ua->sun_path))
			return -1;
		ua->sun_family = ud->sun_family = AF_UNIX;
		strcpy(ua->sun_path, argv[1]);
		strcpy(ud->sun_path, argv[2]);
		len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(argv[1]) + 1);
	} else {
		struct sockaddr_in *ia = (void *)&a, *id = (void *)&d;

		ia->sin_family = id->sin_family = AF_INET;
		ia->sin_addr.s_addr = id->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		ia->sin_port = htons((uint16_t)atoi(argv[1]));
		id->sin_port = htons((uint16_t)atoi(argv[2]));
		len = sizeof(*ia);
	}
	memcpy(r->allowed, &a, len);
	memcpy(r->denied, &d, len);
	r->len = len;
	s->fds[0] = race_listen(a.ss_family, &a, len);
	s->fds[1] = race_listen(d.ss_family, &d, len);
	return s->fds[0] < 0 || s->fds[1] < 0 ? -1 : 0;
}

static void race_connect_once(struct race *r)
{
	struct sockaddr_storage peer = { 0 };
	socklen_t plen = sizeof(peer);
	int fd = socket(((struct sockaddr *)r->allowed)->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		r->other++;
		return;
	}
	if (connect(fd, (const struct sockaddr *)(uintptr_t)r->buf, (socklen_t)r->len) < 0)
		race_count_error(r, errno);
	else if (getpeername(fd, (struct sockaddr *)&peer, &plen) == 0 &&
		 memcmp(&peer, r->denied, plen < r->len ? plen : r->len) == 0)
		r->leaked++;
	else
		r->allowed_n++;
	close(fd);
}

static int probe_cmd_race_connect(int argc, char **argv)
{
	static struct race r;
	static struct race_server s;
	pthread_t flipper, acceptor;
	long iterations;

	if (argc != 4 || probe_parse_long(argv[3], &iterations) < 0)
		return 2;
	if (race_addresses(argv, &r, &s) < 0)
		return 0;
	if (pthread_create(&acceptor, NULL, race_acceptor, &s) != 0 ||
	    race_start(&r, &flipper) < 0)
		return 3;
	for (long i = 0; i < iterations; i++)
		race_connect_once(&r);
	race_finish(&r, flipper);
	atomic_store(&s.stop, true);
	pthread_join(acceptor, NULL);
	return 0;
}

const struct probe_cmd probe_race_cmds[] = {
	{ "race-stat", probe_cmd_race_stat },
	{ "race-mkdir", probe_cmd_race_mkdir },
	{ "race-connect", probe_cmd_race_connect },
	{ "race-exec", probe_cmd_race_exec },
	{ NULL, NULL },
};
