/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify policy explain`, called from cmd-policy.c. */
#ifndef UNOTIFY_EXPLAIN_H
#define UNOTIFY_EXPLAIN_H

/* argv[0] is "explain"; returns the exit code (0, 1 invalid policy, EXIT_USAGE). */
int explain_main(int argc, char **argv);

#endif
