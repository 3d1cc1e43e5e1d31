/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci-client mix SOCKET N [--policies K] [--launchers P] [--styles runc,crun,run]
 *                         [--calls-long C] [--timeout S]
 *
 * N sandboxes through one daemon, registered and ended concurrently: P
 * launcher processes start their share one after the other without waiting
 * for the earlier ones to end. Sandbox i uses policy mix<i % K> (the test
 * writes them: `return getppid 100+k`), the registration style
 * styles[(i / K) % count] (runc's compact state, crun's pretty one, or
 * client_register() as `unotify run --daemon` hands over), and lives long
 * (every fourth: C notified calls 5 ms apart, so that short ones start and
 * end around it) or short (2 calls). Every answer must be its own
 * policy's: a supervising thread that received on another sandbox's
 * listener (a recycled fd number) would answer with its own policy's value.
 * Every registration must be acknowledged, for the right policy. A call
 * that never returns is cut by an alarm (S seconds) and counted as hung.
 *
 * Prints "started N", "acked N", "answers ok N", "wrong N", "hung N",
 * "exit bad N", per policy "policy mixK ok N"; exits 0 when all is right.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/protocol/client.h"
#include "oci-client.h"

#define MIX_MAX_POLICIES 16
#define MIX_VALUE_BASE 100
#define MIX_STYLES_MAX 3

struct mix {
	const char *socket;
	int n, policies, launchers, calls_long, timeout_s;
	const char *styles[MIX_STYLES_MAX];
	int n_styles;
	int results; /* pipe: one line per sandbox from its child, one from its launcher */
};

static bool mix_is_long(int i)
{
	return i % 4 == 0;
}

/* The sandboxed child: its calls and what came back, as one line "R i good wrong value err". */
static void mix_child(const struct mix *m, int i)
{
	int calls = mix_is_long(i) ? m->calls_long : 2, good = 0, wrong = 0, err = 0;
	long want = MIX_VALUE_BASE + i % m->policies, v, seen = 0;
	struct timespec pause = { .tv_nsec = 5 * 1000000L };
	char line[96];
	int len;

	alarm((unsigned int)m->timeout_s); /* a call that hangs: SIGALRM ends us, the launcher says */
	for (int k = 0; k < calls; k++) {
		v = syscall(SYS_getppid);
		if (v == want) {
			good++;
		} else {
			wrong++;
			seen = v;
			err = v < 0 ? errno : 0;
		}
		if (mix_is_long(i))
			nanosleep(&pause, NULL);
	}
	len = snprintf(line, sizeof(line), "R %d %d %d %ld %d\n", i, good, wrong, seen, err);
	_exit(write(m->results, line, (size_t)len) == len ? 0 : 3);
}

/* Hands sandbox i's listener over; 1 when the daemon acknowledged it for its policy. */
static int mix_hand_over(const struct mix *m, int i, int listener, pid_t pid)
{
	const char *style = m->styles[(i / m->policies) % m->n_styles];
	char policy[32], metadata[48], id[32], want[64], answer[4096] = "";
	struct reg_opts o = { .socket = m->socket, .style = style, .id = id, .ack = true };
	FILE *f;

	snprintf(policy, sizeof(policy), "mix%d", i % m->policies);
	snprintf(metadata, sizeof(metadata), "policy=%s", policy);
	/* Container ids repeat, as a runtime's may across restarts: the daemon must not care. */
	snprintf(id, sizeof(id), "mix-%d", i % 16);
	if (strcmp(style, "run") == 0)
		return client_register(m->socket, policy, listener, pid) == 0;
	o.metadata = metadata;
	/* Every fifth runtime closes at once without reading the answer, as runc may. */
	if (i % 5 == 4) {
		o.ack = false;
		return hand_over(&o, listener, pid, id) == 0;
	}
	f = fmemopen(answer, sizeof(answer) - 1, "w");
	if (!f)
		return 0;
	o.answer = f;
	hand_over(&o, listener, pid, id);
	fclose(f);
	snprintf(want, sizeof(want), "\"policy\":\"%s\"", policy);
	if (strstr(answer, "\"ok\":true") && strstr(answer, want))
		return 1;
	fprintf(stderr, "sandbox %d (%s, %s): acknowledgement: %s\n", i, style, policy,
		answer[0] ? answer : "(none)");
	return 0;
}

/* Starts sandbox i, hands it over and releases it (a sandbox nobody took sees ENOSYS). */
static pid_t mix_start(const struct mix *m, scmp_filter_ctx ctx, int i, int *ret_acked)
{
	int listener, go;
	pid_t pid = child_start(ctx, &listener, &go);

	if (pid == 0)
		mix_child(m, i);
	if (pid < 0)
		return -1;
	*ret_acked = mix_hand_over(m, i, listener, pid);
	close(listener);
	child_release(go);
	return pid;
}

