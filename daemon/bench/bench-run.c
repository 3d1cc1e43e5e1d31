/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One configuration, run `repeat` times with a fresh target each time: fork
 * the target, receive its listener, pin, let the mode's peer answer until
 * the target is done, and fold its samples into the result (every sample,
 * and the median of each batch).
 *
 * A watchdog (SIGALRM) kills a target that takes far too long, so a broken
 * supervisor makes the run fail instead of hanging the benchmark.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "lib/util.h"

static volatile sig_atomic_t bench_child_gone;
static volatile sig_atomic_t bench_timed_out;
static volatile pid_t bench_watched_pid;

static void bench_on_sigchld(int sig)
{
	bench_child_gone = 1;
}

static void bench_on_sigalrm(int sig)
{
	bench_timed_out = 1;
	if (bench_watched_pid > 0)
		kill(bench_watched_pid, SIGKILL);
}

bool bench_run_child_exited(void)
{
	return bench_child_gone || bench_timed_out;
}

struct bench_signals {
	struct sigaction chld;
	struct sigaction alrm;
};

static void bench_signals_install(struct bench_signals *saved)
{
	/* No SA_RESTART: a blocked futex wait must return when the target dies. */
	struct sigaction chld = { .sa_handler = bench_on_sigchld, .sa_flags = SA_NOCLDSTOP };
	struct sigaction alrm = { .sa_handler = bench_on_sigalrm };

	bench_child_gone = 0;
	bench_timed_out = 0;
	bench_watched_pid = 0;
	sigaction(SIGCHLD, &chld, &saved->chld);
	sigaction(SIGALRM, &alrm, &saved->alrm);
}

static void bench_signals_restore(const struct bench_signals *saved)
{
	alarm(0);
	bench_watched_pid = 0;
	sigaction(SIGCHLD, &saved->chld, NULL);
	sigaction(SIGALRM, &saved->alrm, NULL);
}

int bench_recv_fd(int sock, int *ret)
{
	char byte;
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
	struct cmsghdr *cmsg;
	ssize_t n;
	int fd;

	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return negative_errno();
	cmsg = CMSG_FIRSTHDR(&msg);
	if (n == 0 || !cmsg || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS ||
	    cmsg->cmsg_len != CMSG_LEN(sizeof(int)))
		return -EBADMSG;
	memcpy(&fd, CMSG_DATA(cmsg), sizeof(int));
	*ret = fd;
	return 0;
}

/* Generous: a run is killed only when something is broken, not when it is slow. */
static unsigned int bench_deadline_s(const struct bench_run *run)
{
	return 10 + (unsigned int)(run->calls_expected / 2000);
}

/* The parent's part while the target lives. */
static int bench_run_parent(struct bench_run *run, int sock)
{
	const struct bench_mode *m = run->cfg->mode;
	cpu_set_t saved;
	bool pinned = false;
	int r = 0;

	if (m->flags & BENCH_MODE_LISTENER) {
		r = bench_recv_fd(sock, &run->listener);
		if (r < 0)
			return r; /* the target says why in shm->failure */
	}
	if ((m->flags & BENCH_MODE_PEER) && run->cfg->pin != BENCH_PIN_FREE) {
		if (sched_getaffinity(0, sizeof(saved), &saved) < 0)
			return negative_errno();
		r = bench_pin_self(run->set->cpu_a);
		if (r < 0) {
			snprintf(run->error, sizeof(run->error), "cannot pin the supervisor: %s",
				 strerror(-r));
			return r;
		}
		pinned = true;
	}
	if (m->prepare)
		r = m->prepare(run);
	if (r >= 0) {
		alarm(bench_deadline_s(run));
		if (write(sock, "g", 1) != 1)
			r = negative_errno();
	}
	if (r >= 0 && m->supervise) {
		r = m->supervise(run);
		bench_run_tick_end(run);
	}
	if (pinned)
		sched_setaffinity(0, sizeof(saved), &saved);
	return r;
}

static int bench_wait_child(pid_t pid, int *ret_status)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return negative_errno();
	*ret_status = status;
	return 0;
}

