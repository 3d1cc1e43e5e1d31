/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify policy explain FILE... [--syscall NAME] [--json]`: for each
 * syscall a policy names, the layer its calls are decided in, the rules they
 * meet in order (the default last, when it can be reached), and how each
 * verdict is carried out: in the kernel, by the supervisor without running
 * the call, by letting the kernel run it after a decision on registers, by
 * performing it for the program, or, where no safe way exists, unsafely.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "commands.h"
#include "explain.h"
#include "explain-landlock.h"
#include "explain-rules.h"
#include "run.h"
#include "lib/creds-calls.h"
#include "lib/util.h"
#include "policy/policy.h"

/* How a verdict reached for one call is carried out (the man page lists them). */
enum explain_how {
	EXPLAIN_KERNEL,
	EXPLAIN_ERRNO,
	EXPLAIN_VALUE,
	EXPLAIN_KILL,
	EXPLAIN_CONTINUE,
	EXPLAIN_PERFORM_OPEN,
	EXPLAIN_PERFORM_STAT,
	EXPLAIN_PERFORM_READLINK,
	EXPLAIN_PERFORM_ACCESS,
	EXPLAIN_PERFORM_MUTATE,
	EXPLAIN_PERFORM_SOCKET,
	EXPLAIN_UNSAFE,
	EXPLAIN_HOW_MAX,
};

static const struct {
	const char *name;
	const char *text;
} explain_hows[EXPLAIN_HOW_MAX] = {
	[EXPLAIN_KERNEL] = { "kernel", "in the kernel: the filter settles it, no round trip" },
	[EXPLAIN_ERRNO] = { "supervisor-errno", "the supervisor fails the call: it never runs" },
	[EXPLAIN_VALUE] = { "supervisor-value",
			    "the supervisor completes the call with the value: it never runs" },
	[EXPLAIN_KILL] = { "supervisor-kill",
			   "the supervisor kills the process (SIGKILL) and fails the call" },
	[EXPLAIN_CONTINUE] = { "continue", "CONTINUE: the kernel runs the call, decided on "
					   "registers only (nothing a racing thread can change)" },
	[EXPLAIN_PERFORM_OPEN] = { "performed-open",
				   "performed by the supervisor as the program and the file "
				   "descriptor injected (ADDFD with SEND)" },
	[EXPLAIN_PERFORM_STAT] = { "performed-stat",
				   "performed by the supervisor on the resolved file, the result "
				   "written back (through /proc/PID/mem)" },
	[EXPLAIN_PERFORM_READLINK] = { "performed-readlink",
				       "performed by the supervisor on the resolved link, the text "
				       "written back (through /proc/PID/mem)" },
	[EXPLAIN_PERFORM_ACCESS] = { "performed-access",
				     "performed by the supervisor: faccessat2 on the resolved file "
				     "as the program" },
	[EXPLAIN_PERFORM_MUTATE] = { "performed-mutate",
				     "performed by the supervisor: the *at call on the resolved "
				     "directory fds, as the program" },
	[EXPLAIN_PERFORM_SOCKET] = { "performed-socket",
				     "performed by the supervisor on the program's own socket "
				     "(pidfd_getfd) with the address it read" },
	[EXPLAIN_UNSAFE] = { "unsafe", "NOT enforced safely: CONTINUE after reading the "
				       "program's memory, which a racing thread can change "
				       "before the kernel reads it again" },
};

/* One rule as a call of one syscall meets it. */
struct explain_rule {
	size_t index; /* for policy_rule_describe; policy_rule_count(p) is the default */
	struct policy_rule_info info;
	enum policy_needs needs;        /* to decide a call of this syscall */
	enum policy_enforcement safety; /* policy_rule_needs()'s word on a memory read */
	enum explain_how how[2]; /* the way when no memory was read on the way, then when it was */
	size_t n_how;
};

struct explain_syscall {
	int nr;
	enum policy_layer layer;
	struct explain_rule *rules;
	size_t n_rules;
};

struct explain {
	struct policy *policy;
	struct policy_program *prog;
	struct run_landlock landlock;
	char **files;
	size_t n_files;
	int only_nr; /* --syscall, or -1 */
	bool json;
};

/* How an allow or log on nr is carried out once the program's memory was read. */
static enum explain_how explain_how_performed(int nr, enum policy_enforcement safety)
{
	static const enum explain_how by_perform[] = {
		[POLICY_PERFORM_OPEN] = EXPLAIN_PERFORM_OPEN,
		[POLICY_PERFORM_STAT] = EXPLAIN_PERFORM_STAT,
		[POLICY_PERFORM_READLINK] = EXPLAIN_PERFORM_READLINK,
		[POLICY_PERFORM_ACCESS] = EXPLAIN_PERFORM_ACCESS,
		[POLICY_PERFORM_MUTATE] = EXPLAIN_PERFORM_MUTATE,
		[POLICY_PERFORM_XATTR] = EXPLAIN_PERFORM_STAT, /* the same way: the result written */
		[POLICY_PERFORM_NONE] = EXPLAIN_UNSAFE,
	};
	static const char *const addressed[] = { "connect", "bind", "sendto", "sendmsg",
						 "sendmmsg" };
	const struct policy_pathcall *pc = policy_pathcall_find(nr);
	const char *name = policy_syscall_name(nr);

	if (safety == POLICY_ENFORCED_UNSAFE)
		return EXPLAIN_UNSAFE;
	if (pc && (size_t)pc->perform < ARRAY_SIZE(by_perform))
		return by_perform[pc->perform];
	for (size_t i = 0; name && i < ARRAY_SIZE(addressed); i++)
		if (strcmp(name, addressed[i]) == 0)
			return EXPLAIN_PERFORM_SOCKET;
	return EXPLAIN_UNSAFE;
}

/*
 * read_before: 0 no earlier rule read memory, 1 one may have (its register
 * conditions decide whether it got that far), 2 one certainly did.
 */
static void explain_rule_how(int nr, enum policy_layer layer, int read_before, bool moves,
			     struct explain_rule *er)
{
	const struct policy_rule_info *in = &er->info;
	bool read = er->needs == POLICY_NEEDS_MEMORY || read_before == 2 || moves;

	er->n_how = 1;
	/* A mixed syscall's fallback is settled by the filter default (compile.c). */
	if (layer == POLICY_LAYER_KERNEL ||
	    (layer == POLICY_LAYER_MIXED && er->needs == POLICY_NEEDS_NOTHING)) {
		er->how[0] = EXPLAIN_KERNEL;
		return;
	}
	switch (in->action) {
	case POLICY_DENY:
		er->how[0] = EXPLAIN_ERRNO;
		return;
	case POLICY_RETURN:
		er->how[0] = EXPLAIN_VALUE;
		return;
	case POLICY_KILL:
		er->how[0] = EXPLAIN_KILL;
		return;
	case POLICY_ALLOW:
	case POLICY_LOG:
		break;
	}
	er->how[0] = read ? explain_how_performed(nr, er->safety) : EXPLAIN_CONTINUE;
	if (!read && read_before == 1) {
		er->how[1] = explain_how_performed(nr, POLICY_ENFORCED_PERFORMED);
		er->n_how = 2;
	}
}

/* Adds rule index for es->nr; returns 1 when it decides every call that reaches it. */
static int explain_add_rule(const struct explain *x, struct explain_syscall *es, size_t index,
			    int *read_before)
{
	struct explain_rule *er = &es->rules[es->n_rules];
	int r;

	er->index = index;
	r = policy_rule_info(x->policy, index, &er->info);
	if (r == 0)
		r = policy_rule_needs(x->policy, index, es->nr, &er->needs, &er->safety);
	if (r < 0)
		return r;
	/* A rule that can never match a call of this syscall (a category's) is left out. */
	if (er->needs == POLICY_NEEDS_NEVER)
		return 0;
	explain_rule_how(es->nr, es->layer, *read_before,
			 policy_syscall_moves_checked(x->policy, es->nr), er);
	if (er->needs == POLICY_NEEDS_MEMORY)
		*read_before = policy_rule_memory_first(x->policy, index, es->nr) ? 2
			       : *read_before < 2 ? 1 : 2;
	es->n_rules++;
	return er->needs == POLICY_NEEDS_NOTHING;
}

/* The rules a call of nr meets, in order: those naming it, then the default if reachable. */
static int explain_collect(const struct explain *x, int nr, struct explain_syscall *ret)
{
	size_t n = policy_syscall_rule_count(x->policy, nr), i;
	struct explain_syscall es = { .nr = nr };
	int read_before = 0, r = 0;

	es.rules = calloc(n + 1, sizeof(*es.rules));
	if (!es.rules)
		return -ENOMEM;
	r = policy_syscall_layer(x->policy, x->prog, nr, &es.layer);
	for (size_t k = 0; k < n && r == 0; k++) {
		r = policy_syscall_rule_at(x->policy, nr, k, &i);
		if (r == 0)
			r = explain_add_rule(x, &es, i, &read_before);
	}
	/* r == 1: an unconditional rule decides every call that reaches it. */
	if (r == 0)
		r = explain_add_rule(x, &es, policy_rule_count(x->policy), &read_before);
	if (r < 0) {
		free(es.rules);
		return r;
	}
	*ret = es;
	return 0;
}

static const char *explain_layer_name(enum policy_layer layer)
{
	switch (layer) {
	case POLICY_LAYER_KERNEL:
		return "kernel";
	case POLICY_LAYER_MIXED:
		return "mixed";
	default:
		return "supervisor";
	}
}

static const char *explain_layer_text(enum policy_layer layer)
{
	switch (layer) {
	case POLICY_LAYER_KERNEL:
		return "every call settled in the kernel";
	case POLICY_LAYER_MIXED:
		return "calls meeting a rule's register conditions go to the supervisor, "
		       "the kernel settles the others";
	default:
		return "every call goes to the supervisor";
	}
}

static void explain_where(const struct policy_rule_info *in, char *buf, size_t size)
{
	if (in->file && in->line > 0)
		snprintf(buf, size, "%s:%d", in->file, in->line);
	else
		snprintf(buf, size, "(no default line)");
}

static void explain_print_rule(const struct explain *x, const struct explain_rule *er)
{
	char text[1024], where[512];

	policy_rule_describe(x->policy, er->index, text, sizeof(text));
	explain_where(&er->info, where, sizeof(where));
	printf("  %s: %s\n", where, text);
	if (er->n_how == 1)
		printf("      %s\n", explain_hows[er->how[0]].text);
	else
		printf("      if no earlier rule read memory: %s\n"
		       "      if an earlier rule read memory: %s\n",
		       explain_hows[er->how[0]].text, explain_hows[er->how[1]].text);
}

static void explain_print_syscall(const struct explain *x, const struct explain_syscall *es)
{
	if (policy_landlock_decides(x->landlock.layer, es->nr))
		printf("\n%s (%d): landlock: %s\n", policy_syscall_name(es->nr), es->nr,
		       explain_landlock_layer_text(&x->landlock, es->nr));
	else
		printf("\n%s (%d): %s: %s\n", policy_syscall_name(es->nr), es->nr,
		       explain_layer_name(es->layer), explain_layer_text(es->layer));
	if (policy_syscall_moves_checked(x->policy, es->nr))
		printf("  (moves: allowed only where no path pattern tells the old name from the "
		       "new one, else EXDEV)\n");
	explain_landlock_print_syscall(&x->landlock, es->nr);
	for (size_t i = 0; i < es->n_rules; i++) {
		explain_print_rule(x, &es->rules[i]);
		explain_landlock_print_rule(&x->landlock, es->nr, es->rules[i].index);
	}
}

static const char *explain_needs_name(enum policy_needs needs)
{
	switch (needs) {
	case POLICY_NEEDS_NEVER:
		return "never";
	case POLICY_NEEDS_NOTHING:
		return "nothing";
	case POLICY_NEEDS_REGISTERS:
		return "registers";
	default:
		return "memory";
	}
}

static struct json_object *explain_json_rule(const struct explain *x, const struct explain_rule *er)
{
	struct json_object *o = json_object_new_object(), *how = json_object_new_array();
	const struct policy_rule_info *in = &er->info;
	char text[1024];

	policy_rule_describe(x->policy, er->index, text, sizeof(text));
	json_object_object_add(o, "file", in->file ? json_object_new_string(in->file) : NULL);
	json_object_object_add(o, "line", json_object_new_int(in->line));
	json_object_object_add(o, "default", json_object_new_boolean(in->is_default));
	json_object_object_add(o, "text", json_object_new_string(text));
	json_object_object_add(o, "action", json_object_new_string(policy_action_name(in->action)));
	if (in->action == POLICY_DENY) {
		const char *e = policy_errno_name(in->error);

		json_object_object_add(o, "errno", e ? json_object_new_string(e)
						     : json_object_new_int(in->error));
	}
	if (in->action == POLICY_RETURN)
		json_object_object_add(o, "value", json_object_new_int64(in->value));
	json_object_object_add(o, "needs", json_object_new_string(explain_needs_name(er->needs)));
	for (size_t i = 0; i < er->n_how; i++)
		json_object_array_add(how, json_object_new_string(explain_hows[er->how[i]].name));
	json_object_object_add(o, "enforcement", how);
	return o;
}

static struct json_object *explain_json_syscall(const struct explain *x,
						const struct explain_syscall *es)
{
	struct json_object *o = json_object_new_object(), *rules = json_object_new_array();

	json_object_object_add(o, "name", json_object_new_string(policy_syscall_name(es->nr)));
	json_object_object_add(o, "nr", json_object_new_int(es->nr));
	json_object_object_add(o, "layer", json_object_new_string(
		policy_landlock_decides(x->landlock.layer, es->nr) ? "landlock"
								   : explain_layer_name(es->layer)));
	explain_landlock_json_syscall(&x->landlock, es->nr, o);
	for (size_t i = 0; i < es->n_rules; i++) {
		struct json_object *r = explain_json_rule(x, &es->rules[i]);

		explain_landlock_json_rule(&x->landlock, es->nr, es->rules[i].index, r);
		json_object_array_add(rules, r);
	}
	json_object_object_add(o, "rules", rules);
	return o;
}

/* Syscalls no rule names: the default decides them, in the filter or the supervisor. */
static int explain_others(const struct explain *x, struct explain_rule *ret)
{
	size_t def = policy_rule_count(x->policy);
	int r;

	*ret = (struct explain_rule){ .index = def, .n_how = 1, .needs = POLICY_NEEDS_NOTHING };
	r = policy_rule_info(x->policy, def, &ret->info);
	if (r < 0)
		return r;
	switch (ret->info.action) {
	case POLICY_ALLOW:
	case POLICY_KILL:
		ret->how[0] = EXPLAIN_KERNEL;
		break;
	case POLICY_DENY:
		/* libseccomp refuses ERRNO(4095): compile.c sends those calls to the supervisor. */
		ret->how[0] = ret->info.error < 4095 ? EXPLAIN_KERNEL : EXPLAIN_ERRNO;
		break;
	case POLICY_RETURN:
		ret->how[0] = EXPLAIN_VALUE;
		break;
	case POLICY_LOG:
		ret->how[0] = EXPLAIN_CONTINUE;
		break;
	}
	return 0;
}

static bool explain_wanted(const struct explain *x, int nr)
{
	if (x->only_nr >= 0)
		return nr == x->only_nr;
	return policy_syscall_rule_count(x->policy, nr) > 0 ||
	       policy_syscall_moves_checked(x->policy, nr);
}

/* Where each rule of es is enforced, for the section by rule (explain-rules.h). */
static int explain_place(const struct explain *x, const struct explain_syscall *es,
			 struct explain_at_list *at)
{
	int r = 0;

	for (size_t i = 0; i < es->n_rules && r == 0; i++) {
		const struct explain_rule *er = &es->rules[i];

		if (explain_landlock_rule_decided(&x->landlock, es->nr, er->index))
			r = explain_at_add(at, er->index, es->nr, EXPLAIN_AT_LANDLOCK, NULL);
		else if (er->n_how == 1 && er->how[0] == EXPLAIN_KERNEL)
			r = explain_at_add(at, er->index, es->nr, EXPLAIN_AT_KERNEL, NULL);
		else
			r = explain_at_add(at, er->index, es->nr, EXPLAIN_AT_SUPERVISOR,
					   explain_landlock_why_not(&x->landlock, es->nr));
	}
	return r;
}

static int explain_walk(const struct explain *x, struct json_object *list,
			struct explain_at_list *at)
{
	for (size_t nr = 0; nr < x->prog->nr_max; nr++) {
		struct explain_syscall es;
		int r;

		if (!explain_wanted(x, (int)nr))
			continue;
		r = explain_collect(x, (int)nr, &es);
		if (r < 0)
			return r;
		if (list)
			json_object_array_add(list, explain_json_syscall(x, &es));
		else
			explain_print_syscall(x, &es);
		r = explain_place(x, &es, at);
		free(es.rules);
		if (r < 0)
			return r;
	}
	return 0;
}

/* "in effect", "not needed" or "OFF at FILE:LINE: GAP": the implicit rule sets. */
static const char *explain_implicit_state(const struct policy_implicit_info *in, char *buf,
					  size_t size)
{
	if (in->off_file)
		snprintf(buf, size, "OFF at %s:%d: %s", in->off_file, in->off_line, in->gap);
	else
		snprintf(buf, size, "%s", in->on ? "in effect" : "not needed");
	return buf;
}

static void explain_print_implicit(const struct explain *x)
{
	struct policy_implicit_info in;
	char state[512];

	printf("implicit rules (their rules are listed as implicit:NAME):\n");
	for (size_t i = 0; policy_implicit_info(x->policy, i, &in) == 0; i++)
		printf("  %s: %s\n", in.name, explain_implicit_state(&in, state, sizeof(state)));
}

static struct json_object *explain_json_implicit(const struct explain *x)
{
	struct json_object *o = json_object_new_object();
	struct policy_implicit_info in;
	char state[512];

	for (size_t i = 0; policy_implicit_info(x->policy, i, &in) == 0; i++)
		json_object_object_add(o, in.name, json_object_new_string(explain_implicit_state(
							   &in, state, sizeof(state))));
	return o;
}

/* With fixed-view the filter notifies credential changes (lib/creds-calls.h): say which. */
static void explain_print_creds(const struct explain *x)
{
	const char *sep = "";

	if (!policy_watches_creds(x->policy))
		return;
	printf("credential changes (");
	for (size_t nr = 0; nr < x->prog->nr_max; nr++)
		if (creds_call((long)nr)) {
			printf("%s%s", sep, policy_syscall_name((int)nr));
			sep = ", ";
		}
	printf("): to the supervisor where the policy lets them run (it keeps what a thread "
	       "is between its calls, and drops it there)\n");
}

/* Where binds are decided, so is a listen that binds (policy_listen_binds): say so. */
static void explain_print_listen(const struct explain *x)
{
	if (policy_listen_binds(x->policy))
		printf("listen: to the supervisor where the policy lets it run (on a socket without "
		       "a port it binds one: decided as a bind of the socket's address, port 0)\n");
}

static void explain_print_header(const struct explain *x, const struct explain_rule *others)
{
	printf("policy:");
	for (size_t i = 0; i < x->n_files; i++)
		printf(" %s", x->files[i]);
	printf("\nforeign architectures (i386, x32 entry points): killed in the kernel\n");
	explain_print_implicit(x);
	explain_print_creds(x);
	explain_print_listen(x);
	explain_landlock_print_header(&x->landlock);
	if (x->only_nr >= 0)
		return;
	printf("\nevery syscall no rule names:\n");
	explain_print_rule(x, others);
}

static int explain_run(const struct explain *x)
{
	struct json_object *o = NULL, *list = NULL;
	struct explain_at_list at = { 0 };
	struct explain_rule others;
	int r;

	r = explain_others(x, &others);
	if (r < 0)
		return r;
	if (!x->json) {
		explain_print_header(x, &others);
		r = explain_walk(x, NULL, &at);
		if (r == 0 && x->only_nr < 0)
			explain_at_print(x->policy, &at);
		explain_at_free(&at);
		return r;
	}
	o = json_object_new_object();
	list = json_object_new_array();
	json_object_object_add(o, "files", json_object_new_array());
	for (size_t i = 0; i < x->n_files; i++)
		json_object_array_add(json_object_object_get(o, "files"),
				      json_object_new_string(x->files[i]));
	json_object_object_add(o, "foreign_arch", json_object_new_string("kill"));
	json_object_object_add(o, "implicit", explain_json_implicit(x));
	json_object_object_add(o, "credential_changes_notified",
			       json_object_new_boolean(policy_watches_creds(x->policy)));
	json_object_object_add(o, "listen_decided_as_bind",
			       json_object_new_boolean(policy_listen_binds(x->policy)));
	explain_landlock_json_header(&x->landlock, o);
	json_object_object_add(o, "default", explain_json_rule(x, &others));
	r = explain_walk(x, list, &at);
	json_object_object_add(o, "syscalls", list);
	json_object_object_add(o, "rules", explain_at_json(x->policy, &at));
	explain_at_free(&at);
	if (r == 0)
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return r;
}

static void explain_usage(FILE *out)
{
	fprintf(out, "Usage: unotify policy explain FILE... [--syscall NAME] [--json]\n"
		     "Shows, per syscall the policy names, its layer, the rules its calls meet\n"
		     "in order and how each verdict is enforced, then the layers of each rule.\n"
		     "See unotify(1).\n");
}

/* Returns 1 to go on, 0 after --help, EXIT_USAGE on bad usage (reported). */
static int explain_parse_args(int argc, char **argv, struct explain *x, const char **ret_name)
{
	static const struct option options[] = {
		{ "syscall", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	*ret_name = NULL;
	while ((c = getopt_long(argc, argv, "s:jh", options, NULL)) != -1) {
		switch (c) {
		case 's':
			*ret_name = optarg;
			break;
		case 'j':
			x->json = true;
			break;
		case 'h':
			explain_usage(stdout);
			return 0;
		default:
			explain_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		explain_usage(stderr);
		return EXIT_USAGE;
	}
	x->files = argv + optind;
	x->n_files = (size_t)(argc - optind);
	return 1;
}

int explain_main(int argc, char **argv)
{
	struct explain x = { .only_nr = -1 };
	const char *name;
	int r;

	r = explain_parse_args(argc, argv, &x, &name);
	if (r != 1)
		return r;
	if (name) {
		x.only_nr = policy_syscall_resolve(name);
		if (x.only_nr < 0) {
			fprintf(stderr, "unotify: unknown syscall '%s'\n", name);
			return EXIT_USAGE;
		}
	}
	if (run_policy_load(x.files, x.n_files, NULL, 0, &x.policy) < 0)
		return 1;
	/* The layers as `unotify run` would build them on this kernel. */
	run_landlock_abi(false, &x.landlock);
	r = run_landlock_prepare(x.policy, true, &x.landlock);
	if (r == 0)
		r = policy_compile_landlock(x.policy, x.landlock.layer, &x.prog);
	if (r < 0)
		fprintf(stderr, "unotify: cannot compile the policy: %s\n", strerror(-r));
	else if ((r = explain_run(&x)) < 0)
		fprintf(stderr, "unotify: explain: %s\n", strerror(-r));
	policy_program_free(x.prog);
	run_landlock_free(&x.landlock);
	policy_free(x.policy);
	return r < 0 ? 1 : 0;
}
