/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Self-hardening (harden.c).
 */
#ifndef UNOTIFYD_HARDEN_H
#define UNOTIFYD_HARDEN_H

#include <stdbool.h>

/*
 * Capabilities, no_new_privs and the daemon's own seccomp filter, whose
 * default action is EPERM, or killing the daemon when seccomp_kill.
 */
int harden_apply(bool seccomp_kill);
/* harden-caps.c: only the capabilities of capabilities.list are left (root only). */
int harden_caps_apply(void);

#endif
