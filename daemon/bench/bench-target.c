/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measured process. Forked by the parent, it installs what its mode
 * needs (no filter, a filter that allows the call in the kernel, or one that
 * notifies it), hands the listener to the parent over a socketpair with
 * SCM_RIGHTS, waits for the go, and then loops: timestamp, call, timestamp,
 * check the result. A wrong result stops the run with an error, because a
 * benchmark that silently measures failures is useless.
 *
 * The filter is raw BPF for every mode so that the floor (bare) and the
 * library (lib) see exactly the same target: the only difference between
 * them is the supervisor. It notifies the measured call only (getppid, or
 * the one path call of --call), so sendmsg, futex and
 * thread creation run untouched.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "lib/creds-calls.h"
#include "lib/util.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#define BENCH_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__) && !defined(__ILP32__)
#define BENCH_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

struct target {
	const struct bench_config *cfg;
	const struct sock_fprog *layer; /* a daemon row's kernel layer, or NULL */
	const struct bench_settings *set;
	struct bench_shared *shm;
	long expected; /* what getppid must return */
	char path[320]; /* what a path call names */
	pthread_barrier_t barrier;
};

struct target_thread {
	struct target *t;
	unsigned int index;
	pthread_t tid;
};

size_t bench_shared_size(const struct bench_config *cfg, const struct bench_settings *set)
{
	size_t per = (size_t)set->batches * set->iterations;

	return sizeof(struct bench_shared) + (size_t)cfg->threads * per * sizeof(uint64_t);
}

int bench_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? negative_errno() : 0;
}

__attribute__((format(printf, 2, 3)))
static void target_fail(struct bench_shared *shm, const char *fmt, ...)
{
	int expected = 0;
	va_list ap;

	/* The first failure explains the run; later ones are consequences. */
	if (!atomic_compare_exchange_strong(&shm->failed, &expected, 1))
		return;
	va_start(ap, fmt);
	vsnprintf(shm->failure, sizeof(shm->failure), fmt, ap);
	va_end(ap);
}

static long target_futex(_Atomic uint32_t *word, int op, uint32_t val)
{
	/* Not FUTEX_PRIVATE: the word lives in memory shared with the parent process. */
	return syscall(SYS_futex, (uint32_t *)word, op, val, NULL, NULL, 0);
}

static int target_loop_syscall(struct target *t, unsigned int index, uint64_t *samples,
			       unsigned int n, uint64_t first)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t t0 = bench_now_ns();
		long r = syscall(SYS_getppid);
		uint64_t t1 = bench_now_ns();

		if (r != t->expected) {
			target_fail(t->shm,
				    "thread %u, call %" PRIu64 ": getppid returned %ld (%s), "
				    "expected %ld",
				    index, first + i, r, r < 0 ? strerror(errno) : "wrong value",
				    t->expected);
			return -EBADMSG;
		}
		if (samples)
			samples[i] = t1 - t0;
	}
	return 0;
}

/* One path call: its result, or -errno; an fd it opened is closed after the clock stopped. */
static long target_path_call(const struct target *t, struct stat *st, char *buf, size_t size)
{
	switch (t->cfg->call) {
	case BENCH_CALL_OPEN:
		return syscall(SYS_openat, AT_FDCWD, t->path, O_RDONLY | O_CLOEXEC);
	case BENCH_CALL_STAT:
		return syscall(SYS_newfstatat, AT_FDCWD, t->path, st, 0);
	case BENCH_CALL_ACCESS:
		return syscall(SYS_faccessat, AT_FDCWD, t->path, R_OK);
	case BENCH_CALL_READLINK:
		return syscall(SYS_readlinkat, AT_FDCWD, t->path, buf, size);
	default:
		return -1;
	}
}

/* NULL when r is what the call must give, else what went wrong. */
static const char *target_path_check(const struct target *t, long r, int err,
				     const struct stat *st, const char *buf)
{
	if (t->cfg->missing)
		return r == -1 && err == ENOENT ? NULL : "expected ENOENT";
	if (r < 0)
		return "expected success";
	switch (t->cfg->call) {
	case BENCH_CALL_STAT:
		return (size_t)st->st_size == strlen(BENCH_FILE_TEXT) ? NULL : "wrong st_size";
	case BENCH_CALL_ACCESS:
		return r == 0 ? NULL : "expected 0";
	case BENCH_CALL_READLINK:
		return (size_t)r == strlen(BENCH_LINK_TEXT) &&
		       memcmp(buf, BENCH_LINK_TEXT, (size_t)r) == 0 ? NULL : "wrong link text";
	default:
		return NULL;
	}
}

