/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 2, unotifyd as an untrusted client sees it (outside any sandbox):
 * one message of our choosing, with the descriptor we choose in
 * SCM_RIGHTS (none, an O_PATH fd, or the listener of a filter whose every
 * task has exited), and the daemon's answer printed as it came.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "attack.h"

/* A listener whose filter no task uses any more: a child loads it, hands it over, exits. */
static int r2_dead_listener(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	int sv[2], fd;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int l;

		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		l = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				 SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		_exit(l < 0 || send_fd(sv[1], l) < 0 ? 1 : 0);
	}
	close(sv[1]);
	fd = recv_fd(sv[0]);
	close(sv[0]);
	waitpid(pid, NULL, 0);
	return fd;
}

/* The descriptor KIND names: "none" (-1), "opath PATH", "dead". */
static int r2_fd_of(int argc, char **argv, int *ret)
{
	if (argc < 1 || strcmp(argv[0], "none") == 0) {
		*ret = -1;
		return 0;
	}
	if (strcmp(argv[0], "opath") == 0 && argc == 2)
		*ret = open(argv[1], O_PATH | O_CLOEXEC);
	else if (strcmp(argv[0], "dead") == 0)
		*ret = r2_dead_listener();
	else
		return -EINVAL;
	return *ret < 0 ? (*ret == -1 ? -errno : *ret) : 0;
}

/* Sends msg (and fd) to the daemon on sock_path; prints "ANSWER ..." (one line). */
static int r2_exchange(const char *sock_path, const char *msg, int fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char control[CMSG_SPACE(sizeof(int))] = { 0 }, answer[8192];
	struct iovec iov = { (void *)msg, strlen(msg) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n, got = 0;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd >= 0) {
		struct cmsghdr *c;

		m.msg_control = control;
		m.msg_controllen = sizeof(control);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return setup_failed("connect", errno);
	/* A refused peer may be answered and dropped before it sends: read what came anyway. */
	if (sendmsg(s, &m, MSG_NOSIGNAL) < 0)
		note("sendmsg: %s", errname(errno));
	shutdown(s, SHUT_WR);
	while ((n = read(s, answer + got, sizeof(answer) - 1 - (size_t)got)) > 0)
		got += n;
	answer[got] = '\0';
	for (ssize_t i = 0; i < got; i++)
		if (answer[i] == '\n')
			answer[i] = ' ';
	close(s);
	result("ANSWER %s", got ? answer : "(none: the daemon closed the connection)");
	return 0;
}

/* daemon-send SOCK JSON [none | opath PATH | dead]: one message to the daemon. */
static int cmd_daemon_send(int argc, char **argv)
{
	int fd, r;

	if (argc < 2)
		return 2;
	r = r2_fd_of(argc - 2, argv + 2, &fd);
	if (r < 0)
		return setup_failed("fd", -r);
	return r2_exchange(argv[0], argv[1], fd);
}

/* daemon-register SOCK POLICY none|opath PATH|dead: a runc-style registration. */
static int cmd_daemon_register(int argc, char **argv)
{
	char msg[1024];
	int fd, r;

	if (argc < 3)
		return 2;
	r = r2_fd_of(argc - 2, argv + 2, &fd);
	if (r < 0)
		return setup_failed("fd", -r);
	snprintf(msg, sizeof(msg),
		 "{\"ociVersion\":\"1.0.2\",\"fds\":[\"seccompFd\"],\"pid\":%d,"
		 "\"metadata\":\"policy=%s\",\"state\":{\"ociVersion\":\"1.0.2\",\"id\":\"r2-%d\","
		 "\"status\":\"creating\",\"pid\":%d,\"bundle\":\"/b\"}}",
		 (int)getpid(), argv[1], (int)getpid(), (int)getpid());
	return r2_exchange(argv[0], msg, fd);
}

const struct attack_cmd attack_r2_daemon_cmds[] = {
	{ "daemon-send", "SOCK JSON [none|opath PATH|dead]  (outside) one message, the answer",
	  cmd_daemon_send },
	{ "daemon-register", "SOCK POLICY none|opath PATH|dead  (outside) a registration",
	  cmd_daemon_register },
	{ NULL, NULL, NULL },
};
