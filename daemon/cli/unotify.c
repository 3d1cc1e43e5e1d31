/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unotify: the command-line front end. One file per sub-command. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lib/unotify.h"
#include "lib/util.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} unotify_commands[] = {
	{ "run", cmd_run, "run a program under a policy, supervised in this process" },
	{ "policy", cmd_policy, "check, explain or compile a policy" },
	{ "info", cmd_info, "show the kernel's seccomp notification features" },
	{ "bench", cmd_bench, "measure the cost of an intercepted system call" },
	{ "status", cmd_status, "show the sandboxes supervised by unotifyd" },
};

static void unotify_usage(FILE *out)
{
	fprintf(out, "Usage: unotify COMMAND [OPTIONS]\n\nCommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(unotify_commands); i++)
		fprintf(out, "  %-8s %s\n", unotify_commands[i].name, unotify_commands[i].summary);
	fprintf(out, "\n`unotify COMMAND --help` shows a command's options; man unotify(1).\n");
}

int main(int argc, char **argv)
{
	/* Our own image as the sandbox's init (run.c: init_exe): nothing of a run in it. */
	if (argc > 0 && strcmp(argv[0], UNOTIFY_INIT_ARGV0) == 0)
		return unotify_sandbox_init_main(argc, argv);
	if (argc < 2) {
		unotify_usage(stderr);
		return EXIT_SUPERVISOR;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		unotify_usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
		printf("unotify %s\n", PACKAGE_VERSION);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(unotify_commands); i++)
		if (strcmp(argv[1], unotify_commands[i].name) == 0)
			return unotify_commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "unotify: unknown command '%s'\n", argv[1]);
	unotify_usage(stderr);
	return EXIT_SUPERVISOR;
}
