/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `unotify bench` prints for a person: the machine, a histogram per row
 * as it completes, a table, the ratios to the floor and of the hand-off, and
 * a warning for every row the machine was too noisy to measure.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "lib/unotify.h"
#include "lib/util.h"

static void bench_machine_cpu_model(char *buf, size_t size)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += 1 + strspn(colon + 1, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, size, "%s", colon);
		return;
	}
}

void bench_machine_probe(struct bench_machine *ret)
{
	struct unotify_features features;
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	memset(ret, 0, sizeof(*ret));
	if (uname(&u) == 0) {
		snprintf(ret->hostname, sizeof(ret->hostname), "%s", u.nodename);
		snprintf(ret->kernel, sizeof(ret->kernel), "%s", u.release);
	}
	bench_machine_cpu_model(ret->cpu_model, sizeof(ret->cpu_model));
	ret->nproc = sysconf(_SC_NPROCESSORS_ONLN);
	if (unotify_features_probe(&features) == 0)
		ret->sync_wake_up = features.sync_wake_up;
	if (gmtime_r(&now, &tm))
		strftime(ret->date, sizeof(ret->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void bench_report_histogram(FILE *out, struct bench_result *res)
{
	if (res->status != BENCH_OK) {
		fprintf(out, "%s: %s\n\n", res->label,
			res->status == BENCH_UNSUPPORTED ? "not available" : "FAILED");
		return;
	}
	fprintf(out, "%s: %" PRIu64 " calls, median %.2f us\n", res->label, res->calls,
		(double)res->median / 1000.0);
	latency_histogram_print(out, res->hist, res->hist_n, 40);
	fputc('\n', out);
}

static int bench_label_width(const struct bench_report *r)
{
	size_t w = 12;

	for (size_t i = 0; i < r->n; i++)
		if (strlen(r->results[i].label) > w)
			w = strlen(r->results[i].label);
	return (int)w;
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

/* "2.01" per call, or "-" when that side does not exist, "?" when not counted. */
static void bench_format_rate(char *buf, size_t size, const struct bench_counts *c,
			      enum bench_counter_source src, uint64_t calls, bool migrations,
			      double scale)
{
	if (src == BENCH_COUNTERS_NONE)
		snprintf(buf, size, "-");
	else if (migrations && !c->has_migrations)
		snprintf(buf, size, "?");
	else
		snprintf(buf, size, "%.2f",
			 (double)(migrations ? c->migrations : c->switches) * scale /
				 (double)(calls ? calls : 1));
}

static void bench_report_row(FILE *out, const struct bench_result *res, int w)
{
	const struct latency_summary *s = &res->summary;
	char cs_t[16], cs_p[16], mg_t[16], mg_p[16];
	double seconds = (double)res->window_ns / 1e9;

	if (res->status != BENCH_OK) {
		fprintf(out, "%-*s  %s: %s\n", w, res->label,
			res->status == BENCH_UNSUPPORTED ? "n/a" : "FAILED", res->error);
		return;
	}
	bench_format_rate(cs_t, sizeof(cs_t), &res->target, res->target_source, res->calls,
			  false, 1);
	bench_format_rate(cs_p, sizeof(cs_p), &res->peer, res->peer_source, res->calls, false, 1);
	bench_format_rate(mg_t, sizeof(mg_t), &res->target, res->target_source, res->calls, true,
			  1000);
	bench_format_rate(mg_p, sizeof(mg_p), &res->peer, res->peer_source, res->calls, true, 1000);
	fprintf(out,
		"%-*s %8.2f %8.2f %8.2f %8.2f %8.2f %9.1f %8.2f %10.0f %6.1f%% %5s %5s %6s %6s\n",
		w, res->label, us(res->median), us(s->p50), us(s->p90), us(s->p99), us(s->p999),
		us(s->max), s->mean / 1000.0, seconds > 0 ? (double)res->calls / seconds : 0.0,
		res->spread * 100.0, cs_t, cs_p, mg_t, mg_p);
}

static void bench_report_table(FILE *out, const struct bench_report *r)
{
	int w = bench_label_width(r);

	fprintf(out, "%-*s %8s %8s %8s %8s %8s %9s %8s %10s %7s %11s %13s\n", w, "", "median",
		"p50", "p90", "p99", "p99.9", "max", "mean", "calls/s", "spread", "cs/call",
		"migr/1k");
	fprintf(out, "%-*s %8s %8s %8s %8s %8s %9s %8s %10s %7s %5s %5s %6s %6s\n", w, "run",
		"(us)", "(us)", "(us)", "(us)", "(us)", "(us)", "(us)", "", "", "tgt", "sup", "tgt",
		"sup");
	for (size_t i = 0; i < r->n; i++)
		bench_report_row(out, &r->results[i], w);
}

static void bench_report_ratios(FILE *out, const struct bench_report *r)
{
	int w = bench_label_width(r);
	bool any = false;

	fprintf(out, "\nRatio to the floor (median over the %u round%s of each round's ratio; "
		     "below 1 is faster):\n", r->set->repeat, r->set->repeat == 1 ? "" : "s");
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_result *res = &r->results[i];
		const struct bench_result *f = bench_result_floor(res, r->results, r->n);
		double ratio = res->status == BENCH_OK && f ? bench_result_ratio(res, f) : 0.0;

		if (ratio <= 0.0)
			continue;
		fprintf(out, "  %-*s %7.2fx  of %s\n", w, res->label, ratio, f->label);
		any = true;
	}
	if (!any)
		fprintf(out, "  (no bare row to compare with)\n");

	any = false;
	fprintf(out, "\nSame-CPU hand-off (sync=off / sync=on, round by round; above 1 it helps):\n");
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_result *on = &r->results[i];
		const struct bench_result *off = bench_result_sync_off(on, r->results, r->n);

		double gain = off ? bench_result_ratio(off, on) : 0.0;

		if (gain <= 0.0)
			continue;
		fprintf(out, "  %-*s %7.2fx  (%.2f -> %.2f us)\n", w, on->label, gain,
			us(off->median), us(on->median));
		any = true;
	}
	if (!any)
		fprintf(out, "  (no sync=on/sync=off pair)\n");
}

void bench_report_warnings(const struct bench_report *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct bench_result *res = &r->results[i];

		if (bench_result_noisy(res, r->set))
			fprintf(stderr,
				"unotify bench: warning: %s: batch medians spread %.1f%%, more "
				"than the %.1f%% asked (--precision): the machine is noisy and "
				"this row is approximate; quiet the machine, pin (--pin same) "
				"or add --batches\n",
				res->label, res->spread * 100.0, r->set->precision * 100.0);
		else if (res->status == BENCH_FAILED)
			fprintf(stderr, "unotify bench: %s failed: %s\n", res->label, res->error);
	}
}

void bench_report_text(FILE *out, const struct bench_report *r)
{
	const struct bench_machine *m = r->machine;
	const struct bench_settings *s = r->set;
	const char *src = "none";

	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].status == BENCH_OK) {
			src = bench_counter_source_name(r->results[i].target_source);
			break;
		}
	fprintf(out, "unotify bench on %s: %ld CPUs, %s, Linux %s, %s\n", m->hostname, m->nproc,
		m->cpu_model, m->kernel, m->date);
	fprintf(out, "each row: %u run%s x %u batches x %u calls after %u warm-up calls; "
		"counters: %s; run and daemon: --log-level %s\n\n", s->repeat,
		s->repeat == 1 ? "" : "s", s->batches, s->iterations, s->warmup, src,
		audit_level_name(s->log_level));
	bench_report_table(out, r);
	if (r->compare)
		bench_report_ratios(out, r);
	fflush(out);
	bench_report_warnings(r);
}
