/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where audit lines go: a file of the trail's own, or stderr by an open
 * file description of its own (the program shares the supervisor's
 * stderr, and could set O_NONBLOCK on a shared one and fill it), and what
 * could not be written: counted, never silently lost.
 */
#ifndef UNOTIFY_AUDIT_SINK_H
#define UNOTIFY_AUDIT_SINK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct audit_sink {
	int fd;
	bool owned;          /* fd is ours to close */
	bool shared;         /* fd shares its open file description with the program */
	atomic_ullong lost;  /* records not written (whole or in part) */
	atomic_int error;    /* the last write error (errno), 0: none */
};

/* path NULL or "-": stderr. -errno when the file cannot be opened. */
int audit_sink_open(struct audit_sink *s, const char *path);
/* Writes whole lines (one or more, each ending in '\n'); what fails is counted. */
void audit_sink_write(struct audit_sink *s, const char *p, size_t len);
void audit_sink_close(struct audit_sink *s);

#endif
