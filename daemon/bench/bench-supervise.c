/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parent's side of each mode: the bare RECV/SEND loop (the floor, no
 * library, with a choice of how it waits), libunotify's own loop, and the
 * futex server of the RPC baseline.
 */
#include "config.h"

#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "audit/audit.h"
#include "bench.h"
#include "engine/enforce.h"
#include "engine/policy-env.h"
#include "floor.h"
#include "lib/uapi.h"
#include "lib/unotify.h"
#include "lib/util.h"

void bench_run_tick(struct bench_run *run)
{
	if (run->counter_state == 1) {
		if (++run->counted >= run->measured_calls) {
			bench_counters_stop(&run->counters, &run->peer_counts);
			run->counter_state = 2;
		}
		return;
	}
	/* One relaxed load per call until the target opens its measured window. */
	if (run->counter_state == 0 &&
	    atomic_load_explicit(&run->shm->phase, memory_order_relaxed) == BENCH_PHASE_MEASURE) {
		bench_counters_start(&run->counters);
		run->counter_state = 1;
		run->counted = 1;
	}
}

void bench_run_tick_end(struct bench_run *run)
{
	if (run->counter_state != 1)
		return;
	bench_counters_stop(&run->counters, &run->peer_counts);
	run->counter_state = 2;
}

/* ---------------------------------------------------------------- bare */

enum { BARE_DONE = 0, BARE_READY = 1, BARE_EMPTY = 2 };

struct bare {
	int fd;
	int epfd;
	enum bench_wait wait;
	uint64_t spin_ns;
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size;
	size_t resp_size;
};

int bench_bare_prepare(struct bench_run *run)
{
	/* By value, not by pointer (the kernel takes the flag itself). Off is the default. */
	if (run->cfg->sync != 1)
		return 0;
	if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		  (unsigned long)SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0) == 0)
		return 0;
	if (errno == EINVAL || errno == ENOTTY) {
		snprintf(run->error, sizeof(run->error),
			 "this kernel has no SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux 6.6+)");
		return -EOPNOTSUPP;
	}
	snprintf(run->error, sizeof(run->error), "SECCOMP_IOCTL_NOTIF_SET_FLAGS: %s",
		 strerror(errno));
	return negative_errno();
}

/* timeout 0: look once; -1: wait. */
static int bare_poll(int fd, int timeout)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (;;) {
		int r = poll(&p, 1, timeout);

		if (r < 0) {
			if (errno == EINTR && timeout != 0)
				continue;
			return errno == EINTR ? BARE_EMPTY : negative_errno();
		}
		if (r == 0)
			return BARE_EMPTY;
		if (p.revents & POLLIN)
			return BARE_READY;
		if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
			return BARE_DONE;
	}
}

static int bare_epoll(struct bare *b)
{
	struct epoll_event ev;

	for (;;) {
		int r = epoll_wait(b->epfd, &ev, 1, -1);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return negative_errno();
		}
		if (r == 0)
			continue;
		if (ev.events & EPOLLIN)
			return BARE_READY;
		if (ev.events & (EPOLLHUP | EPOLLERR))
			return BARE_DONE;
	}
}

/*
 * Adaptive wait: look without sleeping until the budget is spent, then block
 * in RECV (which keeps the same-CPU hint for the wake-up that follows).
 */
static int bare_spin(struct bare *b)
{
	uint64_t deadline = bench_now_ns() + b->spin_ns;

	do {
		int r = bare_poll(b->fd, 0);

		if (r != BARE_EMPTY)
			return r;
	} while (bench_now_ns() < deadline);
	return BARE_READY;
}

/* BARE_READY: go and RECV (it may block); BARE_DONE: no task uses the filter. */
static int bare_wait(struct bare *b)
{
	switch (b->wait) {
	case BENCH_WAIT_POLL:
		return bare_poll(b->fd, -1);
	case BENCH_WAIT_EPOLL:
		return bare_epoll(b);
	case BENCH_WAIT_SPIN:
		return bare_spin(b);
	default:
		return BARE_READY;
	}
}

