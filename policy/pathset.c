/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Path rules indexed by the literal prefix of their patterns, so that
 * deciding a call costs about the length of its path, not the number of
 * path rules (docs/POLICY-PERFORMANCE.md).
 *
 * A pattern can only match a path that starts with its literal prefix (the
 * characters before its first unescaped '*' or '?'; all of it when it has
 * none, and then the path must be exactly that). The set maps each prefix
 * to the positions of the rules that have a pattern with it, in increasing
 * order. A query hashes the path's prefixes in one pass, looks up those of
 * a length some pattern has, and merges the position lists: the candidates,
 * a superset of the rules that match, which the evaluator then checks in
 * order. First match is kept because candidates come out in rule order.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

#define PATHSET_EXACT_SALT 0x9e3779b97f4a7c15ull

struct pathset_entry {
	char *prefix;
	size_t len;
	uint64_t hash;
	bool exact; /* the pattern is all literal: the path must equal it */
	size_t *pos;
	size_t n_pos;
};

struct pathset {
	struct pathset_entry *entries;
	size_t n_entries;
	size_t *slots; /* open addressing: entry index + 1, 0 for empty */
	size_t n_slots; /* a power of two, at most half full */
	uint8_t *lengths; /* lengths[l]: some prefix has length l */
	size_t max_len;
};

struct pathset_iter {
	size_t n;
	struct {
		const size_t *pos;
		size_t n_pos;
		size_t at;
	} lists[];
};

static uint64_t pathset_hash_step(uint64_t h, char c)
{
	return (h ^ (uint8_t)c) * 0x100000001b3ull;
}

#define PATHSET_HASH_INIT 0xcbf29ce484222325ull

int pathset_new(struct pathset **ret)
{
	struct pathset *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	*ret = s;
	return 0;
}

void pathset_free(struct pathset *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_entries; i++) {
		free(s->entries[i].prefix);
		free(s->entries[i].pos);
	}
	free(s->entries);
	free(s->slots);
	free(s->lengths);
	free(s);
}

/* The literal prefix of pattern, unescaped, into a new string. */
static char *pathset_prefix(const char *pattern, bool *ret_exact)
{
	size_t len = strlen(pattern), n = 0;
	char *out = malloc(len + 1);

	if (!out)
		return NULL;
	*ret_exact = true;
	for (size_t i = 0; i < len; i++) {
		if (pattern[i] == '\\' && i + 1 < len) {
			out[n++] = pattern[++i];
			continue;
		}
		if (pattern[i] == '*' || pattern[i] == '?') {
			*ret_exact = false;
			break;
		}
		out[n++] = pattern[i];
	}
	out[n] = '\0';
	return out;
}

static struct pathset_entry *pathset_lookup(const struct pathset *s, const char *key, size_t len,
					    uint64_t hash, bool exact)
{
	if (!s->n_slots)
		return NULL;
	for (size_t i = hash & (s->n_slots - 1);; i = (i + 1) & (s->n_slots - 1)) {
		struct pathset_entry *e;

		if (!s->slots[i])
			return NULL;
		e = &s->entries[s->slots[i] - 1];
		if (e->hash == hash && e->len == len && e->exact == exact &&
		    memcmp(e->prefix, key, len) == 0)
			return e;
	}
}

static int pathset_rehash(struct pathset *s)
{
	size_t n_slots = s->n_slots ? s->n_slots * 2 : 64;
	size_t *slots = calloc(n_slots, sizeof(size_t));

	if (!slots)
		return -ENOMEM;
	for (size_t k = 0; k < s->n_entries; k++) {
		size_t i = s->entries[k].hash & (n_slots - 1);

		while (slots[i])
			i = (i + 1) & (n_slots - 1);
		slots[i] = k + 1;
	}
	free(s->slots);
	s->slots = slots;
	s->n_slots = n_slots;
	return 0;
}

static int pathset_note_length(struct pathset *s, size_t len)
{
	if (len > s->max_len || !s->lengths) {
		uint8_t *l = realloc(s->lengths, len + 1);

		if (!l)
			return -ENOMEM;
		memset(l + (s->lengths ? s->max_len + 1 : 0), 0,
		       len + 1 - (s->lengths ? s->max_len + 1 : 0));
		s->lengths = l;
		s->max_len = len;
	}
	s->lengths[len] = 1;
	return 0;
}