/* Turns what happened into an error message; 0 when the run measured what it should. */
static int bench_run_verdict(struct bench_run *run, int r, int status, char *msg, size_t size)
{
	struct bench_shared *shm = run->shm;

	if (bench_timed_out) {
		snprintf(msg, size, "timed out after %u s: the target was killed",
			 bench_deadline_s(run));
		return -ETIMEDOUT;
	}
	if (atomic_load(&shm->failed)) {
		snprintf(msg, size, "%s", shm->failure);
		return -EBADMSG;
	}
	if (r < 0) {
		snprintf(msg, size, "%s", run->error[0] ? run->error : strerror(-r));
		return r;
	}
	if (WIFSIGNALED(status)) {
		snprintf(msg, size, "the target was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
		return -ECHILD;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(msg, size, "the target failed (exit status %d)", WEXITSTATUS(status));
		return -ECHILD;
	}
	return 0;
}

/* Every sample into res->samples, and each batch's median (over all threads) into batch_medians. */
static int bench_run_collect(struct bench_result *res, const struct bench_run *run)
{
	const struct bench_settings *set = run->set;
	const struct bench_shared *shm = run->shm;
	size_t per = (size_t)set->batches * set->iterations;
	struct latency_stats batch, run_batches;
	uint64_t median;
	int r = 0;

	latency_stats_init(&batch, 0);
	latency_stats_init(&run_batches, 0);
	for (unsigned int b = 0; b < set->batches && r >= 0; b++) {
		for (unsigned int t = 0; t < run->cfg->threads && r >= 0; t++) {
			const uint64_t *s = shm->samples + t * per + (size_t)b * set->iterations;

			for (unsigned int i = 0; i < set->iterations && r >= 0; i++) {
				r = latency_stats_add(&res->samples, s[i]);
				if (r >= 0)
					r = latency_stats_add(&batch, s[i]);
			}
		}
		median = latency_stats_percentile(&batch, 50);
		if (r >= 0)
			r = latency_stats_add(&res->batch_medians, median);
		if (r >= 0)
			r = latency_stats_add(&run_batches, median);
		latency_stats_done(&batch);
	}
	res->run_median[res->runs] = latency_stats_percentile(&run_batches, 50);
	latency_stats_done(&run_batches);
	res->calls += (uint64_t)run->cfg->threads * per;
	res->window_ns += shm->t_end - shm->t_start;
	res->target.migrations += shm->migrations;
	res->target.switches += shm->switches;
	res->target.has_migrations = shm->has_migrations;
	res->target_source = (enum bench_counter_source)shm->counters_source;
	if (run->cfg->mode->flags & BENCH_MODE_PEER) {
		res->peer.migrations += run->peer_counts.migrations;
		res->peer.switches += run->peer_counts.switches;
		res->peer.has_migrations = run->peer_counts.has_migrations;
		res->peer_source = run->counters.source;
	}
	return r;
}

static int bench_run_fork(struct bench_run *run, int *ret_sock)
{
	const struct bench_mode *m = run->cfg->mode;
	const struct sock_fprog *layer = m->row_layer ? m->row_layer(run->row_data) : NULL;
	int sv[2];
	pid_t parent = getpid(), pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return negative_errno();
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		sv[0] = safe_close(sv[0]);
		sv[1] = safe_close(sv[1]);
		return negative_errno();
	}
	if (pid == 0) {
		sv[0] = safe_close(sv[0]);
		_exit(bench_target_main(run->cfg, run->set, layer, run->shm, sv[1], parent));
	}
	sv[1] = safe_close(sv[1]);
	run->pid = pid;
	bench_watched_pid = pid;
	*ret_sock = sv[0];
	return 0;
}

static int bench_run_once(struct bench_result *res, const struct bench_config *cfg,
			  const struct bench_settings *set, void *row_data)
{
	size_t size = bench_shared_size(cfg, set);
	struct bench_run run = { .cfg = cfg, .set = set, .listener = -1, .row_data = row_data };
	struct bench_signals saved;
	_cleanup_close_ int sock = -1;
	int r, q, status = 0;

	run.calls_expected = (uint64_t)cfg->threads * (set->warmup + (uint64_t)set->batches *
								set->iterations);
	run.measured_calls = (uint64_t)cfg->threads * set->batches * set->iterations;
	run.shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (run.shm == MAP_FAILED) {
		snprintf(res->error, sizeof(res->error), "cannot map %zu bytes: %m", size);
		return negative_errno();
	}
	run.shm->counted_outside = cfg->mode->flags & BENCH_MODE_COUNTED_OUTSIDE;
	bench_signals_install(&saved);
	r = bench_run_fork(&run, &sock);
	if (r < 0) {
		snprintf(res->error, sizeof(res->error), "fork: %s", strerror(-r));
		goto out;
	}
	r = bench_run_parent(&run, sock);
	sock = safe_close(sock);
	if (r < 0)
		kill(run.pid, SIGKILL); /* it may be blocked in a call nobody will answer */
	q = bench_wait_child(run.pid, &status);
	if (r >= 0)
		r = q;
	r = bench_run_verdict(&run, r, status, res->error, sizeof(res->error));
	if (r >= 0) {
		r = bench_run_collect(res, &run);
		if (r < 0)
			snprintf(res->error, sizeof(res->error), "cannot keep the samples: %s",
				 strerror(-r));
	}
out:
	bench_signals_restore(&saved);
	closep(&run.listener);
	if (cfg->mode->cleanup)
		cfg->mode->cleanup(&run);
	munmap(run.shm, size);
	return r;
}

