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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit-queue.h"
#include "audit-sink.h"
#include "lib/util.h"

#define AUDIT_QUEUE_SIZE (256 * 1024)

struct audit_queue {
	struct audit_sink *sink;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	char *active, *spare;
	size_t len;
	bool stop;
	pthread_t thread;
};

/* Takes what gathered; the lock is held on entry and on return. */
static void audit_queue_drain(struct audit_queue *q)
{
	char *full = q->active;
	size_t len = q->len;

	q->active = q->spare;
	q->spare = full;
	q->len = 0;
	pthread_mutex_unlock(&q->lock);
	audit_sink_write(q->sink, full, len);
	pthread_mutex_lock(&q->lock);
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

int audit_queue_start(struct audit_sink *sink, struct audit_queue **ret)
{
	struct audit_queue *q = calloc(1, sizeof(*q));
	int r;

	if (!q)
		return -ENOMEM;
	q->sink = sink;
	q->active = malloc(AUDIT_QUEUE_SIZE);
	q->spare = malloc(AUDIT_QUEUE_SIZE);
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->wake, NULL);
	r = q->active && q->spare ? audit_queue_spawn(q) : -ENOMEM;
	if (r < 0) {
		free(q->active);
		free(q->spare);
		free(q);
		return r;
	}
	*ret = q;
	return 0;
}

void audit_queue_push(struct audit_queue *q, const char *line, size_t len)
{
	pthread_mutex_lock(&q->lock);
	if (q->len + len > AUDIT_QUEUE_SIZE) {
		/* Full: this thread pays for the write rather than lose a record. */
		audit_sink_write(q->sink, q->active, q->len);
		q->len = 0;
	}
	if (len > AUDIT_QUEUE_SIZE) {
		audit_sink_write(q->sink, line, len);
	} else {
		if (q->len == 0)
			pthread_cond_signal(&q->wake);
		memcpy(q->active + q->len, line, len);
		q->len += len;
	}
	pthread_mutex_unlock(&q->lock);
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
	free(q->active);
	free(q->spare);
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->wake);
	free(q);
}
