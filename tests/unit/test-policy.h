/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of test-policy. */
#ifndef UNOTIFY_TEST_POLICY_H
#define UNOTIFY_TEST_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* policy-bpf.c: runs a seccomp filter on d; 0 and its return value, -EINVAL when malformed. */
int bpf_run(const struct sock_fprog *prog, const struct seccomp_data *d, uint32_t *ret);

/* policy-builtin.c: runs every built-in case, reporting each. */
void builtin_run_all(void (*report)(const char *name, bool ok));

#endif