static int pathset_insert(struct pathset *s, char *prefix, bool exact, uint64_t hash,
			  struct pathset_entry **ret)
{
	size_t len = strlen(prefix);
	struct pathset_entry *e;
	int r;

	if ((s->n_entries + 1) * 2 > s->n_slots) {
		r = pathset_rehash(s);
		if (r < 0)
			return r;
	}
	e = reallocarray(s->entries, s->n_entries + 1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	s->entries = e;
	r = pathset_note_length(s, len);
	if (r < 0)
		return r;
	e = &s->entries[s->n_entries++];
	*e = (struct pathset_entry){ .prefix = prefix, .len = len, .hash = hash, .exact = exact };
	for (size_t i = hash & (s->n_slots - 1);; i = (i + 1) & (s->n_slots - 1))
		if (!s->slots[i]) {
			s->slots[i] = s->n_entries;
			break;
		}
	*ret = e;
	return 0;
}

int pathset_add(struct pathset *s, const char *pattern, size_t pos)
{
	char *prefix;
	struct pathset_entry *e;
	uint64_t hash = PATHSET_HASH_INIT;
	size_t *p;
	bool exact;
	int r;

	prefix = pathset_prefix(pattern, &exact);
	if (!prefix)
		return -ENOMEM;
	for (const char *c = prefix; *c; c++)
		hash = pathset_hash_step(hash, *c);
	if (exact)
		hash ^= PATHSET_EXACT_SALT;
	e = pathset_lookup(s, prefix, strlen(prefix), hash, exact);
	if (e) {
		free(prefix);
	} else {
		r = pathset_insert(s, prefix, exact, hash, &e);
		if (r < 0) {
			free(prefix);
			return r;
		}
	}
	if (e->n_pos && e->pos[e->n_pos - 1] == pos)
		return 0; /* two patterns of one rule with one prefix */
	p = reallocarray(e->pos, e->n_pos + 1, sizeof(size_t));
	if (!p)
		return -ENOMEM;
	e->pos = p;
	e->pos[e->n_pos++] = pos;
	return 0;
}

int pathset_finish(struct pathset *s)
{
	return s ? 0 : -EINVAL;
}

static int pathset_iter_push(struct pathset_iter **it, size_t *cap, const struct pathset_entry *e)
{
	if ((*it)->n == *cap) {
		size_t c = *cap * 2;
		struct pathset_iter *n = realloc(*it, sizeof(**it) + c * sizeof((*it)->lists[0]));

		if (!n)
			return -ENOMEM;
		*it = n;
		*cap = c;
	}
	(*it)->lists[(*it)->n].pos = e->pos;
	(*it)->lists[(*it)->n].n_pos = e->n_pos;
	(*it)->lists[(*it)->n++].at = 0;
	return 0;
}

int pathset_query(const struct pathset *s, const char *path, struct pathset_iter **ret)
{
	size_t cap = 8, len = strlen(path);
	struct pathset_iter *it = malloc(sizeof(*it) + cap * sizeof(it->lists[0]));
	uint64_t h = PATHSET_HASH_INIT;
	const struct pathset_entry *e;

	if (!it)
		return -ENOMEM;
	it->n = 0;
	for (size_t l = 1; l <= len && l <= s->max_len; l++) {
		h = pathset_hash_step(h, path[l - 1]);
		if (!s->lengths[l])
			continue;
		e = pathset_lookup(s, path, l, h, false);
		if (e && pathset_iter_push(&it, &cap, e) < 0)
			goto oom;
		e = l == len ? pathset_lookup(s, path, l, h ^ PATHSET_EXACT_SALT, true) : NULL;
		if (e && pathset_iter_push(&it, &cap, e) < 0)
			goto oom;
	}
	*ret = it;
	return 0;
oom:
	free(it);
	return -ENOMEM;
}

size_t pathset_iter_next(struct pathset_iter *it, size_t from)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < it->n; i++) {
		typeof(it->lists[0]) *l = &it->lists[i];

		if (l->at == 0 && l->n_pos > 8) {
			/* First use: the walk may already be far down the rules. */
			size_t lo = 0, hi = l->n_pos;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (l->pos[mid] < from)
					lo = mid + 1;
				else
					hi = mid;
			}
			l->at = lo;
		}
		while (l->at < l->n_pos && l->pos[l->at] < from)
			l->at++;
		if (l->at < l->n_pos && l->pos[l->at] < best)
			best = l->pos[l->at];
	}
	return best;
}

void pathset_iter_free(struct pathset_iter *it)
{
	free(it);
}