/* Launcher j: sandboxes j, j+P, ...; then one "E i acked status" line for each. */
static void mix_launcher(const struct mix *m, int j)
{
	scmp_filter_ctx ctx = build_filter("getppid");
	int count = (m->n - j + m->launchers - 1) / m->launchers;
	pid_t *pids = calloc((size_t)count, sizeof(pid_t));
	int *acked = calloc((size_t)count, sizeof(int));
	char line[64];

	if (!ctx || !pids || !acked)
		_exit(2);
	for (int k = 0; k < count; k++)
		pids[k] = mix_start(m, ctx, j + k * m->launchers, &acked[k]);
	for (int k = 0; k < count; k++) {
		int st = pids[k] > 0 ? wait_status(pids[k]) : -1;
		int len = snprintf(line, sizeof(line), "E %d %d %d\n", j + k * m->launchers,
				   acked[k], st);

		if (write(m->results, line, (size_t)len) != len)
			_exit(3);
	}
	_exit(0);
}

struct mix_tally {
	int started, acked, answers_ok, wrong, hung, exit_bad;
	int policy_ok[MIX_MAX_POLICIES];
	char *seen; /* per sandbox: bit 0 R line good, bit 1 E line good */
};

static void mix_line(const struct mix *m, const char *line, struct mix_tally *t)
{
	int i, good, wrong, err, a, st;
	long v;

	if (sscanf(line, "R %d %d %d %ld %d", &i, &good, &wrong, &v, &err) == 5 && i >= 0 &&
	    i < m->n) {
		if (wrong == 0) {
			t->answers_ok++;
			t->seen[i] |= 1;
		} else {
			t->wrong++;
			fprintf(stderr, "sandbox %d (policy mix%d): %d wrong answers, e.g. %ld errno %d "
					"(expected %d)\n", i, i % m->policies, wrong, v, err,
				MIX_VALUE_BASE + i % m->policies);
		}
	} else if (sscanf(line, "E %d %d %d", &i, &a, &st) == 3 && i >= 0 && i < m->n) {
		t->started += st != -1;
		t->acked += a;
		if (st == 128 + SIGALRM) {
			t->hung++;
			fprintf(stderr, "sandbox %d: a notified call did not return within %d s\n", i,
				m->timeout_s);
		} else if (st != 0) {
			t->exit_bad++;
		}
		if (a && st == 0)
			t->seen[i] |= 2;
	}
}

static int mix_run(struct mix *m)
{
	struct mix_tally t = { .seen = calloc((size_t)m->n, 1) };
	int p[2], all_ok;
	char line[256];
	FILE *in;

	if (!t.seen || pipe2(p, O_CLOEXEC) < 0)
		return die("setup");
	m->results = p[1];
	for (int j = 0; j < m->launchers; j++) {
		pid_t pid = fork();

		if (pid < 0)
			return die("fork");
		if (pid == 0) {
			close(p[0]);
			mix_launcher(m, j);
		}
	}
	close(p[1]);
	in = fdopen(p[0], "r");
	while (in && fgets(line, sizeof(line), in))
		mix_line(m, line, &t);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	for (int i = 0; i < m->n; i++)
		if (t.seen[i] == 3)
			t.policy_ok[i % m->policies]++;
	printf("started %d\nacked %d\nanswers ok %d\nwrong %d\nhung %d\nexit bad %d\n", t.started,
	       t.acked, t.answers_ok, t.wrong, t.hung, t.exit_bad);
	for (int k = 0; k < m->policies; k++)
		printf("policy mix%d ok %d\n", k, t.policy_ok[k]);
	all_ok = t.started == m->n && t.acked == m->n && t.answers_ok == m->n && t.wrong == 0 &&
		 t.hung == 0 && t.exit_bad == 0;
	if (in)
		fclose(in);
	free(t.seen);
	return all_ok ? 0 : 1;
}

static int mix_styles(struct mix *m, char *list)
{
	char *save = NULL;

	m->n_styles = 0;
	for (char *s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (m->n_styles == MIX_STYLES_MAX ||
		    (strcmp(s, "runc") && strcmp(s, "crun") && strcmp(s, "run")))
			return -1;
		m->styles[m->n_styles++] = s;
	}
	return m->n_styles > 0 ? 0 : -1;
}

int cmd_mix(int argc, char **argv)
{
	struct mix m = { .policies = 2, .launchers = 4, .calls_long = 40, .timeout_s = 60,
			 .styles = { "runc", "crun", "run" }, .n_styles = 3 };

	if (argc < 2)
		return 2;
	m.socket = argv[0];
	m.n = atoi(argv[1]);
	for (int i = 2; i + 1 < argc; i += 2) {
		const char *opt = argv[i];
		int v = atoi(argv[i + 1]);

		if (strcmp(opt, "--policies") == 0 && v >= 1 && v <= MIX_MAX_POLICIES)
			m.policies = v;
		else if (strcmp(opt, "--launchers") == 0 && v >= 1)
			m.launchers = v;
		else if (strcmp(opt, "--calls-long") == 0 && v >= 1)
			m.calls_long = v;
		else if (strcmp(opt, "--timeout") == 0 && v >= 1)
			m.timeout_s = v;
		else if (strcmp(opt, "--styles") != 0 || mix_styles(&m, argv[i + 1]) < 0) {
			fprintf(stderr, "oci-client: mix: bad option %s %s\n", opt, argv[i + 1]);
			return 2;
		}
	}
	if (m.n < 1)
		return 2;
	return mix_run(&m);
}
