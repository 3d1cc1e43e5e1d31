/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a rule has that an implicit set guards (implicit.c): paths, network
 * conditions, file categories, and refusals of calls io_uring or Linux AIO
 * perform.
 *
 * io_uring performs many calls through opcodes of its own, with no system
 * call of that name: a program that may use io_uring opens, connects,
 * binds, writes and unlinks past any rule that refuses those calls by name
 * (`deny connect`), the filter seeing only io_uring_enter. uring_calls is
 * up to date with Linux 6.18's opcodes: IORING_OP_OPENAT, _OPENAT2,
 * _CLOSE, _STATX, _RENAMEAT, _UNLINKAT, _MKDIRAT, _SYMLINKAT, _LINKAT, the
 * xattr four, _SOCKET, _CONNECT, _BIND, _LISTEN, _ACCEPT, _SEND(MSG)(_ZC),
 * _RECV(MSG), _SHUTDOWN, _READ(V), _WRITE(V), _FSYNC, _SYNC_FILE_RANGE,
 * _FALLOCATE, _FADVISE, _MADVISE, _FTRUNCATE, _SPLICE, _TEE, _POLL_ADD,
 * _EPOLL_CTL, _EPOLL_WAIT, _FUTEX_*, _WAITID, _PIPE, _TIMEOUT (a sleep),
 * _FIXED_FD_INSTALL and MSG_RING's descriptors (a dup), and _URING_CMD (a
 * socket's options; a block device's discard, a driver's passthrough:
 * ioctls).
 */
#include "config.h"

#include <stdbool.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

static const int uring_calls[] = {
#ifdef SYS_open
	SYS_open, SYS_creat, SYS_stat, SYS_lstat, SYS_rename, SYS_unlink, SYS_rmdir,
	SYS_mkdir, SYS_symlink, SYS_link, SYS_pipe, SYS_poll, SYS_epoll_wait,
#endif
#ifdef SYS_newfstatat
	SYS_newfstatat, SYS_fstat,
#endif
#ifdef SYS_renameat
	SYS_renameat,
#endif
#ifdef SYS_accept
	SYS_accept,
#endif
#ifdef SYS_fadvise64
	SYS_fadvise64,
#endif
	SYS_openat, SYS_openat2, SYS_close, SYS_statx, SYS_renameat2, SYS_unlinkat,
	SYS_mkdirat, SYS_symlinkat, SYS_linkat, SYS_setxattr, SYS_lsetxattr, SYS_fsetxattr,
	SYS_getxattr, SYS_lgetxattr, SYS_fgetxattr, SYS_socket, SYS_connect, SYS_bind,
	SYS_listen, SYS_accept4, SYS_sendto, SYS_sendmsg, SYS_recvfrom, SYS_recvmsg,
	SYS_shutdown, SYS_setsockopt, SYS_getsockopt, SYS_read, SYS_write, SYS_readv,
	SYS_writev, SYS_pread64, SYS_pwrite64, SYS_preadv, SYS_pwritev, SYS_preadv2,
	SYS_pwritev2, SYS_fsync, SYS_fdatasync, SYS_sync_file_range, SYS_fallocate,
	SYS_madvise, SYS_ftruncate, SYS_splice, SYS_tee, SYS_ppoll, SYS_sendmmsg, SYS_recvmmsg,
	/* a copy between files through a pipe, as _SPLICE does it */
	SYS_sendfile, SYS_copy_file_range,
	SYS_epoll_ctl, SYS_epoll_pwait, SYS_epoll_pwait2, SYS_futex, SYS_futex_waitv,
	SYS_waitid, SYS_pipe2, SYS_ioctl,
	/* IORING_OP_FIXED_FD_INSTALL, MSG_RING's fds; _TIMEOUT; _POLL_ADD */
	SYS_dup, SYS_dup3, SYS_fcntl, SYS_nanosleep, SYS_clock_nanosleep, SYS_pselect6,
#ifdef SYS_dup2
	SYS_dup2, SYS_select,
#endif
};

