/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify run`, past its command line. */
#ifndef UNOTIFY_RUN_H
#define UNOTIFY_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "audit/audit.h"
#include "policy/policy.h"

struct run_options {
	char **policy_files;
	size_t n_policy_files;
	char **rules;
	size_t n_rules;
	const char *log_path;
	enum audit_format log_format;
	enum audit_level log_level;
	bool log_level_set;
	struct audit_budget log_limit; /* --log-limit, per run */
	bool sync;
	int cpu;
	unsigned int threads;   /* --threads: the most supervising threads */
	const char *user;
	bool drop_caps;
	const char *keep_caps;
	bool stats;
	bool quiet;
	bool no_landlock;           /* --no-landlock: every rule with seccomp and the supervisor */
	bool share_pid;             /* --share-pid: the program in our pid namespace */
	/* --daemon: unotifyd's policy_name, its kernel layer from the daemon, the listener to it */
	bool daemon;
	const char *daemon_socket;  /* --socket; NULL: the default socket */
	const char *policy_name;
	const char *record_path;    /* --record: write the policy the run used here */
	char **argv;
};

/* Spawns and supervises; returns the exit code of `unotify run`. */
int run_main(const struct run_options *o);

/*
 * Builds the policy from files then one-line rules, printing every
 * diagnostic. Returns -EINVAL when any error was found.
 */
int run_policy_load(char **files, size_t n_files, char **rules, size_t n_rules,
		    struct policy **ret);

#endif