static int target_loop_path(struct target *t, unsigned int index, uint64_t *samples,
			    unsigned int n, uint64_t first)
{
	for (unsigned int i = 0; i < n; i++) {
		struct stat st = { 0 };
		char buf[64];
		uint64_t t0 = bench_now_ns();
		long r = target_path_call(t, &st, buf, sizeof(buf));
		int err = errno;
		uint64_t t1 = bench_now_ns();
		const char *wrong = target_path_check(t, r, err, &st, buf);

		if (t->cfg->call == BENCH_CALL_OPEN && r >= 0)
			close((int)r);
		if (wrong) {
			target_fail(t->shm, "thread %u, call %" PRIu64 ": %s %s returned %ld (%s): %s",
				    index, first + i, bench_call_syscall(t->cfg->call), t->path, r,
				    r < 0 ? strerror(err) : "ok", wrong);
			return -EBADMSG;
		}
		if (samples)
			samples[i] = t1 - t0;
	}
	return 0;
}

static int target_loop_futex(struct target *t, unsigned int index, uint64_t *samples,
			     unsigned int n, uint64_t first)
{
	struct bench_futex_slot *slot = &t->shm->slots[index];
	_Atomic int32_t *pending = &t->shm->futex_pending;

	for (unsigned int i = 0; i < n; i++) {
		uint64_t token = ((uint64_t)index << 40) | (first + i), reply;
		uint64_t t0 = bench_now_ns(), t1;

		atomic_store_explicit(&slot->value, token, memory_order_relaxed);
		atomic_store_explicit(&slot->state, 1, memory_order_release);
		/* The server sleeps only when it saw no request pending: wake it on 0 -> 1. */
		if (atomic_fetch_add(pending, 1) == 0)
			target_futex((_Atomic uint32_t *)pending, FUTEX_WAKE, 1);
		while (atomic_load_explicit(&slot->state, memory_order_acquire) != 2)
			target_futex(&slot->state, FUTEX_WAIT, 1);
		reply = atomic_load_explicit(&slot->value, memory_order_relaxed);
		atomic_store_explicit(&slot->state, 0, memory_order_relaxed);
		t1 = bench_now_ns();

		if (reply != (token ^ BENCH_FUTEX_MAGIC)) {
			target_fail(t->shm, "thread %u, call %" PRIu64 ": futex reply %#" PRIx64
				    ", expected %#" PRIx64, index, first + i, reply,
				    token ^ BENCH_FUTEX_MAGIC);
			return -EBADMSG;
		}
		if (samples)
			samples[i] = t1 - t0;
	}
	return 0;
}

static int target_calls(struct target *t, unsigned int index, uint64_t *samples, unsigned int n,
			uint64_t first)
{
	if (t->cfg->mode->target == BENCH_TARGET_FUTEX)
		return target_loop_futex(t, index, samples, n, first);
	if (t->cfg->call != BENCH_CALL_GETPPID)
		return target_loop_path(t, index, samples, n, first);
	return target_loop_syscall(t, index, samples, n, first);
}

/* A peer that does not answer every call (the daemon mode's parent) sleeps on the phase. */
static void target_set_phase(struct bench_shared *shm, enum bench_phase phase)
{
	atomic_store(&shm->phase, phase);
	target_futex((_Atomic uint32_t *)&shm->phase, FUTEX_WAKE, INT32_MAX);
}

/*
 * Another process's thread answers (the daemon mode): the parent counts it
 * from outside, and must be counting before the first measured call, or a
 * parent slow to wake on a loaded machine would count an empty window.
 * Bounded (5 s): a parent that never says so has given up on the run (its
 * row fails), and the target must not wait for it for ever.
 */
static void target_wait_counting(struct bench_shared *shm)
{
	uint64_t until = bench_now_ns() + 5000000000ULL;

	if (!shm->counted_outside)
		return;
	target_set_phase(shm, BENCH_PHASE_WARM);
	while (!atomic_load(&shm->counting) && bench_now_ns() < until) {
		struct timespec ts = { .tv_nsec = 50 * 1000000 };

		syscall(SYS_futex, (uint32_t *)&shm->counting, FUTEX_WAIT, 0, &ts, NULL, 0);
	}
}

static void target_add_counts(struct bench_shared *shm, const struct bench_counters *c,
			      const struct bench_counts *counts)
{
	atomic_fetch_add(&shm->migrations, counts->migrations);
	atomic_fetch_add(&shm->switches, counts->switches);
	atomic_store(&shm->counters_source, (int)c->source);
	atomic_store(&shm->has_migrations, counts->has_migrations);
}

static void target_update_end(struct bench_shared *shm, uint64_t end)
{
	uint64_t cur = atomic_load(&shm->t_end);

	while (cur < end && !atomic_compare_exchange_weak(&shm->t_end, &cur, end))
		;
}

