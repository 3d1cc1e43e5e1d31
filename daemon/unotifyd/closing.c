/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Closing what a client gave us. The last close of a descriptor runs its
 * object's release in the closing thread, and some wait: a TCP socket with
 * SO_LINGER and unsent data waits up to its linger time (days, if the
 * client sets so), and closing a unix socket releases every descriptor
 * still queued on it, so the same wait hides behind a connection we never
 * read. A client that sent such a socket with SCM_RIGHTS and connected as
 * someone we refuse once stopped the main thread in close(): it accepted
 * no one, reloaded nothing, ignored SIGTERM and missed the watchdog.
 *
 * So:
 * - every such close runs with a timer of the closing thread's own
 *   (SIGEV_THREAD_ID) that sends it CLOSING_SIGNAL after CLOSING_FIRST_NS
 *   and every CLOSING_TICK_NS after: the linger wait ends at a signal,
 *   and the descriptor is closed whatever close() returns;
 * - the main thread closes no client's connection: its refusals go to
 *   CLOSING_THREADS closer threads, through a queue of CLOSING_QUEUE;
 *   while the queue is full the main thread accepts no one, and it still
 *   answers signals. Nor does it close the listening socket at shutdown
 *   (closing_apart): that close releases every connection still in its
 *   backlog, and whatever those carry;
 * - a close in a connection's thread counts as one more connection of
 *   its client (pending.c) while it lasts. A wait no signal ends (a FUSE
 *   server that never answers the flush of a file it sent, or the
 *   write-back its release makes: the kernel waits uninterruptibly)
 *   holds that thread and that share, so one client's stuck closes are
 *   bounded as its slow messages are. In a closer it holds the closer;
 *   CLOSING_THREADS of them, and accepting waits (SECURITY.md).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "closing.h"
#include "lib/util.h"
#include "log.h"
#include "protocol/protocol.h"

/*
 * A close of ours that waits longer is a client's doing; a refusal costs
 * the closer at most that, so a flood of refused lingering sockets is
 * closed faster than it can be made (a loopback connection with its send
 * buffer filled costs the client more).
 */
#define CLOSING_FIRST_NS 100000L
#define CLOSING_TICK_NS 20000000L /* and again, for a wait that began after the signal */
#define CLOSING_THREADS 4         /* a close that no signal ends holds one */
#define CLOSING_STACK (256 * 1024)

/* Closes of a client's in progress, in any thread: `unotify status` shows them. */
static atomic_uint closing_now;

/* The connection's client this thread closes for (closing_serve); none in other threads. */
static __thread struct daemon *closing_daemon;
static __thread struct pending_key closing_key;

struct closing_item {
	int fd;
	const char *reply;
};

/* The closer's queue: a ring under lock, filled by the main thread only. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t more, drained;
	struct closing_item ring[CLOSING_QUEUE];
	size_t head, count; /* waiting */
	unsigned int busy;  /* taken by a closer thread, not yet closed */
	unsigned int started; /* closer threads */
} closing_queue = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.more = PTHREAD_COND_INITIALIZER,
	.drained = PTHREAD_COND_INITIALIZER, /* on CLOCK_MONOTONIC from closing_start */
};

static void closing_on_signal(int sig)
{
	(void)sig;
}

int closing_init(void)
{
	struct sigaction sa = { .sa_handler = closing_on_signal };

	sigemptyset(&sa.sa_mask);
	return sigaction(CLOSING_SIGNAL, &sa, NULL) < 0 ? negative_errno() : 0;
}

void closing_serve(struct daemon *d, const struct pending_key *key)
{
	closing_daemon = d;
	closing_key = *key;
}

/* This thread's timer, armed: CLOSING_SIGNAL to this thread alone until deleted. */
static int closing_timer_start(timer_t *ret)
{
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = CLOSING_SIGNAL };
	struct itimerspec its = {
		.it_value = { .tv_nsec = CLOSING_FIRST_NS },
		.it_interval = { .tv_nsec = CLOSING_TICK_NS },
	};

	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* glibc 2.36 names no sigev_notify_thread_id */
	if (timer_create(CLOCK_MONOTONIC, &ev, ret) < 0)
		return negative_errno();
	if (timer_settime(*ret, 0, &its, NULL) < 0) {
		int r = negative_errno();

		timer_delete(*ret);
		return r;
	}
	return 0;
}

/* One more connection of this thread's client while it closes: true when counted. */
static bool closing_count(void)
{
	bool first;

	if (!closing_daemon)
		return false;
	atomic_fetch_add(&closing_daemon->pending, 1);
	if (pending_take(&closing_daemon->clients, &closing_key, false, &first) == 0)
		return true;
	atomic_fetch_sub(&closing_daemon->pending, 1);
	return false;
}

