/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory side of a test call: what the supervisor would read from the
 * target (paths, openat2's flags, a socket address), given in the table as
 *
 *   path=/a (path 0)  path0=/a  path1=/b  path1=!ENOENT (the read fails)
 *   flags=O_WRONLY|O_CREAT or flags=0x241 (openat2: in memory)  flags=!EFAULT
 *   family=inet|inet6|unix|none  addr=10.1.2.3  port=443  unix=/run/x  unix=@name
 *   proto=tcp|udp|none (the socket's)  noport (a TCP address refused before its port)
 *   sa=!EFAULT (the address cannot be read)
 *
 * and handed to policy_evaluate_args through counting callbacks: each
 * piece may be read at most once per call, and only if the call has it.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/capability.h>

#include "lib/util.h"
#include "policy/policy.h"
#include "tests/unit/test-policy.h"

static int targs_error(const char *s)
{
	int e = policy_errno_parse(s);

	return e > 0 ? e : -1;
}

static int targs_flags(struct targs *a, const char *s)
{
	static const struct {
		const char *name;
		uint64_t v;
	} names[] = {
		{ "O_RDONLY", O_RDONLY }, { "O_WRONLY", O_WRONLY },	{ "O_RDWR", O_RDWR },
		{ "O_CREAT", O_CREAT },	  { "O_TRUNC", O_TRUNC },	{ "O_EXCL", O_EXCL },
		{ "O_APPEND", O_APPEND }, { "O_DIRECTORY", O_DIRECTORY }, { "O_TMPFILE", O_TMPFILE },
		{ "O_PATH", O_PATH },	  { "O_CLOEXEC", O_CLOEXEC },	{ "O_NOFOLLOW", O_NOFOLLOW },
	};
	_cleanup_free_ char *copy = strdup(s);
	char *save = NULL;

	a->has_flags = true;
	if (s[0] == '!')
		return (a->flags_error = targs_error(s + 1)) > 0 ? 0 : -EINVAL;
	for (char *w = strtok_r(copy, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names) && strcmp(w, names[i].name) != 0; i++)
			;
		if (i < ARRAY_SIZE(names))
			a->flags |= names[i].v;
		else if (w[0] >= '0' && w[0] <= '9')
			a->flags |= strtoull(w, NULL, 0);
		else
			return -EINVAL;
	}
	return 0;
}

static int targs_addr(struct targs *a, const char *s)
{
	if (inet_pton(AF_INET, s, a->sa.addr) == 1) {
		if (!a->sa.family)
			a->sa.family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->sa.addr) == 1) {
		if (!a->sa.family)
			a->sa.family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

static int targs_family(struct targs *a, const char *s)
{
	if (strcmp(s, "inet") == 0)
		a->sa.family = AF_INET;
	else if (strcmp(s, "inet6") == 0)
		a->sa.family = AF_INET6;
	else if (strcmp(s, "unix") == 0)
		a->sa.family = AF_UNIX;
	else if (strcmp(s, "none") == 0)
		a->sa.family = AF_UNSPEC;
	else if (strcmp(s, "netlink") == 0)
		a->sa.family = AF_NETLINK;
	else
		return -EINVAL;
	return 0;
}

static int targs_unix(struct targs *a, const char *s)
{
	a->sa.family = AF_UNIX;
	a->sa.unix_abstract = s[0] == '@';
	snprintf(a->sa.unix_path, sizeof(a->sa.unix_path), "%s", s + (s[0] == '@'));
	return 0;
}

static int targs_path(struct targs *a, int n, const char *s)
{
	a->has_path[n] = true;
	if (s[0] == '!')
		return (a->path_error[n] = targs_error(s + 1)) > 0 ? 0 : -EINVAL;
	a->path[n] = s;
	return 0;
}

/* One word of a call: 0, -ENOENT when it is not about memory, -EINVAL when malformed. */
int targs_parse_word(struct targs *a, const char *w)
{
	const char *v = strchr(w, '=');

	if (strcmp(w, "noport") == 0) {
		a->has_sa = true;
		a->sa.no_port = true;
		return 0;
	}
	if (!v)
		return -ENOENT;
	v++;
	if (strncmp(w, "path=", 5) == 0 || strncmp(w, "path0=", 6) == 0)
		return targs_path(a, 0, v);
	if (strncmp(w, "path1=", 6) == 0)
		return targs_path(a, 1, v);
	if (strncmp(w, "flags=", 6) == 0)
		return targs_flags(a, v);
	a->has_sa |= strncmp(w, "family=", 7) == 0 || strncmp(w, "addr=", 5) == 0 ||
		     strncmp(w, "port=", 5) == 0 || strncmp(w, "unix=", 5) == 0 ||
		     strncmp(w, "sa=", 3) == 0 || strncmp(w, "proto=", 6) == 0;
	if (strcmp(w, "proto=tcp") == 0 || strcmp(w, "proto=udp") == 0 ||
	    strcmp(w, "proto=none") == 0) {
		a->sa.proto = w[6] == 't'   ? POLICY_PROTO_TCP
			      : w[6] == 'u' ? POLICY_PROTO_UDP
					    : POLICY_PROTO_NONE;
		return 0;
	}
	if (strncmp(w, "family=", 7) == 0)
		return targs_family(a, v);
	if (strncmp(w, "addr=", 5) == 0)
		return targs_addr(a, v);
	if (strncmp(w, "port=", 5) == 0) {
		a->sa.port = (uint16_t)strtoul(v, NULL, 0);
		return 0;
	}
	if (strncmp(w, "unix=", 5) == 0)
		return targs_unix(a, v);
	if (strncmp(w, "sa=!", 4) == 0)
		return (a->sa_error = targs_error(v + 1)) > 0 ? 0 : -EINVAL;
	return -ENOENT;
}

static int targs_get_path(void *userdata, int n, const char **ret)
{
	struct targs *a = userdata;

	if (n < 0 || n > 1)
		return -EINVAL;
	a->path_calls[n]++;
	if (!a->has_path[n])
		return -EFAULT;
	if (a->path_error[n])
		return -a->path_error[n];
	*ret = a->path[n];
	return 0;
}

static int targs_get_flags(void *userdata, uint64_t *ret)
{
	struct targs *a = userdata;

	a->flags_calls++;
	if (!a->has_flags)
		return -EFAULT;
	if (a->flags_error)
		return -a->flags_error;
	*ret = a->flags;
	return 0;
}

static int targs_get_sockaddr(void *userdata, const struct policy_sockaddr **ret)
{
	struct targs *a = userdata;

	a->sa_calls++;
	if (!a->has_sa)
		return -EFAULT;
	if (a->sa_error)
		return -a->sa_error;
	*ret = &a->sa;
	return 0;
}

const struct policy_args_ops targs_ops = {
	.path = targs_get_path,
	.open_flags = targs_get_flags,
	.sockaddr = targs_get_sockaddr,
};

/* Each piece read at most once, and only what the call has: NULL, or what went wrong. */
const char *targs_misuse(const struct targs *a)
{
	for (int n = 0; n < 2; n++) {
		if (a->path_calls[n] > 1)
			return "a path was read twice";
		if (a->path_calls[n] && !a->has_path[n])
			return "the evaluator read a path the call does not give";
	}
	if (a->flags_calls > 1 || a->sa_calls > 1)
		return "open flags or an address were read twice";
	if ((a->flags_calls && !a->has_flags) || (a->sa_calls && !a->has_sa))
		return "the evaluator read open flags or an address the call does not give";
	return NULL;
}

/* ---- Directives that need no test case state ---- */

/* env: caps=cap_sys_admin,... kernel=6.18 */
int directive_env(char *val, struct policy_env *env, char *bad, size_t size)
{
	static const struct {
		const char *name;
		int bit;
	} caps[] = {
		{ "cap_dac_read_search", CAP_DAC_READ_SEARCH },
		{ "cap_net_admin", CAP_NET_ADMIN },
		{ "cap_net_raw", CAP_NET_RAW },
		{ "cap_sys_module", CAP_SYS_MODULE },
		{ "cap_sys_chroot", CAP_SYS_CHROOT },
		{ "cap_sys_ptrace", CAP_SYS_PTRACE },
		{ "cap_sys_admin", CAP_SYS_ADMIN },
		{ "cap_sys_boot", CAP_SYS_BOOT },
		{ "cap_syslog", CAP_SYSLOG },
		{ "cap_perfmon", 38 },
		{ "cap_bpf", 39 },
	};
	char *save = NULL;

	for (char *w = strtok_r(val, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (strncmp(w, "kernel=", 7) == 0) {
			if (sscanf(w + 7, "%d.%d", &env->kernel_major, &env->kernel_minor) == 2)
				continue;
		} else if (strncmp(w, "caps=", 5) == 0) {
			char *s2 = NULL;

			for (char *n = strtok_r(w + 5, ",", &s2); n; n = strtok_r(NULL, ",", &s2)) {
				size_t i;

				for (i = 0; i < ARRAY_SIZE(caps) && strcmp(n, caps[i].name) != 0; i++)
					;
				if (i < ARRAY_SIZE(caps))
					env->caps |= 1ull << caps[i].bit;
				else if (strcmp(n, "none") != 0)
					return snprintf(bad, size, "unknown capability '%s'", n), -EINVAL;
			}
			continue;
		}
		snprintf(bad, size, "cannot read '%s'", w);
		return -EINVAL;
	}
	return 0;
}

static int directive_syscall(const char *s)
{
	if (s[0] >= '0' && s[0] <= '9')
		return atoi(s);
	return policy_syscall_resolve(s);
}

/*
 * A rule index as tables write it: N is the author's N-th rule (from 0),
 * after the implicit ones (files "implicit:NAME"); iN is index N itself.
 */
size_t directive_rule_index(const struct policy *p, const char *s)
{
	size_t implicit = 0;
	const char *file;

	if (s[0] == 'i')
		return strtoul(s + 1, NULL, 10);
	while (policy_rule_source(p, implicit, &file, NULL) == 0 && implicit < policy_rule_count(p) &&
	       file && strncmp(file, "implicit:", 9) == 0)
		implicit++;
	return implicit + strtoul(s, NULL, 10);
}

/* needs: RULE SYSCALL never|nothing|registers|memory [kernel|registers|performed|unsafe] */
int directive_needs(const struct policy *p, char *val, char *bad, size_t size)
{
	static const char *const kinds[] = { "never", "nothing", "registers", "memory" };
	static const char *const hows[] = { "kernel", "registers", "performed", "unsafe" };
	char *save = NULL, *rule = strtok_r(val, " \t", &save), *sys = strtok_r(NULL, " \t", &save);
	char *kind = strtok_r(NULL, " \t", &save), *how = strtok_r(NULL, " \t", &save);
	enum policy_needs n;
	enum policy_enforcement e;
	int nr = sys ? directive_syscall(sys) : -1;

	if (!rule || !kind || nr < 0)
		return snprintf(bad, size, "needs: expected RULE SYSCALL KIND [HOW]"), -EINVAL;
	if (policy_rule_needs(p, directive_rule_index(p, rule), nr, &n, &e) < 0)
		return snprintf(bad, size, "policy_rule_needs(%s, %s) failed", rule, sys), -EINVAL;
	if (strcmp(kinds[n], kind) != 0)
		return snprintf(bad, size, "rule %s needs %s for %s, expected %s", rule, kinds[n],
				sys, kind),
		       -EINVAL;
	if (how && strcmp(hows[e], how) != 0)
		return snprintf(bad, size, "rule %s is enforced %s for %s, expected %s", rule,
				hows[e], sys, how),
		       -EINVAL;
	return 0;
}

/* group: @NAME has|lacks SYSCALL... */
int directive_group(char *val, char *bad, size_t size)
{
	char *save = NULL, *name = strtok_r(val, " \t", &save), *op = strtok_r(NULL, " \t", &save);
	int nrs[1024];
	size_t n = 0;

	if (!name || !op || policy_group_expand(name, nrs, ARRAY_SIZE(nrs), &n) < 0)
		return snprintf(bad, size, "group: cannot expand '%s'", name ? name : ""), -EINVAL;
	for (char *w = strtok_r(NULL, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		int nr = policy_syscall_resolve(w);
		bool has = false;

		for (size_t i = 0; i < n; i++)
			has |= nrs[i] == nr;
		if (nr < 0)
			return snprintf(bad, size, "group: unknown syscall '%s'", w), -EINVAL;
		if (has != (strcmp(op, "has") == 0))
			return snprintf(bad, size, "%s %s '%s'", name, has ? "has" : "lacks", w),
			       -EINVAL;
	}
	return 0;
}
