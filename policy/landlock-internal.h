/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Private to policy/landlock*.c: the scan of the rules, and its checks. */
#ifndef UNOTIFY_POLICY_LANDLOCK_INTERNAL_H
#define UNOTIFY_POLICY_LANDLOCK_INTERNAL_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/uapi.h"
#include "policy/internal.h"
#include "policy/landlock.h"

#define ROLE_R POLICY_ROLE_READ
#define ROLE_W POLICY_ROLE_WRITE
#define ROLE_X POLICY_ROLE_EXEC
#define ROLE_C POLICY_ROLE_CREATE

#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_FILE_RIGHTS                                                                             \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                              \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE)
/* The kernel's O_TMPFILE bit (glibc's O_TMPFILE includes O_DIRECTORY). */
#define LL_O_TMPFILE (O_TMPFILE & ~O_DIRECTORY)

/* A path the policy allows some roles on. */
struct ll_grant {
	char *path; /* the directory of DIR/"**", or the file; unescaped */
	bool beneath;
	unsigned int roles; /* POLICY_ROLE_READ, _WRITE, _EXEC */
	size_t rule;
};

/* What the rules of one syscall (then of its family) say. */
struct ll_scan {
	unsigned int refused; /* roles of `deny ... kernel` */
	struct ll_grant *g;
	size_t n;
	bool split;	   /* a grant has read or write without the other */
	char *fail;	   /* why not */
	char *create_fail; /* why the opens that create stay with the supervisor */
};

/* What the rules of connect or bind say of TCP ports (landlock-net.c). */
struct ll_net_scan {
	uint8_t decided[65536 / 8]; /* a rule before decided this port */
	uint8_t allowed[65536 / 8]; /* ... and allowed it */
	uint32_t *by;		    /* allowed port p: the rule index, for the readable form */
	bool refuses;		    /* some port is refused */
};

struct policy_landlock_state {
	const struct policy *p;
	struct ll_scan fam[POLICY_LANDLOCK_FAMILIES];
	struct ll_net_scan net[2];		/* connect, bind */
	char **notes[POLICY_LANDLOCK_FAMILIES]; /* per rule, the default last */
};

/* Texts never come back NULL: out of memory, they read so (ll_oom). */
extern char ll_oom[];
void ll_text_free(char *s);
char *ll_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "FILE:LINE: REASON" for rule i (n_rules: the default). */
char *ll_blame(const struct policy *p, size_t i, const char *reason);
/* Is path p the directory a or beneath it? */
bool ll_beneath(const char *a, const char *p);

/* landlock-check.c: a reason the family (or the layer) cannot move, or NULL. */
char *ll_check_grants(const struct policy_landlock_state *st, enum policy_landlock_family f);
char *ll_check_exec_reads(const struct policy_landlock *ll, const struct policy_landlock_state *st);
char *ll_check_mounts(const struct policy *p);

/* landlock-net.c: connect and bind on TCP ports. */
bool ll_is_net_family(enum policy_landlock_family f);
/* The scan of family f (connect, bind): 0 with st->fam[f].fail set when it cannot move. */
int ll_net_scan_family(struct policy_landlock_state *st, enum policy_landlock_family f, int abi);
/* The ports and handled rights of the decided net families (ll_finish). */
int ll_net_finish(struct policy_landlock *ll, struct policy_landlock_state *st);
void ll_net_free(struct policy_landlock *ll, struct policy_landlock_state *st);

#endif
