/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Path globs: '*' any run of characters but '/', '?' one character but '/',
 * '**' any run of characters including '/', '\' makes the next character
 * literal, everything else matches itself. The whole path must match.
 *
 * A backtracking matcher is exponential on patterns like a*a*a*a*b against
 * a long run of 'a's, and the supervisor runs this on paths a hostile
 * target chooses. So the pattern is run as a nondeterministic automaton:
 * the states are offsets in the pattern where a token starts, and each path
 * character advances the set of live states at once. Time is
 * O(len(pattern) * len(path)), memory two bytes per pattern byte.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

enum glob_token {
	GLOB_LITERAL,
	GLOB_ONE,   /* ? */
	GLOB_STAR,  /* * */
	GLOB_STARS, /* ** */
};

/* Decodes the token starting at offset i: its kind, its literal, and where the next starts. */
static enum glob_token glob_token_at(const char *pat, size_t len, size_t i, char *ret_lit,
				     size_t *ret_next)
{
	if (pat[i] == '\\' && i + 1 < len) {
		*ret_lit = pat[i + 1];
		*ret_next = i + 2;
		return GLOB_LITERAL;
	}
	*ret_next = i + 1;
	if (pat[i] == '?')
		return GLOB_ONE;
	if (pat[i] == '*') {
		if (i + 1 < len && pat[i + 1] == '*') {
			*ret_next = i + 2;
			return GLOB_STARS;
		}
		return GLOB_STAR;
	}
	/* A lone trailing '\' is literal (the parser refuses it anyway). */
	*ret_lit = pat[i];
	return GLOB_LITERAL;
}

/* Adds state i and, as stars also match nothing, the states they lead to. */
static void glob_add_state(const char *pat, size_t len, uint8_t *set, size_t i)
{
	while (!set[i]) {
		enum glob_token t;
		size_t next;
		char lit;

		set[i] = 1;
		if (i == len)
			return;
		t = glob_token_at(pat, len, i, &lit, &next);
		if (t != GLOB_STAR && t != GLOB_STARS)
			return;
		i = next;
	}
}

/* One path character: every live state in cur moves into nxt. Returns whether any lives on. */
static bool glob_step(const char *pat, size_t len, const uint8_t *cur, uint8_t *nxt, char c)
{
	bool alive = false;

	memset(nxt, 0, len + 1);
	for (size_t i = 0; i < len; i++) {
		enum glob_token t;
		size_t next;
		char lit = 0;

		if (!cur[i])
			continue;
		t = glob_token_at(pat, len, i, &lit, &next);
		if ((t == GLOB_LITERAL && c == lit) || (t == GLOB_ONE && c != '/')) {
			glob_add_state(pat, len, nxt, next);
			alive = true;
		} else if ((t == GLOB_STAR && c != '/') || t == GLOB_STARS) {
			glob_add_state(pat, len, nxt, i);
			alive = true;
		}
	}
	return alive;
}

/*
 * Patterns up to POLICY_PATTERN_MAX bytes (all a parsed policy can hold)
 * run on the stack; longer ones need memory, and never match when there is
 * none. Both are far from any real path rule.
 */
bool policy_glob_match(const char *pattern, const char *path)
{
	uint8_t stack_a[POLICY_PATTERN_MAX + 1], stack_b[POLICY_PATTERN_MAX + 1];
	_cleanup_free_ uint8_t *heap = NULL;
	size_t len = strlen(pattern);
	uint8_t *cur = stack_a, *nxt = stack_b;

	if (len > POLICY_PATTERN_MAX) {
		heap = calloc(2, len + 1);
		if (!heap)
			return false;
		cur = heap;
		nxt = heap + len + 1;
	}
	memset(cur, 0, len + 1);
	glob_add_state(pattern, len, cur, 0);
	for (const char *c = path; *c; c++) {
		uint8_t *t;

		if (!glob_step(pattern, len, cur, nxt, *c))
			return false;
		t = cur;
		cur = nxt;
		nxt = t;
	}
	return cur[len];
}

/* The live states once path is consumed (set holds len + 1 bytes); false when none lives. */
static bool glob_states_after(const char *pat, size_t len, const char *path, uint8_t *set,
			      uint8_t *tmp)
{
	memset(set, 0, len + 1);
	glob_add_state(pat, len, set, 0);
	for (const char *c = path; *c; c++) {
		if (!glob_step(pat, len, set, tmp, *c)) {
			memset(set, 0, len + 1);
			return false;
		}
		memcpy(set, tmp, len + 1);
	}
	return true;
}

/* The states after "name/" (set holds len + 1 bytes). */
static void glob_states_beneath(const char *pattern, size_t len, const char *name, uint8_t *set,
				uint8_t *tmp, char *buf)
{
	size_t n = strlen(name);

	memcpy(buf, name, n);
	if (!n || name[n - 1] != '/')
		buf[n++] = '/';
	buf[n] = '\0';
	glob_states_after(pattern, len, buf, set, tmp);
}

/*
 * Does the pattern tell a name beneath a from the same name beneath b (a/x
 * from b/x)? Not when the automaton is in the same states after "a/" as
 * after "b/": whatever follows then meets the same fate under either.
 * Different states may still accept the same names ("**" spelt twice):
 * they are told apart all the same, which only makes a move check stricter.
 */
bool glob_tells_apart_beneath(const char *pattern, const char *a, const char *b)
{
	size_t len = strlen(pattern);
	_cleanup_free_ uint8_t *mem = calloc(3, len + 1);
	_cleanup_free_ char *buf = malloc((strlen(a) > strlen(b) ? strlen(a) : strlen(b)) + 2);

	if (!mem || !buf)
		return true; /* no memory: told apart, the move is refused */
	glob_states_beneath(pattern, len, a, mem, mem + 2 * (len + 1), buf);
	glob_states_beneath(pattern, len, b, mem + len + 1, mem + 2 * (len + 1), buf);
	return memcmp(mem, mem + len + 1, len + 1) != 0;
}

/* Does the pattern tell a from b, or a name beneath one from the same beneath the other? */
bool policy_glob_tells_apart(const char *pattern, const char *a, const char *b)
{
	return policy_glob_match(pattern, a) != policy_glob_match(pattern, b) ||
	       glob_tells_apart_beneath(pattern, a, b);
}

bool glob_is_literal(const char *pattern)
{
	for (size_t i = 0; pattern[i]; i++) {
		if (pattern[i] == '\\' && pattern[i + 1]) {
			i++;
			continue;
		}
		if (pattern[i] == '*' || pattern[i] == '?')
			return false;
	}
	return true;
}