static int bare_setup(struct bare *b, struct bench_run *run)
{
	struct seccomp_notif_sizes sizes = { 0 };

	*b = (struct bare){
		.fd = run->listener,
		.epfd = -1,
		.wait = run->cfg->wait,
		.spin_ns = (uint64_t)run->set->spin_us * 1000,
	};
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return negative_errno();
	b->req_size = sizes.seccomp_notif > sizeof(*b->req) ? sizes.seccomp_notif : sizeof(*b->req);
	b->resp_size = sizes.seccomp_notif_resp > sizeof(*b->resp) ? sizes.seccomp_notif_resp
								    : sizeof(*b->resp);
	b->req = calloc(1, b->req_size);
	b->resp = calloc(1, b->resp_size);
	if (!b->req || !b->resp)
		return -ENOMEM;
	if (b->wait == BENCH_WAIT_EPOLL) {
		struct epoll_event ev = { .events = EPOLLIN, .data.fd = b->fd };

		b->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (b->epfd < 0 || epoll_ctl(b->epfd, EPOLL_CTL_ADD, b->fd, &ev) < 0)
			return negative_errno();
	}
	return 0;
}

static int bare_loop(struct bare *b, struct bench_run *run)
{
	for (;;) {
		int r = bare_wait(b);

		if (r <= 0)
			return r;
		memset(b->req, 0, b->req_size); /* RECV wants a zeroed buffer */
		if (ioctl(b->fd, SECCOMP_IOCTL_NOTIF_RECV, b->req) < 0) {
			if (errno == EINTR)
				continue;
			/* The target was interrupted, or is gone: POLLHUP tells which. */
			if (errno == ENOENT) {
				if (bare_poll(b->fd, 0) == BARE_DONE)
					return 0;
				continue;
			}
			return negative_errno();
		}
		memset(b->resp, 0, b->resp_size);
		b->resp->id = b->req->id;
		b->resp->val = BENCH_REPLY_VALUE;
		if (ioctl(b->fd, SECCOMP_IOCTL_NOTIF_SEND, b->resp) < 0 && errno != ENOENT)
			return negative_errno();
		bench_run_tick(run);
	}
}

int bench_bare_supervise(struct bench_run *run)
{
	struct bare b;
	int r;

	if (run->cfg->call != BENCH_CALL_GETPPID)
		return bench_floor_supervise(run);

	r = bare_setup(&b, run);
	if (r >= 0)
		r = bare_loop(&b, run);
	if (r < 0)
		snprintf(run->error, sizeof(run->error), "bare supervisor: %s", strerror(-r));
	free(b.req);
	free(b.resp);
	closep(&b.epfd);
	return r;
}

/* ---------------------------------------------------------------- the safe-supervisor floor */

static void *bench_floor_extra(void *arg)
{
	(void)floor_serve(arg, NULL);
	return NULL;
}

/*
 * floor_serve with a tick per answer: the floor's own loop, counted. The
 * herd's second receiver and the workers answer without ticks: for those
 * modes the supervisor-side counters see this thread only.
 */
int bench_floor_supervise(struct bench_run *run)
{
	const struct bench_mode *m = run->cfg->mode;
	struct floor f = { .root = -1 };
	_cleanup_free_ void *req = NULL;
	_cleanup_free_ void *resp = NULL;
	pthread_t extra;
	bool have_extra = false;
	int r;

	r = floor_init(&f, run->listener, m->floor_flags, NULL);
	if (r >= 0 && m->floor_workers) {
		r = floor_serve_workers(&f, m->floor_workers);
		floor_done(&f);
		return r;
	}
	if (r >= 0 && m->floor_receivers > 1)
		have_extra = pthread_create(&extra, NULL, bench_floor_extra, &f) == 0;
	if (r >= 0) {
		req = calloc(1, f.req_size);
		resp = calloc(1, f.resp_size);
		r = req && resp ? 0 : -ENOMEM;
	}
	while (r >= 0) {
		memset(req, 0, f.req_size);
		if (ioctl(f.listener, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOENT && bare_poll(f.listener, 0) == BARE_DONE)
				break;
			r = errno == ENOENT ? 0 : negative_errno();
			continue;
		}
		r = floor_answer(&f, req, resp);
		bench_run_tick(run);
	}
	if (have_extra)
		pthread_join(extra, NULL);
	floor_done(&f);
	if (r < 0)
		snprintf(run->error, sizeof(run->error), "floor supervisor: %s", strerror(-r));
	return r;
}

