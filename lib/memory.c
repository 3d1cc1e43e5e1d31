/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The target's memory. The notification's pid is a thread id; the thread may
 * die and its number be reused while we read, so every read ends with an
 * ID_VALID check: what was read is returned only if the notification (and so
 * the very thread that made the call) is still there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"
#include "util.h"

/* process_vm_readv/writev until done: 0, -EFAULT at an unmapped page, or -errno. */
static int memory_vm(pid_t tid, uint64_t addr, void *buf, size_t len, bool write)
{
	size_t done = 0;

	while (done < len) {
		struct iovec local = { .iov_base = (char *)buf + done, .iov_len = len - done };
		struct iovec remote = { .iov_base = (void *)(uintptr_t)(addr + done),
					.iov_len = len - done };
		ssize_t n = write ? process_vm_writev(tid, &local, 1, &remote, 1, 0)
				  : process_vm_readv(tid, &local, 1, &remote, 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return negative_errno();
		if (n == 0)
			return -EFAULT;
		done += (size_t)n;
	}
	return 0;
}

/*
 * /proc/TID/mem, for kernels without process_vm_readv (or refusing it).
 * Beware: this path writes through read-only mappings (FOLL_FORCE).
 */
static int memory_proc(pid_t tid, uint64_t addr, void *buf, size_t len, bool write)
{
	_cleanup_close_ int fd = -1;
	char path[32];
	size_t done = 0;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	fd = open(path, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	while (done < len) {
		off_t off = (off_t)(addr + done);
		ssize_t n = write ? pwrite(fd, (const char *)buf + done, len - done, off)
				  : pread(fd, (char *)buf + done, len - done, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EIO ? -EFAULT : negative_errno();
		if (n == 0)
			return -EFAULT;
		done += (size_t)n;
	}
	return 0;
}

static int memory_transfer(const struct seccomp_notif *req, uint64_t addr, void *buf, size_t len,
			   bool write)
{
	int r;

	if (req->pid == 0)
		return -ESRCH; /* not visible in our pid namespace */
	r = memory_vm((pid_t)req->pid, addr, buf, len, write);
	if (r == -ENOSYS || r == -EPERM)
		r = memory_proc((pid_t)req->pid, addr, buf, len, write);
	return r;
}

/* The result of an access, or -ENOENT when the target is gone (whatever was read). */
static int memory_checked(unotify_listener *l, const struct seccomp_notif *req, int r)
{
	int v = unotify_id_valid(l, req->id);

	return v < 0 ? v : r;
}

int unotify_mem_read(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
		     void *buf, size_t len)
{
	return memory_checked(l, req, memory_transfer(req, addr, buf, len, false));
}

/*
 * A write is not followed by ID_VALID: a check after it could not undo it,
 * and the reply that comes next is the check (SEND fails with ENOENT once
 * the call is gone). One system call less for every stat, readlink and
 * getxattr performed.
 */
int unotify_mem_write(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
		      const void *buf, size_t len)
{
	(void)l;
	return memory_transfer(req, addr, (void *)buf, len, true);
}

/*
 * A path is rarely longer than this: the first read stops here, rather
 * than copy and scan up to 4 KiB a path seldom has (to the page's end:
 * some 60 ns more per read, docs/BENCHMARKS.md "Decided calls: phase 7").
 */
#define MEMORY_STRING_FIRST 256

/*
 * Reads page by page, never across a page boundary in one call: a string may
 * end right before an unmapped page, and a read spanning both would fail.
 * The first read is at most MEMORY_STRING_FIRST bytes.
 */
static int memory_read_string(const struct seccomp_notif *req, uint64_t addr, char *buf,
			      size_t size)
{
	/* No page is smaller than 4 KiB, and larger ones are multiples of it (no sysconf per call). */
	size_t page = 4096, done = 0;

	while (done < size) {
		uint64_t at = addr + done;
		size_t chunk = page - (size_t)(at % page);
		char *nul;
		int r;

		if (done == 0 && chunk > MEMORY_STRING_FIRST)
			chunk = MEMORY_STRING_FIRST;
		if (chunk > size - done)
			chunk = size - done;
		r = memory_transfer(req, at, buf + done, chunk, false);
		if (r < 0)
			return r;
		nul = memchr(buf + done, '\0', chunk);
		if (nul)
			return (int)(nul - buf);
		done += chunk;
	}
	return -ENAMETOOLONG;
}

int unotify_mem_read_string_unproven(unotify_listener *l, const struct seccomp_notif *req,
				     uint64_t addr, char *buf, size_t size)
{
	int r;

	if (size == 0 || size > INT32_MAX)
		return -EINVAL;
	r = memory_read_string(req, addr, buf, size);
	/* A failure is told at once, so it is proved at once (-ENOENT: the target is gone). */
	if (r < 0)
		r = memory_checked(l, req, r);
	if (r < 0)
		buf[0] = '\0';
	return r;
}

int unotify_mem_read_string(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
			    char *buf, size_t size)
{
	int r = unotify_mem_read_string_unproven(l, req, addr, buf, size);

	/* A failure was proved already; a success is proved here. */
	if (r >= 0)
		r = memory_checked(l, req, r);
	if (r < 0)
		buf[0] = '\0';
	return r;
}
