/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI seccomp profiles (the JSON of Docker, Podman, containerd, Kubernetes'
 * localhost profiles): read with json-c, evaluated for the actual target,
 * turned into rules (profile-rules.c) where `include` names the file.
 *
 * Read: defaultAction, defaultErrnoRet, syscalls[] (names or the older
 * name, action, errnoRet, args with index/value/valueTwo/op, includes and
 * excludes on caps, arches, minKernel). architectures and archMap are not
 * needed: the filter covers the native architecture and kills calls
 * through any other (x86 and x32 on x86_64), where Docker would run them
 * through the same rules. flags, listenerPath and the like are for the
 * runtime, not the policy, and are ignored. Keys are matched as Go
 * matches them, case aside (profile-keys.c); a key that names nothing is
 * warned of.
 *
 * includes/excludes are decided as Moby decides them: includes.caps needs
 * every listed capability, excludes.caps drops the entry when any is held;
 * arches compare with the native architecture's OCI name (amd64, arm64...);
 * minKernel with the running kernel. The capabilities and kernel come from
 * the caller (policy_set_env): Moby reads the container's bounding set,
 * unotify's daemon passes the target's effective set.
 *
 * Actions (unotify.policy(5) lists them): ALLOW allow; ERRNO deny errnoRet
 * (EPERM when absent; 0 is a call that returns 0 unrun: return 0; above
 * 4095 the kernel caps it to 4095); KILL, KILL_THREAD, KILL_PROCESS kill
 * (the whole process: unotify never leaves a process with a thread gone);
 * TRAP kill (SIGSYS without a handler kills, and a policy has no handler
 * to offer); LOG log; TRACE deny ENOSYS (what the kernel answers when no
 * tracer is attached, as under runc); NOTIFY: no rule, the calls go on to
 * the rules after the include, then the default.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/profile.h"

static void profile_json_putp(json_object **o)
{
	if (*o)
		json_object_put(*o);
}

#define _cleanup_json_ _cleanup_(profile_json_putp)

