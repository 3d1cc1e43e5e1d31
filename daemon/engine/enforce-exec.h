/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the kernel makes of one file it executes, read as it reads it (enforce-exec-file.c). */
#pragma once

#include <stdbool.h>

/*
 * The kernel runs handlers for at most 6 files (exec_binprm: depth 0 to
 * 5): the program and 5 `#!` interpreters; a 7th `#!` is ELOOP. An ELF
 * file at any of those depths still has its ELF interpreter loaded.
 */
#define EXEC_DEPTH_MAX 5

enum exec_kind {
	EXEC_OTHER,
	EXEC_SCRIPT, /* #!: next is its interpreter, run with the script as argument */
	EXEC_ELF,    /* an ELF program: next is its ELF interpreter, when it has one */
	/*
	 * An ELF shared object with no ELF interpreter that is not a PIE
	 * program (DF_1_PIE): a dynamic loader (ld-linux, musl's libc.so), or
	 * a library run as a program. Run so, a loader maps and runs any file
	 * it may read, named on its command line.
	 */
	EXEC_LOADER,
	/*
	 * A file the supervisor cannot read (an execute-only copy, a
	 * supervisor without CAP_DAC_OVERRIDE), or cannot tell what the
	 * kernel runs for (an ELF header that reads both as 64-bit and
	 * 32-bit): it may be a loader, so it is decided as one (fail closed:
	 * only its exact name lets it run).
	 */
	EXEC_UNREADABLE,
};

struct exec_file {
	enum exec_kind kind;
	bool has_next;
	char next[4096];
};

/* What the kernel does with the file open at pathfd (O_PATH): its kind, and the next file it runs. */
void exec_file_read(int pathfd, struct exec_file *ret);