/* IOCB_CMD_PREAD(V), _PWRITE(V), _FSYNC, _FDSYNC and _POLL (what select and epoll wait for). */
static const int aio_calls[] = {
#ifdef SYS_poll
	SYS_poll, SYS_select, SYS_epoll_wait,
#endif
	SYS_pselect6, SYS_epoll_pwait, SYS_epoll_pwait2,
	SYS_read,  SYS_write,	  SYS_readv,	 SYS_writev, SYS_pread64, SYS_pwrite64, SYS_preadv,
	SYS_pwritev, SYS_preadv2, SYS_pwritev2, SYS_fsync,  SYS_fdatasync, SYS_ppoll,
};

static bool guards_in(const int *calls, size_t n, int nr)
{
	for (size_t i = 0; i < n; i++)
		if (calls[i] == nr)
			return true;
	return false;
}

static bool guards_has_paths(const struct policy_rule *r)
{
	if (r->n_paths)
		return true;
	for (size_t i = 0; i < r->net.n_unix; i++)
		if (r->net.unix_globs[i][0] == '/')
			return true;
	return false;
}

static bool guards_has_net(const struct policy_rule *r)
{
	if (!net_is_empty(&r->net))
		return true;
	for (size_t i = 0; i < r->n_syscalls; i++)
		if (r->syscall_roles[i] & ENTRY_NET)
			return true;
	return false;
}

/* The calls whose refusal decides where packets go or are received (guards_decides_destination). */
static const int destination_calls[] = {
	SYS_connect, SYS_sendto, SYS_sendmsg, SYS_sendmmsg, SYS_bind,
};

/*
 * Does r decide where a program's packets may go, or where it may receive
 * them: an address, port or family condition, or a refusal of a network
 * call? A raw or packet socket sends where no such rule looks (a frame
 * built by the program, sent with no address), and receives every packet
 * of its protocol, those for a port no bind may take too; so every one of
 * them needs raw-sockets.
 */
static bool guards_decides_destination(const struct policy_rule *r)
{
	if (r->net.n_cidrs || r->net.n_ports || r->net.n_families)
		return true;
	/* A refusal of a unix socket's name is about no destination a raw socket reaches. */
	if (r->action == POLICY_ALLOW || r->action == POLICY_LOG || r->net.n_unix)
		return false;
	/* bind through @file-create alone decides a unix socket's file only. */
	for (size_t i = 0; i < r->n_syscalls; i++)
		if (guards_in(destination_calls, ARRAY_SIZE(destination_calls), r->syscalls[i]) &&
		    !entry_unix_bind_only(r->syscall_roles[i]))
			return true;
	return false;
}

/*
 * A file category (@file-*), or a refusal, `return` or `log` of a call on
 * files named by itself (`deny openat arg2&0x3==0x1`: no write opens): the
 * files it decides are reached with none of those calls too (a core dump
 * the kernel writes, a handle, a fanotify event's descriptor). An exec is
 * not such a call: what runs a program is the exec rules' (exec-file).
 */
static bool guards_has_files(const struct policy_rule *r)
{
	for (size_t i = 0; i < r->n_syscalls; i++) {
		const struct policy_pathcall *pc = policy_pathcall_find(r->syscalls[i]);

		if (r->syscall_roles[i] & ENTRY_ROLES)
			return true;
		if (r->action != POLICY_ALLOW && pc && pc->perform != POLICY_PERFORM_NONE)
			return true;
	}
	return false;
}

/*
 * Does r keep some of the calls from running as written: a refusal, a
 * `return`, a `log` (io_uring's and io_submit's are not recorded)? A
 * default that is no `allow` keeps those no rule lets run
 * (implicit_default_guards).
 */
static bool guards_refuses(const struct policy_rule *r, const int *calls, size_t n)
{
	if (r->action == POLICY_ALLOW)
		return false;
	for (size_t i = 0; i < r->n_syscalls; i++)
		if (guards_in(calls, n, r->syscalls[i]))
			return true;
	return false;
}

unsigned int implicit_rule_guards(const struct policy_rule *r)
{
	return (guards_has_paths(r) ? GUARDS_PATHS : 0) | (guards_has_net(r) ? GUARDS_NET : 0) |
	       (guards_decides_destination(r) ? GUARDS_ADDRESS : 0) |
	       (guards_has_files(r) ? GUARDS_FILES : 0) | (r->net.n_protos ? GUARDS_PROTO : 0) |
	       (guards_refuses(r, uring_calls, ARRAY_SIZE(uring_calls)) ? GUARDS_URING : 0) |
	       (guards_refuses(r, aio_calls, ARRAY_SIZE(aio_calls)) ? GUARDS_AIO : 0);
}

