/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run`: spawns a program under a policy and supervises it in this
 * process, in this thread, blocking in RECV so that the kernel's same-CPU
 * hand-off applies to every round trip.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "engine/enforce.h"
#include "run.h"
#include "lib/util.h"
#include "protocol/protocol.h"

static void run_usage(FILE *out)
{
	fprintf(out,
		"Usage: unotify run [OPTIONS] -- PROGRAM [ARGS...]\n"
		"  --policy FILE         policy file (repeatable)\n"
		"  --rule RULE           one policy line (repeatable, after the files)\n"
		"  --log FILE            audit trail to FILE (default: stderr)\n"
		"  --log-format FORMAT   text (default) or json\n"
		"  --log-level LEVEL     deny (default: denials, kills, log rules), all\n"
		"                        or none\n"
		"  --log-limit SIZE/SECS  at most SIZE bytes of records (K, M, G) per SECS\n"
		"                        seconds, the rest counted (default " AUDIT_BUDGET_DEFAULT "),\n"
		"                        or none\n"
		"  --no-sync             do not use the same-CPU hand-off\n"
		"  --cpu N               pin the supervisor and the program to CPU N\n"
		"  --threads N           at most N supervising threads (default 16); a call\n"
		"                        that blocks holds the others only with 1\n"
		"  --user USER           run the program as USER\n"
		"  --drop-caps           drop every capability of the program\n"
		"  --keep-caps LIST      keep only these capabilities (cap_chown,...)\n"
		"  --share-pid           run the program in our pid namespace: it can then\n"
		"                        signal, trace (CAP_SYS_PTRACE) or renice unotify\n"
		"  --stats               per-syscall counts and round-trip times at exit\n"
		"  --no-landlock         no Landlock layer: the supervisor decides what it would\n"
		"  --daemon              let unotifyd supervise, by its policy --policy-name\n"
		"  --policy-name NAME    with --daemon: the daemon's policy NAME (its kernel\n"
		"                        layer comes from the daemon too)\n"
		"  --socket PATH         with --daemon: the daemon's socket (default:\n"
		"                        $UNOTIFY_SOCKET, else\n"
		"                        " PROTO_SOCKET_DEFAULT ")\n"
		"  --record FILE         run with everything allowed and logged, then write\n"
		"                        to FILE a policy that allows what the run used\n"
		"  -q, --quiet           no notices from the supervisor\n"
		"Exit status: the program's; 125 supervisor error, 126 cannot execute,\n"
		"127 not found. See unotify(1).\n");
}

static int run_add_string(char ***list, size_t *n, const char *s)
{
	char **l = realloc(*list, (*n + 1) * sizeof(char *));

	if (!l)
		return -ENOMEM;
	l[(*n)++] = (char *)s;
	*list = l;
	return 0;
}

/* `--daemon SOCKET -- prog` once meant a socket: tell that mistake from a program. */
static bool run_is_socket(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

static int run_parse_cpu(const char *s, int *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v >= CPU_SETSIZE)
		return -EINVAL;
	*ret = (int)v;
	return 0;
}

#define RUN_THREADS_MAX 1024

static int run_parse_threads(const char *s, unsigned int *ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 1 || v > RUN_THREADS_MAX)
		return -EINVAL;
	*ret = (unsigned int)v;
	return 0;
}

enum {
	OPT_POLICY = 0x100,
	OPT_RULE,
	OPT_LOG,
	OPT_LOG_FORMAT,
	OPT_LOG_LEVEL,
	OPT_LOG_LIMIT,
	OPT_NO_SYNC,
	OPT_CPU,
	OPT_THREADS,
	OPT_USER,
	OPT_DROP_CAPS,
	OPT_KEEP_CAPS,
	OPT_STATS,
	OPT_RECORD,
	OPT_DAEMON,
	OPT_POLICY_NAME,
	OPT_POLICY_DIR,
	OPT_SHARE_PID,
	OPT_SOCKET,
	OPT_NO_LANDLOCK,
};

static const struct option run_options[] = {
	{ "policy", required_argument, NULL, OPT_POLICY },
	{ "rule", required_argument, NULL, OPT_RULE },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "log-format", required_argument, NULL, OPT_LOG_FORMAT },
	{ "log-level", required_argument, NULL, OPT_LOG_LEVEL },
	{ "log-limit", required_argument, NULL, OPT_LOG_LIMIT },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "user", required_argument, NULL, OPT_USER },
	{ "drop-caps", no_argument, NULL, OPT_DROP_CAPS },
	{ "keep-caps", required_argument, NULL, OPT_KEEP_CAPS },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "record", required_argument, NULL, OPT_RECORD },
	/* optional_argument only to refuse --daemon=PATH with a sentence, not getopt's. */
	{ "daemon", optional_argument, NULL, OPT_DAEMON },
	{ "policy-name", required_argument, NULL, OPT_POLICY_NAME },
	{ "policy-dir", required_argument, NULL, OPT_POLICY_DIR },
	{ "share-pid", no_argument, NULL, OPT_SHARE_PID },
	{ "socket", required_argument, NULL, OPT_SOCKET },
	{ "no-landlock", no_argument, NULL, OPT_NO_LANDLOCK },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

/* One option; returns 1 when it was handled, 0 for --help, -EINVAL on misuse. */
static int run_parse_one(int c, struct run_options *o)
{
	switch (c) {
	case OPT_POLICY:
		return run_add_string(&o->policy_files, &o->n_policy_files, optarg) < 0 ? -ENOMEM : 1;
	case OPT_RULE:
		return run_add_string(&o->rules, &o->n_rules, optarg) < 0 ? -ENOMEM : 1;
	case OPT_LOG:
		o->log_path = optarg;
		return 1;
	case OPT_LOG_FORMAT:
		if (audit_format_parse(optarg, &o->log_format) < 0 || o->log_format == AUDIT_JOURNAL) {
			fprintf(stderr, "unotify: --log-format takes text or json, not '%s'\n", optarg);
			return -EINVAL;
		}
		return 1;
	case OPT_LOG_LEVEL:
		if (audit_level_parse(optarg, &o->log_level) < 0) {
			fprintf(stderr, "unotify: --log-level takes deny, all or none, not '%s'\n",
				optarg);
			return -EINVAL;
		}
		o->log_level_set = true;
		return 1;
	case OPT_LOG_LIMIT:
		if (audit_budget_parse(optarg, &o->log_limit) < 0) {
			fprintf(stderr, "unotify: --log-limit takes SIZE/SECONDS (4M/60, 512K/10s) or "
					"none, not '%s'\n", optarg);
			return -EINVAL;
		}
		return 1;
	case OPT_NO_SYNC:
		o->sync = false;
		return 1;
	case OPT_CPU:
		if (run_parse_cpu(optarg, &o->cpu) < 0) {
			fprintf(stderr, "unotify: --cpu takes a CPU number, not '%s'\n", optarg);
			return -EINVAL;
		}
		return 1;
	case OPT_THREADS:
		if (run_parse_threads(optarg, &o->threads) < 0) {
			fprintf(stderr, "unotify: --threads takes a number from 1 to %d, not '%s'\n",
				RUN_THREADS_MAX, optarg);
			return -EINVAL;
		}
		return 1;
	case OPT_USER:
		o->user = optarg;
		return 1;
	case OPT_DROP_CAPS:
		o->drop_caps = true;
		return 1;
	case OPT_KEEP_CAPS:
		o->keep_caps = optarg;
		return 1;
	case OPT_STATS:
		o->stats = true;
		return 1;
	case OPT_RECORD:
		o->record_path = optarg;
		return 1;
	case OPT_DAEMON:
		if (optarg) {
			fprintf(stderr, "unotify: --daemon takes no value: name the socket with "
					"--daemon --socket %s\n", optarg);
			return -EINVAL;
		}
		o->daemon = true;
		return 1;
	case OPT_SOCKET:
		o->daemon_socket = optarg;
		return 1;
	case OPT_POLICY_NAME:
		o->policy_name = optarg;
		return 1;
	case OPT_POLICY_DIR:
		fprintf(stderr, "unotify: --policy-dir is gone: with --daemon the daemon's own "
				"policies are used (unotifyd --policy-dir)\n");
		return -EINVAL;
	case OPT_NO_LANDLOCK:
		o->no_landlock = true;
		return 1;
	case OPT_SHARE_PID:
		o->share_pid = true;
		return 1;
	case 'q':
		o->quiet = true;
		return 1;
	case 'h':
		run_usage(stdout);
		return 0;
	default:
		run_usage(stderr);
		return -EINVAL;
	}
}

/* Returns 1 to go on, 0 after --help, -EINVAL on bad usage (already reported). */
static int run_parse_args(int argc, char **argv, struct run_options *o)
{
	int c, r;

	*o = (struct run_options){
		.sync = true,
		.cpu = -1,
		.threads = UNOTIFY_SUPERVISE_THREADS_DEFAULT,
		.log_format = AUDIT_TEXT,
	};
	(void)audit_budget_parse(AUDIT_BUDGET_DEFAULT, &o->log_limit);
	/* '+': stop at the program's name, so its own options stay its own. */
	while ((c = getopt_long(argc, argv, "+qh", run_options, NULL)) != -1) {
		r = run_parse_one(c, o);
		if (r <= 0)
			return r;
	}
	if (o->drop_caps && o->keep_caps) {
		fprintf(stderr, "unotify: --drop-caps and --keep-caps exclude each other\n");
		return -EINVAL;
	}
	if (optind >= argc) {
		fprintf(stderr, "unotify: no program given (unotify run [OPTIONS] -- PROGRAM)\n");
		return -EINVAL;
	}
	if (o->daemon && run_is_socket(argv[optind])) {
		fprintf(stderr, "unotify: '%s' is a socket, not a program: --daemon takes no "
				"argument; name the socket with --socket %s\n", argv[optind],
			argv[optind]);
		return -EINVAL;
	}
	if (o->daemon != (o->policy_name != NULL) || (o->daemon_socket && !o->daemon)) {
		fprintf(stderr, "unotify: --daemon needs --policy-name NAME, and --policy-name and "
				"--socket go with --daemon\n");
		return -EINVAL;
	}
	if (o->daemon && (o->n_policy_files || o->n_rules || o->stats)) {
		fprintf(stderr, "unotify: with --daemon the daemon's policy decides: no --policy, "
				"--rule or --stats\n");
		return -EINVAL;
	}
	if (o->record_path && (o->n_policy_files || o->n_rules || o->daemon)) {
		fprintf(stderr, "unotify: --record runs under its own policy (everything allowed "
				"and logged): no --policy, --rule or --daemon with it\n");
		return -EINVAL;
	}
	if (o->n_policy_files == 0 && o->n_rules == 0 && !o->daemon && !o->record_path) {
		fprintf(stderr, "unotify: no policy given (use --policy FILE or --rule RULE)\n");
		return -EINVAL;
	}
	o->argv = argv + optind;
	return 1;
}

int cmd_run(int argc, char **argv)
{
	struct run_options o;
	int r;

	r = run_parse_args(argc, argv, &o);
	if (r <= 0) {
		free(o.policy_files);
		free(o.rules);
		return r == 0 ? 0 : EXIT_SUPERVISOR;
	}
	r = run_main(&o);
	free(o.policy_files);
	free(o.rules);
	return r;
}
