/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A registration: the container process state (protocol/oci-state.c) names
 * the sandbox and, in listenerMetadata, its policy ("policy=NAME"; none:
 * the default policy). An unknown or broken policy never fails open: the
 * sandbox is supervised fail closed, every notified call denied, and the
 * acknowledgement says so. So is one whose program was started with the
 * kernel layer of another version of the policy (`unotify run --daemon`
 * says which it fetched: policySerial).
 *
 * The process the state names is pinned through a pidfd (a pid can be
 * reused, a pidfd cannot): its root, which every name the policy sees is
 * relative to from now on, and its pid namespace. A sandbox in ours could
 * name the daemon (kill, ptrace, pidfd_getfd: every sandbox's listener) and
 * every other sandbox: it is supervised fail closed unless the daemon was
 * started with --allow-shared-pid.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/uapi.h"
#include "lib/unotify.h"
#include "lib/util.h"
#include "log.h"
#include "policies.h"
#include "policy/policy.h"
#include "protocol/oci-state.h"
#include "registration.h"
#include "sandbox.h"

/* Chooses the policy of a sandbox: metadata, else the default; never fails open. */
static void registration_choose_policy(struct daemon *d, const struct oci_state *s, char *name,
			      size_t size, struct sandbox_params *p, char *reason,
			      size_t reason_size)
{
	struct policy_set *set;
	char esc[96];

	p->policy = NULL;
	p->fail_reason = NULL;
	if (s->metadata && s->metadata[0]) {
		if (oci_metadata_policy(s->metadata, name, size) < 0) {
			snprintf(name, size, "?");
			snprintf(reason, reason_size, "metadata \"%s\" is not policy=NAME",
				 log_escape(s->metadata, esc, sizeof(esc)));
			p->fail_reason = reason;
			return;
		}
	} else {
		snprintf(name, size, "%s", d->config.default_policy);
	}
	set = daemon_policies(d);
	if (policies_lookup(set, name, &p->policy) < 0) {
		snprintf(reason, reason_size, "unknown policy '%s' (no %s/%s.policy)", name,
			 d->config.policy_dir, name);
		p->fail_reason = reason;
	} else if (!p->policy->policy) {
		snprintf(reason, reason_size, "policy '%s' is broken (%s)", name,
			 p->policy->error ? p->policy->error : "see the daemon log");
		p->fail_reason = reason;
	} else if (s->policy_serial && s->policy_serial != p->policy->serial) {
		/* Its filter was built from another version: never decide by rules it lacks. */
		snprintf(reason, reason_size,
			 "policy '%s' was reloaded after the program's kernel layer was fetched "
			 "(version %llu, now %llu)", name, (unsigned long long)s->policy_serial,
			 (unsigned long long)p->policy->serial);
		p->fail_reason = reason;
	} else if (s->policy_serial) {
		/*
		 * `unotify run --daemon` loaded this very kernel layer: its implicit
		 * rules (fixed-view) are in the program's filter. A client could
		 * say so and load another, but then it could load none at all: the
		 * program's filter is the client's to choose either way.
		 */
		p->filter_is_policy = true;
	}
	policies_unref(set);
}

/* The first reason a sandbox fails closed is the one it is told. */
static void registration_fail(struct sandbox_params *p, char *reason, size_t size,
			      const char *what, int err)
{
	if (p->fail_reason)
		return;
	snprintf(reason, size, "%s%s%s", what, err ? ": " : "", err ? strerror(err) : "");
	p->fail_reason = reason;
}

static void registration_pin(struct daemon *d, const struct oci_state *s,
			     struct sandbox_params *p, char *reason, size_t size)
{
	_cleanup_close_ int pidfd = (int)syscall(SYS_pidfd_open, s->pid, 0);
	char esc[OCI_ID_MAX * 4 + 8];
	int r;

	if (pidfd < 0) {
		registration_fail(p, reason, size, "its process cannot be found", errno);
		return;
	}
	r = unotify_pidns_shared(pidfd);
	if (r < 0) {
		registration_fail(p, reason, size, "its pid namespace cannot be told", -r);
		return;
	}
	if (r > 0 && !d->config.allow_shared_pid)
		registration_fail(p, reason, size,
				  "it shares the daemon's pid namespace and could reach the daemon "
				  "and every sandbox (give it a pid namespace of its own, or start "
				  "unotifyd with --allow-shared-pid)", 0);
	else if (r > 0)
		log_client_warning(
			"sandbox %s pid=%d shares the daemon's pid namespace "
			"(--allow-shared-pid): it can signal, trace or renice the daemon",
			log_escape(s->id, esc, sizeof(esc)), (int)s->pid);
	r = unotify_root_open(pidfd, &p->root_fd);
	if (r < 0)
		registration_fail(p, reason, size, "its root cannot be pinned", -r);
}

/* Does the sandbox keep target state (its filter is policy's kernel layer, with fixed-view)? */
static bool registration_keeps_state(const struct sandbox_params *p)
{
	return p->filter_is_policy && !p->fail_reason && p->policy && p->policy->policy &&
	       policy_watches_creds(p->policy->policy);
}

/*
 * May the sandbox's kept target state go unproved (unotify_listener_watch_creds)?
 * Only when the client says its program runs under the very kernel layer,
 * which notifies every credential change, and the client is root. Unlike
 * fixed-view above, a client that lies about this one could gain: a
 * set-id program it runs that drops its ids would have its calls
 * performed with the ids it dropped. A root client gains nothing by it.
 */
static void registration_watch_creds(struct sandbox_params *p, const struct ucred *cred)
{
	p->creds_watched = registration_keeps_state(p) && cred->uid == 0;
}

/* How the sandbox's kept target state is proved, for its registration's log line. */
static const char *registration_kept_text(const struct sandbox_params *p)
{
	if (!registration_keeps_state(p))
		return "";
	return p->creds_watched ? " (kept target state: credentials watched)"
				: " (kept target state: proved at each call, a client not root)";
}

int registration_handle(struct daemon *d, int *conn, const struct ucred *cred,
			struct proto_message *m)
{
	struct oci_state s;
	struct sandbox_params p = { .root_fd = -1 };
	char name[PROTO_POLICY_NAME_MAX + 2], reason[512], esc[OCI_ID_MAX * 4 + 8];
	const char *why = NULL;
	int fd, r;

	r = oci_state_parse(m->json, m->fds, m->n_fds, &s, &why);
	if (r < 0) {
		why = why ? why : strerror(-r);
		log_client_warning("client pid=%d uid=%u: dropped: %s", (int)cred->pid, cred->uid,
				   why);
		proto_reply_error(*conn, why);
		return r;
	}
	/* Close the fds we do not use now: the sandbox may live for days. */
	proto_message_release(m);
	registration_choose_policy(d, &s, name, sizeof(name), &p, reason, sizeof(reason));
	registration_pin(d, &s, &p, reason, sizeof(reason));
	registration_watch_creds(&p, cred);
	p.id = s.id;
	p.pid = s.pid;
	p.registrant = cred->uid;
	p.policy_name = name;
	log_client_info("sandbox %s pid=%d registered by pid=%d uid=%u: policy %s%s%s%s",
			log_escape(s.id, esc, sizeof(esc)), (int)s.pid, (int)cred->pid, cred->uid,
			name, registration_kept_text(&p), p.fail_reason ? ": FAIL CLOSED, " : "",
			p.fail_reason ? p.fail_reason : "");
	fd = TAKE_FD(s.seccomp_fd);
	r = sandbox_run(d, fd, &p, conn);
	policy_entry_unref(p.policy);
	oci_state_release(&s);
	return r;
}