/* ---------------------------------------------------------------- lib */

void bench_policy_text(const struct bench_config *cfg, char *buf, size_t size)
{
	if (cfg->call == BENCH_CALL_GETPPID)
		snprintf(buf, size, "return getppid %d\ndefault allow\n", BENCH_REPLY_VALUE);
	else
		/* A path rule that does not match: every call is decided on its path, allowed. */
		snprintf(buf, size, "deny %s path=/etc/shadow\ndefault allow\n",
			 bench_call_syscall(cfg->call));
}

/*
 * The engine as `unotify run` sets it up: its policy, its audit trail (here
 * /dev/null) at --log-level, written by its thread.
 */
struct bench_engine {
	unotify_listener *listener;
	struct policy *policy;
	struct audit *audit;
	struct enforcer enforcer;
};

static int bench_engine_policy(const struct bench_config *cfg, struct policy **ret)
{
	struct policy_diags diags = { 0 };
	struct policy_env env;
	struct policy *p = policy_new();
	char text[256];
	int r;

	if (!p)
		return -ENOMEM;
	if (policy_env_of_self(&env) == 0)
		policy_set_env(p, &env);
	bench_policy_text(cfg, text, sizeof(text));
	r = policy_parse_text(p, "bench", text, &diags);
	if (r >= 0)
		r = policy_finish(p, &diags);
	if (r >= 0 && diags.errors > 0)
		r = -EINVAL;
	policy_diags_free(&diags);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*ret = p;
	return 0;
}

int bench_engine_prepare(struct bench_run *run)
{
	struct bench_engine *e = calloc(1, sizeof(*e));
	int r;

	if (!e)
		return -ENOMEM;
	run->mode_data = e;
	/* The budget run keeps by default: what a user's run pays for it. */
	audit_limit_init(&e->enforcer.audit_limit);
	r = unotify_listener_new(TAKE_FD(run->listener), &e->listener);
	/* The targets' filter notifies every credential change (bench-target.c), as run's does. */
	if (r >= 0)
		r = unotify_listener_watch_creds(e->listener);
	if (r >= 0)
		r = unotify_listener_set_sync(e->listener, run->cfg->sync == 1);
	if (r == -EOPNOTSUPP && run->cfg->sync != 1)
		r = 0;
	if (r >= 0)
		r = bench_engine_policy(run->cfg, &e->policy);
	if (r >= 0)
		r = audit_open("/dev/null", AUDIT_TEXT, &e->audit);
	/* The run mode records what `unotify run --log-level` would, through the writer thread. */
	if (r >= 0 && run->cfg->mode->lib_threads) {
		audit_set_level(e->audit, run->set->log_level);
		if (run->set->log_level != AUDIT_LEVEL_NONE)
			r = audit_set_async(e->audit);
	}
	if (r >= 0)
		r = unotify_thread_init();
	if (r < 0) {
		snprintf(run->error, sizeof(run->error), "cannot set up the engine: %s",
			 strerror(-r));
		return r;
	}
	e->enforcer.policy = e->policy;
	e->enforcer.audit = e->audit;
	/* The targets' filter refuses what fixed-view refuses (bench-target.c), as run's does. */
	e->enforcer.filter_is_policy = true;
	return 0;
}

static int bench_engine_decide(unotify_listener *l, const struct seccomp_notif *req,
			       struct unotify_verdict *ret, void *userdata)
{
	struct bench_run *run = userdata;
	struct bench_engine *e = run->mode_data;

	bench_run_tick(run);
	return enforce_decide(l, req, ret, &e->enforcer);
}

int bench_engine_supervise(struct bench_run *run)
{
	struct bench_engine *e = run->mode_data;
	const struct unotify_loop_ops ops = {
		.decide = bench_engine_decide,
		.userdata = run,
		.threads = run->cfg->mode->lib_threads,
	};
	int r;

	r = unotify_supervise(e->listener, &ops, NULL);
	if (r < 0)
		snprintf(run->error, sizeof(run->error), "unotify_supervise: %s", strerror(-r));
	return r;
}