/* Capabilities by their OCI names; the bit numbers of linux/capability.h. */
static const char *const profile_caps[] = {
	"CAP_CHOWN",	      "CAP_DAC_OVERRIDE",   "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID",	      "CAP_KILL",	    "CAP_SETGID",	   "CAP_SETUID",
	"CAP_SETPCAP",	      "CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN",      "CAP_NET_RAW",	    "CAP_IPC_LOCK",	   "CAP_IPC_OWNER",
	"CAP_SYS_MODULE",     "CAP_SYS_RAWIO",	    "CAP_SYS_CHROOT",	   "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT",      "CAP_SYS_ADMIN",	    "CAP_SYS_BOOT",	   "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE",   "CAP_SYS_TIME",	    "CAP_SYS_TTY_CONFIG",  "CAP_MKNOD",
	"CAP_LEASE",	      "CAP_AUDIT_WRITE",    "CAP_AUDIT_CONTROL",   "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE",   "CAP_MAC_ADMIN",	    "CAP_SYSLOG",	   "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND",  "CAP_AUDIT_READ",	    "CAP_PERFMON",	   "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};

/* The keys Moby's profile type reads, per object (the others are ignored, with a warning). */
static const char *const profile_top_keys[] = {
	"defaultAction", "defaultErrnoRet", "architectures", "archMap", "flags",
	"listenerPath",	 "listenerMetadata", "syscalls",      NULL,
};
static const char *const profile_entry_keys[] = {
	"names", "name", "action", "errnoRet", "args", "comment", "includes", "excludes", NULL,
};
static const char *const profile_arg_keys[] = { "index", "value", "valueTwo", "op", NULL };
static const char *const profile_filter_keys[] = { "caps", "arches", "minKernel", NULL };

/* The native architecture as OCI profiles name it (libseccomp-golang's names). */
static const char *profile_native_arch(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return "x32";
#elif defined(__x86_64__)
	return "amd64";
#elif defined(__i386__)
	return "x86";
#elif defined(__aarch64__)
	return "arm64";
#elif defined(__arm__)
	return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return "ppc64le";
#elif defined(__powerpc64__)
	return "ppc64";
#elif defined(__s390x__)
	return "s390x";
#else
	return "unknown";
#endif
}

bool profile_is_json(const char *name, const char *text)
{
	size_t n = strlen(name);

	if (n >= 5 && strcmp(name + n - 5, ".json") == 0)
		return true;
	text += strspn(text, " \t\r\n");
	return text[0] == '{';
}

void profile_report(struct parser *ps, enum policy_severity sev, const char *hint,
		       const char *fmt, ...)
{
	_cleanup_free_ char *msg = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (sev == POLICY_ERROR)
		ps->errors++;
	if (r < 0 || diag_add(ps->diags, sev, ps->file, 0, 0, hint, "%s", msg) < 0)
		ps->oom = true;
}

void profile_entry_free(struct profile_entry *e)
{
	free(e->nrs);
	for (size_t i = 0; i < e->n_conds; i++)
		free(e->conds[i].text);
	free(e->conds);
	*e = (struct profile_entry){ 0 };
}

/* ---- Actions ---- */

static int profile_errno_of(struct parser *ps, const char *where, json_object *ret, int *out)
{
	int64_t v;

	if (!ret) {
		*out = EPERM;
		return 0;
	}
	if (!json_object_is_type(ret, json_type_int)) {
		profile_report(ps, POLICY_ERROR, NULL, "%s: errnoRet is not a number", where);
		return -EINVAL;
	}
	v = json_object_get_int64(ret);
	if (v < 0) {
		profile_report(ps, POLICY_ERROR, NULL, "%s: errnoRet %lld is negative", where,
			   (long long)v);
		return -EINVAL;
	}
	if (v > 4095) {
		profile_report(ps, POLICY_WARNING, "errno numbers go up to 4095",
			   "%s: errnoRet %lld is beyond 4095: the kernel caps it (deny 4095)",
			   where, (long long)v);
		v = 4095;
	}
	*out = (int)v;
	return 0;
}

/*
 * scmp: libseccomp's action as runc's getAction gives it (KILL is
 * KILL_THREAD there); with_ret: the errnoRet goes in its low 16 bits.
 */
static const struct {
	const char *name;
	enum policy_action action;
	int error;
	uint32_t scmp;
	bool with_ret;
} profile_actions[] = {
	{ "SCMP_ACT_ALLOW", POLICY_ALLOW, 0, SCMP_ACT_ALLOW, false },
	{ "SCMP_ACT_ERRNO", POLICY_DENY, -1, SCMP_ACT_ERRNO(0), true },
	{ "SCMP_ACT_KILL", POLICY_KILL, 0, SCMP_ACT_KILL_THREAD, false },
	{ "SCMP_ACT_KILL_THREAD", POLICY_KILL, 0, SCMP_ACT_KILL_THREAD, false },
	{ "SCMP_ACT_KILL_PROCESS", POLICY_KILL, 0, SCMP_ACT_KILL_PROCESS, false },
	{ "SCMP_ACT_TRAP", POLICY_KILL, 0, SCMP_ACT_TRAP, false },
	{ "SCMP_ACT_LOG", POLICY_LOG, 0, SCMP_ACT_LOG, false },
	{ "SCMP_ACT_TRACE", POLICY_DENY, ENOSYS, SCMP_ACT_TRACE(0), true },
	{ "SCMP_ACT_NOTIFY", POLICY_ALLOW, 0, SCMP_ACT_NOTIFY, false },
};

/* The value runc gives an ERRNO or TRACE action: errnoRet as 16 bits, EPERM when absent. */
static uint32_t profile_ret_data(json_object *errno_ret)
{
	if (!errno_ret || !json_object_is_type(errno_ret, json_type_int))
		return EPERM;
	return (uint32_t)json_object_get_int64(errno_ret) & 0xffff;
}

static int profile_action_of(struct parser *ps, const char *where, json_object *act,
			 json_object *errno_ret, struct profile_action *ret)
{
	const char *name = act && json_object_is_type(act, json_type_string)
				   ? json_object_get_string(act)
				   : NULL;
	size_t i;
	int e;

	for (i = 0; name && i < ARRAY_SIZE(profile_actions); i++)
		if (strcmp(name, profile_actions[i].name) == 0)
			break;
	if (!name || i == ARRAY_SIZE(profile_actions)) {
		profile_report(ps, POLICY_ERROR, "SCMP_ACT_ALLOW, _ERRNO, _KILL, _LOG, _TRACE, _NOTIFY...",
			   "%s: %s action '%s'", where, name ? "unknown" : "missing",
			   name ? name : "");
		return -EINVAL;
	}
	*ret = (struct profile_action){ .action = profile_actions[i].action,
				    .error = profile_actions[i].error,
				    .skip = strcmp(name, "SCMP_ACT_NOTIFY") == 0,
				    .scmp = profile_actions[i].scmp };
	if (profile_actions[i].with_ret)
		ret->scmp |= profile_ret_data(errno_ret);
	if (profile_actions[i].error >= 0)
		return 0;
	e = profile_errno_of(ps, where, errno_ret, &ret->error);
	if (e == 0 && ret->error == 0) {
		/* ERRNO(0): the call returns 0 without running. */
		ret->action = POLICY_RETURN;
		ret->value = 0;
	}
	return e;
}

/* ---- includes / excludes ---- */

/*
 * Exactly as spelt: Moby looks the name up in the bounding set's
 * "CAP_..." names with ==, so "cap_sys_admin" is never held there.
 */
static bool profile_has_cap(const struct policy *p, const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(profile_caps); i++)
		if (strcmp(name, profile_caps[i]) == 0)
			return p->env.caps & (1ull << i);
	return false;
}

