/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 18: what the kernel charges to the creator's real uid
 * (r18-queues.sh), and to the sender's (r18-inflight.sh). A POSIX message queue counts against its creator's
 * RLIMIT_MSGQUEUE, in the real uid's user; one created by name on an
 * mqueue mount through a supervisor acting as the program was root's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attack.h"

/* A queue's fd reads as its status line ("QSIZE:0 ..."): 0, else -EPROTO. */
static int read_status(int fd)
{
	char buf[128] = "";

	if (read(fd, buf, sizeof(buf) - 1) < 0 || strncmp(buf, "QSIZE:", 6) != 0)
		return -EPROTO;
	return 0;
}

/*
 * Creates one queue by name: mknod of a regular file or open(O_CREAT),
 * whose fd must be the queue's; 0 or -errno.
 */
static int create_queue(const char *path, bool by_mknod)
{
	int fd, r;

	if (by_mknod)
		return mknod(path, S_IFREG | 0600, 0) < 0 ? -errno : 0;
	fd = open(path, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0)
		return -errno;
	r = read_status(fd);
	close(fd);
	return r;
}

/* DIR PREFIX MAX open|mknod: creates DIR/PREFIX0.. by name until one fails or MAX are made. */
static int cmd_r18_mq_create(int argc, char **argv)
{
	char path[4096];
	long max, n;
	int r = 0;

	if (argc != 4 || (strcmp(argv[3], "open") != 0 && strcmp(argv[3], "mknod") != 0))
		return 2;
	max = atol(argv[2]);
	for (n = 0; n < max; n++) {
		snprintf(path, sizeof(path), "%s/%s%ld", argv[0], argv[1], n);
		r = create_queue(path, strcmp(argv[3], "mknod") == 0);
		if (r < 0)
			break;
	}
	if (r < 0)
		result("CREATED %ld then %s", n, errname(-r));
	else
		result("CREATED %ld", n);
	return 0;
}

/* PREFIX: mq_open(O_CREAT) /PREFIX0.. until one fails (at most 1000); the count. */
static int cmd_r18_mq_fill(int argc, char **argv)
{
	char name[256];
	long n;
	int err = 0;

	if (argc != 1)
		return 2;
	for (n = 0; n < 1000; n++) {
		mqd_t q;

		snprintf(name, sizeof(name), "/%s%ld", argv[0], n);
		q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
		if (q == (mqd_t)-1) {
			err = errno;
			break;
		}
		mq_close(q);
	}
	result("FILLED %ld then %s", n, err ? errname(err) : "none");
	return 0;
}

/*
 * N [hold]: puts N descriptors in flight (SCM_RIGHTS, never received) on
 * a socket pair of ours, prints INFLIGHT n (then the errno that stopped
 * it), and with hold keeps them until killed.
 * The kernel refuses a send from a process of our uid without
 * CAP_SYS_RESOURCE while that uid has more in flight than its
 * RLIMIT_NOFILE (ETOOMANYREFS).
 */
static int cmd_r18_inflight(int argc, char **argv)
{
	union {
		char buf[CMSG_SPACE(253 * sizeof(int))];
		struct cmsghdr align;
	} control;
	int fds[253] = { 0 }, sv[2], big = 1 << 24, err = 0;
	long want, sent = 0;

	if (argc < 1 || argc > 2 || (argc == 2 && strcmp(argv[1], "hold") != 0) ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 2;
	want = atol(argv[0]);
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
	while (sent < want) {
		int n = want - sent < 253 ? (int)(want - sent) : 253;
		char byte = 'x';
		struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
				    .msg_controllen = CMSG_SPACE(n * sizeof(int)) };
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);

		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(n * sizeof(int));
		memcpy(CMSG_DATA(c), fds, n * sizeof(int));
		if (sendmsg(sv[0], &m, MSG_DONTWAIT) < 0) {
			err = errno;
			break;
		}
		sent += n;
	}
	if (err)
		result("INFLIGHT %ld then %s", sent, errname(err));
	else
		result("INFLIGHT %ld", sent);
	fflush(stdout);
	while (argc == 2)
		pause();
	return 0;
}

const struct attack_cmd attack_r18_cmds[] = {
	{ "r18-mq-create", "DIR PREFIX MAX open|mknod  create queues by name on an mqueue mount",
	  cmd_r18_mq_create },
	{ "r18-mq-fill", "PREFIX  mq_open queues until one fails", cmd_r18_mq_fill },
	{ "r18-inflight", "N [hold]  put N descriptors in flight (SCM_RIGHTS)", cmd_r18_inflight },
	{ NULL, NULL, NULL },
};
