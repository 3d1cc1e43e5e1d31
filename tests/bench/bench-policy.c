/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-policy: how long the evaluator takes to decide one call as the
 * number of path rules grows (10, 1,000, 10,000 by default), with the
 * prefix index (policy_evaluate_args) and, for comparison, the plain walk
 * over every rule (the reference the test suite holds the index to).
 *
 *   bench-policy [--rules N,N,...] [--batches B] [--markdown]
 *
 * Each figure is the median of B batches, each batch long enough (about
 * 2 ms) for the clock not to matter. No kernel is involved: the path a
 * supervisor would read and resolve is handed over as a string, so this
 * is the cost of the decision alone. It reports, it never fails on a
 * figure (STYLE.md: benchmarks are not tests).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "policy/internal.h"

struct bench_query {
	const char *what;
	char path[128];
	int nr;
	uint64_t flags;
};

static int bench_path(void *userdata, int n, const char **ret)
{
	const struct bench_query *q = userdata;

	if (n != 0)
		return -EINVAL;
	*ret = q->path;
	return 0;
}

static const struct policy_args_ops bench_ops = { .path = bench_path };

/*
 * N path rules of three shapes, each with its own prefix, as a generated
 * allowlist would have: a tree, a glob within a directory, one file.
 */
static struct policy *bench_policy(size_t n)
{
	struct policy_diags d = { 0 };
	_cleanup_free_ char *text = NULL;
	size_t size = 0;
	struct policy *p;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	fprintf(f, "default allow\nallow read write close fstat exit_group\n");
	for (size_t i = 0; i < n; i++)
		switch (i % 3) {
		case 0:
			fprintf(f, "deny @file-read path=/srv/data/dir%zu/** EACCES\n", i);
			break;
		case 1:
			fprintf(f, "deny openat path=/home/user%zu/*.txt EACCES\n", i);
			break;
		default:
			fprintf(f, "deny openat open path=/etc/conf.d/file%zu EACCES\n", i);
			break;
		}
	fclose(f);
	p = policy_new();
	if (p && (policy_parse_text(p, "bench", text, &d) < 0 || policy_finish(p, &d) < 0)) {
		policy_diags_print(&d, stderr);
		policy_free(p);
		p = NULL;
	}
	policy_diags_free(&d);
	return p;
}

static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef int (*bench_eval_fn)(const struct policy *p, const struct policy_call *call,
			     const struct policy_args_ops *ops, void *userdata,
			     struct policy_decision *ret);

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median ns per decision over batches; the decision of the last call in *ret. */
static double bench_run(const struct policy *p, bench_eval_fn eval, const struct bench_query *q,
			int batches, struct policy_decision *ret)
{
	struct policy_call call = { .nr = q->nr };
	double *per = calloc((size_t)batches, sizeof(double));
	long iters = 1;
	double median;

	if (!per)
		return -1;
	call.args[2] = q->flags;
	/* Calibrate: a batch of about 2 ms. */
	for (;;) {
		double t0 = bench_now();

		for (long i = 0; i < iters; i++)
			eval(p, &call, &bench_ops, (void *)q, ret);
		if (bench_now() - t0 > 2e-3 || iters > (1l << 24))
			break;
		iters *= 2;
	}
	for (int b = 0; b < batches; b++) {
		double t0 = bench_now();

		for (long i = 0; i < iters; i++)
			eval(p, &call, &bench_ops, (void *)q, ret);
		per[b] = (bench_now() - t0) * 1e9 / (double)iters;
	}
	qsort(per, (size_t)batches, sizeof(double), bench_cmp_double);
	median = per[batches / 2];
	free(per);
	return median;
}

static void bench_machine(bool md)
{
	struct utsname u;
	char line[256], model[256] = "unknown CPU";
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	printf("%s%s, %ld CPUs, Linux %s %s\n", md ? "Machine: " : "# ", model,
	       sysconf(_SC_NPROCESSORS_ONLN), u.release, u.machine);
}