static bool profile_kernel_at_least(const struct policy *p, const char *min)
{
	int major = 0, minor = 0;

	if (sscanf(min, "%d.%d", &major, &minor) < 1)
		return false;
	if (p->env.kernel_major == 0 && p->env.kernel_minor == 0)
		return false; /* unknown: what needs a newer kernel does not apply */
	return p->env.kernel_major > major ||
	       (p->env.kernel_major == major && p->env.kernel_minor >= minor);
}

/* Does the filter hold? include: every part must; exclude: any part does. */
static bool profile_filter_holds(const struct policy *p, json_object *f, bool include)
{
	json_object *caps = NULL, *arches = NULL, *min = NULL;
	bool any = false, all = true;

	if (!f || !json_object_is_type(f, json_type_object))
		return !include ? false : true;
	profile_key_get(f, "caps", &caps);
	profile_key_get(f, "arches", &arches);
	profile_key_get(f, "minKernel", &min);
	if (caps && json_object_is_type(caps, json_type_array) &&
	    json_object_array_length(caps) > 0) {
		bool has_all = true, has_any = false;

		for (size_t i = 0; i < json_object_array_length(caps); i++) {
			bool h = profile_has_cap(p, json_object_get_string(
							json_object_array_get_idx(caps, i)));

			has_all &= h;
			has_any |= h;
		}
		all &= has_all;
		any |= has_any;
	}
	if (arches && json_object_is_type(arches, json_type_array) &&
	    json_object_array_length(arches) > 0) {
		bool native = false;

		for (size_t i = 0; i < json_object_array_length(arches); i++) {
			const char *a = json_object_get_string(json_object_array_get_idx(arches, i));

			native |= a && strcmp(a, profile_native_arch()) == 0;
		}
		all &= native;
		any |= native;
	}
	if (min && json_object_is_type(min, json_type_string) && json_object_get_string(min)) {
		bool at_least = profile_kernel_at_least(p, json_object_get_string(min));

		all &= at_least;
		any |= at_least;
	}
	return include ? all : any;
}

/* ---- syscalls[] ---- */

