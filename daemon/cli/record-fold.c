/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folding recorded paths into globs, so that a recorded policy reads like
 * one a person would write and survives the next run's differences.
 *
 * The rules, in order (record_fold):
 * 1. Names that change from run to run get a wildcard: a process's /proc
 *    entries (/proc/PID/..., /proc/PID/task/TID/...) and terminals
 *    (/dev/pts/N). Scratch directories (/tmp, /var/tmp, /dev/shm), where
 *    programs make files with random names, become the whole tree.
 * 2. Every other path is kept exact, unless at least FOLD_MIN of the
 *    recorded paths lie under one directory at least FOLD_DEPTH components
 *    deep (/usr/lib/locale, /usr/lib/x86_64-linux-gnu): they then become
 *    that directory's whole tree, taking the shallowest such directory
 *    where they branch (not one all of them merely pass through).
 *    Shallower directories (/usr, /etc, /home/ann) are never folded.
 * Every glob that stands for more than the paths seen is marked broad, and
 * the written policy asks for it to be reviewed.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "lib/util.h"

#define FOLD_MIN 3
#define FOLD_DEPTH 3

/*
 * How the program's own /proc entries are written. The language matches
 * resolved paths, in which /proc/self has become /proc/PID, and the pid
 * differs on every run: until a pattern can say "the calling process",
 * any pid is allowed (and the rule marked broad).
 */
#define FOLD_PROC_SELF "/proc/*"

static const char *const fold_scratch[] = { "/tmp", "/var/tmp", "/dev/shm" };

/*
 * A path as a glob that matches it alone: '*', '?' and '\' escaped. The
 * policy lexer splits words at white space and has no quoting, so white
 * space and control characters become '?' (any one character): *lossy.
 */
static int fold_escape(const char *path, size_t len, char **ret, bool *lossy)
{
	char *out = malloc(2 * len + 1), *o = out;

	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)path[i];

		if (c == '*' || c == '?' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (isspace(c) || iscntrl(c)) {
			*o++ = '?';
			*lossy = true;
		} else {
			*o++ = (char)c;
		}
	}
	*o = '\0';
	*ret = out;
	return 0;
}

/* Length of the run of digits at s. */
static size_t fold_digits(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	return n;
}

/* An allocated "PREFIX" + escaped rest; lossy escaping makes it broad. */
static int fold_join(const char *prefix, const char *rest, char **ret, bool *broad)
{
	_cleanup_free_ char *esc = NULL;
	int r;

	r = fold_escape(rest, strlen(rest), &esc, broad);
	if (r < 0)
		return r;
	return asprintf(ret, "%s%s", prefix, esc) < 0 ? -ENOMEM : 0;
}

/* /proc/PID/rest and /proc/PID/task/TID/rest: any PID and TID. 1 when it applied. */
static int fold_proc(const char *path, char **ret)
{
	const char *rest;
	size_t n;
	bool broad = true;
	int r;

	if (strncmp(path, "/proc/self/", 11) == 0 || strcmp(path, "/proc/self") == 0) {
		r = fold_join(FOLD_PROC_SELF, path + 10, ret, &broad);
		return r < 0 ? r : 1;
	}
	if (strncmp(path, "/proc/", 6) != 0 || (n = fold_digits(path + 6)) == 0)
		return 0;
	rest = path + 6 + n;
	if (*rest != '/' && *rest != '\0')
		return 0;
	if (strncmp(rest, "/task/", 6) == 0 && (n = fold_digits(rest + 6)) > 0 &&
	    (rest[6 + n] == '/' || rest[6 + n] == '\0')) {
		r = fold_join("/proc/*/task/*", rest + 6 + n, ret, &broad);
		return r < 0 ? r : 1;
	}
	r = fold_join("/proc/*", rest, ret, &broad);
	return r < 0 ? r : 1;
}

/* Rule 1: names that change between runs. 1 when it applied (*ret set), 0 when not. */
static int fold_rewrite(const char *path, char **ret)
{
	size_t n;
	int r;

	r = fold_proc(path, ret);
	if (r != 0)
		return r;
	if (strncmp(path, "/dev/pts/", 9) == 0 && (n = fold_digits(path + 9)) > 0 &&
	    path[9 + n] == '\0') {
		*ret = strdup("/dev/pts/*");
		return *ret ? 1 : -ENOMEM;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fold_scratch); i++) {
		n = strlen(fold_scratch[i]);
		if (strncmp(path, fold_scratch[i], n) == 0 && path[n] == '/' && path[n + 1]) {
			r = asprintf(ret, "%s/**", fold_scratch[i]);
			return r < 0 ? -ENOMEM : 1;
		}
	}
	return 0;
}

