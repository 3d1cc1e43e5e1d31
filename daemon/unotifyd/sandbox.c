/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sandbox = one listener = one thread blocking in SECCOMP_IOCTL_NOTIF_RECV
 * at a time, and up to --sandbox-threads threads deciding.
 *
 * With SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP the target's notification wakes the
 * thread that sleeps in RECV on the target's CPU, and the reply from that same
 * thread wakes the target back there: the pair ping-pongs on one CPU. So the
 * receiving thread answers each call itself; only a call that blocks (a
 * FIFO's open, a connect, anything that takes a whole tick of the library's
 * watchdog) is finished by its thread while another receives (lib/pool.c,
 * docs/DAEMON.md). This thread (the connection's) is the first receiver and
 * lives as long as the sandbox: unotify_supervise returns once no task uses
 * the filter (POLLHUP) and every other thread is joined, and everything is
 * released here. Shared by the sandbox's threads: the enforcer (atomic
 * counters, the policy read-only, the audit trail's own locking) and the
 * latency histogram (atomic adds).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kcmp.h>

#include <json-c/json.h>

#include "lib/util.h"
#include "closing.h"
#include "log.h"
#include "protocol/oci-state.h"
#include "protocol/protocol.h"
#include "engine/enforce.h"
#include "sandbox.h"

/*
 * Round-trip histogram: exact below 16 ns, then 8 buckets per power of two
 * (within 6%) up to 2^40 ns; 1.2 KiB per sandbox whatever its lifetime.
 */
#define LAT_SUB 8
#define LAT_LINEAR 16
#define LAT_MAX_EXP 40
#define LAT_BUCKETS (LAT_LINEAR + (LAT_MAX_EXP - 4 + 1) * LAT_SUB)

struct latency {
	_Atomic uint32_t buckets[LAT_BUCKETS];
	atomic_ullong count;
};

struct sandbox {
	struct sandbox *next, *prev;
	uint64_t serial;
	char *id;
	char *id_shown; /* id as the log shows it: escaped (log_escape), whatever it holds */
	int listener_fd; /* borrowed from its listener, open while the sandbox is linked */
	pid_t pid;
	uid_t registrant; /* the client's uid: `status` shows it the sandbox */
	char *policy_name;
	char *fail_reason;
	bool sync;
	uint64_t started_ns;
	struct enforcer enforcer;
	struct latency latency;
};

static size_t latency_index(uint64_t ns)
{
	int e;
	size_t i;

	if (ns < LAT_LINEAR)
		return ns;
	e = 63 - __builtin_clzll(ns);
	i = LAT_LINEAR + (size_t)(e - 4) * LAT_SUB + ((ns >> (e - 3)) & (LAT_SUB - 1));
	return i < LAT_BUCKETS ? i : LAT_BUCKETS - 1;
}

static uint64_t latency_value(size_t i)
{
	int e;
	uint64_t low, width;

	if (i < LAT_LINEAR)
		return i;
	e = 4 + (int)((i - LAT_LINEAR) / LAT_SUB);
	width = 1ULL << (e - 3);
	low = (LAT_SUB + (i - LAT_LINEAR) % LAT_SUB) * width;
	return low + width / 2;
}

/* The sandbox's supervising threads write at once (--sandbox-threads): relaxed adds. */
static void latency_record(struct latency *l, uint64_t ns)
{
	atomic_fetch_add_explicit(&l->buckets[latency_index(ns)], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&l->count, 1, memory_order_relaxed);
}

/* The q-th percentile (0 < q <= 100), 0 without samples. */
static uint64_t latency_percentile(const struct latency *l, unsigned int q)
{
	uint64_t total = 0, seen = 0, want;
	uint32_t counts[LAT_BUCKETS];

	for (size_t i = 0; i < LAT_BUCKETS; i++) {
		counts[i] = atomic_load_explicit(&l->buckets[i], memory_order_relaxed);
		total += counts[i];
	}
	if (total == 0)
		return 0;
	want = (total * q + 99) / 100;
	for (size_t i = 0; i < LAT_BUCKETS; i++) {
		seen += counts[i];
		if (seen >= want)
			return latency_value(i);
	}
	return latency_value(LAT_BUCKETS - 1);
}

static void sandbox_replied(const struct seccomp_notif *req, const struct unotify_verdict *verdict,
			    int reply_result, uint64_t ns, void *userdata)
{
	struct enforcer *e = userdata;
	struct sandbox *s = (struct sandbox *)((char *)e - offsetof(struct sandbox, enforcer));

	latency_record(&s->latency, ns);
}

static void sandbox_free(struct sandbox *s)
{
	if (!s)
		return;
	/* What its budget still holds back is summed up in the trail. */
	audit_limit_end(s->enforcer.audit, &s->enforcer.audit_limit, s->id);
	free(s->id);
	free(s->id_shown);
	free(s->policy_name);
	free(s->fail_reason);
	free(s);
}

static struct sandbox *sandbox_new(const struct sandbox_params *p, struct audit *audit)
{
	struct sandbox *s = calloc(1, sizeof(*s));
	char esc[OCI_ID_MAX * 4 + 8];

	if (!s)
		return NULL;
	audit_limit_init(&s->enforcer.audit_limit);
	s->id = strdup(p->id);
	s->id_shown = strdup(log_escape(p->id, esc, sizeof(esc)));
	s->policy_name = strdup(p->policy_name);
	s->fail_reason = p->fail_reason ? strdup(p->fail_reason) : NULL;
	if (!s->id || !s->id_shown || !s->policy_name || (p->fail_reason && !s->fail_reason)) {
		sandbox_free(s);
		return NULL;
	}
	s->pid = p->pid;
	s->registrant = p->registrant;
	s->started_ns = daemon_now_ns();
	s->enforcer.policy = p->policy && !p->fail_reason ? p->policy->policy : NULL;
	s->enforcer.fail_reason = s->fail_reason;
	s->enforcer.audit = audit;
	s->enforcer.sandbox = s->id;
	s->enforcer.filter_is_policy = p->filter_is_policy;
	atomic_init(&s->enforcer.notifications, 0);
	atomic_init(&s->enforcer.denials, 0);
	return s;
}

/*
 * The linked sandbox whose listener fd is too (*ret), as a dup of it or one
 * taken by pidfd_getfd, sent on another connection, is: 1, else 0. Two
 * threads would take its notifications in turn, each deciding by its own
 * policy. kcmp tells whether two descriptors are one open file; when it
 * fails nothing can be told: -errno, which refuses. Under d->lock.
 */
static int sandbox_listener_owner(struct daemon *d, int fd, const struct sandbox **ret)
{
	pid_t self = getpid();

	for (const struct sandbox *o = d->sandboxes; o; o = o->next) {
		long r = syscall(SYS_kcmp, self, self, KCMP_FILE, fd, o->listener_fd);

		if (r < 0)
			return negative_errno();
		if (r == 0) {
			*ret = o;
			return 1;
		}
	}
	return 0;
}

/* Links s, unless its listener is supervised already: -EALREADY (its id in owner), -errno. */
static int sandbox_link(struct daemon *d, struct sandbox *s, char *owner, size_t size)
{
	const struct sandbox *o = NULL;
	int r;

	pthread_mutex_lock(&d->lock);
	r = sandbox_listener_owner(d, s->listener_fd, &o);
	if (r != 0) {
		snprintf(owner, size, "%s", o ? o->id_shown : "?");
		pthread_mutex_unlock(&d->lock);
		return r > 0 ? -EALREADY : r;
	}
	s->serial = ++d->sandboxes_total;
	s->next = d->sandboxes;
	if (s->next)
		s->next->prev = s;
	d->sandboxes = s;
	d->sandboxes_active++;
	pthread_mutex_unlock(&d->lock);
	atomic_fetch_add(&d->generation, 1);
	return 0;
}

/* A listener sandbox_link refused: said to the client and logged, once. */
static void sandbox_refuse_listener(const struct sandbox *s, int *conn, int r, const char *owner)
{
	if (r == -EALREADY) {
		log_client_warning(
			"sandbox %s: refused: its listener is supervised already, as sandbox "
			"%s (two policies would decide its calls in turn)",
			s->id_shown, owner);
		proto_reply_error(*conn, "the listener is supervised already");
	} else {
		log_client_error(
			"sandbox %s: refused: cannot tell whether its listener is supervised "
			"already: kcmp: %s",
			s->id_shown, strerror(-r));
		proto_reply_error(*conn, "cannot tell whether the listener is supervised already");
	}
}

static void sandbox_unlink(struct daemon *d, struct sandbox *s)
{
	pthread_mutex_lock(&d->lock);
	if (s->prev)
		s->prev->next = s->next;
	else
		d->sandboxes = s->next;
	if (s->next)
		s->next->prev = s->prev;
	d->sandboxes_active--;
	pthread_mutex_unlock(&d->lock);
	atomic_fetch_add(&d->generation, 1);
}

static void sandbox_ack(struct sandbox *s, int *conn)
{
	struct json_object *o = json_object_new_object();

	if (o) {
		json_object_object_add(o, "ok", json_object_new_boolean(true));
		json_object_object_add(o, "sandbox", json_object_new_string(s->id));
		json_object_object_add(o, "serial", json_object_new_int64((int64_t)s->serial));
		json_object_object_add(o, "policy", json_object_new_string(s->policy_name));
		if (s->fail_reason)
			json_object_object_add(o, "fail_closed",
					       json_object_new_string(s->fail_reason));
		proto_reply(*conn, o);
		json_object_put(o);
	}
	/* Whatever the client queued after its message is released here (closing.c). */
	*conn = closing_close(*conn);
}

/* Listener options and the thread's own fs context (impersonated opens). */
static void sandbox_prepare(struct daemon *d, struct sandbox *s, unotify_listener *l)
{
	int r;

	if (d->config.sync) {
		r = unotify_listener_set_sync(l, true);
		if (r < 0 && r != -EOPNOTSUPP)
			log_client_warning("sandbox %s: same-CPU hand-off not set: %s", s->id_shown,
					   strerror(-r));
	}
	s->sync = unotify_listener_sync(l);
	r = unotify_thread_init();
	if (r < 0 && s->enforcer.policy) {
		/* Without its own fs context the thread cannot impersonate: deny all. */
		s->fail_reason = strdup("supervisor thread setup failed");
		s->enforcer.fail_reason = s->fail_reason ? s->fail_reason : "thread setup failed";
		s->enforcer.policy = NULL;
		log_client_error("sandbox %s: unshare(CLONE_FS) failed: %s: FAIL CLOSED",
				 s->id_shown, strerror(-r));
	}
}

/*
 * Names are relative to the root the sandbox had when it registered. Without
 * it (registration.c could not pin it) the sandbox is already failed closed.
 */
static void sandbox_pin_root(struct sandbox *s, unotify_listener *l, int root_fd)
{
	int r;

	if (root_fd < 0)
		return;
	r = unotify_listener_set_root(l, root_fd);
	if (r < 0 && s->enforcer.policy) {
		s->fail_reason = strdup("the sandbox's root could not be pinned");
		s->enforcer.fail_reason = s->fail_reason ? s->fail_reason : "root not pinned";
		s->enforcer.policy = NULL;
		log_client_error("sandbox %s: pinning its root: %s: FAIL CLOSED", s->id_shown,
				 strerror(-r));
	}
}

/* What its supervising threads did (unotify run --stats prints the same). */
static void sandbox_format_threads(const struct unotify_supervise_stats *t, char *buf,
				   size_t size)
{
	snprintf(buf, size,
		 "; threads: %u supervised, a second receiver formed %llu time%s (%llu calls), "
		 "%llu calls spread, %llu said they may wait, %llu taken over after a tick",
		 t->threads, (unsigned long long)t->partners, t->partners == 1 ? "" : "s",
		 (unsigned long long)t->partner_calls, (unsigned long long)t->spread,
		 (unsigned long long)t->waited, (unsigned long long)t->slow);
}

/* The sandbox's end: its counts, what the trail's budget held back (--log-limit), its threads. */
static void sandbox_log_end(struct sandbox *s, const struct unotify_supervise_stats *t)
{
	unsigned long long notified = atomic_load(&s->enforcer.notifications);
	unsigned long long denied = atomic_load(&s->enforcer.denials);
	unsigned long long held = atomic_load(&s->enforcer.audit_limit.suppressed);
	char limit[64], threads[256];

	sandbox_format_threads(t, threads, sizeof(threads));
	if (!held || !s->enforcer.audit) {
		log_client_info("sandbox %s ended: %llu notifications, %llu denials%s", s->id_shown,
				notified, denied, threads);
		return;
	}
	audit_budget_format(audit_get_budget(s->enforcer.audit), limit, sizeof(limit));
	log_client_info("sandbox %s ended: %llu notifications, %llu denials, %llu audit records "
			"suppressed (--log-limit %s)%s",
			s->id_shown, notified, denied, held, limit, threads);
}

int sandbox_run(struct daemon *d, int listener_fd, const struct sandbox_params *p, int *conn)
{
	struct unotify_loop_ops ops = {
		.decide = enforce_decide,
		.replied = sandbox_replied,
		.threads = d->config.sandbox_threads,
	};
	struct unotify_supervise_stats threads = { 0 };
	_cleanup_close_ int root_fd = p->root_fd;
	unotify_listener *l = NULL;
	struct audit_limit *shared;
	struct sandbox *s;
	char name[16], owner[OCI_ID_MAX * 4 + 8];
	int r;

	s = sandbox_new(p, d->audit);
	if (!s) {
		listener_fd = safe_close(listener_fd);
		proto_reply_error(*conn, "out of memory");
		return -ENOMEM;
	}
	r = unotify_listener_new(listener_fd, &l);
	if (r < 0) {
		log_client_error("sandbox %s: listener not usable: %s", s->id_shown, strerror(-r));
		proto_reply_error(*conn, "listener not usable");
		sandbox_free(s);
		return r;
	}
	s->listener_fd = unotify_listener_fd(l);
	sandbox_pin_root(s, l, TAKE_FD(root_fd));
	if (p->creds_watched)
		(void)unotify_listener_watch_creds(l);
	/* The registration's pid is the client's word: each thread is checked too. */
	if (!d->config.allow_shared_pid)
		(void)unotify_listener_refuse_shared_pid(l);
	sandbox_prepare(d, s, l);
	r = sandbox_link(d, s, owner, sizeof(owner));
	if (r < 0) {
		sandbox_refuse_listener(s, conn, r, owner);
		unotify_listener_free(l);
		sandbox_free(s);
		return r;
	}
	sandbox_ack(s, conn);
	snprintf(name, sizeof(name), "sbx-%s", s->id);
	pthread_setname_np(pthread_self(), name);
	ops.userdata = &s->enforcer;
	shared = user_budget_get(&d->budgets, d->audit, p->registrant);
	s->enforcer.audit_limit.shared = shared;
	r = unotify_supervise_counted(l, &ops, NULL, &threads);
	if (r < 0)
		log_client_error(
			"sandbox %s: supervision failed: %s; its intercepted calls now fail "
			"(ENOSYS)",
			s->id_shown, strerror(-r));
	sandbox_log_end(s, &threads);
	sandbox_unlink(d, s);
	unotify_listener_free(l);
	sandbox_free(s);
	user_budget_put(&d->budgets, shared);
	return r;
}

static struct json_object *sandbox_to_json(const struct sandbox *s, uint64_t now)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "id", json_object_new_string(s->id));
	json_object_object_add(o, "serial", json_object_new_int64((int64_t)s->serial));
	json_object_object_add(o, "pid", json_object_new_int(s->pid));
	json_object_object_add(o, "policy", json_object_new_string(s->policy_name));
	if (s->enforcer.fail_reason)
		json_object_object_add(o, "fail_closed",
				       json_object_new_string(s->enforcer.fail_reason));
	json_object_object_add(o, "sync", json_object_new_boolean(s->sync));
	json_object_object_add(
		o, "notifications",
		json_object_new_int64((int64_t)atomic_load(&s->enforcer.notifications)));
	json_object_object_add(o, "denials",
			       json_object_new_int64((int64_t)atomic_load(&s->enforcer.denials)));
	json_object_object_add(o, "p50_ns",
			       json_object_new_int64((int64_t)latency_percentile(&s->latency, 50)));
	json_object_object_add(o, "p99_ns",
			       json_object_new_int64((int64_t)latency_percentile(&s->latency, 99)));
	json_object_object_add(o, "uptime_s", json_object_new_double((now - s->started_ns) / 1e9));
	json_object_object_add(
		o, "audit_suppressed",
		json_object_new_int64((int64_t)atomic_load(&s->enforcer.audit_limit.suppressed)));
	return o;
}

struct json_object *sandboxes_to_json(struct daemon *d, uid_t asker)
{
	struct json_object *arr = json_object_new_array();
	uint64_t now = daemon_now_ns();

	if (!arr)
		return NULL;
	pthread_mutex_lock(&d->lock);
	for (struct sandbox *s = d->sandboxes; s; s = s->next) {
		struct json_object *o;

		if (asker != 0 && s->registrant != asker)
			continue;
		o = sandbox_to_json(s, now);

		if (o)
			json_object_array_add(arr, o);
	}
	pthread_mutex_unlock(&d->lock);
	return arr;
}

void sandboxes_flush_audit(struct daemon *d)
{
	/* First: a record decided from now on is written at once, none held back. */
	audit_stopping(d->audit);
	pthread_mutex_lock(&d->lock);
	for (struct sandbox *s = d->sandboxes; s; s = s->next)
		audit_limit_flush(s->enforcer.audit, &s->enforcer.audit_limit, s->id);
	pthread_mutex_unlock(&d->lock);
	user_budgets_flush(&d->budgets, d->audit);
	audit_sync(d->audit);
}