static const struct {
	const char *name;
	enum policy_cmp cmp;
	const char *text;
} profile_ops[] = {
	{ "SCMP_CMP_NE", POLICY_CMP_NE, "!=" },	 { "SCMP_CMP_LT", POLICY_CMP_LT, "<" },
	{ "SCMP_CMP_LE", POLICY_CMP_LE, "<=" },	 { "SCMP_CMP_EQ", POLICY_CMP_EQ, "==" },
	{ "SCMP_CMP_GE", POLICY_CMP_GE, ">=" },	 { "SCMP_CMP_GT", POLICY_CMP_GT, ">" },
	{ "SCMP_CMP_MASKED_EQ", POLICY_CMP_MASKED_EQ, "&" },
};

static uint64_t profile_u64(json_object *v)
{
	int64_t s;

	if (!v)
		return 0;
	s = json_object_get_int64(v);
	/* json-c keeps numbers above INT64_MAX as unsigned; negative ones are two's complement. */
	return s < 0 ? (uint64_t)s : json_object_get_uint64(v);
}

static int profile_arg(struct parser *ps, const char *entry, size_t k, json_object *a,
		       struct policy_cond *c)
{
	json_object *index = NULL, *value = NULL, *two = NULL, *op = NULL;
	const char *opname;
	char where[64];
	size_t i;

	snprintf(where, sizeof(where), "%s.args[%zu]", entry, k);
	profile_keys_check(ps, where, a, profile_arg_keys);
	profile_key_get(a, "index", &index);
	profile_key_get(a, "value", &value);
	profile_key_get(a, "valueTwo", &two);
	profile_key_get(a, "op", &op);
	opname = op ? json_object_get_string(op) : "";
	for (i = 0; i < ARRAY_SIZE(profile_ops) && strcmp(opname, profile_ops[i].name) != 0; i++)
		;
	if (!index || json_object_get_int64(index) < 0 || json_object_get_int64(index) > 5 ||
	    i == ARRAY_SIZE(profile_ops)) {
		profile_report(ps, POLICY_ERROR, "args need an index 0..5 and an op SCMP_CMP_*",
			   "%s: invalid argument condition", where);
		return -EINVAL;
	}
	*c = (struct policy_cond){ .arg = (unsigned int)json_object_get_int64(index),
				   .op = profile_ops[i].cmp };
	if (c->op == POLICY_CMP_MASKED_EQ) {
		c->mask = profile_u64(value);
		c->value = profile_u64(two);
		if (asprintf(&c->text, "arg%u&0x%llx==0x%llx", c->arg, (unsigned long long)c->mask,
			     (unsigned long long)c->value) < 0)
			c->text = NULL;
	} else {
		c->value = profile_u64(value);
		if (asprintf(&c->text, "arg%u%s0x%llx", c->arg, profile_ops[i].text,
			     (unsigned long long)c->value) < 0)
			c->text = NULL;
	}
	return c->text ? 0 : -ENOMEM;
}

static int profile_entry_args(struct parser *ps, const char *where, json_object *args,
			  struct profile_entry *e)
{
	size_t n;
	int r;

	if (!args || json_object_is_type(args, json_type_null))
		return 0;
	if (!json_object_is_type(args, json_type_array)) {
		profile_report(ps, POLICY_ERROR, NULL, "%s: args is not an array", where);
		return -EINVAL;
	}
	n = json_object_array_length(args);
	e->conds = calloc(n ? n : 1, sizeof(*e->conds));
	if (!e->conds)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		r = profile_arg(ps, where, i, json_object_array_get_idx(args, i), &e->conds[i]);
		if (r < 0)
			return r;
		e->n_conds++;
	}
	return 0;
}

/* The syscalls of an entry: names[] (or name); other architectures' names are skipped. */
/* Names no architecture of libseccomp knows (newer syscalls, typos): reported once. */
struct profile_unknown {
	size_t count;
	char list[160];
};

