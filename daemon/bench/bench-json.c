/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify bench --json`: the schema "unotify-bench/1", documented in
 * unotify-bench(1) and docs/BENCHMARKS.md. Times are integer nanoseconds;
 * a field that does not apply is null rather than absent, so a script can
 * rely on every key being there.
 */
#include "config.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>

#include "bench.h"
#include "lib/util.h"

#define BENCH_JSON_SCHEMA "unotify-bench/1"

static void json_put(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

/* A double printed with a fixed number of decimals instead of 17 digits. */
static struct json_object *json_fixed(double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *bench_json_machine(const struct bench_machine *m)
{
	struct json_object *o = json_object_new_object();

	json_put(o, "hostname", json_object_new_string(m->hostname));
	json_put(o, "nproc", json_object_new_int64(m->nproc));
	json_put(o, "cpu_model", json_object_new_string(m->cpu_model));
	json_put(o, "kernel", json_object_new_string(m->kernel));
	json_put(o, "sync_wake_up", json_object_new_boolean(m->sync_wake_up));
	return o;
}

static struct json_object *bench_json_settings(const struct bench_settings *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *cpus = json_object_new_array();

	json_put(o, "iterations", json_object_new_int64(s->iterations));
	json_put(o, "batches", json_object_new_int64(s->batches));
	json_put(o, "warmup", json_object_new_int64(s->warmup));
	json_put(o, "repeat", json_object_new_int64(s->repeat));
	json_put(o, "precision", json_fixed(s->precision, 4));
	json_put(o, "spin_us", json_object_new_int64(s->spin_us));
	json_put(o, "log_level", json_object_new_string(audit_level_name(s->log_level)));
	json_object_array_add(cpus, json_object_new_int64(s->cpu_a));
	if (s->cpu_b >= 0)
		json_object_array_add(cpus, json_object_new_int64(s->cpu_b));
	json_put(o, "pin_cpus", cpus);
	return o;
}

static struct json_object *bench_json_ns(const struct bench_result *res)
{
	const struct latency_summary *s = &res->summary;
	struct json_object *o = json_object_new_object();

	json_put(o, "median", json_object_new_int64((int64_t)res->median));
	json_put(o, "min", json_object_new_int64((int64_t)s->min));
	json_put(o, "p50", json_object_new_int64((int64_t)s->p50));
	json_put(o, "p90", json_object_new_int64((int64_t)s->p90));
	json_put(o, "p99", json_object_new_int64((int64_t)s->p99));
	json_put(o, "p99_9", json_object_new_int64((int64_t)s->p999));
	json_put(o, "max", json_object_new_int64((int64_t)s->max));
	json_put(o, "mean", json_fixed(s->mean, 1));
	return o;
}

static struct json_object *bench_json_counts(const struct bench_counts *c,
					     enum bench_counter_source src)
{
	struct json_object *o;

	if (src == BENCH_COUNTERS_NONE)
		return NULL;
	o = json_object_new_object();
	json_put(o, "source", json_object_new_string(bench_counter_source_name(src)));
	json_put(o, "migrations",
		 c->has_migrations ? json_object_new_int64((int64_t)c->migrations) : NULL);
	json_put(o, "context_switches", json_object_new_int64((int64_t)c->switches));
	return o;
}

static struct json_object *bench_json_histogram(const struct bench_result *res)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < res->hist_n; i++) {
		struct json_object *b;

		if (!res->hist[i].count)
			continue;
		b = json_object_new_object();
		json_put(b, "lo_ns", json_object_new_int64((int64_t)res->hist[i].lo));
		json_put(b, "hi_ns", json_object_new_int64((int64_t)res->hist[i].hi));
		json_put(b, "count", json_object_new_int64((int64_t)res->hist[i].count));
		json_object_array_add(a, b);
	}
	return a;
}

static const char *bench_json_status(enum bench_status s)
{
	return s == BENCH_OK ? "ok" : s == BENCH_UNSUPPORTED ? "unsupported" : "failed";
}

static void bench_json_ratios(struct json_object *o, const struct bench_report *r,
			      const struct bench_result *res)
{
	const struct bench_result *f = bench_result_floor(res, r->results, r->n);
	const struct bench_result *off = bench_result_sync_off(res, r->results, r->n);
	double ratio = res->status == BENCH_OK && f ? bench_result_ratio(res, f) : 0.0;
	double gain = off ? bench_result_ratio(off, res) : 0.0;

	json_put(o, "floor", ratio > 0.0 ? json_object_new_string(f->label) : NULL);
	json_put(o, "ratio_to_floor", ratio > 0.0 ? json_fixed(ratio, 4) : NULL);
	json_put(o, "sync_gain", gain > 0.0 ? json_fixed(gain, 4) : NULL);
}

/* Each round's run median (ns), in the order the rounds ran. */
static struct json_object *bench_json_run_medians(const struct bench_result *res)
{
	struct json_object *a = json_object_new_array();

	for (unsigned int i = 0; a && i < res->runs; i++)
		json_object_array_add(a, json_object_new_int64((int64_t)res->run_median[i]));
	return a;
}

static struct json_object *bench_json_run(const struct bench_report *r,
					  const struct bench_result *res)
{
	const struct bench_config *c = &res->cfg;
	struct json_object *o = json_object_new_object();
	bool ok = res->status == BENCH_OK;
	double seconds = (double)res->window_ns / 1e9;

	json_put(o, "label", json_object_new_string(res->label));
	json_put(o, "mode", json_object_new_string(c->mode->name));
	json_put(o, "sync", c->sync < 0 ? NULL : json_object_new_boolean(c->sync));
	json_put(o, "wait", (c->mode->flags & BENCH_MODE_LISTENER)
				    ? json_object_new_string(bench_wait_name(c->wait))
				    : NULL);
	json_put(o, "pin", json_object_new_string(bench_pin_name(c->pin)));
	json_put(o, "threads", json_object_new_int64(c->threads));
	json_put(o, "call", json_object_new_string(bench_call_name(c->call)));
	json_put(o, "path", c->call == BENCH_CALL_GETPPID ? NULL
			    : json_object_new_string(c->missing ? "missing" : "found"));
	json_put(o, "relative", c->call == BENCH_CALL_GETPPID ? NULL
				: json_object_new_boolean(c->relative));
	json_put(o, "status", json_object_new_string(bench_json_status(res->status)));
	json_put(o, "error", ok ? NULL : json_object_new_string(res->error));
	json_put(o, "runs", json_object_new_int64(res->runs));
	json_put(o, "run_medians_ns", ok ? bench_json_run_medians(res) : NULL);
	json_put(o, "calls", json_object_new_int64((int64_t)res->calls));
	json_put(o, "ns", ok ? bench_json_ns(res) : NULL);
	json_put(o, "spread", ok ? json_fixed(res->spread, 4) : NULL);
	json_put(o, "noisy", json_object_new_boolean(bench_result_noisy(res, r->set)));
	json_put(o, "calls_per_second", ok && seconds > 0 ? json_fixed(res->calls / seconds, 0)
							  : NULL);
	json_put(o, "target", ok ? bench_json_counts(&res->target, res->target_source) : NULL);
	json_put(o, "supervisor", ok ? bench_json_counts(&res->peer, res->peer_source) : NULL);
	bench_json_ratios(o, r, res);
	json_put(o, "histogram", ok ? bench_json_histogram(res) : NULL);
	return o;
}

int bench_report_json(FILE *out, const struct bench_report *r)
{
	struct json_object *root = json_object_new_object();
	struct json_object *runs = json_object_new_array();
	const char *text;
	int ret = 0;

	if (!root || !runs) {
		json_object_put(root);
		json_object_put(runs);
		return -ENOMEM;
	}
	json_put(root, "schema", json_object_new_string(BENCH_JSON_SCHEMA));
	json_put(root, "version", json_object_new_string(PACKAGE_VERSION));
	json_put(root, "command", json_object_new_string(r->command));
	json_put(root, "date", json_object_new_string(r->machine->date));
	json_put(root, "machine", bench_json_machine(r->machine));
	json_put(root, "settings", bench_json_settings(r->set));
	for (size_t i = 0; i < r->n; i++)
		json_object_array_add(runs, bench_json_run(r, &r->results[i]));
	json_put(root, "runs", runs);

	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_SPACED |
							    JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fprintf(out, "%s\n", text) < 0 || fflush(out) != 0)
		ret = -EIO;
	json_object_put(root);
	return ret;
}
