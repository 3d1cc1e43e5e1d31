/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * listen(2) binds a socket that was never bound: the kernel's autobind
 * gives it the address it was bound to without a port
 * (IP_BIND_ADDRESS_NO_PORT), else the any-address, and a port of its
 * choosing. Where the policy decides binds (policy_listen_binds), that is
 * a bind like any other: `deny bind addr=127.0.0.1` must stop a program
 * that listens without binding as it stops a bind to 0.0.0.0. So listen
 * comes here: the socket (our copy, pidfd_getfd) is read with getsockname,
 * and one without a port is decided as a bind of its address with port 0,
 * by the bind rules. The listen the policy lets run is performed on our
 * copy: the socket read is the socket listened on, whatever the target
 * does with its descriptor numbers meanwhile.
 *
 * A socket seen bound can lose its port before the listen: a connect that
 * fails releases the port it took. So the address is read again after the
 * listen; one that differs is decided then, and a refused one undone
 * (shutdown: the listener closes and its port goes). That listener lived
 * for the time between the two reads only, and its audit record says
 * allow, with the refusal's errno.
 *
 * Other families bind before a listen, which the kernel refuses on an
 * unbound socket, but not always by a bind rules saw: an AF_UNIX socket
 * takes an abstract name of the kernel's (autobind) at a connect or send
 * with SO_PASSCRED, even one that fails, and a vsock one at connect. So a
 * unix socket with an abstract name is decided as a bind of that name, and
 * one of another family (vsock, ...) as a bind of its family. A path name
 * came from a bind decided then: the kernel never picks one. A unix or
 * vsock socket seen unbound gets the kernel's EINVAL at once, with no
 * listen: another thread could autobind it (a connect) before the listen,
 * which would then listen at a name no one decided. Only stream and
 * seqpacket sockets listen; the others get the kernel's answer, as an
 * O_PATH descriptor does (EBADF).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>

#include "enforce-call.h"
#include "lib/util.h"

struct listen_state {
	int sockfd, backlog;          /* the target's arguments */
	int sock;                     /* our copy of its socket, -1 */
	int proto;                    /* POLICY_PROTO_* */
	int type;                     /* SOCK_* */
	int answer;                   /* an errno to answer without a listen, or 0 */
	struct sockaddr_storage seen; /* bound to, before the listen */
	socklen_t seen_len;
	struct policy_sockaddr view;  /* the bind decided */
	char addr_text[80];
};

static void listen_decode(struct enforce_call *c)
{
	struct listen_state *s = calloc(1, sizeof(*s));

	c->state = s;
	if (!s)
		return;
	s->sock = -1;
	s->sockfd = (int)c->args[0];
	s->backlog = (int)c->args[1];
}

/* Our copy of the target's socket, its protocol and address: 0 or a positive errno. */
static int listen_read(struct enforce_call *c, struct listen_state *s)
{
	int domain, type, protocol, r;
	socklen_t len = sizeof(s->seen);
	unotify_target *t;

	if (enforce_target(c, &t) < 0)
		return ENOENT;
	s->sock = unotify_target_getfd(t, s->sockfd);
	if (s->sock < 0)
		return s->sock == -EBADF || s->sock == -ENOENT ? -s->sock : EPERM;
	r = fcntl(s->sock, F_GETFL);
	if (r < 0 || (r & O_PATH))
		return EBADF; /* as listen(2) on an O_PATH descriptor */
	r = enforce_socket_kind(s->sock, &domain, &type, &protocol);
	if (r < 0)
		return -r;
	s->proto = enforce_socket_proto(domain, type, protocol);
	s->type = type;
	if (getsockname(s->sock, (struct sockaddr *)&s->seen, &len) < 0)
		return EPERM;
	s->seen_len = len;
	return 0;
}

/* The port of an IPv4 or IPv6 address, or -1 for another family (nothing to decide). */
static int listen_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)ss)->sin_port);
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return -1;
}

static int listen_cb_sockaddr(void *userdata, const struct policy_sockaddr **ret)
{
	const struct enforce_call *c = userdata;
	const struct listen_state *s = c->state;

	*ret = &s->view;
	return 0;
}

/* Does the socket listen already (its name then was decided, or given with it)? */
static bool listen_listening(int sock)
{
	int on = 0;
	socklen_t len = sizeof(on);

	return getsockopt(sock, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) == 0 && on;
}

/* Is a socket of a family the kernel autobinds at connect (unix, vsock) unbound? */
static bool listen_unbound(const struct sockaddr_storage *ss, socklen_t len)
{
	if (ss->ss_family == AF_UNIX)
		return len <= offsetof(struct sockaddr_un, sun_path);
	return ss->ss_family == AF_VSOCK &&
	       ((const struct sockaddr_vm *)ss)->svm_port == VMADDR_PORT_ANY;
}

/*
 * The bind a listen is, as rules see it, in s->view: false when there is
 * none to decide (see the top of the file). An IP address is seen with
 * port 0, the kernel's choice.
 */