static void profile_unknown_add(struct profile_unknown *u, const char *name)
{
	size_t len = strlen(u->list);

	if (strstr(u->list, name))
		return;
	u->count++;
	if (len + strlen(name) + 6 < sizeof(u->list))
		snprintf(u->list + len, sizeof(u->list) - len, "%s%s", len ? ", " : "", name);
	else if (!strstr(u->list, "..."))
		snprintf(u->list + len, sizeof(u->list) - len, ", ...");
}

static int profile_entry_names(struct parser *ps, const char *where, json_object *s,
			   struct profile_entry *e, struct profile_unknown *unknown)
{
	json_object *names = NULL, *name = NULL;
	size_t n = 1;
	int r;

	if (profile_key_get(s, "names", &names) &&
	    json_object_is_type(names, json_type_array))
		n = json_object_array_length(names);
	else if (!profile_key_get(s, "name", &name) ||
		 !json_object_is_type(name, json_type_string)) {
		profile_report(ps, POLICY_ERROR, NULL, "%s: no names", where);
		return -EINVAL;
	}
	e->nrs = calloc(n ? n : 1, sizeof(int));
	if (!e->nrs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_object *o = names ? json_object_array_get_idx(names, i) : name;
		const char *str = json_object_get_string(o);
		int nr;

		if (!str)
			continue;
		r = names_lookup_syscall(str, &nr);
		if (r == 0)
			e->nrs[e->n_nrs++] = nr;
		else if (r == -ENOENT)
			profile_unknown_add(unknown, str);
	}
	return 0;
}

static void profile_filter_keys_check(struct parser *ps, const char *entry, const char *what,
				      json_object *f)
{
	char where[64];

	snprintf(where, sizeof(where), "%s.%s", entry, what);
	profile_keys_check(ps, where, f, profile_filter_keys);
}

/* One entry of syscalls[]: 1 when it applies to the target (kept in *e), 0 when not. */
static int profile_entry(struct parser *ps, size_t index, json_object *s, struct profile_entry *e,
		     struct profile_unknown *unknown)
{
	json_object *act = NULL, *ret = NULL, *args = NULL, *inc = NULL, *exc = NULL;
	char where[32];
	int r;

	snprintf(where, sizeof(where), "syscalls[%zu]", index);
	*e = (struct profile_entry){ .index = index };
	if (!json_object_is_type(s, json_type_object)) {
		profile_report(ps, POLICY_ERROR, NULL, "%s: not an object", where);
		return -EINVAL;
	}
	profile_keys_check(ps, where, s, profile_entry_keys);
	profile_key_get(s, "includes", &inc);
	profile_key_get(s, "excludes", &exc);
	profile_filter_keys_check(ps, where, "includes", inc);
	profile_filter_keys_check(ps, where, "excludes", exc);
	if (!profile_filter_holds(ps->p, inc, true) || profile_filter_holds(ps->p, exc, false))
		return 0;
	profile_key_get(s, "action", &act);
	profile_key_get(s, "errnoRet", &ret);
	profile_key_get(s, "args", &args);
	r = profile_action_of(ps, where, act, ret, &e->act);
	if (r == 0)
		r = profile_entry_names(ps, where, s, e, unknown);
	if (r == 0)
		r = profile_entry_args(ps, where, args, e);
	return r < 0 ? r : 1;
}

static int profile_entries(struct parser *ps, json_object *calls, struct profile_entry **ret,
		       size_t *ret_n)
{
	size_t n = json_object_array_length(calls), kept = 0;
	struct profile_unknown unknown = { 0 };
	struct profile_entry *es = calloc(n ? n : 1, sizeof(*es));
	int r = 0;

	if (!es)
		return -ENOMEM;
	for (size_t i = 0; i < n && r != -ENOMEM; i++) {
		r = profile_entry(ps, i, json_object_array_get_idx(calls, i), &es[kept], &unknown);
		if (r > 0)
			kept++;
		else
			profile_entry_free(&es[kept]);
	}
	if (unknown.count)
		profile_report(ps, POLICY_WARNING,
			   "libseccomp cannot filter them: the default decides their calls",
			   "%zu syscall name%s unknown to libseccomp %u.%u: %s", unknown.count,
			   unknown.count == 1 ? "" : "s", seccomp_version()->major,
			   seccomp_version()->minor, unknown.list);
	*ret = es;
	*ret_n = kept;
	return r == -ENOMEM ? r : 0;
}