static int fold_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* First index in sorted[0..n) whose string is >= key. */
static size_t fold_lower_bound(char *const *sorted, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(sorted[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The range of sorted[] strictly under directory dir[0..len): [*ret_lo, return). */
static size_t fold_range_under(char *const *sorted, size_t n, const char *dir, size_t len,
			       size_t *ret_lo)
{
	char key[4097];

	if (len + 2 > sizeof(key)) {
		*ret_lo = 0;
		return 0;
	}
	memcpy(key, dir, len);
	key[len] = '/';
	key[len + 1] = '\0';
	*ret_lo = fold_lower_bound(sorted, n, key);
	key[len] = '/' + 1; /* the first string past every "dir/..." */
	return fold_lower_bound(sorted, n, key);
}

/* Do two paths under one directory (prefix length len + 1) go on through the same entry? */
static bool fold_same_child(const char *a, const char *b, size_t len)
{
	size_t na = strcspn(a + len + 1, "/"), nb = strcspn(b + len + 1, "/");

	return na == nb && memcmp(a + len + 1, b + len + 1, na) == 0;
}

/*
 * Rule 2: the shallowest directory of path, FOLD_DEPTH deep or more, with
 * FOLD_MIN paths under it, and where they branch: when all of them go on
 * through one subdirectory, that one is taken instead (a version directory
 * in ~/.pyenv/versions/3.11.7/lib/python3.11, say). 0: none.
 */
static size_t fold_tree_len(char *const *sorted, size_t n, const char *path, size_t *ret_covers)
{
	int depth = 0;

	if (path[0] != '/')
		return 0;
	for (const char *s = path + 1; (s = strchr(s, '/')); s++) {
		size_t len = (size_t)(s - path), lo, hi;

		if (++depth < FOLD_DEPTH)
			continue;
		hi = fold_range_under(sorted, n, path, len, &lo);
		if (hi - lo < FOLD_MIN)
			return 0; /* deeper directories hold fewer still */
		/* Sorted: when the first and the last share the entry, everything between does. */
		if (fold_same_child(sorted[lo], sorted[hi - 1], len))
			continue;
		*ret_covers = hi - lo;
		return len;
	}
	return 0;
}

static int fold_cmp_glob(const void *a, const void *b)
{
	return strcmp(((const struct record_glob *)a)->pattern,
		      ((const struct record_glob *)b)->pattern);
}

/* Sorts and merges equal patterns (a tree found from several of its paths). */
static size_t fold_unique(struct record_glob *g, size_t n)
{
	size_t out = 0;

	qsort(g, n, sizeof(*g), fold_cmp_glob);
	for (size_t i = 0; i < n; i++) {
		if (out > 0 && strcmp(g[out - 1].pattern, g[i].pattern) == 0) {
			/* A tree's count is the same from each of its paths; the others add up. */
			if (!g[i].tree)
				g[out - 1].covers += g[i].covers;
			g[out - 1].broad |= g[i].broad;
			free(g[i].pattern);
			continue;
		}
		g[out++] = g[i];
	}
	return out;
}

/* The glob of one path: a rewrite, a tree, or the path itself. */
static int fold_one(char *const *sorted, size_t n, const char *path, struct record_glob *ret)
{
	size_t covers = 1, len;
	bool lossy = false;
	char *pattern = NULL, *tree = NULL;
	int r;

	r = fold_rewrite(path, &pattern);
	if (r < 0)
		return r;
	if (r > 0) {
		*ret = (struct record_glob){ .pattern = pattern, .covers = 1, .broad = true };
		return 0;
	}
	len = fold_tree_len(sorted, n, path, &covers);
	r = fold_escape(path, len ? len : strlen(path), &pattern, &lossy);
	if (r < 0)
		return r;
	if (len) {
		r = asprintf(&tree, "%s/**", pattern);
		free(pattern);
		if (r < 0)
			return -ENOMEM;
		pattern = tree;
	}
	*ret = (struct record_glob){
		.pattern = pattern, .covers = covers, .broad = len || lossy, .tree = len > 0,
	};
	return 0;
}

int record_fold(char *const *paths, size_t n, struct record_glob **ret)
{
	_cleanup_free_ char **sorted = calloc(n ? n : 1, sizeof(char *));
	struct record_glob *g = calloc(n ? n : 1, sizeof(*g));
	size_t done = 0;
	int r = 0;

	if (!sorted || !g) {
		free(g);
		return -ENOMEM;
	}
	memcpy(sorted, paths, n * sizeof(char *));
	qsort(sorted, n, sizeof(char *), fold_cmp_str);
	for (; done < n && r == 0; done++)
		r = fold_one(sorted, n, sorted[done], &g[done]);
	if (r < 0) {
		record_globs_free(g, n); /* calloc'd: the entries not reached are empty */
		return r;
	}
	*ret = g;
	return (int)fold_unique(g, n);
}

void record_globs_free(struct record_glob *globs, size_t n)
{
	if (!globs)
		return;
	for (size_t i = 0; i < n; i++)
		free(globs[i].pattern);
	free(globs);
}