/* Does a rule of the author's let every call of nr run, before any other decides one? */
static bool guards_allowed_always(const struct policy *p, int nr)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];

		for (size_t e = 0; !r->implicit && e < r->n_syscalls; e++) {
			struct kform kf;

			if (r->syscalls[e] != nr)
				continue;
			kform_build(r, e, &kf);
			if (kf.kind == KF_FALSE)
				continue;
			/* A condition leaves some calls to the rules after, and the default. */
			return kf.kind == KF_TRUE && r->action == POLICY_ALLOW;
		}
	}
	return false;
}

static bool guards_default_reaches(const struct policy *p, const int *calls, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!guards_allowed_always(p, calls[i]))
			return true;
	return false;
}

/*
 * socket(2)'s arguments for the kinds raw-sockets refuses (raw, packet,
 * XDP, SOCK_PACKET, SCTP), each with the protocols a program asks for,
 * and each with the type's flags (SOCK_CLOEXEC, SOCK_NONBLOCK) or none: a
 * rule that lets one of them be made may name any of these.
 */
static const uint64_t raw_socket_args[][3] = {
	{ 17, 3, 0 }, { 17, 3, 0x300 }, { 17, 2, 0 }, { 17, 2, 0x300 }, /* AF_PACKET */
	{ 44, 3, 0 },							  /* AF_XDP */
	{ 2, 3, 1 }, { 2, 3, 6 }, { 2, 3, 17 }, { 2, 3, 255 },		  /* INET RAW */
	{ 10, 3, 6 }, { 10, 3, 17 }, { 10, 3, 58 }, { 10, 3, 255 },	  /* INET6 RAW */
	{ 2, 10, 0x300 },						  /* SOCK_PACKET */
	{ 2, 5, 132 }, { 10, 5, 132 }, { 2, 1, 132 }, { 10, 1, 132 },	  /* SCTP */
};
static const uint64_t raw_socket_flags[] = { 0, 0x80000, 0x800, 0x80800 };

/* Do the author's rules (first match, then the default) let socket(args) run? */
static bool guards_socket_runs(const struct policy *p, const uint64_t args[6])
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct policy_rule *r = &p->rules[i];
		bool names = false, holds = true;

		for (size_t e = 0; !r->implicit && e < r->n_syscalls; e++)
			names |= r->syscalls[e] == SYS_socket;
		for (size_t k = 0; names && k < r->n_conds; k++)
			holds &= policy_cond_holds(&r->conds[k], args);
		if (names && holds)
			return r->action == POLICY_ALLOW || r->action == POLICY_LOG;
	}
	return p->def.action == POLICY_ALLOW || p->def.action == POLICY_LOG;
}

/* May a socket of a kind raw-sockets refuses be made, by the author's rules? */
static bool guards_raw_socket_runs(const struct policy *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(raw_socket_args); i++)
		for (size_t f = 0; f < ARRAY_SIZE(raw_socket_flags); f++) {
			const uint64_t args[6] = { raw_socket_args[i][0],
						   raw_socket_args[i][1] | raw_socket_flags[f],
						   raw_socket_args[i][2] };

			if (guards_socket_runs(p, args))
				return true;
		}
	return false;
}

/*
 * A default that refuses a connect, send or bind decides where packets go
 * and are received, as a refusal of the author's does: raw-sockets, where
 * the rules let some raw kind of socket be made.
 */
static bool guards_default_decides_destination(const struct policy *p)
{
	return p->def.action != POLICY_LOG &&
	       guards_default_reaches(p, destination_calls, ARRAY_SIZE(destination_calls)) &&
	       guards_raw_socket_runs(p);
}

unsigned int implicit_default_guards(const struct policy *p)
{
	if (p->def.action == POLICY_ALLOW)
		return 0;
	return (guards_default_reaches(p, uring_calls, ARRAY_SIZE(uring_calls)) ? GUARDS_URING : 0) |
	       (guards_default_reaches(p, aio_calls, ARRAY_SIZE(aio_calls)) ? GUARDS_AIO : 0) |
	       (guards_default_decides_destination(p) ? GUARDS_ADDRESS : 0);
}
