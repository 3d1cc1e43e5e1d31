/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OCI runtime-spec "container process state" a runtime sends to its
 * listenerPath, with the seccomp listener in SCM_RIGHTS: parsed by the
 * daemon, built by `unotify run --daemon` and the bench.
 */
#ifndef UNOTIFY_OCI_STATE_H
#define UNOTIFY_OCI_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct json_object;

#define OCI_ID_MAX 256
/*
 * Not OCI's: `unotify run --daemon` adds the serial of the policy version
 * whose kernel layer it loaded (kernel-layer.h). Runtimes never send it.
 */
#define OCI_POLICY_SERIAL "policySerial"

struct oci_state {
	char *id;
	pid_t pid;
	char *metadata; /* NULL when absent */
	char *status;
	char *bundle;
	uint64_t policy_serial; /* OCI_POLICY_SERIAL, 0 when absent */
	int seccomp_fd; /* owned; -1 once taken */
};

/* Is this message an OCI state (as opposed to a control request)? */
bool oci_state_detect(struct json_object *msg);
/*
 * Validates msg and takes the fd named seccompFd out of fds (index by index
 * with the `fds` names), leaving -1 in its slot. Every other fd stays for
 * the caller to close. -EBADMSG with *ret_why on a malformed message.
 */
int oci_state_parse(struct json_object *msg, int *fds, size_t n_fds, struct oci_state *ret,
		    const char **ret_why);
void oci_state_release(struct oci_state *s);
/* The policy name the metadata selects: "policy=NAME", or -EINVAL. */
int oci_metadata_policy(const char *metadata, char *buf, size_t size);
/* Is this fd a seccomp notification listener? */
bool oci_fd_is_listener(int fd);
/* The state runc would send for pid (one fd, seccompFd); NULL when out of memory. */
struct json_object *oci_state_new(const char *id, pid_t pid, const char *metadata);

#endif