static bool listen_view(struct listen_state *s, const struct sockaddr_storage *ss, socklen_t len)
{
	const uint8_t *name = (const uint8_t *)((const struct sockaddr_un *)ss)->sun_path;
	size_t off = offsetof(struct sockaddr_un, sun_path);

	s->view = (struct policy_sockaddr){ .family = ss->ss_family, .proto = s->proto };
	switch (ss->ss_family) {
	case AF_INET:
		memcpy(s->view.addr, &((const struct sockaddr_in *)ss)->sin_addr, 4);
		return listen_port(ss) == 0;
	case AF_INET6:
		memcpy(s->view.addr, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
		return listen_port(ss) == 0;
	case AF_UNIX:
		if (len <= off + 1 || name[0] != '\0')
			return false; /* a path */
		enforce_view_abstract(name + 1, len - off - 1, &s->view);
		return true;
	default:
		return true;
	}
}

/*
 * The policy's decision on the bind in s->view, as a bind(2) of the
 * socket's name would be called: its descriptor, no address in memory
 * (every rule on it reads s->view), and the name's length, for a rule on
 * the register (an OCI profile's `bind arg2 == 16`).
 */
static void listen_decide_bind(struct enforce_call *c, struct policy_decision *d)
{
	struct listen_state *s = c->state;
	struct policy_call call = { .nr = SYS_bind,
				    .args = { (uint64_t)s->sockfd, 0, (uint64_t)s->seen_len } };
	struct policy_args_ops ops = { .sockaddr = listen_cb_sockaddr };

	enforce_sockaddr_text(&s->view, s->addr_text, sizeof(s->addr_text));
	c->addr_text = s->addr_text;
	if (policy_evaluate_args(c->policy, &call, &ops, c, d) < 0)
		*d = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM };
}

/* The policy let the listen run: unless it binds where a bind may not, which then decides. */
static void listen_recheck(struct enforce_call *c, struct policy_decision *d)
{
	struct listen_state *s = c->state;
	struct policy_decision bind;
	int err = s ? listen_read(c, s) : ENOMEM;

	if (err) {
		*d = (struct policy_decision){ .action = POLICY_DENY, .error = err,
					       .path_consulted = true };
		return;
	}
	if (s->type != SOCK_STREAM && s->type != SOCK_SEQPACKET)
		return; /* no listen: the kernel says why (EOPNOTSUPP) */
	if (listen_listening(s->sock))
		return; /* a new backlog only (a socket handed over listening, say) */
	if (listen_unbound(&s->seen, s->seen_len)) {
		s->answer = EINVAL;
		return;
	}
	if (!listen_view(s, &s->seen, s->seen_len))
		return; /* bound already by a bind decided then */
	listen_decide_bind(c, &bind);
	if (bind.action != POLICY_ALLOW)
		*d = bind;
}

/* Has the socket an address other than the one decided (or seen bound) before the listen? */
static bool listen_moved(const struct listen_state *s, const struct sockaddr_storage *now)
{
	const struct sockaddr_in6 *a = (const void *)&s->seen, *b = (const void *)now;
	const struct sockaddr_in *a4 = (const void *)&s->seen, *b4 = (const void *)now;

	if (listen_port(&s->seen) != 0 && listen_port(now) != listen_port(&s->seen))
		return true;
	if (now->ss_family != s->seen.ss_family)
		return true;
	if (now->ss_family == AF_INET)
		return a4->sin_addr.s_addr != b4->sin_addr.s_addr;
	return now->ss_family == AF_INET6 &&
	       memcmp(&a->sin6_addr, &b->sin6_addr, sizeof(a->sin6_addr)) != 0;
}

static void listen_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	struct listen_state *s = c->state;
	struct sockaddr_storage now = { 0 };
	socklen_t len = sizeof(now);
	struct policy_decision bind;

	if (s->answer) {
		enforce_verdict_errno(v, s->answer);
		return;
	}
	if (listen(s->sock, s->backlog) < 0) {
		enforce_verdict_errno(v, errno);
		return;
	}
	*v = unotify_verdict_value(0);
	/* Only an IP socket's address can change under us: others stay bound as seen. */
	if (getsockname(s->sock, (struct sockaddr *)&now, &len) < 0 || listen_port(&now) < 0 ||
	    !listen_moved(s, &now))
		return;
	listen_view(s, &now, len);
	listen_decide_bind(c, &bind);
	if (bind.action == POLICY_ALLOW || bind.action == POLICY_LOG)
		return;
	shutdown(s->sock, SHUT_RDWR);
	enforce_verdict_errno(v, bind.action == POLICY_DENY && bind.error ? bind.error : EPERM);
}

/* `deny bind ... kernel`: as Landlock refuses a bind. */
static int listen_refuse(struct enforce_call *c)
{
	(void)c;
	return EACCES;
}

static bool listen_always_perform(const struct enforce_call *c)
{
	(void)c;
	return true;
}

static void listen_release(struct enforce_call *c)
{
	struct listen_state *s = c->state;

	if (s && s->sock >= 0)
		s->sock = safe_close(s->sock);
	free(s);
	c->state = NULL;
}

const struct enforce_family enforce_listen_family = {
	.decode = listen_decode,
	.recheck = listen_recheck,
	.perform = listen_perform,
	.refuse = listen_refuse,
	.always_perform = listen_always_perform,
	.release = listen_release,
	.works = 1U << UNOTIFY_WORK_SUPERVISE | 1U << UNOTIFY_WORK_NET,
};