void bench_engine_cleanup(struct bench_run *run)
{
	struct bench_engine *e = run->mode_data;

	if (!e)
		return;
	unotify_listener_free(e->listener);
	audit_limit_end(e->audit, &e->enforcer.audit_limit, NULL);
	audit_close(e->audit, NULL);
	policy_free(e->policy);
	free(e);
	run->mode_data = NULL;
}

int bench_lib_prepare(struct bench_run *run)
{
	unotify_listener *l;
	int r;

	if (run->cfg->call != BENCH_CALL_GETPPID)
		return bench_engine_prepare(run);

	r = unotify_listener_new(TAKE_FD(run->listener), &l);
	if (r < 0) {
		snprintf(run->error, sizeof(run->error), "unotify_listener_new: %s", strerror(-r));
		return r;
	}
	run->mode_data = l;
	r = unotify_listener_set_sync(l, run->cfg->sync == 1);
	if (r == -EOPNOTSUPP && run->cfg->sync == 1)
		snprintf(run->error, sizeof(run->error),
			 "this kernel has no SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux 6.6+)");
	else if (r < 0 && r != -EOPNOTSUPP)
		snprintf(run->error, sizeof(run->error), "unotify_listener_set_sync: %s",
			 strerror(-r));
	else
		r = 0;
	return r;
}

static int bench_lib_decide(unotify_listener *l, const struct seccomp_notif *req,
			    struct unotify_verdict *ret, void *userdata)
{
	bench_run_tick(userdata);
	*ret = unotify_verdict_value(BENCH_REPLY_VALUE);
	return 0;
}

int bench_lib_supervise(struct bench_run *run)
{
	const struct unotify_loop_ops ops = { .decide = bench_lib_decide, .userdata = run };
	int r;

	if (run->cfg->call != BENCH_CALL_GETPPID)
		return bench_engine_supervise(run);

	r = unotify_supervise(run->mode_data, &ops, NULL);
	if (r < 0)
		snprintf(run->error, sizeof(run->error), "unotify_supervise: %s", strerror(-r));
	return r;
}

void bench_lib_cleanup(struct bench_run *run)
{
	if (run->cfg->call != BENCH_CALL_GETPPID)
		return bench_engine_cleanup(run);
	unotify_listener_free(run->mode_data);
	run->mode_data = NULL;
}

/* ---------------------------------------------------------------- futex */

static long futex_call(void *word, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)word, op, val, NULL, NULL, 0);
}

/* Answers every posted request; 1 when one was served. */
static unsigned int futex_serve(struct bench_run *run)
{
	struct bench_shared *shm = run->shm;
	unsigned int served = 0;

	for (unsigned int i = 0; i < run->cfg->threads; i++) {
		struct bench_futex_slot *slot = &shm->slots[i];
		uint64_t v;

		if (atomic_load_explicit(&slot->state, memory_order_acquire) != 1)
			continue;
		v = atomic_load_explicit(&slot->value, memory_order_relaxed);
		atomic_store_explicit(&slot->value, v ^ BENCH_FUTEX_MAGIC, memory_order_relaxed);
		atomic_store_explicit(&slot->state, 2, memory_order_release);
		/* Always a wake, as SEND always completes: the baseline pays what seccomp pays. */
		futex_call(&slot->state, FUTEX_WAKE, 1);
		atomic_fetch_sub(&shm->futex_pending, 1);
		bench_run_tick(run);
		served++;
	}
	return served;
}

int bench_futex_supervise(struct bench_run *run)
{
	struct bench_shared *shm = run->shm;
	uint64_t served = 0;

	while (served < run->calls_expected) {
		int32_t pending = atomic_load(&shm->futex_pending);

		if (pending > 0) {
			served += futex_serve(run);
			continue;
		}
		/* A dead target posts nothing more: SIGCHLD (or the watchdog) interrupts us. */
		if (bench_run_child_exited())
			break;
		futex_call(&shm->futex_pending, FUTEX_WAIT, (uint32_t)pending);
	}
	return 0;
}
