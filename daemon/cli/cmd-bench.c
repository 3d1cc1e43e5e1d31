/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify bench`: parse the axes, build the list of configurations (modes x
 * threads x pinning x sync x wait, each axis only where it applies), run
 * them one after the other and report as text or JSON.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "commands.h"
#include "lib/util.h"

#define BENCH_LIST_MAX 16
#define BENCH_SAMPLES_MAX (32u * 1024 * 1024) /* per run: 256 MiB of shared memory */

struct bench_options {
	struct bench_settings set;
	const struct bench_mode *modes[BENCH_LIST_MAX];
	size_t n_modes;
	bool sync[2];               /* [0] off, [1] on */
	bool pin[BENCH_PIN_MAX];
	bool wait[BENCH_WAIT_MAX];
	unsigned int threads[BENCH_LIST_MAX];
	size_t n_threads;
	bool call[BENCH_CALL_MAX];
	bool path[4];               /* by kind (bench_path_words): bit 0 missing, bit 1 relative */
	bool iterations_set, batches_set, repeat_set, warmup_set;
	int compare;                /* -1: on when no --mode was given */
	bool histogram;
	bool json;
	bool quick;
};

enum {
	ARG_SPIN = 0x100,
	ARG_WARMUP,
	ARG_PRECISION,
	ARG_NO_COMPARE,
	ARG_HISTOGRAM,
	ARG_NO_HISTOGRAM,
	ARG_LIST,
	ARG_UNOTIFYD,
	ARG_UNOTIFYD_ARG,
	ARG_LOG_LEVEL,
	ARG_CALL,
	ARG_PATH,
};

static void bench_usage(FILE *out)
{
	fprintf(out,
		"Usage: unotify bench [OPTIONS]\n\n"
		"Measures what an intercepted system call (getppid answered with 42) costs.\n\n"
		"  --mode LIST        raw,kernel-allowed,bare,lib,run,daemon,futex,\n"
		"                     bare-walk,bare-creds,bare-herd,bare-workers or all\n"
		"                     (default: all)\n"
		"  --sync on|off|both SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (default: both)\n"
		"  --pin LIST         same,different,free or all (default: free)\n"
		"  --wait LIST        block,poll,epoll,spin or all: how the bare supervisor\n"
		"                     waits (default: block)\n"
		"  --spin-us N        spin budget of --wait spin (default: 50)\n"
		"  --unotifyd PATH    the daemon mode's unotifyd (default: next to unotify,\n"
		"                     in ../sbin, or in PATH)\n"
		"  --unotifyd-arg ARG one more option for that unotifyd (repeatable),\n"
		"                     e.g. --unotifyd-arg=--no-harden\n"
		"  --log-level LEVEL  deny, all or none: what the run and daemon modes\n"
		"                     record, as unotify run and unotifyd do (default:\n"
		"                     deny, theirs: no getppid's return is recorded; all\n"
		"                     records each)\n"
		"  --threads LIST     target threads, e.g. 1,2,4 (default: 1)\n"
		"  --call LIST        getppid,open,stat,access,readlink or all: the call\n"
		"                     the target makes (default: getppid); the path calls\n"
		"                     are decided on their path and performed by the\n"
		"                     supervisor\n"
		"  --path LIST        found,missing,both,relative,relative-missing or all:\n"
		"                     path calls on a file that exists, or one that does\n"
		"                     not (ENOENT), named by its absolute path or relative\n"
		"                     to the target's working directory (default: both,\n"
		"                     found and missing, absolute)\n"
		"  --iterations N     calls per batch (default: 1000)\n"
		"  --batches N        batches per run (default: 20)\n"
		"  --warmup N         calls before measuring (default: --iterations)\n"
		"  --repeat N         runs per row, each with a fresh target (default: 3)\n"
		"  --precision PCT    warn when batch medians spread more (default: 5)\n"
		"  --quick            200 calls x 10 batches x 1 run\n"
		"  --compare          ratios to the bare floor and sync on/off (default\n"
		"                     without --mode; adds bare when missing)\n"
		"  --no-compare       no ratios\n"
		"  --histogram        a histogram per row (default)\n"
		"  --no-histogram     only the table\n"
		"  --json             JSON on standard output (schema unotify-bench/1)\n"
		"  --list             list the modes\n"
		"  -h, --help         this help\n\n"
		"UNOTIFY_BENCH_SMOKE=1 in the environment: tiny rows whatever the options\n"
		"(for tests that run the documented examples; the figures mean nothing).\n\n"
		"See unotify-bench(1) and docs/BENCHMARKS.md.\n");
}

static int bench_parse_uint(const char *opt, const char *s, unsigned int min, unsigned int max,
			    unsigned int *ret)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
		fprintf(stderr, "unotify bench: %s: '%s' is not a number from %u to %u\n", opt, s,
			min, max);
		return -EINVAL;
	}
	*ret = (unsigned int)v;
	return 0;
}

static int bench_parse_precision(const char *s, double *ret)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*end == '%')
		end++;
	if (errno || end == s || *end || !(v > 0) || v > 100) {
		fprintf(stderr, "unotify bench: --precision: '%s' is not a percentage such as 5 "
			"or 2.5%%\n", s);
		return -EINVAL;
	}
	*ret = v / 100.0;
	return 0;
}

static int bench_add_mode(struct bench_options *o, const struct bench_mode *m)
{
	for (size_t i = 0; i < o->n_modes; i++)
		if (o->modes[i] == m)
			return 0;
	if (o->n_modes == BENCH_LIST_MAX)
		return -E2BIG;
	o->modes[o->n_modes++] = m;
	return 0;
}

/* The four kinds of path a path call can name: bit 0 missing, bit 1 relative. */
static const char *const bench_path_words[4] = { "found", "missing", "relative",
						 "relative-missing" };

/* One word of --path: a kind, both (found and missing, absolute) or all. */
static int bench_parse_path_word(struct bench_options *o, const char *w)
{
	bool all = strcmp(w, "all") == 0, both = strcmp(w, "both") == 0, known = all || both;

	for (int k = 0; k < 4; k++) {
		bool want = all || (both && k < 2) || strcmp(w, bench_path_words[k]) == 0;

		o->path[k] |= want;
		known |= want;
	}
	return known ? 0 : -EINVAL;
}

/* --call NAME|all, --path KIND|both|all. */
static int bench_parse_call_word(struct bench_options *o, int opt, const char *w, bool all)
{
	enum bench_call c;

	if (opt == ARG_PATH)
		return bench_parse_path_word(o, w);
	if (all) {
		for (int i = 0; i < BENCH_CALL_MAX; i++)
			o->call[i] = true;
		return 0;
	}
	if (bench_call_parse(w, &c) < 0)
		return -EINVAL;
	o->call[c] = true;
	return 0;
}

/* One word of a comma-separated list, for the option `opt`. */
static int bench_parse_word(struct bench_options *o, int opt, const char *w)
{
	bool all = strcmp(w, "all") == 0;
	enum bench_pin p;
	enum bench_wait wt;
	unsigned int n;

	switch (opt) {
	case 'm':
		if (all) {
			for (size_t i = 0; i < bench_modes_count; i++)
				if (!bench_modes[i].unavailable)
					bench_add_mode(o, &bench_modes[i]);
			return 0;
		}
		if (!bench_mode_find(w))
			break;
		return bench_add_mode(o, bench_mode_find(w));
	case 'p':
		if (all || bench_pin_parse(w, &p) == 0) {
			for (int i = 0; i < BENCH_PIN_MAX; i++)
				o->pin[i] |= all || i == (int)p;
			return 0;
		}
		break;
	case 'w':
		if (all || bench_wait_parse(w, &wt) == 0) {
			for (int i = 0; i < BENCH_WAIT_MAX; i++)
				o->wait[i] |= all || i == (int)wt;
			return 0;
		}
		break;
	case ARG_CALL:
	case ARG_PATH:
		if (bench_parse_call_word(o, opt, w, all) == 0)
			return 0;
		break;
	case 't':
		if (bench_parse_uint("--threads", w, 1, BENCH_THREADS_MAX, &n) < 0)
			return -EINVAL;
		if (o->n_threads == BENCH_LIST_MAX)
			return -E2BIG;
		o->threads[o->n_threads++] = n;
		return 0;
	}
	fprintf(stderr, "unotify bench: unknown value '%s' (see unotify bench --help)\n", w);
	return -EINVAL;
}

static int bench_parse_list(struct bench_options *o, int opt, const char *arg)
{
	_cleanup_free_ char *copy = strdup(arg);
	char *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, ",", &save); w && r >= 0; w = strtok_r(NULL, ",", &save))
		r = bench_parse_word(o, opt, w);
	if (r == -E2BIG)
		fprintf(stderr, "unotify bench: too many values in '%s'\n", arg);
	return r;
}

static int bench_parse_sync(struct bench_options *o, const char *arg)
{
	bool on = strcmp(arg, "on") == 0, off = strcmp(arg, "off") == 0;

	if (strcmp(arg, "both") == 0)
		on = off = true;
	if (!on && !off) {
		fprintf(stderr, "unotify bench: --sync takes on, off or both, not '%s'\n", arg);
		return -EINVAL;
	}
	o->sync[0] = off;
	o->sync[1] = on;
	return 0;
}

static void bench_list_modes(void)
{
	for (size_t i = 0; i < bench_modes_count; i++)
		printf("%-15s %s%s\n", bench_modes[i].name, bench_modes[i].summary,
		       bench_modes[i].unavailable ? " (not available yet)" : "");
}

/* 1: handled (help/list), 0: go on, <0: bad usage. */
static int bench_parse_option(struct bench_options *o, int c, const char *arg)
{
	struct bench_settings *s = &o->set;

	switch (c) {
	case 'm': case 'p': case 'w': case 't': case ARG_CALL: case ARG_PATH:
		return bench_parse_list(o, c, arg);
	case 's':
		return bench_parse_sync(o, arg);
	case ARG_SPIN:
		return bench_parse_uint("--spin-us", arg, 1, 1000000, &s->spin_us);
	case 'n':
		o->iterations_set = true;
		return bench_parse_uint("--iterations", arg, 1, 10000000, &s->iterations);
	case 'b':
		o->batches_set = true;
		return bench_parse_uint("--batches", arg, 1, 100000, &s->batches);
	case ARG_WARMUP:
		o->warmup_set = true;
		return bench_parse_uint("--warmup", arg, 0, 10000000, &s->warmup);
	case 'r':
		o->repeat_set = true;
		return bench_parse_uint("--repeat", arg, 1, BENCH_REPEAT_MAX, &s->repeat);
	case ARG_PRECISION:
		return bench_parse_precision(arg, &s->precision);
	case 'q':
		o->quick = true;
		return 0;
	case 'c': case ARG_NO_COMPARE:
		o->compare = c == 'c';
		return 0;
	case ARG_HISTOGRAM: case ARG_NO_HISTOGRAM:
		o->histogram = c == ARG_HISTOGRAM;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case ARG_UNOTIFYD:
		s->unotifyd = arg;
		return 0;
	case ARG_UNOTIFYD_ARG:
		if (s->n_unotifyd_args == BENCH_DAEMON_ARGS_MAX) {
			fprintf(stderr, "unotify bench: at most %d --unotifyd-arg\n",
				BENCH_DAEMON_ARGS_MAX);
			return -E2BIG;
		}
		s->unotifyd_args[s->n_unotifyd_args++] = arg;
		return 0;
	case ARG_LOG_LEVEL:
		if (audit_level_parse(arg, &s->log_level) < 0) {
			fprintf(stderr, "unotify bench: --log-level: '%s' is not deny, all or none\n",
				arg);
			return -EINVAL;
		}
		return 0;
	case ARG_LIST:
		bench_list_modes();
		return 1;
	case 'h':
		bench_usage(stdout);
		return 1;
	default:
		bench_usage(stderr);
		return -EINVAL;
	}
}

static int bench_parse_args(struct bench_options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "sync", required_argument, NULL, 's' },
		{ "pin", required_argument, NULL, 'p' },
		{ "wait", required_argument, NULL, 'w' },
		{ "spin-us", required_argument, NULL, ARG_SPIN },
		{ "threads", required_argument, NULL, 't' },
		{ "call", required_argument, NULL, ARG_CALL },
		{ "path", required_argument, NULL, ARG_PATH },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batches", required_argument, NULL, 'b' },
		{ "warmup", required_argument, NULL, ARG_WARMUP },
		{ "repeat", required_argument, NULL, 'r' },
		{ "precision", required_argument, NULL, ARG_PRECISION },
		{ "quick", no_argument, NULL, 'q' },
		{ "compare", no_argument, NULL, 'c' },
		{ "no-compare", no_argument, NULL, ARG_NO_COMPARE },
		{ "histogram", no_argument, NULL, ARG_HISTOGRAM },
		{ "no-histogram", no_argument, NULL, ARG_NO_HISTOGRAM },
		{ "json", no_argument, NULL, 'j' },
		{ "list", no_argument, NULL, ARG_LIST },
		{ "unotifyd", required_argument, NULL, ARG_UNOTIFYD },
		{ "unotifyd-arg", required_argument, NULL, ARG_UNOTIFYD_ARG },
		{ "log-level", required_argument, NULL, ARG_LOG_LEVEL },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c, r;

	optind = 0; /* glibc: start afresh, argv[0] is "bench" */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		r = bench_parse_option(o, c, optarg);
		if (r != 0)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "unotify bench: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

static void bench_options_defaults(struct bench_options *o)
{
	*o = (struct bench_options){
		.set = {
			.iterations = 1000,
			.batches = 20,
			.repeat = 3,
			.spin_us = 50,
			.precision = 0.05,
			.cpu_a = 0,
			.cpu_b = -1,
			.log_level = AUDIT_LEVEL_DENY,
		},
		.compare = -1,
		.histogram = true,
	};
}

/* Pins go to the first two CPUs we may use. */
static void bench_options_cpus(struct bench_settings *s)
{
	cpu_set_t cpus;
	int found = 0;

	if (sched_getaffinity(0, sizeof(cpus), &cpus) < 0)
		return;
	for (int c = 0; c < CPU_SETSIZE && found < 2; c++)
		if (CPU_ISSET(c, &cpus)) {
			if (found++ == 0)
				s->cpu_a = c;
			else
				s->cpu_b = c;
		}
}

/*
 * UNOTIFY_BENCH_SMOKE set (not empty): every row tiny, whatever the options
 * say, so that a test can run the documented examples as a user types them,
 * in seconds. The figures then mean nothing, and we say so.
 */
static void bench_options_smoke(struct bench_options *o)
{
	struct bench_settings *s = &o->set;
	const char *e = getenv("UNOTIFY_BENCH_SMOKE");

	if (!e || !e[0])
		return;
	s->iterations = 20;
	s->batches = 2;
	s->repeat = 1;
	s->warmup = 5;
	o->quick = false;
	o->iterations_set = o->batches_set = o->repeat_set = o->warmup_set = true;
	fprintf(stderr, "unotify bench: UNOTIFY_BENCH_SMOKE is set: 20 calls x 2 batches x 1 run "
			"per row, whatever the options say; these figures mean nothing\n");
}

/* Fills in what the user left to us, after parsing. */
static int bench_options_finish(struct bench_options *o)
{
	struct bench_settings *s = &o->set;
	bool any;

	bench_options_smoke(o);
	if (o->quick) {
		s->iterations = o->iterations_set ? s->iterations : 200;
		s->batches = o->batches_set ? s->batches : 10;
		s->repeat = o->repeat_set ? s->repeat : 1;
	}
	if (!o->warmup_set)
		s->warmup = s->iterations;
	if (o->compare < 0)
		o->compare = o->n_modes == 0;
	if (o->n_modes == 0)
		bench_parse_word(o, 'm', "all");
	if (o->compare) {
		/* The floor (blocking bare) goes first so the other rows read against it. */
		const struct bench_mode *bare = bench_mode_find("bare");

		o->wait[BENCH_WAIT_BLOCK] = true;
		if (bench_add_mode(o, bare) == 0 && o->modes[o->n_modes - 1] == bare &&
		    o->n_modes > 1) {
			memmove(o->modes + 1, o->modes, (o->n_modes - 1) * sizeof(o->modes[0]));
			o->modes[0] = bare;
		}
	}
	if (!o->sync[0] && !o->sync[1])
		o->sync[0] = o->sync[1] = true;
	any = false;
	for (int i = 0; i < BENCH_PIN_MAX; i++)
		any |= o->pin[i];
	if (!any)
		o->pin[BENCH_PIN_FREE] = true;
	any = false;
	for (int i = 0; i < BENCH_WAIT_MAX; i++)
		any |= o->wait[i];
	if (!any)
		o->wait[BENCH_WAIT_BLOCK] = true;
	if (o->n_threads == 0)
		o->threads[o->n_threads++] = 1;
	any = false;
	for (int i = 0; i < BENCH_CALL_MAX; i++)
		any |= o->call[i];
	if (!any)
		o->call[BENCH_CALL_GETPPID] = true;
	if (!o->path[0] && !o->path[1] && !o->path[2] && !o->path[3])
		o->path[0] = o->path[1] = true;

	for (size_t i = 0; i < o->n_threads; i++)
		if ((uint64_t)o->threads[i] * s->batches * s->iterations > BENCH_SAMPLES_MAX) {
			fprintf(stderr, "unotify bench: %u threads x %u batches x %u calls is more "
				"than %u samples per run: ask for fewer\n", o->threads[i],
				s->batches, s->iterations, BENCH_SAMPLES_MAX);
			return -E2BIG;
		}

	bench_options_cpus(s);
	return 0;
}

/* Whether mode m has rows for call c: futex only for getppid, the floor's variants only for paths. */
static bool bench_plan_applies(const struct bench_mode *m, enum bench_call c)
{
	if (c == BENCH_CALL_GETPPID)
		return !(m->flags & BENCH_MODE_PATH);
	return !(m->flags & BENCH_MODE_GETPPID);
}

/* Appends the configurations of one mode with one thread count, call and path. */
static size_t bench_plan_mode(const struct bench_options *o, const struct bench_mode *m,
			      unsigned int threads, enum bench_call call, int path,
			      struct bench_config *out)
{
	size_t n = 0;

	if (m->unavailable) {
		/* One row that says why is enough. */
		out[0] = (struct bench_config){ .mode = m, .sync = -1, .threads = threads,
						.call = call, .missing = path & 1,
						.relative = path & 2 };
		return 1;
	}
	for (int p = 0; p < BENCH_PIN_MAX; p++) {
		if (!o->pin[p])
			continue;
		/* Without a peer, only the target is pinned: "different" is "same". */
		if (!(m->flags & BENCH_MODE_PEER) && p == BENCH_PIN_DIFFERENT &&
		    o->pin[BENCH_PIN_SAME])
			continue;
		for (int sync = 1; sync >= -1; sync--) {
			if ((m->flags & BENCH_MODE_SYNC) ? sync < 0 || !o->sync[sync] : sync >= 0)
				continue;
			for (int w = 0; w < BENCH_WAIT_MAX; w++) {
				/* The path calls' floor waits in RECV only. */
				bool want = (m->flags & BENCH_MODE_WAIT) && call == BENCH_CALL_GETPPID
						    ? o->wait[w] : w == BENCH_WAIT_BLOCK;

				if (!want)
					continue;
				out[n++] = (struct bench_config){
					.mode = m, .sync = sync, .wait = (enum bench_wait)w,
					.pin = (enum bench_pin)p, .threads = threads,
					.call = call, .missing = path & 1,
					.relative = path & 2,
				};
			}
		}
	}
	return n;
}

static int bench_plan(const struct bench_options *o, struct bench_config **ret, size_t *ret_n)
{
	size_t max = o->n_modes * o->n_threads * BENCH_PIN_MAX * 2 * BENCH_WAIT_MAX *
		     BENCH_CALL_MAX * 4, n = 0;
	struct bench_config *c = calloc(max ? max : 1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	/* Call by call, absolute before relative, found before missing: floors near their rows. */
	for (int call = 0; call < BENCH_CALL_MAX; call++)
		for (int path = 0; path < 4; path++) {
			if (!o->call[call] || (call == BENCH_CALL_GETPPID && path) ||
			    (call != BENCH_CALL_GETPPID && !o->path[path]))
				continue;
			for (size_t m = 0; m < o->n_modes; m++)
				for (size_t t = 0; t < o->n_threads; t++) {
					if (!bench_plan_applies(o->modes[m], call))
						continue;
					n += bench_plan_mode(o, o->modes[m], o->threads[t], call,
							     path, c + n);
				}
		}
	*ret = c;
	*ret_n = n;
	return 0;
}

static char *bench_command_line(int argc, char **argv)
{
	size_t len = strlen("unotify") + 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "unotify");
	for (int i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* Round by round: each row's run of a round before any row's next (bench_result_start). */
static int bench_run_all(const struct bench_options *o, const struct bench_config *cfg, size_t n,
			 struct bench_result *results)
{
	size_t ok = 0, failed = 0;

	for (size_t i = 0; i < n; i++)
		bench_result_start(&results[i], &cfg[i], &o->set);
	for (unsigned int round = 0; round < o->set.repeat; round++)
		for (size_t i = 0; i < n; i++)
			bench_result_run_once(&results[i], &o->set);
	for (size_t i = 0; i < n; i++) {
		struct bench_result *res = &results[i];

		bench_result_end(res);
		if (res->status == BENCH_OK)
			ok++;
		else if (res->status == BENCH_FAILED)
			failed++;
		if (res->status == BENCH_UNSUPPORTED)
			fprintf(stderr, "unotify bench: %s: %s\n", res->label, res->error);
		if (!o->json && o->histogram)
			bench_report_histogram(stdout, res);
	}
	if (ok == 0)
		fprintf(stderr, "unotify bench: nothing could be measured\n");
	return failed || ok == 0 ? 1 : 0;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_options o;
	_cleanup_free_ struct bench_config *cfg = NULL;
	_cleanup_free_ struct bench_result *results = NULL;
	_cleanup_free_ char *command = NULL;
	struct bench_machine machine;
	struct bench_report report;
	size_t n;
	int r, status;

	if (argc > 1 && strcmp(argv[1], "floor") == 0)
		return cmd_bench_floor(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "landlock") == 0)
		return cmd_bench_landlock(argc - 1, argv + 1);
	bench_options_defaults(&o);
	r = bench_parse_args(&o, argc, argv);
	if (r != 0)
		return r > 0 ? 0 : EXIT_SUPERVISOR;
	if (bench_options_finish(&o) < 0 || bench_plan(&o, &cfg, &n) < 0)
		return EXIT_SUPERVISOR;
	results = calloc(n ? n : 1, sizeof(*results));
	command = bench_command_line(argc, argv);
	if (!results || !command) {
		fprintf(stderr, "unotify bench: out of memory\n");
		return EXIT_SUPERVISOR;
	}
	bench_machine_probe(&machine);
	for (int i = 1; i < BENCH_CALL_MAX; i++)
		if (o.call[i] && !o.set.files[0] && (r = bench_files_make(&o.set)) < 0) {
			fprintf(stderr, "unotify bench: cannot make the path calls' files in %s: %s\n",
				o.set.files, strerror(-r));
			bench_files_remove(&o.set);
			return EXIT_SUPERVISOR;
		}

	status = bench_run_all(&o, cfg, n, results);
	bench_files_remove(&o.set);

	report = (struct bench_report){
		.machine = &machine, .set = &o.set, .results = results, .n = n,
		.command = command, .compare = o.compare,
	};
	if (o.json) {
		r = bench_report_json(stdout, &report);
		bench_report_warnings(&report);
	} else
		bench_report_text(stdout, &report);
	if (r < 0) {
		fprintf(stderr, "unotify bench: cannot write the report: %s\n", strerror(-r));
		status = 1;
	}
	for (size_t i = 0; i < n; i++)
		bench_result_done(&results[i]);
	return status;
}
