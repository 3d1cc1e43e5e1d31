/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two buffers: supervising threads append to the active one under a mutex
 * (uncontended: no syscall), the writer swaps it with its empty one and
 * writes outside the lock. The writer is woken once per batch, when the
 * active buffer goes from empty to not empty, then waits a few milliseconds
 * so that a busy sandbox's records leave in one write.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit-queue.h"
#include "audit-sink.h"
#include "lib/util.h"

#define AUDIT_QUEUE_SIZE (256 * 1024)
/* Rendered lines gather here, written when the next line might not fit. */
#define AUDIT_QUEUE_OUT (AUDIT_QUEUE_SIZE + AUDIT_QUEUE_LINE_MAX)
/* Each entry: its length, then its bytes, each part 8-byte aligned. */
#define AUDIT_QUEUE_ALIGN(n) (((n) + 7) & ~(size_t)7)
#define AUDIT_QUEUE_HEAD AUDIT_QUEUE_ALIGN(sizeof(size_t))
#define AUDIT_QUEUE_PREFETCH 256 /* a typical record's entry: four cache lines */
_Static_assert(AUDIT_QUEUE_HEAD + AUDIT_QUEUE_ALIGN(AUDIT_QUEUE_ENTRY_MAX) <= AUDIT_QUEUE_SIZE,
	       "an entry always fits in an empty buffer");

struct audit_queue {
	struct audit_sink *sink;
	audit_render_fn render;
	void *userdata;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	char *active, *spare;
	size_t len;
	size_t reserved;   /* by the thread holding the lock between reserve and commit */
	char *out_writer;  /* the writer's lines */
	char *out_pusher;  /* a full buffer's lines, rendered by a pusher under the lock */
	bool stop;
	bool writing;      /* the writer renders a batch outside the lock */
	pthread_cond_t written;
	pthread_t thread;
};

/* Renders the entries of buf (len bytes) into out, writing as it fills. */
static void audit_queue_flush(struct audit_queue *q, const char *buf, size_t len, char *out)
{
	size_t used = 0;

	for (size_t at = 0; at < len;) {
		size_t n;

		memcpy(&n, buf + at, sizeof(n));
		if (AUDIT_QUEUE_OUT - used < AUDIT_QUEUE_LINE_MAX) {
			audit_sink_write(q->sink, out, used);
			used = 0;
		}
		used += q->render(q->userdata, buf + at + AUDIT_QUEUE_HEAD, n, out + used,
				  AUDIT_QUEUE_OUT - used);
		at += AUDIT_QUEUE_HEAD + AUDIT_QUEUE_ALIGN(n);
	}
	if (used)
		audit_sink_write(q->sink, out, used);
}

/* Takes what gathered; the lock is held on entry and on return. */
static void audit_queue_drain(struct audit_queue *q)
{
	char *full = q->active;
	size_t len = q->len;

	q->active = q->spare;
	q->spare = full;
	q->len = 0;
	q->writing = true;
	pthread_mutex_unlock(&q->lock);
	audit_queue_flush(q, full, len, q->out_writer);
	pthread_mutex_lock(&q->lock);
	q->writing = false;
	pthread_cond_broadcast(&q->written);
}