static void bench_result_finish(struct bench_result *res)
{
	uint64_t p25, p75;

	latency_stats_summarize(&res->samples, &res->summary);
	res->median = latency_stats_percentile(&res->batch_medians, 50);
	p25 = latency_stats_percentile(&res->batch_medians, 25);
	p75 = latency_stats_percentile(&res->batch_medians, 75);
	res->spread = res->median ? (double)(p75 - p25) / (double)res->median : 0.0;
	if (latency_stats_histogram(&res->samples, &res->hist, &res->hist_n) < 0)
		res->hist_n = 0;
}

void bench_result_run_once(struct bench_result *res, const struct bench_settings *set)
{
	int r;

	if (res->status != BENCH_OK)
		return;
	r = bench_run_once(res, &res->cfg, set, res->row_data);
	if (r < 0) {
		res->status = r == -EOPNOTSUPP ? BENCH_UNSUPPORTED : BENCH_FAILED;
		return;
	}
	res->runs++;
}

void bench_result_start(struct bench_result *res, const struct bench_config *cfg,
			const struct bench_settings *set)
{
	int r;

	memset(res, 0, sizeof(*res));
	res->cfg = *cfg;
	bench_config_label(cfg, res->label, sizeof(res->label));
	latency_stats_init(&res->samples, 0);
	latency_stats_init(&res->batch_medians, 0);

	if (cfg->mode->unavailable) {
		res->status = BENCH_UNSUPPORTED;
		snprintf(res->error, sizeof(res->error), "%s", cfg->mode->unavailable);
		return;
	}
	res->run_median = calloc(set->repeat, sizeof(*res->run_median));
	if (!res->run_median) {
		res->status = BENCH_FAILED;
		snprintf(res->error, sizeof(res->error), "out of memory");
		return;
	}
	if (cfg->pin == BENCH_PIN_DIFFERENT && (cfg->mode->flags & BENCH_MODE_PEER) &&
	    set->cpu_b < 0) {
		res->status = BENCH_UNSUPPORTED;
		snprintf(res->error, sizeof(res->error), "pinning apart needs two usable CPUs");
		return;
	}
	if (cfg->mode->row_start) {
		r = cfg->mode->row_start(cfg, set, &res->row_data, res->error, sizeof(res->error));
		if (r < 0)
			res->status = r == -EOPNOTSUPP ? BENCH_UNSUPPORTED : BENCH_FAILED;
		res->row_started = r >= 0;
	}
}

void bench_result_end(struct bench_result *res)
{
	if (res->status == BENCH_OK)
		bench_result_finish(res);
	if (res->row_started && res->cfg.mode->row_stop)
		res->cfg.mode->row_stop(res->row_data);
	res->row_started = false;
	res->row_data = NULL;
}

static int bench_ratio_compare(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double bench_result_ratio(const struct bench_result *res, const struct bench_result *f)
{
	unsigned int n = res->runs < f->runs ? res->runs : f->runs, k = 0;
	double ratio[BENCH_REPEAT_MAX];

	for (unsigned int i = 0; i < n && i < BENCH_REPEAT_MAX; i++)
		if (f->run_median[i])
			ratio[k++] = (double)res->run_median[i] / (double)f->run_median[i];
	if (k == 0)
		return 0.0;
	qsort(ratio, k, sizeof(*ratio), bench_ratio_compare);
	return k % 2 ? ratio[k / 2] : (ratio[k / 2 - 1] + ratio[k / 2]) / 2.0;
}

void bench_result_done(struct bench_result *res)
{
	free(res->run_median);
	res->run_median = NULL;
	latency_stats_done(&res->samples);
	latency_stats_done(&res->batch_medians);
	free(res->hist);
	res->hist = NULL;
	res->hist_n = 0;
}