static void closing_uncount(bool counted)
{
	if (!counted)
		return;
	pending_release(&closing_daemon->clients, &closing_key);
	atomic_fetch_sub(&closing_daemon->pending, 1);
}

int closing_close(int fd)
{
	static atomic_bool warned;
	bool counted;
	timer_t timer;
	int r;

	if (fd < 0)
		return -1;
	counted = closing_count();
	atomic_fetch_add(&closing_now, 1);
	r = closing_timer_start(&timer);
	if (r < 0 && !atomic_exchange(&warned, true))
		log_warning("a timer for closing a client's descriptors: %s "
			    "(such a close may now wait as long as the client makes it)",
			    strerror(-r));
	fd = safe_close(fd);
	if (r == 0)
		timer_delete(timer);
	atomic_fetch_sub(&closing_now, 1);
	closing_uncount(counted);
	return fd;
}

unsigned int closing_in_progress(void)
{
	return atomic_load(&closing_now);
}

/* The oldest refusal, taken from the queue: busy until closing_done(). */
static void closing_next(struct closing_item *ret)
{
	pthread_mutex_lock(&closing_queue.lock);
	while (closing_queue.count == 0)
		pthread_cond_wait(&closing_queue.more, &closing_queue.lock);
	*ret = closing_queue.ring[closing_queue.head];
	closing_queue.head = (closing_queue.head + 1) % CLOSING_QUEUE;
	closing_queue.count--;
	closing_queue.busy++;
	pthread_mutex_unlock(&closing_queue.lock);
}

static void closing_done(void)
{
	pthread_mutex_lock(&closing_queue.lock);
	if (--closing_queue.busy == 0 && closing_queue.count == 0)
		pthread_cond_broadcast(&closing_queue.drained);
	pthread_mutex_unlock(&closing_queue.lock);
}

static void *closing_thread(void *arg)
{
	struct closing_item it;

	(void)arg;
	for (;;) {
		closing_next(&it);
		if (it.reply) {
			/* The answer is a courtesy: never wait for a client to make room. */
			(void)fcntl(it.fd, F_SETFL, O_NONBLOCK);
			proto_reply_error(it.fd, it.reply);
		}
		it.fd = closing_close(it.fd);
		closing_done();
	}
	return NULL; /* not reached: the process exit ends it */
}

static int closing_spawn(void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	pthread_t t;
	int r;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, CLOSING_STACK);
	r = -pthread_create(&t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return r;
}

int closing_start(void)
{
	pthread_condattr_t attr;
	int r = 0;

	/* closing_stop's deadline, on the clock no one sets. */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&closing_queue.drained, &attr);
	pthread_condattr_destroy(&attr);
	for (unsigned int i = 0; i < CLOSING_THREADS && r == 0; i++) {
		r = closing_spawn(closing_thread, NULL);
		if (r == 0)
			closing_queue.started++;
	}
	return closing_queue.started ? 0 : r;
}

static void *closing_apart_thread(void *arg)
{
	int fd = (int)(intptr_t)arg;

	fd = closing_close(fd);
	return NULL;
}

int closing_apart(int fd)
{
	if (fd >= 0 && closing_spawn(closing_apart_thread, (void *)(intptr_t)fd) < 0)
		fd = closing_close(fd);
	return -1;
}

bool closing_has_room(void)
{
	bool room;

	pthread_mutex_lock(&closing_queue.lock);
	room = closing_queue.count < CLOSING_QUEUE;
	pthread_mutex_unlock(&closing_queue.lock);
	return room;
}

void closing_hand_over(int *conn, const char *reply)
{
	size_t tail;

	pthread_mutex_lock(&closing_queue.lock);
	if (!closing_queue.started || closing_queue.count == CLOSING_QUEUE) {
		/* Not reached: the main thread checks for room before it accepts. */
		pthread_mutex_unlock(&closing_queue.lock);
		*conn = closing_close(*conn);
		return;
	}
	tail = (closing_queue.head + closing_queue.count) % CLOSING_QUEUE;
	closing_queue.ring[tail] = (struct closing_item){ .fd = *conn, .reply = reply };
	closing_queue.count++;
	pthread_cond_signal(&closing_queue.more);
	pthread_mutex_unlock(&closing_queue.lock);
	*conn = -1;
}

void closing_stop(int timeout_ms)
{
	struct timespec deadline;

	monotonic_deadline((uint64_t)timeout_ms * 1000000u, &deadline);
	pthread_mutex_lock(&closing_queue.lock);
	while (closing_queue.started && (closing_queue.count > 0 || closing_queue.busy > 0))
		if (pthread_cond_timedwait(&closing_queue.drained, &closing_queue.lock,
					   &deadline) == ETIMEDOUT)
			break;
	pthread_mutex_unlock(&closing_queue.lock);
}
