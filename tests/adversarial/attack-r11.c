/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 11: files changed with no path call under a policy whose file
 * categories name no path (r11-no-path-categories.sh): an open and a
 * write through io_uring, an open by handle.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attack.h"

/*
 * r11-uring-write FILE TEXT: IORING_OP_OPENAT of FILE (O_WRONLY|O_TRUNC),
 * then IORING_OP_WRITE of TEXT: no open or write system call. Result:
 * WROTE, or BLOCKED errno of the step that failed.
 */
static int cmd_r11_uring_write(int argc, char **argv)
{
	struct io_uring_sqe sqe = { .opcode = IORING_OP_OPENAT, .fd = AT_FDCWD };
	struct uring u;
	int r, fd;

	if (argc != 2)
		return 2;
	r = uring_setup(&u);
	if (r < 0)
		return blocked(-r);
	sqe.addr = (uint64_t)(uintptr_t)argv[0];
	sqe.open_flags = O_WRONLY | O_TRUNC | O_CLOEXEC;
	fd = uring_run(&u, &sqe);
	if (fd < 0)
		return blocked(-fd);
	sqe = (struct io_uring_sqe){ .opcode = IORING_OP_WRITE, .fd = fd, .len = strlen(argv[1]) };
	sqe.addr = (uint64_t)(uintptr_t)argv[1];
	r = uring_run(&u, &sqe);
	if (r < 0)
		return blocked(-r);
	result("WROTE %d bytes through io_uring", r);
	return 0;
}

/*
 * r11-handle-write FILE TEXT: name_to_handle_at of FILE, then
 * open_by_handle_at(O_WRONLY|O_TRUNC) (CAP_DAC_READ_SEARCH) and a write.
 * Result: WROTE, or BLOCKED errno of the step that failed.
 */
static int cmd_r11_handle_write(int argc, char **argv)
{
	union {
		struct file_handle h;
		char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} u = { .h = { .handle_bytes = MAX_HANDLE_SZ } };
	int mount_id, fd;
	ssize_t n;

	if (argc != 2)
		return 2;
	if (name_to_handle_at(AT_FDCWD, argv[0], &u.h, &mount_id, 0) < 0)
		return blocked(errno);
	fd = open_by_handle_at(AT_FDCWD, &u.h, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	n = write(fd, argv[1], strlen(argv[1]));
	close(fd);
	if (n < 0)
		return blocked(errno);
	result("WROTE %zd bytes by handle", n);
	return 0;
}

const struct attack_cmd attack_r11_cmds[] = {
	{ "r11-uring-write", "FILE TEXT  io_uring OPENAT(O_WRONLY|O_TRUNC) + WRITE", cmd_r11_uring_write },
	{ "r11-handle-write", "FILE TEXT  open_by_handle_at(O_WRONLY|O_TRUNC) + write",
	  cmd_r11_handle_write },
	{ NULL, NULL, NULL },
};