static void audit_queue_pause(void)
{
	struct timespec ts = { 0, AUDIT_QUEUE_DELAY_MS * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void *audit_queue_main(void *userdata)
{
	struct audit_queue *q = userdata;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		while (q->len == 0 && !q->stop)
			pthread_cond_wait(&q->wake, &q->lock);
		if (q->len == 0 && q->stop)
			break;
		if (!q->stop) {
			pthread_mutex_unlock(&q->lock);
			audit_queue_pause();
			pthread_mutex_lock(&q->lock);
		}
		audit_queue_drain(q);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

/* The writer takes no signals: they belong to whoever handles them (unotifyd's main loop). */
static int audit_queue_spawn(struct audit_queue *q)
{
	sigset_t all, saved;
	int r;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &saved);
	r = -pthread_create(&q->thread, NULL, audit_queue_main, q);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	return r;
}

static void audit_queue_free(struct audit_queue *q)
{
	free(q->active);
	free(q->spare);
	free(q->out_writer);
	free(q->out_pusher);
	free(q);
}

int audit_queue_start(struct audit_sink *sink, audit_render_fn render, void *userdata,
		      struct audit_queue **ret)
{
	struct audit_queue *q = calloc(1, sizeof(*q));
	int r;

	if (!q)
		return -ENOMEM;
	q->sink = sink;
	q->render = render;
	q->userdata = userdata;
	q->active = malloc(AUDIT_QUEUE_SIZE);
	q->spare = malloc(AUDIT_QUEUE_SIZE);
	q->out_writer = malloc(AUDIT_QUEUE_OUT);
	q->out_pusher = malloc(AUDIT_QUEUE_OUT);
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->wake, NULL);
	pthread_cond_init(&q->written, NULL);
	r = q->active && q->spare && q->out_writer && q->out_pusher ? audit_queue_spawn(q)
								     : -ENOMEM;
	if (r < 0) {
		pthread_mutex_destroy(&q->lock);
		pthread_cond_destroy(&q->wake);
		pthread_cond_destroy(&q->written);
		audit_queue_free(q);
		return r;
	}
	*ret = q;
	return 0;
}

/*
 * Room for an entry of len bytes (at most AUDIT_QUEUE_ENTRY_MAX), written
 * in place: no copy on the caller's stack first. The lock is held until
 * audit_queue_commit.
 */
void *audit_queue_reserve(struct audit_queue *q, size_t len)
{
	size_t need = AUDIT_QUEUE_HEAD + AUDIT_QUEUE_ALIGN(len);

	pthread_mutex_lock(&q->lock);
	if (q->len + need > AUDIT_QUEUE_SIZE) {
		/* Full: this thread pays for the write rather than lose a record. */
		audit_queue_flush(q, q->active, q->len, q->out_pusher);
		q->len = 0;
	}
	if (q->len == 0)
		pthread_cond_signal(&q->wake);
	memcpy(q->active + q->len, &len, sizeof(len));
	q->reserved = need;
	return q->active + q->len + AUDIT_QUEUE_HEAD;
}

/*
 * The next entry's lines were last read by the writer, on another CPU:
 * asked for now, for writing, they arrive while the supervisor waits for
 * its next call instead of stalling the next record.
 *
 * Always inlined: gcc counts a prefetch as no side effect, so it finds a
 * separate function that only prefetches pure, and drops every call to it
 * (gcc 12 at -O2 did: no prefetch was left in the binary).
 */
static inline __attribute__((always_inline)) void audit_queue_prefetch(const struct audit_queue *q)
{
	if (q->len + AUDIT_QUEUE_PREFETCH > AUDIT_QUEUE_SIZE)
		return;
	for (size_t at = 0; at < AUDIT_QUEUE_PREFETCH; at += 64)
		__builtin_prefetch(q->active + q->len + at, 1, 3);
}

void audit_queue_commit(struct audit_queue *q)
{
	q->len += q->reserved;
	audit_queue_prefetch(q);
	pthread_mutex_unlock(&q->lock);
}

void audit_queue_push(struct audit_queue *q, const void *entry, size_t len)
{
	memcpy(audit_queue_reserve(q, len), entry, len);
	audit_queue_commit(q);
}

void audit_queue_stop(struct audit_queue *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->wake);
	pthread_cond_destroy(&q->written);
	audit_queue_free(q);
}

void audit_queue_sync(struct audit_queue *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	while (q->writing)
		pthread_cond_wait(&q->written, &q->lock);
	audit_queue_flush(q, q->active, q->len, q->out_pusher);
	q->len = 0;
	pthread_mutex_unlock(&q->lock);
}
