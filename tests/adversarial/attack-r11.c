/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 11: files changed with no path call under a policy whose file
 * categories name no path (r11-no-path-categories.sh): an open and a
 * write through io_uring, an open by handle; round 14's write through
 * Linux AIO (r14-uring-by-name.sh).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
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

/*
 * r14-aio-write FILE TEXT: FILE opened O_WRONLY, TEXT written at offset 0
 * by Linux AIO (io_setup, io_submit of IOCB_CMD_PWRITE): no pwrite64.
 */
static int cmd_r14_aio_write(int argc, char **argv)
{
	aio_context_t ctx = 0;
	struct iocb cb = { .aio_lio_opcode = IOCB_CMD_PWRITE };
	struct iocb *cbs[1] = { &cb };
	struct io_event ev;
	int fd;

	if (argc != 2)
		return 2;
	fd = open(argv[0], O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	if (syscall(SYS_io_setup, 1, &ctx) < 0)
		return blocked(errno);
	cb.aio_fildes = (uint32_t)fd;
	cb.aio_buf = (uint64_t)(uintptr_t)argv[1];
	cb.aio_nbytes = strlen(argv[1]);
	if (syscall(SYS_io_submit, ctx, 1, cbs) != 1)
		return blocked(errno);
	if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) != 1)
		return setup_failed("io_getevents", errno);
	if ((int64_t)ev.res < 0)
		return blocked((int)-(int64_t)ev.res);
	result("WROTE %lld bytes through io_submit", (long long)ev.res);
	return 0;
}

const struct attack_cmd attack_r11_cmds[] = {
	{ "r11-uring-write", "FILE TEXT  io_uring OPENAT(O_WRONLY|O_TRUNC) + WRITE", cmd_r11_uring_write },
	{ "r11-handle-write", "FILE TEXT  open_by_handle_at(O_WRONLY|O_TRUNC) + write",
	  cmd_r11_handle_write },
	{ "r14-aio-write", "FILE TEXT  io_submit(IOCB_CMD_PWRITE) at offset 0", cmd_r14_aio_write },
	{ NULL, NULL, NULL },
};
