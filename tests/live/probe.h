/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe's pieces (probe.c: main and the v1 commands; probe-fs.c: file
 * calls; probe-xattr.c: xattr reads, file_getattr; probe-net.c: socket
 * calls; probe-race.c: races against the supervisor's memory reads;
 * probe-threads.c: threads whose answers are each their own). Every
 * command prints one machine-readable line per result ("ok ...",
 * "err ENAME", "ret=N").
 */
#ifndef UNOTIFY_PROBE_H
#define UNOTIFY_PROBE_H

#include <stdbool.h>
#include <stddef.h>

struct probe_name {
	const char *name;
	long value;
};

struct probe_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
};

/* "err ENAME" for an errno. */
void probe_print_err(int err);
/* A number of any base; -EINVAL (and a message) when it is not one. */
int probe_parse_long(const char *s, long *ret);
int probe_lookup(const struct probe_name *table, const char *s, long *ret);
/* "ret=N", or "err ENAME" when r is -1 (errno). */
void probe_report_ret(long r);
/* "ok", or "err ENAME" when r is -1 (errno). */
void probe_report_ok(long r);
/* "-": AT_FDCWD; else the directory (or file) opened read-only. -1 and a message on failure. */
int probe_open_dir(const char *arg);
/* Is word among argv[0..argc-1]? */
bool probe_has(int argc, char **argv, const char *word);

extern const struct probe_cmd probe_fs_cmds[];
extern const struct probe_cmd probe_net_cmds[];
extern const struct probe_cmd probe_race_cmds[];
extern const struct probe_cmd probe_threads_cmds[];
extern const struct probe_cmd probe_xattr_cmds[];

#endif
