/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify policy check FILE...`: every error of every file, then a verdict. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
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
	policy_diags_print(&diags, stderr);
	failed = r < 0 || diags.errors > 0;
	if (!failed)
		printf("%s: OK\n", path);
	else if (diags.count == 0)
		fprintf(stderr, "%s: %s\n", path, strerror(-r));
	policy_diags_free(&diags);
	policy_free(p);
	return failed ? -1 : 0;
}

static void policy_usage(FILE *out)
{
	fprintf(out, "Usage: unotify policy check FILE...\n"
		     "Checks policies: prints FILE: OK, or every error as FILE:LINE:COL.\n");
}

int cmd_policy(int argc, char **argv)
{
	int failed = 0;

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		policy_usage(stdout);
		return 0;
	}
	if (argc < 3 || strcmp(argv[1], "check") != 0) {
		policy_usage(stderr);
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if (policy_check_one(argv[i]) < 0)
			failed = 1;
	return failed;
}
