/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oci-client's pieces shared by its commands (oci-client.c: the runtimes'
 * messages, the sandboxed child, the raw clients; oci-mix.c: many
 * sandboxes of several policies started and ended concurrently).
 */
#ifndef UNOTIFY_TEST_OCI_CLIENT_H
#define UNOTIFY_TEST_OCI_CLIENT_H

#include <seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#define ANSWER_TIMEOUT_MS 10000

struct reg_opts {
	const char *socket;
	const char *style;
	const char *metadata;
	const char *id;
	const char *notify;
	bool ack;
	int hold_close; /* seconds, 0: no held fd */
	FILE *answer;   /* where the daemon's answer goes; NULL: stderr */
	const char *serial; /* policySerial to add to the state, NULL: none */
};

/* Says what failed (errno) on stderr; returns 2, oci-client's error status. */
int die(const char *what);
int connect_to(const char *path);
/* Sends len bytes; the fds travel with the first sendmsg. */
int send_with_fds(int sock, const char *data, size_t len, const int *fds, size_t nfds);
/* Reads until EOF or timeout, copying to out (may be NULL); 0 at EOF, 1 on timeout. */
int read_answer(int sock, int timeout_ms, FILE *out);
int recv_fd(int sock);
/* Allows everything, notifies the calls named in list ("a,b"). */
scmp_filter_ctx build_filter(const char *list);
/* In the child: loads the filter and passes the listener up through sock. */
void child_load(scmp_filter_ctx ctx, int sock);
/*
 * Forks a sandbox: the child loads ctx, passes its listener up and waits to
 * be released. Returns twice, as fork: 0 in the child once released; its pid
 * in the parent, with its listener in *ret_listener and the release pipe in
 * *ret_go (for child_release). -1 on failure.
 */
pid_t child_start(scmp_filter_ctx ctx, int *ret_listener, int *ret_go);
/* --share-pid: sandboxes in our pid namespace; else each in one of its own (fork_sandbox). */
extern bool share_pid;
pid_t fork_sandbox(void);
void child_release(int go);
char *state_runc(pid_t pid, const char *id, const char *metadata);
char *state_crun(pid_t pid, const char *id, const char *metadata);
/* Hands one listener to the daemon in o->style; the daemon's answer goes to stderr. */
int hand_over(const struct reg_opts *o, int listener, pid_t pid, const char *id);
/* A child's status as a shell shows it. */
int wait_status(pid_t pid);

/* oci-mix.c: `mix SOCKET N [options]`. */
int cmd_mix(int argc, char **argv);

#endif
