/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Audit records written by a thread of their own, off the notification
 * round trip: a supervising thread copies its line into a buffer and goes
 * back to RECV; the writer sends what gathered at most AUDIT_QUEUE_DELAY_MS
 * later, in one write(2). Nothing is dropped here: when the buffer is full the
 * supervising thread writes it out itself. What a crash can lose is the
 * last few milliseconds of records (unotifyd --audit-sync trades that for
 * a write(2) on every round trip).
 */
#ifndef UNOTIFY_AUDIT_QUEUE_H
#define UNOTIFY_AUDIT_QUEUE_H

#include <stddef.h>

#define AUDIT_QUEUE_DELAY_MS 5

struct audit_queue;
struct audit_sink;

/* Starts the writer thread for sink (not closed by the queue; what fails is counted there). */
int audit_queue_start(struct audit_sink *sink, struct audit_queue **ret);
/* Copies one whole line (with its newline); never blocks on the writer's I/O unless full. */
void audit_queue_push(struct audit_queue *q, const char *line, size_t len);
/* Writes out everything queued, stops the thread and frees the queue. */
void audit_queue_stop(struct audit_queue *q);

#endif
