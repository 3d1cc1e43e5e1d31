/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <string.h>

#include "audit-buf.h"

/*
 * Characters a terminal does not show as they are: the C1 controls, which
 * terminals obey as they obey ESC, and the format characters that reorder
 * or hide text (bidi overrides and isolates, marks, zero-width ones, the
 * line and paragraph separators, tags): "abc\u202e" shows a line that
 * reads otherwise than its bytes.
 */
static const struct {
	uint32_t first, last;
} abuf_unshown[] = {
	{ 0x0080, 0x009f }, { 0x00ad, 0x00ad }, { 0x061c, 0x061c }, { 0x180e, 0x180e },
	{ 0x200b, 0x200f }, { 0x2028, 0x202e }, { 0x2060, 0x206f }, { 0xfeff, 0xfeff },
	{ 0xfff9, 0xfffb }, { 0xe0000, 0xe007f },
};

/* The code point of the well-formed sequence of k bytes at s. */
static uint32_t abuf_code_point(const unsigned char *s, size_t k)
{
	static const unsigned char lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t cp = s[0] & lead_mask[k];

	for (size_t i = 1; i < k; i++)
		cp = cp << 6 | (s[i] & 0x3f);
	return cp;
}

/*
 * The length of the printable UTF-8 character at s, 0 when the byte must be
 * escaped: not UTF-8 (a terminal of another charset may read 0x9b as CSI),
 * or a character of abuf_unshown.
 */
size_t abuf_text_len(const unsigned char *s)
{
	size_t k = abuf_utf8_len(s);
	uint32_t cp;

	if (k < 2)
		return k;
	cp = abuf_code_point(s, k);
	for (size_t i = 0; i < sizeof(abuf_unshown) / sizeof(abuf_unshown[0]); i++)
		if (cp >= abuf_unshown[i].first && cp <= abuf_unshown[i].last)
			return 0;
	return k;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629), 0 when there is none. */
size_t abuf_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void abuf_init(struct audit_buf *b, char *mem, size_t size)
{
	b->p = mem;
	b->end = mem + size - 1;
	b->truncated = false;
}

void abuf_putn(struct audit_buf *b, const char *s, size_t n)
{
	size_t room = (size_t)(b->end - b->p);

	if (n > room) {
		n = room;
		b->truncated = true;
	}
	memcpy(b->p, s, n);
	b->p += n;
}

void abuf_put(struct audit_buf *b, const char *s)
{
	abuf_putn(b, s, strlen(s));
}

void abuf_putc(struct audit_buf *b, char c)
{
	if (b->p < b->end)
		*b->p++ = c;
	else
		b->truncated = true;
}

/* Digits of v in base (8, 10, 16), most significant first. */
static void abuf_put_base(struct audit_buf *b, uint64_t v, unsigned int base)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[24];
	size_t n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = digits[v % base];
		v /= base;
	} while (v);
	abuf_putn(b, tmp + sizeof(tmp) - n, n);
}

void abuf_put_u64(struct audit_buf *b, uint64_t v)
{
	abuf_put_base(b, v, 10);
}

void abuf_put_i64(struct audit_buf *b, int64_t v)
{
	if (v < 0) {
		abuf_putc(b, '-');
		abuf_put_base(b, -(uint64_t)v, 10);
	} else {
		abuf_put_base(b, (uint64_t)v, 10);
	}
}

void abuf_put_hex(struct audit_buf *b, uint64_t v)
{
	abuf_putn(b, "0x", 2);
	abuf_put_base(b, v, 16);
}

void abuf_put_oct(struct audit_buf *b, uint64_t v)
{
	abuf_putc(b, '0');
	if (v)
		abuf_put_base(b, v, 8);
}

static void abuf_put_byte_escape(struct audit_buf *b, unsigned char c)
{
	static const char digits[] = "0123456789abcdef";
	char e[4] = { '\\', 'x', digits[c >> 4], digits[c & 15] };

	abuf_putn(b, e, sizeof(e));
}

void abuf_put_field(struct audit_buf *b, const char *s)
{
	for (const char *run = s;; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > 0x20 && c < 0x7f && c != '\\')
			continue;
		if (c >= 0x80) {
			size_t k = abuf_text_len((const unsigned char *)s);

			if (k) {
				s += k - 1;
				continue;
			}
		}
		abuf_putn(b, run, (size_t)(s - run));
		if (!c)
			return;
		abuf_put_byte_escape(b, c);
		run = s + 1;
	}
}

void abuf_put_quoted(struct audit_buf *b, const char *s)
{
	abuf_putc(b, '"');
	for (const char *run = s;; s++) {
		unsigned char c = (unsigned char)*s;

		/* A blank too: split on blanks, a quoted string must stay one word. */
		if (c > 0x20 && c < 0x7f && c != '"' && c != '\\')
			continue;
		abuf_putn(b, run, (size_t)(s - run));
		if (!c)
			break;
		if (c == '"' || c == '\\') {
			abuf_putc(b, '\\');
			abuf_putc(b, (char)c);
		} else {
			abuf_put_byte_escape(b, c);
		}
		run = s + 1;
	}
	abuf_putc(b, '"');
}

size_t abuf_finish(struct audit_buf *b, const char *start)
{
	if (b->truncated && b->end - start > 4) {
		memcpy(b->end - 3, "...", 3);
		b->p = b->end;
	}
	*b->p++ = '\n';
	return (size_t)(b->p - start);
}
