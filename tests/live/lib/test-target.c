/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The live libunotify test's forked targets (test-lib.h): `test-lib
 * --target NAME` loads a filter that notifies getppid, hands its listener
 * over a socket pair and runs the named child once told to go.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"
#include "test-lib.h"
#include "unotify.h"
#include "util.h"

static int status_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return -1;
}

/* ------------------------------------------------------------------ forked targets */

/* arch check, getppid notified, everything else allowed */
static struct sock_filter target_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UNOTIFY_AUDIT_ARCH, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static int send_fd(int sock, int fd)
{
	char byte = 'L', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char byte, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

char self_exe[4096];
/* In the target: its end of the socket pair, which target_finish closes. */
int target_sock = -1;

/* In the exec'd target (outside valgrind, if the test runs under it). */
_Noreturn void target_child(int sock, int (*fn)(pid_t))
{
	struct sock_fprog prog = { .len = ARRAY_SIZE(target_insns), .filter = target_insns };
	pid_t parent = getppid();
	char go;
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		_exit(90);
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (fd < 0 || send_fd(sock, (int)fd) < 0)
		_exit(91);
	close((int)fd);
	if (read(sock, &go, 1) != 1)
		_exit(92);
	target_sock = sock;
	_exit(fn(parent));
}

/*
 * Starts `test-lib --target NAME`, which loads the target filter, hands its
 * listener over and waits for target_go. Exec'd rather than forked so that
 * the supervisor side can run under valgrind, which cannot load filters.
 */
bool target_start(struct target *t, const char *name)
{
	char sock[16];
	int sv[2], fd;

	EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	snprintf(sock, sizeof(sock), "%d", sv[1]);
	fflush(stdout);
	t->pid = fork();
	EXPECT(t->pid >= 0);
	if (t->pid == 0) {
		fcntl(sv[1], F_SETFD, 0);
		execl(self_exe, self_exe, "--target", name, sock, (char *)NULL);
		_exit(93);
	}
	close(sv[1]);
	t->sock = sv[0];
	fd = recv_fd(t->sock);
	EXPECT(fd >= 0);
	EXPECT_EQ(unotify_listener_new(fd, &t->l), 0);
	return true;
}

void target_go(struct target *t)
{
	(void)!write(t->sock, "g", 1);
}

/* The child's status as a shell shows it; the listener is freed. */
int target_finish(struct target *t)
{
	int status;

	unotify_listener_free(t->l);
	t->l = NULL;
	close(t->sock);
	if (waitpid(t->pid, &status, 0) < 0)
		return -1;
	return status_code(status);
}

bool recv_getppid(unotify_listener *l, pid_t pid, const struct seccomp_notif **ret)
{
	EXPECT_EQ(unotify_listener_recv(l, ret), 0);
	EXPECT_EQ((*ret)->data.nr, __NR_getppid);
	EXPECT_EQ((*ret)->pid, pid);
	return true;
}
