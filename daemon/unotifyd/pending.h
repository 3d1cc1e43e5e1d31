/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef UNOTIFYD_PENDING_H
#define UNOTIFYD_PENDING_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

/* A client's share while the daemon is saturated (pending.c says who a client is). */
#define PENDING_PER_CLIENT 8
/* A uid's share while saturated, on each side of the daemon's pid namespace (pending.c). */
#define PENDING_PER_UID 32
/* Clients (and uids) counted at once: every pending connection holds one slot at most. */
#define PENDING_SLOTS 256

/* Who a client is, for the count: its uid and its pid namespace. */
struct pending_key {
	uid_t uid;
	uint64_t pidns; /* the inode of /proc/PID/ns/pid, 0 when it could not be read */
};

struct pending_client {
	struct pending_key key;
	unsigned int count;
	bool warned; /* its refusals are logged once, until none of its connections is left */
};

/* A uid in the daemon's pid namespace, or the same uid in any other: its clients together. */
struct pending_uid {
	uid_t uid;
	bool inside; /* the clients in the daemon's own pid namespace */
	unsigned int count;
	bool warned;
};

struct pending_table {
	pthread_mutex_t lock;
	uint64_t own_pidns; /* the daemon's pid namespace (its inode), read once */
	struct pending_client slot[PENDING_SLOTS];
	struct pending_uid uid_slot[PENDING_SLOTS];
};

void pending_init(struct pending_table *t);
/* The client behind cred (its pid namespace read from /proc). */
void pending_key_of(const struct ucred *cred, struct pending_key *ret);
/*
 * Counts one more connection of key being read: 0, or, when saturated,
 * -EUSERS if its uid (on its side of the daemon's pid namespace) has
 * PENDING_PER_UID already, -EBUSY if the client has PENDING_PER_CLIENT
 * (*ret_first: the first such refusal since that uid or client had none
 * pending, to log).
 */
int pending_take(struct pending_table *t, const struct pending_key *key, bool saturated,
		 bool *ret_first);
void pending_release(struct pending_table *t, const struct pending_key *key);
/* Root inside the daemon's pid namespace: a runtime, never a sandbox. */
bool pending_key_is_runtime(const struct pending_table *t, const struct pending_key *key);

#endif
