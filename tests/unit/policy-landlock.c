/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Landlock layer in test-policy: the tables' landlock:, decides:,
 * why-not:, ruleset:, handled:, ports: and notify-rdwr: directives, and a model of
 * what the kernel's Landlock decides for a call the filter lets run, which
 * the evaluator must agree with (the proof, call by call, that moving the
 * rules keeps their meaning). The model is Landlock's own rule: the rights
 * an open or an exec needs (read-file or read-dir, write-file, truncate,
 * execute and read-file), each one handled must be granted by a rule on
 * the file itself or on a directory above it; a path that is not absolute
 * (a pipe through /proc/PID/fd) is a pseudo file system, always allowed.
 * Random policies of the layer's shape are held to it too (builtin case).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/audit.h>

#include "lib/uapi.h"
#include "lib/util.h"
#include "policy/landlock.h"
#include "tests/unit/test-policy.h"

static bool ll_beneath(const char *a, const char *p)
{
	size_t n = strlen(a);

	if (strcmp(a, "/") == 0)
		return p[0] == '/';
	return strncmp(a, p, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* What the kernel checks for this call (LANDLOCK_ACCESS_FS_*), by Landlock's hook_file_open. */
static uint64_t ll_needed(const struct policy_landlock *ll, const struct policy_call *call,
			  bool dir, bool missing)
{
	uint64_t flags, need = 0;

	if (policy_landlock_family_of(call->nr) == POLICY_LANDLOCK_EXEC)
		return LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE;
	flags = call->args[call->nr == SYS_openat ? 2 : 1];
	if ((flags & O_ACCMODE) == O_RDONLY || (flags & O_ACCMODE) == O_RDWR)
		need |= dir ? LANDLOCK_ACCESS_FS_READ_DIR : LANDLOCK_ACCESS_FS_READ_FILE;
	if ((flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR)
		need |= LANDLOCK_ACCESS_FS_WRITE_FILE;
	/* A file just created is not truncated. */
	if ((flags & O_TRUNC) && ll->abi >= 3 && !missing)
		need |= LANDLOCK_ACCESS_FS_TRUNCATE;
	return need;
}

/* The rights rules grant at path (a directory above it, or the file itself). */
static uint64_t ll_granted(const struct policy_landlock *ll, const char *path)
{
	uint64_t granted = 0;

	for (size_t i = 0; i < ll->n_rules; i++) {
		const struct policy_landlock_rule *r = &ll->rules[i];

		if ((r->beneath && ll_beneath(r->path, path)) ||
		    (!r->beneath && strcmp(r->path, path) == 0))
			granted |= r->access;
	}
	return granted;
}

bool landlock_model_allows(const struct policy_landlock *ll, const struct policy_call *call,
			   const char *path, bool dir, bool missing)
{
	uint64_t need = ll_needed(ll, call, dir, missing) & ll->handled_fs, flags;
	char parent[4096];
	char *slash;

	if (path[0] != '/')
		return true;
	flags = call->nr == SYS_execve ? 0 : call->args[call->nr == SYS_openat ? 2 : 1];
	/* A directory opened for writing or O_TRUNC: the kernel refuses it first (EISDIR). */
	if (dir && ((need & LANDLOCK_ACCESS_FS_WRITE_FILE) || (flags & O_TRUNC)))
		return false;
	if (missing) {
		/* Created first (make-reg on the directory), then opened with its rights. */
		snprintf(parent, sizeof(parent), "%s", path);
		slash = strrchr(parent, '/');
		if (slash == parent)
			slash[1] = '\0';
		else if (slash)
			*slash = '\0';
		if ((ll->handled_fs & LANDLOCK_ACCESS_FS_MAKE_REG) &&
		    !(ll_granted(ll, parent) & LANDLOCK_ACCESS_FS_MAKE_REG))
			return false;
	}
	return (need & ~ll_granted(ll, path)) == 0;
}

/*
 * connect and bind, by Landlock's hook (security/landlock/net.c): a socket
 * other than TCP's and a disconnect pass; an address it refuses before the
 * port (noport) is refused; else the port must be granted.
 */
static bool ll_net_allows(const struct policy_landlock *ll, const struct policy_call *call,
			  const struct policy_sockaddr *sa)
{
	uint64_t right = call->nr == SYS_connect ? LANDLOCK_ACCESS_NET_CONNECT_TCP
						 : LANDLOCK_ACCESS_NET_BIND_TCP;

	if (sa->proto != POLICY_PROTO_TCP || !(ll->handled_net & right))
		return true;
	if (sa->family == AF_UNSPEC && call->nr == SYS_connect)
		return true;
	if (sa->no_port || sa->family == AF_UNSPEC || sa->family == AF_UNIX)
		return false;
	for (size_t i = 0; i < ll->n_ports; i++)
		if (ll->ports[i].port == sa->port && (ll->ports[i].access & right))
			return true;
	return false;
}

int landlock_agrees_net(const struct policy_landlock *ll, const struct policy_call *call,
			const struct policy_sockaddr *sa, const struct policy_decision *d,
			char *bad, size_t size)
{
	bool allows = ll_net_allows(ll, call, sa);
	/* The kernel's answer to a disconnect is to let it run (enforce-net.c). */
	bool disconnect =
		sa->proto == POLICY_PROTO_TCP && sa->family == AF_UNSPEC && call->nr == SYS_connect;
	bool policy_allows = d->action == POLICY_ALLOW || (d->kernel_answer && disconnect);
	/* EACCES is Landlock's answer to a port it refuses (an address it reads a port from). */
	bool eacces = d->action == POLICY_DENY && d->error == EACCES && !sa->no_port &&
		      sa->family != AF_UNSPEC;

	if (!policy_allows && !(d->action == POLICY_DENY && d->kernel_answer) && !eacces) {
		snprintf(bad, size, "the filter lets %s run to Landlock, but the policy says %s",
			 policy_syscall_name(call->nr), policy_action_name(d->action));
		return -EINVAL;
	}
	if (allows != policy_allows) {
		snprintf(bad, size, "Landlock %s %s to port %u, the policy %s it",
			 allows ? "allows" : "refuses", policy_syscall_name(call->nr), sa->port,
			 policy_allows ? "allows" : "refuses");
		return -EINVAL;
	}
	return 0;
}

int landlock_agrees(const struct policy_landlock *ll, const struct policy_call *call,
		    const char *path, bool dir, bool missing, const struct policy_decision *d,
		    char *bad, size_t size)
{
	bool allows = landlock_model_allows(ll, call, path, dir, missing);
	bool policy_allows = d->action == POLICY_ALLOW;

	if (!policy_allows && !(d->action == POLICY_DENY && d->kernel_answer)) {
		snprintf(bad, size, "the filter lets %s run to Landlock, but the policy says %s",
			 policy_syscall_name(call->nr), policy_action_name(d->action));
		return -EINVAL;
	}
	if (allows != policy_allows) {
		snprintf(bad, size, "Landlock %s %s on %s, the policy %s it",
			 allows ? "allows" : "refuses", policy_syscall_name(call->nr), path,
			 policy_allows ? "allows" : "refuses");
		return -EINVAL;
	}
	return 0;
}

static int ll_family(const char *name)
{
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++)
		if (strcmp(name, policy_landlock_family_name((enum policy_landlock_family)f)) == 0)
			return f;
	return -1;
}

/* decides: FAMILY yes|no */
static int ll_decides(const struct policy_landlock *ll, char *val, char *bad, size_t size)
{
	char *save = NULL, *name = strtok_r(val, " \t", &save),
	     *want = strtok_r(NULL, " \t", &save);
	int f = name ? ll_family(name) : -1;

	if (f < 0 || !want || (strcmp(want, "yes") && strcmp(want, "no"))) {
		snprintf(bad, size, "decides: expected opens|exec yes|no");
		return -EINVAL;
	}
	if (ll->decided[f] != (want[0] == 'y')) {
		snprintf(bad, size, "%s: decided is %d (%s)", name, ll->decided[f],
			 ll->why_not[f] ? ll->why_not[f] : "");
		return -EINVAL;
	}
	return 0;
}

/* why-not: FAMILY PATTERN (fnmatch on the reason) */
static int ll_why_not(const struct policy_landlock *ll, char *val, char *bad, size_t size)
{
	char *sp = strpbrk(val, " \t");
	int f;

	if (!sp) {
		snprintf(bad, size, "why-not: expected FAMILY PATTERN");
		return -EINVAL;
	}
	*sp = '\0';
	f = ll_family(val);
	*sp = ' ';
	while (*sp == ' ' || *sp == '\t')
		sp++;
	if (f < 0 || !ll->why_not[f] || fnmatch(sp, ll->why_not[f], 0) != 0) {
		snprintf(bad, size, "why not: '%s', expected '%s'",
			 f >= 0 && ll->why_not[f] ? ll->why_not[f] : "(none)", sp);
		return -EINVAL;
	}
	return 0;
}

/* ruleset: beneath|path PATH RIGHTS... (all of the layer's rules, each named once) */
static int ll_ruleset(const struct policy_landlock *ll, char *val, char *bad, size_t size)
{
	char names[256], line[4352];

	for (size_t i = 0; i < ll->n_rules; i++) {
		const struct policy_landlock_rule *r = &ll->rules[i];

		policy_landlock_access_names(r->access, names, sizeof(names));
		snprintf(line, sizeof(line), "%s %s %s", r->beneath ? "beneath" : "path", r->path,
			 names);
		if (strcmp(line, val) == 0)
			return 0;
	}
	snprintf(bad, size, "no rule '%s' in the ruleset (%zu rules)", val, ll->n_rules);
	return -EINVAL;
}

/* ports: connect|bind P P...: the TCP ports the ruleset grants to connect (bind), all of them. */
static int ll_ports(const struct policy_landlock *ll, const char *val, char *bad, size_t size)
{
	uint64_t right = strncmp(val, "connect", 7) == 0 ? LANDLOCK_ACCESS_NET_CONNECT_TCP
							 : LANDLOCK_ACCESS_NET_BIND_TCP;
	char got[512] = "";
	size_t len = 0;

	snprintf(got, sizeof(got), "%s",
		 right == LANDLOCK_ACCESS_NET_CONNECT_TCP ? "connect" : "bind");
	len = strlen(got);
	for (size_t i = 0; i < ll->n_ports && len < sizeof(got); i++)
		if (ll->ports[i].access & right)
			len += (size_t)snprintf(got + len, sizeof(got) - len, " %u",
						ll->ports[i].port);
	if (strcmp(got, val) == 0)
		return 0;
	snprintf(bad, size, "ports '%s', expected '%s'", got, val);
	return -EINVAL;
}

int directive_landlock(const struct policy_landlock *ll, const char *key, char *val, char *bad,
		       size_t size)
{
	char names[256];

	if (!ll) {
		snprintf(bad, size, "%s: before landlock:", key);
		return -EINVAL;
	}
	if (strcmp(key, "decides") == 0)
		return ll_decides(ll, val, bad, size);
	if (strcmp(key, "why-not") == 0)
		return ll_why_not(ll, val, bad, size);
	if (strcmp(key, "ruleset") == 0)
		return ll_ruleset(ll, val, bad, size);
	if (strcmp(key, "rules") == 0) {
		if ((size_t)atoi(val) == ll->n_rules)
			return 0;
		snprintf(bad, size, "%zu rules, expected %s", ll->n_rules, val);
		return -EINVAL;
	}
	if (strcmp(key, "handled") == 0) {
		policy_landlock_access_names(ll->handled_fs, names, sizeof(names));
		if (strcmp(names, strcmp(val, "nothing") == 0 ? "" : val) == 0)
			return 0;
		snprintf(bad, size, "handled '%s', expected '%s'", names, val);
		return -EINVAL;
	}
	if (strcmp(key, "ports") == 0)
		return ll_ports(ll, val, bad, size);
	if (strcmp(key, "notify-rdwr") == 0) {
		if (ll->open_notify_rdwr == (strcmp(val, "yes") == 0))
			return 0;
		snprintf(bad, size, "open_notify_rdwr is %d", ll->open_notify_rdwr);
		return -EINVAL;
	}
	snprintf(bad, size, "unknown directive '%s'", key);
	return -EINVAL;
}

/* ---- Random policies of the layer's shape ---- */

static uint64_t ll_rnd_state = 0x9e3779b97f4a7c15ull;

static unsigned int ll_rnd(unsigned int n)
{
	ll_rnd_state ^= ll_rnd_state << 13;
	ll_rnd_state ^= ll_rnd_state >> 7;
	ll_rnd_state ^= ll_rnd_state << 17;
	return (unsigned int)(ll_rnd_state % n);
}

/* The directories of the random world; the other anchors are files. */
static const char *const ll_anchors[] = {"/a", "/a/b", "/c", "/c/d/e", "/f", "/g/h"};

static bool ll_is_dir(const char *path)
{
	return path[0] != '/' || strcmp(path, "/a") == 0 || strcmp(path, "/a/b") == 0 ||
	       strcmp(path, "/c") == 0 || strcmp(path, "/c/d") == 0 ||
	       strcmp(path, "/c/d/e") == 0 || strcmp(path, "/") == 0;
}

/* Paths that do not exist: an open with O_CREAT creates them. */
static bool ll_is_missing(const char *path)
{
	return strstr(path, "new") != NULL;
}

static const struct {
	const char *path;
	bool dir;
} ll_paths[] = {
	{"/a", true},	   {"/a/x", false},	{"/a/b", true},	     {"/a/b/y", false},
	{"/c", true},	   {"/c/d", true},	{"/c/d/e", true},    {"/c/d/e/z", false},
	{"/f", false},	   {"/g/h", false},	{"/zz", false},	     {"pipe:[7]", false},
	{"/a/new", false}, {"/a/b/new", false}, {"/c/d/new", false}, {"/new", false},
};
static const char *const ll_cats[] = {"@file-read", "@file-write", "@file-exec", "@file-create"};

static void ll_random_cats(char *out, size_t size)
{
	unsigned int m = 1 + ll_rnd(15);

	out[0] = '\0';
	for (int i = 0; i < 4; i++)
		if (m & (1u << i))
			snprintf(out + strlen(out), size - strlen(out), " %s", ll_cats[i]);
}

static void ll_random_text(char *text, size_t size)
{
	char cats[64];
	size_t n = 0;

	n += (size_t)snprintf(text + n, size - n, "default allow\ndeny @mount EPERM\n");
	/* Half the policies grant read, write and create together: creating opens move then. */
	bool rwc = ll_rnd(2);

	for (unsigned int r = 0, k = 1 + ll_rnd(4); r < k; r++) {
		ll_random_cats(cats, sizeof(cats));
		if (rwc)
			snprintf(cats, sizeof(cats), " @file-read @file-write @file-create%s",
				 ll_rnd(2) ? " @file-exec" : "");
		n += (size_t)snprintf(text + n, size - n, "allow%s", cats);
		for (unsigned int j = 0, m = 1 + ll_rnd(3); j < m; j++) {
			const char *a = ll_anchors[ll_rnd(ARRAY_SIZE(ll_anchors))];

			/* A file's path gets no DIR/"**" form: lib's check leaves such a rule out.
			 */
			n += (size_t)snprintf(text + n, size - n, " path=%s%s", a,
					      ll_is_dir(a) && ll_rnd(3) ? "/**" : "");
		}
		n += (size_t)snprintf(text + n, size - n, "\n");
	}
	ll_random_cats(cats, sizeof(cats));
	n += (size_t)snprintf(text + n, size - n, "deny%s @file-create @file-delete kernel\n",
			      cats);
	if (ll_rnd(2)) {
		ll_random_cats(cats, sizeof(cats));
		snprintf(text + n, size - n, "allow%s path=/zz\n", cats);
	}
}

struct ll_ask {
	const char *path;
};

static int ll_ask_path(void *userdata, const char **ret_path)
{
	*ret_path = ((struct ll_ask *)userdata)->path;
	return 0;
}

/* One call of every kind on every path, through the filter, to Landlock's model. */
static bool ll_random_calls(struct policy *p, const struct policy_landlock *ll,
			    const struct policy_program *prog, const char *text, size_t *decided)
{
	static const uint64_t flags[] = {0,    1,    2,	    0x200, 0x201, 0x202,   0x40,
					 0x41, 0x42, 0x241, 0x240, 0x43,  0x200000};
	static const int nrs[] = {SYS_openat, SYS_execve};

	for (size_t n = 0; n < ARRAY_SIZE(nrs); n++)
		for (size_t f = 0; f < (nrs[n] == SYS_openat ? ARRAY_SIZE(flags) : 1); f++)
			for (size_t i = 0; i < ARRAY_SIZE(ll_paths); i++) {
				struct policy_call call = {.nr = nrs[n], .args = {0, 0, flags[f]}};
				struct seccomp_data d = {.nr = call.nr, .arch = AUDIT_ARCH_X86_64};
				struct ll_ask ask = {ll_paths[i].path};
				struct policy_decision dec;
				char bad[512];
				uint32_t ret;

				memcpy(d.args, call.args, sizeof(d.args));
				if (policy_bpf_run(&prog->bpf, &d, &ret) < 0)
					return false;
				/* Execs go to the supervisor, then to Landlock: both decide. */
				if (((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ALLOW &&
				     nrs[n] != SYS_execve) ||
				    !policy_landlock_decides(ll, call.nr))
					continue;
				/* The kernel refuses a directory to write or run before Landlock.
				 */
				if (ll_paths[i].dir &&
				    (nrs[n] == SYS_execve || (flags[f] & (3 | O_TRUNC | O_CREAT))))
					continue;
				/* A missing file runs nowhere (ENOENT under either). */
				if (ll_is_missing(ll_paths[i].path) &&
				    (nrs[n] == SYS_execve || !(flags[f] & O_CREAT)))
					continue;
				if (policy_evaluate(p, &call, ll_ask_path, &ask, &dec) < 0)
					return false;
				(*decided)++;
				if (landlock_agrees(ll, &call, ask.path, ll_paths[i].dir,
						    ll_is_missing(ask.path), &dec, bad,
						    sizeof(bad)) < 0) {
					printf("# %s (flags 0x%llx)\n# policy:\n%s", bad,
					       (unsigned long long)flags[f], text);
					return false;
				}
			}
	return true;
}

/*
 * What lib's unotify_landlock_check() makes of the rules in this world: a
 * directory named without a final "**" is left out when the directory rules grant
 * it the same, else the layer is not used (false). view gets the rules bound.
 */
static bool ll_bind(const struct policy_landlock *ll, struct policy_landlock *view,
		    struct policy_landlock_rule *rules)
{
	*view = *ll;
	view->rules = rules;
	view->n_rules = 0;
	for (size_t i = 0; i < ll->n_rules; i++) {
		const struct policy_landlock_rule *r = &ll->rules[i];

		if (!r->beneath && ll_is_dir(r->path)) {
			if (r->access & ~r->covered &
			    (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR))
				return false;
			continue;
		}
		rules[view->n_rules++] = *r;
	}
	return true;
}

#define LL_RANDOM_POLICIES 400

bool landlock_random_agree(void)
{
	size_t decided = 0, layers = 0, creating = 0;
	int share = random_share(), policies = LL_RANDOM_POLICIES / share;
	char text[2048];

#if !defined(__x86_64__)
	return true; /* the calls above are built for x86_64's numbers and arch */
#endif
	for (int k = 0; k < policies; k++) {
		struct policy_diags diags = {0};
		struct policy *p = policy_new();
		struct policy_landlock *ll = NULL;
		struct policy_program *prog = NULL;
		bool ok = true;

		ll_random_text(text, sizeof(text));
		if (!p || policy_parse_text(p, "r", text, &diags) < 0 ||
		    policy_finish(p, &diags) < 0 ||
		    policy_landlock_build(p, k % 4 ? 7 : 2, &ll) < 0 ||
		    policy_compile_landlock(p, ll, &prog) < 0)
			ok = false;
		else if (ll->decided[POLICY_LANDLOCK_OPEN] || ll->decided[POLICY_LANDLOCK_EXEC])
			layers++;
		if (ok && ll->open_create)
			creating++;
		if (ok) {
			struct policy_landlock_rule rules[64];
			struct policy_landlock view;

			if (ll->n_rules <= ARRAY_SIZE(rules) && ll_bind(ll, &view, rules))
				ok = ll_random_calls(p, &view, prog, text, &decided);
		}
		if (!ok)
			printf("# random Landlock policy %d failed:\n%s", k, text);
		policy_program_free(prog);
		policy_landlock_free(ll);
		policy_diags_free(&diags);
		policy_free(p);
		if (!ok)
			return false;
	}
	printf("# %zu of %d random policies moved to Landlock (%zu with the opens that create), "
	       "%zu calls decided by its model\n",
	       layers, policies, creating, decided);
	return layers * share > 40 && creating * share > 10 && decided * share > 1000;
}
