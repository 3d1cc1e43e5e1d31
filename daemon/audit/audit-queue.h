/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Audit records written by a thread of their own, off the notification
 * round trip: a supervising thread copies its entry (the record's values,
 * audit.c) into a buffer and goes back to RECV; the writer turns what
 * gathered into lines (the render callback) and sends them at most
 * AUDIT_QUEUE_DELAY_MS later, in one write(2) per AUDIT_QUEUE_OUT bytes.
 * Formatting a line costs more than the copy, and is done by the writer,
 * on whichever CPU is free. Nothing is dropped here: when the buffer is
 * full the supervising thread renders and writes it out itself. What a
 * crash can lose is the last few milliseconds of records (unotifyd
 * --audit-sync trades that for a write(2) on every round trip).
 */
#ifndef UNOTIFY_AUDIT_QUEUE_H
#define UNOTIFY_AUDIT_QUEUE_H

#include <stddef.h>

#define AUDIT_QUEUE_DELAY_MS 5
/* The longest line one entry renders to (with its newline). */
#define AUDIT_QUEUE_LINE_MAX (40 * 1024)
/* The longest entry: a line (AUDIT_QUEUE_LINE_MAX) and the header audit.c puts before it. */
#define AUDIT_QUEUE_ENTRY_MAX (AUDIT_QUEUE_LINE_MAX + 1024)

struct audit_queue;
struct audit_sink;

/*
 * Writes the line(s) of one entry (as pushed) at out, at most size bytes
 * (size >= AUDIT_QUEUE_LINE_MAX); returns their length. Called by the
 * writer, or by a pushing thread whose entry does not fit, never by two
 * threads with the same out.
 */
typedef size_t (*audit_render_fn)(void *userdata, const void *entry, size_t len, char *out,
				  size_t size);

/*
 * Starts the writer thread for sink (not closed by the queue; what fails is
 * counted there); render turns entries into lines, with userdata.
 */
int audit_queue_start(struct audit_sink *sink, audit_render_fn render, void *userdata,
		      struct audit_queue **ret);
/*
 * Copies one entry of len bytes (at most AUDIT_QUEUE_ENTRY_MAX); never
 * blocks on the writer's I/O unless full.
 */
void audit_queue_push(struct audit_queue *q, const void *entry, size_t len);
/*
 * Writes out what is queued, and waits for the batch the writer is writing:
 * on return every entry pushed before is written (or counted lost). The
 * writer goes on; others may push meanwhile (a process about to exit).
 */
void audit_queue_sync(struct audit_queue *q);
/*
 * The same in place: room for len bytes (at most AUDIT_QUEUE_ENTRY_MAX),
 * 8-byte aligned, to be filled and then committed. The queue's lock is held
 * in between: fill it without blocking, and commit once.
 */
void *audit_queue_reserve(struct audit_queue *q, size_t len);
void audit_queue_commit(struct audit_queue *q);
/* Writes out everything queued, stops the thread and frees the queue. */
void audit_queue_stop(struct audit_queue *q);

#endif
