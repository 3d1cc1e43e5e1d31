/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify bench floor -- CMD`: a whole program tree (a build) under the
 * safe-supervisor floor. The child loads a raw BPF filter that notifies
 * open and openat, fails the calls that would change its root or
 * credentials (floor.c relies on both staying ours), hands the listener
 * over a socketpair and execs; the parent serves it with one or more
 * threads blocking in RECV, and returns CMD's exit code.
 */
#include "config.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "floor.h"
#include "lib/uapi.h"
#include "lib/util.h"

#define FLOOR_RECEIVERS_MAX 64

#if defined(__x86_64__) && !defined(__ILP32__)
#define FLOOR_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__) && !defined(__ILP32__)
#define FLOOR_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#define FLOOR_INSNS_MAX 256

struct floor_bpf {
	struct sock_filter insns[FLOOR_INSNS_MAX];
	unsigned short n;
};

static void floor_bpf_put(struct floor_bpf *b, struct sock_filter insn)
{
	if (b->n < FLOOR_INSNS_MAX)
		b->insns[b->n++] = insn;
}

/* nr -> action; the accumulator holds the number before and after. */
static void floor_bpf_ret_if(struct floor_bpf *b, int nr, uint32_t action)
{
	floor_bpf_put(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1));
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/*
 * A set*id call passes when each id it sets is -1 (unchanged) or already
 * ours (make calls setresuid(-1, 0, -1) as root): the credentials stay
 * ours. Anything else fails with EPERM.
 */
static void floor_bpf_ids(struct floor_bpf *b, int nr, unsigned int nargs, uint32_t id)
{
	unsigned int per = 4, body = nargs * per + 2;

	floor_bpf_put(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0,
						       (uint8_t)body));
	for (unsigned int i = 0; i < nargs; i++) {
		floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			offsetof(struct seccomp_data, args) + i * sizeof(uint64_t)));
		floor_bpf_put(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, id, 1, 0));
		floor_bpf_put(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							       UINT32_MAX, 0,
							       (uint8_t)((nargs - i - 1) * per + 2)));
		/* the next argument, or the verdict */
		floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			offsetof(struct seccomp_data, nr)));
	}
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
}

static void floor_bpf_build(struct floor_bpf *b)
{
	static const int denied[] = {
		SYS_chroot, SYS_pivot_root, SYS_mount, SYS_umount2, SYS_unshare, SYS_setns,
		SYS_setgroups, SYS_capset, SYS_openat2,
	};
	uint32_t uid = (uint32_t)getuid(), gid = (uint32_t)getgid();
	const uint32_t eperm = SECCOMP_RET_ERRNO | EPERM;

	b->n = 0;
#ifdef FLOOR_AUDIT_ARCH
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						       offsetof(struct seccomp_data, arch)));
	floor_bpf_put(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FLOOR_AUDIT_ARCH,
						       1, 0));
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						       offsetof(struct seccomp_data, nr)));
#ifdef __x86_64__
	/* x32 numbers are the native ones with bit 30 set: not ours. */
	floor_bpf_put(b, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
#endif
	floor_bpf_ret_if(b, SYS_openat, SECCOMP_RET_USER_NOTIF);
#ifdef SYS_open
	floor_bpf_ret_if(b, SYS_open, SECCOMP_RET_USER_NOTIF);
#endif
	for (size_t i = 0; i < ARRAY_SIZE(denied); i++)
		floor_bpf_ret_if(b, denied[i], eperm);
	floor_bpf_ids(b, SYS_setuid, 1, uid);
	floor_bpf_ids(b, SYS_setreuid, 2, uid);
	floor_bpf_ids(b, SYS_setresuid, 3, uid);
	floor_bpf_ids(b, SYS_setfsuid, 1, uid);
	floor_bpf_ids(b, SYS_setgid, 1, gid);
	floor_bpf_ids(b, SYS_setregid, 2, gid);
	floor_bpf_ids(b, SYS_setresgid, 3, gid);
	floor_bpf_ids(b, SYS_setfsgid, 1, gid);
	floor_bpf_put(b, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

static int floor_load_filter(void)
{
	struct floor_bpf b;
	struct sock_fprog prog;
	long fd;

	floor_bpf_build(&b);
	if (b.n >= FLOOR_INSNS_MAX)
		return -E2BIG;
	prog = (struct sock_fprog){ .len = b.n, .filter = b.insns };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return negative_errno();
	/* WAIT_KILLABLE_RECV as unotify run has it: make's SIGCHLD does not restart calls. */
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
		     &prog);
	if (fd < 0 && errno == EINVAL)
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			     &prog);
	return fd < 0 ? negative_errno() : (int)fd;
}

static void floor_child(int sock, char *const *argv)
{
	int fd = floor_load_filter();

	if (fd < 0) {
		fprintf(stderr, "unotify bench floor: cannot load the filter: %s\n", strerror(-fd));
		_exit(125);
	}
	if (bench_send_fd(sock, fd) < 0)
		_exit(125);
	fd = safe_close(fd);
	sock = safe_close(sock);
	execvp(argv[0], argv);
	fprintf(stderr, "unotify bench floor: %s: %s\n", argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

struct floor_receiver {
	const struct floor *f;
	pthread_t thread;
	int result;
};

static void *floor_receiver_main(void *arg)
{
	struct floor_receiver *rc = arg;

	rc->result = floor_serve(rc->f, NULL);
	return NULL;
}

static int floor_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int floor_run_receivers(const struct floor *f, unsigned int n)
{
	struct floor_receiver rc[FLOOR_RECEIVERS_MAX];
	unsigned int started = 0;
	int r = 0;

	rc[0] = (struct floor_receiver){ .f = f };
	for (unsigned int i = 0; i < n; i++) {
		rc[i] = (struct floor_receiver){ .f = f };
		if (i > 0 && pthread_create(&rc[i].thread, NULL, floor_receiver_main, &rc[i]) != 0)
			break;
		started++;
	}
	/* The first receiver is this thread. */
	floor_receiver_main(&rc[0]);
	for (unsigned int i = 1; i < started; i++)
		pthread_join(rc[i].thread, NULL);
	for (unsigned int i = 0; i < started; i++)
		if (rc[i].result < 0 && r == 0)
			r = rc[i].result;
	return r;
}

int floor_exec(const struct floor_exec_options *o, char *const *argv)
{
	struct floor_counts counts = { 0 };
	struct floor f = { .root = -1 };
	_cleanup_close_ int listener = -1;
	int sv[2], r, status;
	pid_t pid;

	if (o->receivers < 1 || o->receivers > FLOOR_RECEIVERS_MAX)
		return 125;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 125;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 125;
	if (pid == 0) {
		sv[0] = safe_close(sv[0]);
		floor_child(sv[1], argv);
	}
	sv[1] = safe_close(sv[1]);
	r = bench_recv_fd(sv[0], &listener);
	sv[0] = safe_close(sv[0]);
	if (r < 0) {
		kill(pid, SIGKILL);
		floor_wait(pid);
		return 125;
	}
	r = floor_init(&f, listener, o->flags, &counts);
	if (r >= 0 && o->sync && (r = floor_set_sync(listener)) == -EOPNOTSUPP) {
		fprintf(stderr, "unotify bench floor: no same-CPU hand-off on this kernel\n");
		r = 0;
	}
	if (r >= 0)
		r = o->workers ? floor_serve_workers(&f, o->workers)
			       : floor_run_receivers(&f, o->receivers);
	if (r < 0) {
		fprintf(stderr, "unotify bench floor: %s\n", strerror(-r));
		kill(pid, SIGKILL);
	}
	status = floor_wait(pid);
	floor_done(&f);
	if (o->verbose)
		fprintf(stderr, "unotify bench floor: %llu calls, %llu resolved again (mount "
			"crossed), %llu refused (procfs)\n", (unsigned long long)counts.calls,
			(unsigned long long)counts.fallbacks, (unsigned long long)counts.refused);
	return r < 0 ? 125 : status;
}
