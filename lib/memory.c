/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The target's memory. The notification's pid is a thread id; the thread may
 * die and its number be reused while we read, so every read ends with an
 * ID_VALID check: what was read is returned only if the notification (and so
 * the very thread that made the call) is still there.
 *
 * A write cannot be checked so: a check after it could not undo it, and one
 * before it leaves the number free to change hands in between (the program
 * kills its own thread, and a process outside takes the number). So a write
 * never names the target by number: it goes through /proc/TID/mem opened
 * before a proof (ID_VALID, or what proves a kept state: target-cache.c),
 * an fd of that very address space, whoever has the number since. That fd
 * writes through read-only mappings too (FOLL_FORCE), which the kernel's own
 * copy to the caller never does: /proc/TID/maps, opened with it, says first
 * whether every page written is writable (EFAULT as the kernel's otherwise).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"
#include "target.h"
#include "uapi.h"
#include "util.h"

/* process_vm_readv until done: 0, -EFAULT at an unmapped page, or -errno. */
static int memory_vm(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		struct iovec local = { .iov_base = (char *)buf + done, .iov_len = len - done };
		struct iovec remote = { .iov_base = (void *)(uintptr_t)(addr + done),
					.iov_len = len - done };
		ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);

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

/* /proc/TID/mem, for kernels without process_vm_readv (or refusing it). */
static int memory_proc(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	_cleanup_close_ int fd = -1;
	char path[32];
	size_t done = 0;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return negative_errno();
	while (done < len) {
		off_t off = (off_t)(addr + done);
		ssize_t n = pread(fd, (char *)buf + done, len - done, off);

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

static int memory_transfer(const struct seccomp_notif *req, uint64_t addr, void *buf, size_t len)
{
	int r;

	if (req->pid == 0)
		return -ESRCH; /* not visible in our pid namespace */
	r = memory_vm((pid_t)req->pid, addr, buf, len);
	if (r == -ENOSYS || r == -EPERM)
		r = memory_proc((pid_t)req->pid, addr, buf, len);
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
	return memory_checked(l, req, memory_transfer(req, addr, buf, len));
}

/* ---- Writes: through an fd of the address space (the header says why) ---- */

struct target_mem *target_mem_open(pid_t tid)
{
	int procfd = target_proc_fd();
	struct target_mem *m;
	char name[32];

	if (procfd < 0) {
		errno = -procfd;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	atomic_init(&m->refs, 1);
	m->mem = m->maps = -1;
	snprintf(name, sizeof(name), "%d/mem", (int)tid);
	m->mem = openat(procfd, name, O_WRONLY | O_CLOEXEC);
	snprintf(name, sizeof(name), "%d/maps", (int)tid);
	if (m->mem >= 0)
		m->maps = openat(procfd, name, O_RDONLY | O_CLOEXEC);
	if (m->maps < 0)
		return target_mem_unref(m);
	return m;
}

struct target_mem *target_mem_ref(struct target_mem *m)
{
	if (m)
		atomic_fetch_add_explicit(&m->refs, 1, memory_order_relaxed);
	return m;
}

struct target_mem *target_mem_unref(struct target_mem *m)
{
	int saved = errno;

	if (m && atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) == 1) {
		if (m->mem >= 0)
			m->mem = safe_close(m->mem);
		if (m->maps >= 0)
			m->maps = safe_close(m->maps);
		free(m);
	}
	errno = saved;
	return NULL;
}

/* Is every page of [addr, addr + len) writable as the program maps it? 0, -EFAULT, -errno. */
static int memory_writable(int maps, uint64_t addr, size_t len)
{
	uint64_t at = addr, end = addr + len;

	if (end < addr)
		return -EFAULT;
	while (at < end) {
		struct procmap_query q = { .size = sizeof(q), .query_addr = at };

		if (ioctl(maps, PROCMAP_QUERY, &q) < 0) {
			if (errno == ENOTTY)
				return memory_writable_text(maps, at, end);
			/* ENOENT: no mapping there; ESRCH: the address space is gone. */
			return errno == ENOENT ? -EFAULT : errno == ESRCH ? -ENOENT : negative_errno();
		}
		if (!(q.vma_flags & PROCMAP_QUERY_VMA_WRITABLE))
			return -EFAULT;
		at = q.vma_end;
	}
	return 0;
}

int target_mem_write(const struct target_mem *m, uint64_t addr, const void *buf, size_t len)
{
	size_t done = 0;
	int r = memory_writable(m->maps, addr, len);

	while (r == 0 && done < len) {
		ssize_t n = pwrite(m->mem, (const char *)buf + done, len - done, (off_t)(addr + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EIO ? -EFAULT : negative_errno();
		if (n == 0)
			return -ENOENT; /* the address space is gone: so is the call */
		done += (size_t)n;
	}
	return r;
}

int memory_write_proved(unotify_listener *l, uint64_t id, pid_t tid, uint64_t addr,
			const void *buf, size_t len)
{
	struct target_mem *m;
	int r;

	if (tid == 0)
		return -ESRCH; /* not visible in our pid namespace */
	m = target_mem_open(tid);
	if (!m)
		return negative_errno();
	/* Opened, then proved: the fds are of the thread that made the call. */
	r = unotify_id_valid(l, id);
	if (r == 0)
		r = target_mem_write(m, addr, buf, len);
	m = target_mem_unref(m);
	return r;
}

int unotify_mem_write(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
		      const void *buf, size_t len)
{
	return memory_write_proved(l, req->id, (pid_t)req->pid, addr, buf, len);
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
		r = memory_transfer(req, at, buf + done, chunk);
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
