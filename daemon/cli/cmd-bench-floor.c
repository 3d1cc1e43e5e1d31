/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify bench floor [OPTIONS] -- CMD`: runs CMD (a build) under the
 * hand-written safe-supervisor floor (daemon/bench/floor.h), the baseline
 * contrib/bench/build.sh compares `unotify run` with.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/floor.h"
#include "commands.h"

static void floor_usage(FILE *out)
{
	fprintf(out,
		"Usage: unotify bench floor [OPTIONS] -- PROGRAM [ARGS...]\n\n"
		"Runs PROGRAM, and every process it starts, with each open and openat\n"
		"performed by a hand-written safe supervisor (no library, no policy): the\n"
		"floor of a supervisor that decides opens on their paths.\n\n"
		"  --receivers N  threads blocking in RECV on the one listener (default: 1)\n"
		"  --workers N    one thread in RECV handing each call to one of N workers\n"
		"  --walk         resolve with the careful user-space walk, not one openat2\n"
		"  --creds        enter and leave the program's credentials around each call\n"
		"  --no-sync      without the same-CPU hand-off\n"
		"  -v, --verbose  counts at the end, on standard error\n"
		"  -h, --help     this help\n\n"
		"Exit status: the program's; 125 when the floor itself failed.\n"
		"See unotify-bench(1) and docs/BENCHMARKS.md.\n");
}

enum {
	FLOOR_OPT_RECEIVERS = 0x100,
	FLOOR_OPT_WORKERS,
	FLOOR_OPT_WALK,
	FLOOR_OPT_CREDS,
	FLOOR_OPT_NO_SYNC,
};

/* 1 to 64, for --receivers and --workers. */
static int floor_parse_threads(const char *opt, const char *arg, unsigned int *ret)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (*end || end == arg || v < 1 || v > 64) {
		fprintf(stderr, "unotify bench floor: %s takes 1 to 64, not '%s'\n", opt, arg);
		return -1;
	}
	*ret = (unsigned int)v;
	return 0;
}

int cmd_bench_floor(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "receivers", required_argument, NULL, FLOOR_OPT_RECEIVERS },
		{ "workers", required_argument, NULL, FLOOR_OPT_WORKERS },
		{ "walk", no_argument, NULL, FLOOR_OPT_WALK },
		{ "creds", no_argument, NULL, FLOOR_OPT_CREDS },
		{ "no-sync", no_argument, NULL, FLOOR_OPT_NO_SYNC },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct floor_exec_options o = { .receivers = 1, .sync = true };
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "+vh", longopts, NULL)) != -1) {
		switch (c) {
		case FLOOR_OPT_RECEIVERS:
			if (floor_parse_threads("--receivers", optarg, &o.receivers) < 0)
				return EXIT_SUPERVISOR;
			break;
		case FLOOR_OPT_WORKERS:
			if (floor_parse_threads("--workers", optarg, &o.workers) < 0)
				return EXIT_SUPERVISOR;
			break;
		case FLOOR_OPT_WALK:
			o.flags |= FLOOR_WALK;
			break;
		case FLOOR_OPT_CREDS:
			o.flags |= FLOOR_CREDS;
			break;
		case FLOOR_OPT_NO_SYNC:
			o.sync = false;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			floor_usage(stdout);
			return 0;
		default:
			floor_usage(stderr);
			return EXIT_SUPERVISOR;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "unotify bench floor: no program given (unotify bench floor -- "
			"PROGRAM)\n");
		return EXIT_SUPERVISOR;
	}
	return floor_exec(&o, argv + optind);
}

int cmd_bench_landlock(int argc, char **argv)
{
	int i = 1;

	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf("Usage: unotify bench landlock [--] PROGRAM [ARGS...]\n\n"
		       "Runs PROGRAM under a Landlock ruleset that allows everything but opening\n"
		       "/etc/shadow: contrib/bench/build.sh's default policy, in the kernel.\n");
		return 0;
	}
	if (i < argc && strcmp(argv[i], "--") == 0) {
		i++;
	} else if (i < argc && argv[i][0] == '-') {
		/* Bad usage, as every command says it (125), not a program that is not found. */
		fprintf(stderr, "unotify bench landlock: unknown option '%s' (a program after --)\n",
			argv[i]);
		return EXIT_USAGE;
	}
	if (i >= argc) {
		fprintf(stderr, "unotify bench landlock: no program given\n");
		return EXIT_SUPERVISOR;
	}
	return landlock_exec(argv + i);
}
