/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify run --record FILE`: collect what a run does, then write a policy
 * that allows exactly that, with paths folded into globs (record-fold.c).
 *
 * The run is supervised under record_policy_text(): `default log`, so every
 * call reaches the supervisor and is allowed, plus a `log` rule with a
 * path= matching every path on each syscall whose path the language can
 * match, so that the supervisor resolves each path as the kernel would for
 * the program (the very path a rule will be matched against later) and
 * performs the call instead of letting it through after reading memory.
 * Calls decided on registers alone are CONTINUEd, which is safe: nothing is
 * denied.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"
#include "lib/util.h"
#include "policy/policy.h"

/* Native syscall numbers are below this (policy/internal.h's POLICY_NR_MAX). */
#define RECORD_NR_MAX 1024

/* One distinct (syscall, access class, resolved path). */
struct record_entry {
	char *path; /* NULL: a free slot */
	int nr;
	bool read_only; /* an open with no write, create or truncate */
	unsigned long count;
};

struct record_pid {
	pid_t tid;
	pid_t tgid;
};

struct record {
	unsigned long calls[RECORD_NR_MAX];
	unsigned long failed[RECORD_NR_MAX]; /* failed in the supervisor (performed, or unreadable) */
	unsigned long total;
	unsigned long unnamed; /* numbers past RECORD_NR_MAX */
	unsigned long lost;    /* paths not kept (out of memory) */
	struct record_entry *table; /* open addressing, size a power of two */
	size_t size;
	size_t used;
	struct record_pid *pids;
	size_t n_pids;
	size_t cap_pids;
	size_t last_pid; /* the last one looked up: calls come in runs from one thread */
};

int record_new(struct record **ret)
{
	struct record *rec = calloc(1, sizeof(*rec));

	if (!rec)
		return -ENOMEM;
	rec->size = 1024;
	rec->table = calloc(rec->size, sizeof(*rec->table));
	if (!rec->table) {
		free(rec);
		return -ENOMEM;
	}
	*ret = rec;
	return 0;
}

void record_free(struct record *rec)
{
	if (!rec)
		return;
	for (size_t i = 0; i < rec->size; i++)
		free(rec->table[i].path);
	free(rec->table);
	free(rec->pids);
	free(rec);
}

int record_policy_text(char **ret)
{
	char *text = NULL;
	size_t len = 0, n = 0;
	const struct policy_pathcall *pc;
	struct policy_implicit_info set;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return -ENOMEM;
	fputs("# unotify run --record: every call allowed and logged, every path resolved\n", f);
	for (size_t i = 0; (pc = policy_pathcall_at(i)); i++) {
		/* execve cannot be performed for the program: it stays a register-only allow. */
		if (!policy_syscall_has_path(pc->nr) || pc->perform == POLICY_PERFORM_NONE)
			continue;
		fprintf(f, "%s %s", n++ ? "" : "log", pc->name);
	}
	if (n)
		fputs(" path=/**\n", f);
	fputs("default log\n", f);
	/* Recording denies nothing: not even what keeps path rules from being walked around. */
	for (size_t i = 0; policy_implicit_info(NULL, i, &set) == 0; i++)
		fprintf(f, "implicit %s off\n", set.name);
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	*ret = text;
	return 0;
}

/* The thread group of a thread of the program, read while its call is pending. */
static pid_t record_tgid(struct record *rec, pid_t tid)
{
	char file[64], line[256];
	pid_t tgid = tid;
	FILE *f;

	if (rec->last_pid < rec->n_pids && rec->pids[rec->last_pid].tid == tid)
		return rec->pids[rec->last_pid].tgid;
	for (size_t i = rec->n_pids; i-- > 0;)
		if (rec->pids[i].tid == tid) {
			rec->last_pid = i;
			return rec->pids[i].tgid;
		}
	snprintf(file, sizeof(file), "/proc/%d/status", (int)tid);
	f = fopen(file, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	if (f)
		fclose(f);
	if (rec->n_pids == rec->cap_pids) {
		size_t cap = rec->cap_pids ? 2 * rec->cap_pids : 64;
		struct record_pid *p = realloc(rec->pids, cap * sizeof(*p));

		if (!p)
			return tgid;
		rec->pids = p;
		rec->cap_pids = cap;
	}
	rec->last_pid = rec->n_pids;
	rec->pids[rec->n_pids++] = (struct record_pid){ tid, tgid };
	return tgid;
}

/*
 * /proc/N/... where N is the calling process (or thread) is written
 * /proc/self/...: the program's own entries, whatever its pid next time.
 */
static char *record_normalize(struct record *rec, pid_t tid, const char *path)
{
	char *end, *out;
	long n;

	if (strncmp(path, "/proc/", 6) != 0 || path[6] < '1' || path[6] > '9')
		return strdup(path);
	n = strtol(path + 6, &end, 10);
	if ((*end != '/' && *end != '\0') || (n != tid && n != record_tgid(rec, tid)))
		return strdup(path);
	return asprintf(&out, "/proc/self%s", end) < 0 ? NULL : out;
}

static size_t record_hash(int nr, bool read_only, const char *path)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)(nr * 2 + read_only);

	for (const unsigned char *s = (const unsigned char *)path; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	return (size_t)h;
}

static struct record_entry *record_slot(struct record_entry *table, size_t size, int nr,
					bool read_only, const char *path)
{
	size_t i = record_hash(nr, read_only, path) & (size - 1);

	while (table[i].path && (table[i].nr != nr || table[i].read_only != read_only ||
				 strcmp(table[i].path, path) != 0))
		i = (i + 1) & (size - 1);
	return &table[i];
}

static int record_grow(struct record *rec)
{
	size_t size = rec->size * 2;
	struct record_entry *t = calloc(size, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < rec->size; i++)
		if (rec->table[i].path)
			*record_slot(t, size, rec->table[i].nr, rec->table[i].read_only,
				     rec->table[i].path) = rec->table[i];
	free(rec->table);
	rec->table = t;
	rec->size = size;
	return 0;
}

/* Is this open read-only: no write access, no O_CREAT, no O_TRUNC? Unknown flags: no. */
static bool record_read_only(int nr, const uint64_t *args)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);

	if (!pc || pc->role[0] != POLICY_ROLE_BY_OPEN_FLAGS || pc->flags_arg < 0)
		return false;
	return (args[pc->flags_arg] & (O_ACCMODE | O_CREAT | O_TRUNC)) == 0;
}

static void record_add_path(struct record *rec, const struct audit_record *r, const char *resolved)
{
	bool read_only = record_read_only(r->nr, r->args);
	_cleanup_free_ char *path = record_normalize(rec, r->pid, resolved);
	struct record_entry *e;

	if (!path || (2 * (rec->used + 1) > rec->size && record_grow(rec) < 0)) {
		rec->lost++;
		return;
	}
	e = record_slot(rec->table, rec->size, r->nr, read_only, path);
	if (!e->path) {
		*e = (struct record_entry){ .path = steal_pointer(&path), .nr = r->nr,
					    .read_only = read_only };
		rec->used++;
	}
	e->count++;
}

void record_add(struct record *rec, const struct audit_record *r)
{
	if (!rec)
		return;
	rec->total++;
	/* Another ABI's numbers (r->arch) name other calls: never a native rule. */
	if (r->arch || r->nr < 0 || r->nr >= RECORD_NR_MAX || !policy_syscall_name(r->nr)) {
		rec->unnamed++;
		return;
	}
	rec->calls[r->nr]++;
	record_tgid(rec, r->pid); /* counts the processes */
	if (r->error)
		rec->failed[r->nr]++;
	/* Both paths of rename, link...: an allow rule must cover each (kform.c). */
	if (r->path)
		record_add_path(rec, r, r->path);
	if (r->path2)
		record_add_path(rec, r, r->path2);
}

/* ---- Writing the policy ---- */

/* Syscalls a run cannot control the timing of: allowed even when not seen. */
static const char *const record_always[] = { "rt_sigreturn", "restart_syscall", "exit",
					     "exit_group" };

#define RECORD_GLOBS_PER_LINE 4

/* The paths recorded for (nr, class), borrowed from the table, and their calls. */
static int record_paths_of(const struct record *rec, int nr, bool read_only, char ***ret,
			   unsigned long *ret_calls)
{
	char **paths = calloc(rec->used ? rec->used : 1, sizeof(char *));
	unsigned long calls = 0;
	size_t n = 0;

	if (!paths)
		return -ENOMEM;
	for (size_t i = 0; i < rec->size; i++) {
		const struct record_entry *e = &rec->table[i];

		if (e->path && e->nr == nr && e->read_only == read_only) {
			paths[n++] = e->path;
			calls += e->count;
		}
	}
	*ret = paths;
	*ret_calls = calls;
	return (int)n;
}

static void record_write_review(FILE *f, const struct record_glob *g, size_t n, bool read_only,
				const struct policy_pathcall *pc)
{
	for (size_t i = 0; i < n; i++) {
		if (!g[i].broad)
			continue;
		if (g[i].tree)
			fprintf(f, "#   REVIEW %s: a whole tree, for %zu paths seen under it\n",
				g[i].pattern, g[i].covers);
		else
			fprintf(f, "#   REVIEW %s: a wildcard, for %zu paths whose names change "
				   "from run to run\n", g[i].pattern, g[i].covers);
	}
	if (!read_only && pc && pc->role[0] == POLICY_ROLE_BY_OPEN_FLAGS)
		fprintf(f, "#   REVIEW: these opens may write, create or truncate\n");
}

/* The path rules of one syscall and access class. */
static int record_write_class(FILE *f, const struct record *rec, int nr, bool read_only)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);
	bool by_flags = pc && pc->role[0] == POLICY_ROLE_BY_OPEN_FLAGS;
	_cleanup_free_ char **paths = NULL;
	struct record_glob *g = NULL;
	unsigned long calls;
	char cond[64] = "";
	int n, k;

	n = record_paths_of(rec, nr, read_only, &paths, &calls);
	if (n <= 0)
		return n;
	k = record_fold(paths, (size_t)n, &g);
	if (k < 0)
		return k;
	/* Opens have one path each; a rename's two paths are two entries of one call. */
	if (!by_flags)
		calls = rec->calls[nr];
	if (read_only)
		snprintf(cond, sizeof(cond), " arg%d&%#x==0", pc->flags_arg,
			 (unsigned int)(O_ACCMODE | O_CREAT | O_TRUNC));
	fprintf(f, "\n# %s%s: %lu call%s, %d distinct path%s\n", policy_syscall_name(nr),
		read_only ? ", read-only opens (no write access, O_CREAT or O_TRUNC)"
			  : by_flags ? ", other opens" : "",
		calls, calls == 1 ? "" : "s", n, n == 1 ? "" : "s");
	record_write_review(f, g, (size_t)k, read_only, pc);
	for (int i = 0; i < k; i++) {
		if (i % RECORD_GLOBS_PER_LINE == 0)
			fprintf(f, "%sallow   %s%s", i ? "\n" : "", policy_syscall_name(nr), cond);
		fprintf(f, " path=%s", g[i].pattern);
	}
	fputc('\n', f);
	record_globs_free(g, (size_t)k);
	return 0;
}

/*
 * has_paths[nr]: the syscall gets path rules. A call on a descriptor whose
 * object has no path (fstat of a pipe through newfstatat's AT_EMPTY_PATH)
 * resolves to "pipe:[N]", which no path= pattern can match: such a syscall
 * is allowed whatever its path (anon[nr]), and the policy says so.
 */
static void record_classify(const struct record *rec, bool *has_paths, bool *anon)
{
	for (size_t i = 0; i < rec->size; i++) {
		const struct record_entry *e = &rec->table[i];

		if (!e->path)
			continue;
		has_paths[e->nr] = true;
		if (e->path[0] != '/')
			anon[e->nr] = true;
	}
	for (int nr = 0; nr < RECORD_NR_MAX; nr++)
		if (anon[nr])
			has_paths[nr] = false;
}

static void record_write_plain(FILE *f, const struct record *rec, const bool *has_paths,
			       const bool *anon)
{
	bool first = true;

	for (int nr = 0; nr < RECORD_NR_MAX; nr++) {
		const char *name = policy_syscall_name(nr);
		const struct policy_pathcall *pc = policy_pathcall_find(nr);

		if (!rec->calls[nr] || has_paths[nr])
			continue;
		if (first)
			fprintf(f, "\n# Allowed whatever their arguments, with the calls seen.\n");
		first = false;
		if (pc && pc->perform == POLICY_PERFORM_NONE)
			fprintf(f, "# REVIEW %s: any program; a path rule on it could not be "
				   "enforced safely (unotify policy check says why)\n", name);
		else if (anon[nr])
			fprintf(f, "# REVIEW %s: any path; it was called on descriptors with no path "
				   "(pipes, sockets), which path= cannot match\n", name);
		else if (pc && policy_syscall_has_path(nr))
			fprintf(f, "# REVIEW %s: no path could be read in the recorded run\n", name);
		fprintf(f, "allow   %-24s # %lu call%s", name, rec->calls[nr],
			rec->calls[nr] == 1 ? "" : "s");
		if (rec->failed[nr])
			fprintf(f, ", %lu failed", rec->failed[nr]);
		fputc('\n', f);
	}
	first = true;
	for (size_t i = 0; i < ARRAY_SIZE(record_always); i++) {
		int nr = policy_syscall_resolve(record_always[i]);

		if (nr < 0 || nr >= RECORD_NR_MAX || rec->calls[nr])
			continue;
		fprintf(f, "%s %s", first ? "\n# Not seen, but a run cannot control when they "
					    "happen (signals, exits).\nallow  " : "",
			record_always[i]);
		first = false;
	}
	if (!first)
		fputc('\n', f);
}

static void record_write_header(FILE *f, const struct record *rec, char *const *argv)
{
	size_t syscalls = 0, processes = 0;

	for (int nr = 0; nr < RECORD_NR_MAX; nr++)
		syscalls += rec->calls[nr] > 0;
	for (size_t i = 0; i < rec->n_pids; i++)
		processes += rec->pids[i].tid == rec->pids[i].tgid;
	fputs("# Recorded by unotify run --record:", f);
	for (; *argv; argv++) {
		fputc(' ', f);
		for (const char *s = *argv; *s; s++)
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fprintf(f, "\n# %lu calls of %zu syscalls", rec->total, syscalls);
	if (processes)
		fprintf(f, " by %zu process%s", processes, processes == 1 ? "" : "es");
	fputs(".\n#\n"
	      "# It allows what that run did and denies everything else with EPERM.\n"
	      "# Review it before use (unotify(1), RECORDING A POLICY):\n"
	      "#  - REVIEW marks rules broader than what was seen: a directory tree where\n"
	      "#    several files under it were used, a wildcard where a name changes\n"
	      "#    from run to run, opens that may write, programs executed;\n"
	      "#  - remove what the program should not need; narrow trees to files;\n"
	      "#  - a call this run did not make fails with EPERM, decided in the kernel\n"
	      "#    and so absent from the audit trail: to find such calls, try the\n"
	      "#    program with `default kill` (it dies at the first one) or `default log`.\n", f);
	if (rec->unnamed || rec->lost)
		fprintf(f, "# %lu calls of unknown syscalls and %lu paths could not be recorded.\n",
			rec->unnamed, rec->lost);
}

static int record_write_text(const struct record *rec, char *const *argv, FILE *f)
{
	bool has_paths[RECORD_NR_MAX] = { false }, anon[RECORD_NR_MAX] = { false };
	int r = 0;

	record_classify(rec, has_paths, anon);
	record_write_header(f, rec, argv);
	for (int nr = 0; nr < RECORD_NR_MAX && r == 0; nr++) {
		if (!has_paths[nr])
			continue;
		r = record_write_class(f, rec, nr, true);
		if (r == 0)
			r = record_write_class(f, rec, nr, false);
		if (r == 0 && rec->failed[nr])
			fprintf(f, "# (%lu of the %s calls failed in the run, on missing files and the "
				   "like: their paths stay, so they fail the same way, not with EPERM)\n",
				rec->failed[nr], policy_syscall_name(nr));
	}
	if (r < 0)
		return r;
	record_write_plain(f, rec, has_paths, anon);
	fputs("\ndefault deny EPERM\n", f);
	return 0;
}

/* The written policy must parse: a recorder that writes a broken policy has a bug. */
static int record_verify(const char *name, const char *text)
{
	struct policy_diags diags = { 0 };
	struct policy *p = policy_new();
	int r;

	if (!p)
		return -ENOMEM;
	r = policy_parse_text(p, name, text, &diags);
	if (policy_finish(p, &diags) < 0 && r == 0)
		r = -EINVAL;
	if (diags.errors > 0) {
		fprintf(stderr, "unotify: the recorded policy does not check (a bug):\n");
		policy_diags_print(&diags, stderr);
		r = -EINVAL;
	}
	policy_diags_free(&diags);
	policy_free(p);
	return r;
}

int record_open(const char *path, int *ret_fd)
{
	_cleanup_close_ int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
				      0644);
	struct stat st;

	if (fd < 0)
		return negative_errno();
	if (fstat(fd, &st) < 0)
		return negative_errno();
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
		return -EPERM;
	*ret_fd = TAKE_FD(fd);
	return 0;
}

/* All of text at the start of fd, and nothing after it. */
static int record_put(int fd, const char *text, size_t len)
{
	size_t done = 0;

	if (ftruncate(fd, 0) < 0)
		return negative_errno();
	while (done < len) {
		ssize_t n = pwrite(fd, text + done, len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? negative_errno() : -EIO;
		done += (size_t)n;
	}
	return fsync(fd) < 0 && errno != EINVAL ? negative_errno() : 0;
}

int record_write(const struct record *rec, int fd, const char *path, char *const *argv)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int r;

	if (!mem)
		return -ENOMEM;
	r = record_write_text(rec, argv, mem);
	if (fclose(mem) != 0 && r == 0)
		r = -ENOMEM;
	if (r == 0)
		r = record_verify(path, text);
	if (r < 0)
		return r;
	return record_put(fd, text, len);
}