static void *target_thread_main(void *arg)
{
	struct target_thread *tt = arg;
	struct target *t = tt->t;
	struct bench_shared *shm = t->shm;
	unsigned int n = t->set->iterations;
	size_t per = (size_t)t->set->batches * n;
	uint64_t *samples = shm->samples + tt->index * per;
	struct bench_counters counters;
	struct bench_counts counts;

	/* Fault our part of the shared mapping in now, not while measuring. */
	memset(samples, 0, per * sizeof(*samples));
	(void)target_calls(t, tt->index, NULL, t->set->warmup, 0);

	/*
	 * Every thread warm, its counters open (perf_event_open is slow the
	 * first time) before any measures; then one of them opens the window.
	 */
	bench_counters_start(&counters);
	if (pthread_barrier_wait(&t->barrier) == PTHREAD_BARRIER_SERIAL_THREAD) {
		target_wait_counting(shm);
		shm->t_start = bench_now_ns();
		target_set_phase(shm, BENCH_PHASE_MEASURE);
	}
	pthread_barrier_wait(&t->barrier);

	for (unsigned int b = 0; b < t->set->batches; b++) {
		if (atomic_load_explicit(&shm->failed, memory_order_relaxed))
			break;
		if (target_calls(t, tt->index, samples + (size_t)b * n, n,
				 t->set->warmup + (uint64_t)b * n) < 0)
			break;
	}
	target_update_end(shm, bench_now_ns());
	bench_counters_stop(&counters, &counts);
	target_add_counts(shm, &counters, &counts);
	return NULL;
}

/* A call the filter refuses with EPERM (the view-changing calls below). */
#define TARGET_REFUSE(name)                                                               \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_##name, VIEW_AT - VIEW_##name + 3, 0)

/*
 * Every target's filter, notified or not, also refuses what the implicit
 * rule set fixed-view refuses (chroot, pivot_root, the mount family,
 * unshare and setns; clone3, whose flags no filter reads, ENOSYS; clone
 * of a new mount or user namespace), as a policy with path rules does
 * under `unotify run`: the lib row may then keep what a target thread is
 * between its calls, as `unotify run` does. The measured call is matched
 * first: its cost does not change.
 */
enum {
	VIEW_chroot,
	VIEW_pivot_root,
	VIEW_mount,
	VIEW_umount2,
	VIEW_unshare,
	VIEW_setns,
	VIEW_open_tree,
	VIEW_move_mount,
	VIEW_fsopen,
	VIEW_fsmount,
	VIEW_fspick,
	VIEW_mount_setattr,
	VIEW_AT, /* the clone block (4 instructions: the + 3), then the EPERM */
};

/*
 * A notified target's filter notifies every credential change too
 * (lib/creds-calls.h), as a policy's kernel layer with fixed-view does: the
 * engine rows may then keep target state unproved, as `unotify run` does.
 * One jump each past the measured call; a kernel-allowed target allows them.
 */
#define TARGET_WATCHED 12
_Static_assert(TARGET_WATCHED == CREDS_CALLS_COUNT, "the filter watches what creds_call() lists");
#define TARGET_WATCH(name, i) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_##name, TARGET_WATCHED - (i), 0)

static int target_load_filter(enum bench_target_kind kind, int nr)
{
	const uint32_t creds = kind == BENCH_TARGET_NOTIFIED ? SECCOMP_RET_USER_NOTIF
							      : SECCOMP_RET_ALLOW;
	struct sock_filter insns[] = {
#ifdef BENCH_AUDIT_ARCH
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BENCH_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1),
		/* Same length either way: kernel-allowed pays the filter, not the hand-off. */
		BPF_STMT(BPF_RET | BPF_K, kind == BENCH_TARGET_NOTIFIED ? SECCOMP_RET_USER_NOTIF
									: SECCOMP_RET_ALLOW),
		TARGET_WATCH(setuid, 0),
		TARGET_WATCH(setgid, 1),
		TARGET_WATCH(setreuid, 2),
		TARGET_WATCH(setregid, 3),
		TARGET_WATCH(setresuid, 4),
		TARGET_WATCH(setresgid, 5),
		TARGET_WATCH(setfsuid, 6),
		TARGET_WATCH(setfsgid, 7),
		TARGET_WATCH(setgroups, 8),
		TARGET_WATCH(capset, 9),
		TARGET_WATCH(execve, 10),
		TARGET_WATCH(execveat, 11),
		BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, 1, 0, 0),
		BPF_STMT(BPF_RET | BPF_K, creds),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		TARGET_REFUSE(chroot),
		TARGET_REFUSE(pivot_root),
		TARGET_REFUSE(mount),
		TARGET_REFUSE(umount2),
		TARGET_REFUSE(unshare),
		TARGET_REFUSE(setns),
		TARGET_REFUSE(open_tree),
		TARGET_REFUSE(move_mount),
		TARGET_REFUSE(fsopen),
		TARGET_REFUSE(fsmount),
		TARGET_REFUSE(fspick),
		TARGET_REFUSE(mount_setattr),
		/*
		 * clone: flags in the low word of the first argument (x86_64
		 * and arm64, little-endian; s390 passes the stack first).
		 */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWNS | CLONE_NEWUSER, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM), /* the refused */
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(insns), .filter = insns };
	unsigned int flags = kind == BENCH_TARGET_NOTIFIED ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0;
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return negative_errno();
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	return fd < 0 ? negative_errno() : (int)fd;
}

