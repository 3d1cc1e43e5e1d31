/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * seccomp-load FILE PROGRAM [ARGS...]: loads the raw BPF in FILE (an array
 * of struct sock_filter, as `unotify policy compile --bpf` writes it and
 * `bwrap --seccomp FD` reads it) as a seccomp filter, with no listener, then
 * execs PROGRAM. What bwrap does, without bwrap. Exit 2: bad FILE; 3: the
 * kernel refused the filter; 127: exec failed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

int main(int argc, char **argv)
{
	struct sock_fprog prog = { 0 };
	struct stat st;
	ssize_t n;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: seccomp-load FILE PROGRAM [ARGS...]\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "seccomp-load: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	if (st.st_size == 0 || st.st_size % (off_t)sizeof(struct sock_filter) ||
	    st.st_size / (off_t)sizeof(struct sock_filter) > BPF_MAXINSNS) {
		fprintf(stderr, "seccomp-load: %s: %lld bytes is no BPF program\n", argv[1],
			(long long)st.st_size);
		return 2;
	}
	prog.len = (unsigned short)(st.st_size / (off_t)sizeof(struct sock_filter));
	prog.filter = malloc((size_t)st.st_size);
	if (!prog.filter)
		return 2;
	n = read(fd, prog.filter, (size_t)st.st_size);
	if (n != st.st_size) {
		fprintf(stderr, "seccomp-load: %s: short read\n", argv[1]);
		return 2;
	}
	close(fd);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		fprintf(stderr, "seccomp-load: the kernel refused the filter: %s\n", strerror(errno));
		return 3;
	}
	execvp(argv[2], argv + 2);
	return 127;
}