/* defaultAction: the policy's default (none for SCMP_ACT_NOTIFY: the policy's own decides). */
static int profile_default(struct parser *ps, json_object *root, struct profile_action *def)
{
	json_object *act = NULL, *ret = NULL;
	struct policy *p = ps->p;
	char hint[128];
	int r;

	profile_key_get(root, "defaultAction", &act);
	profile_key_get(root, "defaultErrnoRet", &ret);
	r = profile_action_of(ps, "defaultAction", act, ret, def);
	if (r < 0 || def->skip)
		return r;
	if (p->has_default) {
		snprintf(hint, sizeof(hint), "the first is at %s:%d", p->def.file, p->def.line);
		profile_report(ps, POLICY_ERROR, hint,
			   "a policy has one default, and this profile's defaultAction is one");
		return -EINVAL;
	}
	p->def = (struct policy_rule){ .file = ps->file, .action = def->action,
				       .error = def->error, .value = def->value };
	p->has_default = true;
	return 0;
}

static int profile_import(struct parser *ps, json_object *root)
{
	json_object *calls = NULL;
	struct profile_entry *es = NULL;
	struct profile_action def;
	size_t n = 0;
	int r;

	if (!json_object_is_type(root, json_type_object)) {
		profile_report(ps, POLICY_ERROR, NULL, "an OCI seccomp profile is a JSON object");
		return -EINVAL;
	}
	profile_keys_check(ps, "top level", root, profile_top_keys);
	r = profile_default(ps, root, &def);
	if (r == -ENOMEM)
		return r;
	if (profile_key_get(root, "syscalls", &calls) &&
	    !json_object_is_type(calls, json_type_null)) {
		if (!json_object_is_type(calls, json_type_array)) {
			profile_report(ps, POLICY_ERROR, NULL, "syscalls is not an array");
			return -EINVAL;
		}
		r = profile_entries(ps, calls, &es, &n);
	}
	if (r == 0 && ps->errors == 0)
		r = profile_emit(ps, es, n, r == 0 ? &def : NULL);
	for (size_t i = 0; i < n; i++)
		profile_entry_free(&es[i]);
	free(es);
	return r;
}

/* Where json-c stopped, as line and column, for the error message. */
static void profile_position(const char *text, size_t off, int *ret_line, int *ret_col)
{
	int line = 1, col = 1;

	for (size_t i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	*ret_line = line;
	*ret_col = col;
}

int profile_parse_text(struct policy *p, const char *name, const char *text, size_t len,
		   struct policy_diags *diags, size_t *ret_errors)
{
	struct parser ps = { .p = p, .diags = diags };
	_cleanup_json_ json_object *root = NULL;
	struct json_tokener *tok;
	enum json_tokener_error jerr;
	int r, line, col;

	r = policy_add_file_name(p, name, &ps.file);
	if (r < 0)
		return r;
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	if (!root || jerr != json_tokener_success) {
		profile_position(text, json_tokener_get_parse_end(tok), &line, &col);
		r = diag_add(diags, POLICY_ERROR, name, line, col, "an OCI seccomp profile is JSON",
			     "invalid JSON: %s",
			     json_tokener_error_desc(jerr == json_tokener_success
							     ? json_tokener_error_parse_eof
							     : jerr));
		json_tokener_free(tok);
		*ret_errors = 1;
		return r;
	}
	json_tokener_free(tok);
	r = profile_import(&ps, root);
	if (r == -ENOMEM || ps.oom)
		return -ENOMEM;
	*ret_errors = ps.errors + (r < 0 && ps.errors == 0);
	return 0;
}
