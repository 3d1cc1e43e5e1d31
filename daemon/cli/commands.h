/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One entry point per `unotify` sub-command, each in its own file. */
#ifndef UNOTIFY_COMMANDS_H
#define UNOTIFY_COMMANDS_H

/*
 * Exit codes of the supervisor's own failures, as env(1) and timeout(1):
 * 125 the supervisor failed (bad usage, bad policy, kernel refused); every
 *     command exits 125 on bad usage (EXIT_USAGE), as unotify(1) says,
 * 126 the program was found but could not be executed,
 * 127 the program was not found.
 * Otherwise `unotify run` exits with the program's status (128+N when killed by signal N).
 */
#define EXIT_SUPERVISOR 125
#define EXIT_USAGE EXIT_SUPERVISOR
#define EXIT_CANNOT_EXEC 126
#define EXIT_NOT_FOUND 127

/* argv[0] is the command's name ("run"); each returns the process exit code. */
int cmd_run(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_policy(int argc, char **argv);
int cmd_bench(int argc, char **argv);
/* `unotify bench floor -- CMD` (argv[0] is "floor"). */
int cmd_bench_floor(int argc, char **argv);
int cmd_bench_landlock(int argc, char **argv);
int cmd_status(int argc, char **argv);

#endif
