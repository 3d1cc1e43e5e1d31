/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics: collected, never printed by the parser itself. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

void policy_diags_free(struct policy_diags *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->count; i++) {
		free(d->items[i].file);
		free(d->items[i].message);
		free(d->items[i].hint);
	}
	free(d->items);
	*d = (struct policy_diags){ 0 };
}

/*
 * FILE:LINE:COL: error: MESSAGE (HINT). Line 0 is about the whole policy
 * (a missing default, an unreadable file): FILE: warning: MESSAGE.
 */
void policy_diags_print(const struct policy_diags *d, FILE *out)
{
	for (size_t i = 0; d && i < d->count; i++) {
		const struct policy_diag *g = &d->items[i];
		const char *sev = g->severity == POLICY_ERROR ? "error" : "warning";

		if (g->line > 0 && g->col > 0)
			fprintf(out, "%s:%d:%d: %s: %s", g->file, g->line, g->col, sev, g->message);
		else if (g->line > 0)
			fprintf(out, "%s:%d: %s: %s", g->file, g->line, sev, g->message);
		else
			fprintf(out, "%s: %s: %s", g->file, sev, g->message);
		if (g->hint)
			fprintf(out, " (%s)", g->hint);
		fputc('\n', out);
	}
}

/* Records one finding. d may be NULL (the caller only wants the verdict). */
int diag_add(struct policy_diags *d, enum policy_severity sev, const char *file, int line, int col,
	     const char *hint, const char *fmt, ...)
{
	struct policy_diag g = {
		.line = line,
		.col = col,
		.severity = sev,
	};
	struct policy_diag *items;
	va_list ap;
	int r;

	if (!d)
		return 0;
	items = reallocarray(d->items, d->count + 1, sizeof(*items));
	if (!items)
		return -ENOMEM;
	d->items = items;

	va_start(ap, fmt);
	r = vasprintf(&g.message, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	g.file = strdup(file ? file : "(policy)");
	g.hint = hint ? strdup(hint) : NULL;
	if (!g.file || (hint && !g.hint)) {
		free(g.message);
		free(g.file);
		free(g.hint);
		return -ENOMEM;
	}
	d->items[d->count++] = g;
	if (sev == POLICY_ERROR)
		d->errors++;
	else
		d->warnings++;
	return 0;
}
