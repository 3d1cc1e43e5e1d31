/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Splits one policy line into words. Words are separated by blanks; a '#'
 * that starts a word starts a comment; '\' keeps the next character in the
 * word (so a path with a blank is written /srv/my\ file; the glob matcher
 * reads the escape). Columns are 1-based byte offsets, for diagnostics.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "policy/internal.h"

static bool lexer_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int lexer_push(struct lexer_line *l, char *text, int col)
{
	if (l->count == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct lexer_token *t = reallocarray(l->tokens, cap, sizeof(*t));

		if (!t)
			return -ENOMEM;
		l->tokens = t;
		l->cap = cap;
	}
	l->tokens[l->count++] = (struct lexer_token){ .text = text, .col = col };
	return 0;
}

int lexer_split(char *line, struct lexer_line *ret)
{
	char *s = line;

	ret->count = 0;
	for (;;) {
		char *start;
		int r;

		while (lexer_is_blank(*s))
			s++;
		if (*s == '\0' || *s == '#')
			return 0;
		start = s;
		while (*s && !lexer_is_blank(*s)) {
			if (*s == '\\' && s[1])
				s++;
			s++;
		}
		r = lexer_push(ret, start, (int)(start - line) + 1);
		if (r < 0)
			return r;
		if (*s == '\0')
			return 0;
		*s++ = '\0';
	}
}

void lexer_line_free(struct lexer_line *l)
{
	free(l->tokens);
	*l = (struct lexer_line){ 0 };
}