static void bench_queries(size_t n, struct bench_query q[4])
{
	size_t mid = n / 2 - (n / 2) % 3, last = n - 1;

	while (last % 3 != 1)
		last--; /* the last rule of the glob shape */

	q[0] = (struct bench_query){ .what = "first-match rule in the middle", .nr = SYS_openat };
	snprintf(q[0].path, sizeof(q[0].path), "/srv/data/dir%zu/a/b/c.dat", mid);
	q[1] = (struct bench_query){ .what = "glob rule near the end", .nr = SYS_openat };
	snprintf(q[1].path, sizeof(q[1].path), "/home/user%zu/notes.txt", last);
	q[2] = (struct bench_query){ .what = "no rule matches (default)", .nr = SYS_openat };
	snprintf(q[2].path, sizeof(q[2].path), "/usr/lib/x86_64-linux-gnu/libc.so.6");
	q[3] = (struct bench_query){ .what = "a write open (rules on @file-read skipped)",
				     .nr = SYS_openat,
				     .flags = 1 };
	snprintf(q[3].path, sizeof(q[3].path), "/srv/data/dir0/x");
}

static void bench_one(size_t n, int batches, bool md)
{
	struct policy *p;
	struct bench_query q[4];
	double t0 = bench_now(), build;

	p = bench_policy(n);
	build = (bench_now() - t0) * 1e3;
	if (!p) {
		fprintf(stderr, "bench-policy: cannot build a policy of %zu rules\n", n);
		return;
	}
	bench_queries(n, q);
	for (size_t i = 0; i < ARRAY_SIZE(q); i++) {
		struct policy_decision d1, d2;
		double indexed = bench_run(p, policy_evaluate_args, &q[i], batches, &d1);
		double plain = bench_run(p, evaluate_linear, &q[i], batches, &d2);

		if (d1.action != d2.action || d1.line != d2.line)
			fprintf(stderr, "bench-policy: index and plain walk disagree on %s\n",
				q[i].path);
		printf(md ? "| %zu | %s | %s line %d | %.0f | %.0f | %.0f | %.1f |\n"
			  : "%6zu  %-42s %-6s %5d  %10.0f/s  %8.0f ns  %10.0f ns  %8.1f ms\n",
		       n, q[i].what, policy_action_name(d1.action), d1.line, 1e9 / indexed, indexed,
		       plain, build);
	}
	policy_free(p);
}

int main(int argc, char **argv)
{
	size_t sizes[16] = { 10, 1000, 10000 }, n_sizes = 3;
	int batches = 15;
	bool md = false;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--markdown") == 0) {
			md = true;
		} else if (strcmp(argv[i], "--batches") == 0 && i + 1 < argc) {
			batches = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--rules") == 0 && i + 1 < argc) {
			char *s = argv[++i], *save = NULL;

			n_sizes = 0;
			for (char *w = strtok_r(s, ",", &save); w && n_sizes < ARRAY_SIZE(sizes);
			     w = strtok_r(NULL, ",", &save))
				sizes[n_sizes++] = strtoul(w, NULL, 10);
		} else {
			fprintf(stderr, "usage: bench-policy [--rules N,N,...] [--batches B] "
					"[--markdown]\n");
			return 2;
		}
	}
	if (batches < 1)
		batches = 1;
	bench_machine(md);
	printf(md ? "\n| path rules | call | decided by | decisions/s | ns/decision (index) "
		    "| ns/decision (plain walk) | policy_finish ms |\n|---|---|---|---|---|---|---|\n"
		  : "# rules  call                                       decision        "
		    "indexed          per call  plain walk    finish\n");
	for (size_t i = 0; i < n_sizes; i++)
		if (sizes[i] >= 3)
			bench_one(sizes[i], batches, md);
	printf(md ? "\nMedians of %d batches of about 2 ms each.\n"
		  : "# medians of %d batches of about 2 ms each\n",
	       batches);
	return 0;
}
