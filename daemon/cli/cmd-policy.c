/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify policy check FILE...`: every error of every file, then a verdict.
 * `unotify policy compile FILE... --bpf OUT | --pfc`: the kernel layer alone.
 * `unotify policy explain ...`: see explain.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "explain.h"
#include "run.h"
#include "run-landlock.h"
#include "lib/util.h"
#include "policy/policy.h"

static int policy_check_one(const char *path)
{
	struct policy_diags diags = { 0 };
	struct policy *p = policy_new();
	bool failed;
	int r;

	if (!p) {
		fprintf(stderr, "unotify: out of memory\n");
		return -1;
	}
	r = policy_parse_file(p, path, &diags);
	if (r >= 0 || diags.errors > 0)
		/* Whole-policy checks run even after parse errors: report everything at once. */
		if (policy_finish(p, &diags) < 0 && r >= 0)
			r = -EINVAL;
	fflush(stdout);
	policy_diags_print(&diags, stderr);
	failed = r < 0 || diags.errors > 0;
	/* Never a bare OK next to warnings: they may say the policy can be walked around. */
	if (!failed && diags.warnings)
		printf("%s: OK, %zu warning%s\n", path, diags.warnings, diags.warnings > 1 ? "s" : "");
	else if (!failed)
		printf("%s: OK\n", path);
	else if (diags.count == 0)
		fprintf(stderr, "%s: %s\n", path, strerror(-r));
	policy_diags_free(&diags);
	policy_free(p);
	return failed ? -1 : 0;
}

/* Writes all of buf to fd. */
static int policy_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return negative_errno();
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int policy_write_bpf(const struct policy_program *prog, const char *out)
{
	size_t len = (size_t)prog->bpf.len * sizeof(struct sock_filter);
	_cleanup_close_ int fd = -1;
	int r;

	if (strcmp(out, "-") == 0)
		return policy_write_all(STDOUT_FILENO, prog->bpf.filter, len);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return negative_errno();
	r = policy_write_all(fd, prog->bpf.filter, len);
	if (r == 0 && close(TAKE_FD(fd)) < 0)
		r = negative_errno();
	return r;
}

/*
 * Calls the filter sends to a supervisor fail with ENOSYS where it is loaded
 * without one (bwrap --seccomp): say which, so nobody is surprised.
 */
static void policy_note_notified(const struct policy *p, const struct policy_program *prog)
{
	struct policy_rule_info def;
	size_t n = 0;

	for (size_t nr = 0; nr < prog->nr_max; nr++) {
		if (!prog->notified[nr] || policy_syscall_rule_count(p, (int)nr) == 0)
			continue;
		fprintf(stderr, "%s %s", n++ ? "," : "unotify: note: sent to a supervisor, so "
						     "ENOSYS without one:", policy_syscall_name((int)nr));
	}
	if (policy_rule_info(p, policy_rule_count(p), &def) == 0 &&
	    (def.action == POLICY_LOG || def.action == POLICY_RETURN ||
	     (def.action == POLICY_DENY && def.error >= 4095)))
		fprintf(stderr, "%severy syscall no rule names (default %s)",
			n++ ? ", and " : "unotify: note: sent to a supervisor, so ENOSYS without one: ",
			policy_action_name(def.action));
	if (n)
		fputc('\n', stderr);
}

/* The implicit rules are in the filter too: name them, as the PFC text cannot. */
static void policy_note_implicit(const struct policy *p)
{
	struct policy_implicit_info in;
	size_t n = 0;

	for (size_t i = 0; policy_implicit_info(p, i, &in) == 0; i++)
		if (in.on)
			fprintf(stderr, "%s%s", n++ ? ", " : "unotify: note: implicit rules added "
							   "first (see policy explain): ",
				in.name);
	if (n)
		fputc('\n', stderr);
}

static int policy_compile_one(struct policy *p, const char *bpf_out)
{
	struct policy_program *prog = NULL;
	int r;

	policy_note_implicit(p);
	if (!bpf_out) {
		fflush(stdout);
		r = policy_export_pfc(p, STDOUT_FILENO);
		if (r < 0)
			fprintf(stderr, "unotify: cannot export the filter: %s\n", strerror(-r));
		return r;
	}
	r = policy_compile(p, &prog);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot compile the policy: %s\n", strerror(-r));
		return r;
	}
	r = policy_write_bpf(prog, bpf_out);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot write %s: %s\n", bpf_out, strerror(-r));
	} else {
		fprintf(stderr, "unotify: %u instructions, %zu bytes\n", prog->bpf.len,
			(size_t)prog->bpf.len * sizeof(struct sock_filter));
		policy_note_notified(p, prog);
	}
	policy_program_free(prog);
	return r;
}

/* --landlock: the Landlock layer for this kernel, as `unotify run` would bind it. */
static int policy_compile_landlock_text(struct policy *p)
{
	struct run_landlock ll = { 0 };
	int r;

	run_landlock_abi(false, &ll);
	r = run_landlock_prepare(p, false, &ll);
	if (r == 0) {
		fflush(stderr);
		r = policy_landlock_write(p, ll.layer, stdout);
		if (r == 0 && ll.off)
			printf("# the layer is off here: %s\n", ll.off);
	}
	if (r < 0)
		fprintf(stderr, "unotify: cannot write the Landlock layer: %s\n", strerror(-r));
	run_landlock_free(&ll);
	return r;
}

static void policy_compile_usage(FILE *out)
{
	fprintf(out, "Usage: unotify policy compile FILE... --bpf OUT | --pfc | --landlock\n"
		     "  --bpf OUT   the seccomp layer as raw BPF (struct sock_filter[]) to OUT ('-':\n"
		     "              stdout), as bwrap --seccomp FD reads it (no Landlock layer)\n"
		     "  --pfc       libseccomp's pseudo filter code to stdout\n"
		     "  --landlock  the Landlock layer for this kernel, readable, to stdout\n");
}

/* `policy compile`: 0, 1 invalid policy or failure, EXIT_USAGE bad usage. */
static int policy_compile_main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "bpf", required_argument, NULL, 'b' },
		{ "pfc", no_argument, NULL, 'p' },
		{ "landlock", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *bpf_out = NULL;
	struct policy *p = NULL;
	bool pfc = false, landlock = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "b:plh", options, NULL)) != -1) {
		if (c == 'b') {
			bpf_out = optarg;
		} else if (c == 'p') {
			pfc = true;
		} else if (c == 'l') {
			landlock = true;
		} else {
			policy_compile_usage(c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : EXIT_USAGE;
		}
	}
	if (optind >= argc || !!bpf_out + pfc + landlock != 1) {
		fprintf(stderr, "unotify: policy compile needs FILE and exactly one of --bpf OUT, "
				"--pfc, --landlock\n");
		policy_compile_usage(stderr);
		return EXIT_USAGE;
	}
	if (run_policy_load(argv + optind, (size_t)(argc - optind), NULL, 0, &p) < 0)
		return 1;
	r = landlock ? policy_compile_landlock_text(p) : policy_compile_one(p, bpf_out);
	policy_free(p);
	return r < 0 ? 1 : 0;
}

static void policy_check_usage(FILE *out)
{
	fprintf(out, "Usage: unotify policy check FILE...\n"
		     "Prints FILE: OK for each valid file, else every error as\n"
		     "FILE:LINE:COL: error: MESSAGE; exit 1 when a file has one. See unotify(1).\n");
}

/* `policy check`: 0, 1 when a file has errors, EXIT_USAGE bad usage. */
static int policy_check_main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c, failed = 0;

	if ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		policy_check_usage(c == 'h' ? stdout : stderr);
		return c == 'h' ? 0 : EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "unotify: policy check needs at least one FILE\n");
		policy_check_usage(stderr);
		return EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++)
		if (policy_check_one(argv[i]) < 0)
			failed = 1;
	return failed;
}

static void policy_usage(FILE *out)
{
	fprintf(out, "Usage: unotify policy check FILE...\n"
		     "       unotify policy explain FILE... [--syscall NAME] [--json]\n"
		     "       unotify policy compile FILE... --bpf OUT | --pfc | --landlock\n"
		     "check: prints FILE: OK, or every error as FILE:LINE:COL.\n"
		     "explain: per syscall its layer, its rules in order, how each is enforced.\n"
		     "compile: the seccomp layer, as raw BPF or libseccomp's PFC text, or the\n"
		     "Landlock layer.\n");
}

int cmd_policy(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		policy_usage(stdout);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "explain") == 0)
		return explain_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "compile") == 0)
		return policy_compile_main(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "check") == 0)
		return policy_check_main(argc - 1, argv + 1);
	policy_usage(stderr);
	return EXIT_USAGE;
}
