/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A line being formatted for the audit trail: plain appends into a caller's
 * buffer. The trail is written on the notification round trip, where
 * stdio's locking and format parsing cost more than the rest of a decision
 * (docs/BENCHMARKS.md), so records are built with these instead.
 * Appends past the end are dropped and the line is marked truncated.
 */
#ifndef UNOTIFY_AUDIT_BUF_H
#define UNOTIFY_AUDIT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct audit_buf {
	char *p;
	char *end;      /* one byte is always kept for the final newline */
	bool truncated;
};

void abuf_init(struct audit_buf *b, char *mem, size_t size);
void abuf_putn(struct audit_buf *b, const char *s, size_t n);
void abuf_put(struct audit_buf *b, const char *s);
void abuf_putc(struct audit_buf *b, char c);
void abuf_put_i64(struct audit_buf *b, int64_t v);
void abuf_put_u64(struct audit_buf *b, uint64_t v);
void abuf_put_hex(struct audit_buf *b, uint64_t v);   /* 0x1f */
void abuf_put_oct(struct audit_buf *b, uint64_t v);   /* 0644 */
/*
 * A value from the target: control bytes (C1 too), '\\', spaces and bytes
 * that are not UTF-8 as \xNN, so it can neither forge fields nor drive a
 * terminal.
 */
void abuf_put_field(struct audit_buf *b, const char *s);
/* A C string literal: "..." with '"', '\\', blanks and non-printable bytes escaped. */
void abuf_put_quoted(struct audit_buf *b, const char *s);
/* The length of the well-formed UTF-8 sequence at s, 0 when there is none. */
size_t abuf_utf8_len(const unsigned char *s);
/*
 * The same, 0 for a C1 control or a format character that reorders or
 * hides text (U+202E...): what a trail or a log line shows as it is.
 */
size_t abuf_text_len(const unsigned char *s);
/* Ends the line ("...\n" when truncated); returns its length. */
size_t abuf_finish(struct audit_buf *b, const char *start);

#endif