int bench_send_fd(int sock, int fd)
{
	char byte = 'L';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} control;
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = control.buf,
		.msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	memset(&control, 0, sizeof(control));
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cmsg), &fd, sizeof(int));
	return sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 ? negative_errno() : 0;
}

/* A daemon row's target: the daemon's kernel layer, as `unotify run --daemon` loads it. */
static int target_load_layer(const struct sock_fprog *layer)
{
	long fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return negative_errno();
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, layer);
	return fd < 0 ? negative_errno() : (int)fd;
}

static int target_setup(struct target *t, int sock)
{
	enum bench_target_kind kind = t->cfg->mode->target;
	_cleanup_close_ int fd = -1;
	int r;

	if (kind != BENCH_TARGET_ALLOWED && kind != BENCH_TARGET_NOTIFIED)
		return 0;
	if (kind == BENCH_TARGET_NOTIFIED && t->layer)
		fd = target_load_layer(t->layer);
	else
		fd = target_load_filter(kind, bench_call_nr(t->cfg->call));
	if (fd < 0) {
		target_fail(t->shm, "cannot load the seccomp filter: %s", strerror(-fd));
		return fd;
	}
	if (kind == BENCH_TARGET_ALLOWED)
		return 0;
	if (t->cfg->call == BENCH_CALL_GETPPID)
		t->expected = BENCH_REPLY_VALUE;
	r = bench_send_fd(sock, fd);
	if (r < 0)
		target_fail(t->shm, "cannot send the listener: %s", strerror(-r));
	return r;
}

static int target_pin(const struct target *t)
{
	const struct bench_config *c = t->cfg;
	int cpu;

	if (c->pin == BENCH_PIN_FREE)
		return 0;
	/* Pinned apart, the target takes the second CPU and the supervisor the first. */
	cpu = c->pin == BENCH_PIN_DIFFERENT && (c->mode->flags & BENCH_MODE_PEER) ? t->set->cpu_b
										  : t->set->cpu_a;
	return bench_pin_self(cpu);
}

static int target_run_threads(struct target *t)
{
	struct target_thread threads[BENCH_THREADS_MAX];
	unsigned int started = 1;
	int r = 0;

	if (pthread_barrier_init(&t->barrier, NULL, t->cfg->threads) != 0)
		return -ENOMEM;
	for (unsigned int i = 0; i < t->cfg->threads; i++)
		threads[i] = (struct target_thread){ .t = t, .index = i };
	for (; started < t->cfg->threads; started++) {
		r = -pthread_create(&threads[started].tid, NULL, target_thread_main,
				    &threads[started]);
		if (r < 0) {
			/* The barrier would never open: nothing to do but leave. */
			target_fail(t->shm, "cannot start target thread %u: %s", started,
				    strerror(-r));
			_exit(1);
		}
	}
	target_thread_main(&threads[0]);
	for (unsigned int i = 1; i < started; i++)
		pthread_join(threads[i].tid, NULL);
	pthread_barrier_destroy(&t->barrier);
	return r;
}

int bench_target_main(const struct bench_config *cfg, const struct bench_settings *set,
		      const struct sock_fprog *layer, struct bench_shared *shm, int sock,
		      pid_t parent)
{
	struct target t = { .cfg = cfg, .layer = layer, .set = set, .shm = shm,
			    .expected = parent };
	char go;
	int r;

	bench_call_path(cfg, set, t.path, sizeof(t.path));
	/* Orphaned, a notified target would wait forever (or get ENOSYS): die with the parent. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
		return 1;
	r = target_pin(&t);
	if (r < 0) {
		target_fail(shm, "cannot pin the target: %s", strerror(-r));
		return 1;
	}
	/* A relative path starts from here: the supervisor must name this directory. */
	if (cfg->relative && chdir(set->files) < 0) {
		target_fail(shm, "cannot work in %s: %s", set->files, strerror(errno));
		return 1;
	}
	if (target_setup(&t, sock) < 0)
		return 1;
	if (read(sock, &go, 1) != 1)
		return 1; /* the parent gave up and said why */
	r = target_run_threads(&t);
	target_set_phase(shm, BENCH_PHASE_DONE);
	if (r < 0)
		return 1;
	return atomic_load(&shm->failed) ? 1 : 0;
}
