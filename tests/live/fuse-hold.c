/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file whose close waits, for tests (fuse-hold.h). The kernel sends a
 * FUSE file's server a FLUSH at every close(2) of a descriptor of it and
 * waits for the answer uninterruptibly: no signal, not even SIGKILL, ends
 * that wait. A server of our own, written against the raw /dev/fuse
 * protocol (no libfuse: a handful of requests), answers every request at
 * once but a FLUSH from another process than its parent, which it answers
 * only after the seconds asked for.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fuse.h>

#include "fuse-hold.h"

#define FUSE_HOLD_BUF (1024 * 1024 + 4096) /* more than any request the kernel sends */
#define FUSE_HOLD_NODE 2                   /* the one file, in the root directory */

static void fuse_hold_attr(uint64_t node, struct fuse_attr *ret)
{
	*ret = (struct fuse_attr){
		.ino = node,
		.mode = node == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0644,
		.nlink = 1,
		.blksize = 4096,
	};
}

static void fuse_hold_reply(int dev, const struct fuse_in_header *in, int error, const void *arg,
			    size_t size)
{
	char out[sizeof(struct fuse_out_header) + 256];
	struct fuse_out_header h = {
		.len = (uint32_t)(sizeof(h) + (error ? 0 : size)),
		.error = error,
		.unique = in->unique,
	};

	memcpy(out, &h, sizeof(h));
	if (!error && size)
		memcpy(out + sizeof(h), arg, size);
	(void)!write(dev, out, h.len);
}

/* Answers one request (FORGET and INTERRUPT expect none). */
static void fuse_hold_serve(int dev, const struct fuse_in_header *in, const void *arg, int seconds)
{
	const struct fuse_init_in *init = arg;
	struct fuse_init_out io = { .major = FUSE_KERNEL_VERSION, .max_write = 4096 };
	struct fuse_entry_out e = { .nodeid = FUSE_HOLD_NODE };
	struct fuse_attr_out a = { 0 };
	struct fuse_open_out o = { .fh = 1 };

	switch (in->opcode) {
	case FUSE_INIT:
		io.minor = init->minor < FUSE_KERNEL_MINOR_VERSION ? init->minor
								  : FUSE_KERNEL_MINOR_VERSION;
		io.max_readahead = init->max_readahead;
		fuse_hold_reply(dev, in, 0, &io, sizeof(io));
		break;
	case FUSE_LOOKUP:
		if (in->nodeid != FUSE_ROOT_ID || strcmp(arg, "held") != 0) {
			fuse_hold_reply(dev, in, -ENOENT, NULL, 0);
			break;
		}
		fuse_hold_attr(FUSE_HOLD_NODE, &e.attr);
		fuse_hold_reply(dev, in, 0, &e, sizeof(e));
		break;
	case FUSE_GETATTR:
		fuse_hold_attr(in->nodeid, &a.attr);
		fuse_hold_reply(dev, in, 0, &a, sizeof(a));
		break;
	case FUSE_OPEN:
	case FUSE_OPENDIR:
		fuse_hold_reply(dev, in, 0, &o, sizeof(o));
		break;
	case FUSE_FLUSH:
		/* Our parent's own closes are not the ones to hold. */
		if ((pid_t)in->pid != getppid())
			sleep((unsigned int)seconds);
		fuse_hold_reply(dev, in, 0, NULL, 0);
		break;
	case FUSE_FORGET:
	case FUSE_BATCH_FORGET:
	case FUSE_INTERRUPT:
		break; /* no answer expected */
	case FUSE_RELEASE:
	case FUSE_RELEASEDIR:
		fuse_hold_reply(dev, in, 0, NULL, 0);
		break;
	default:
		fuse_hold_reply(dev, in, -ENOSYS, NULL, 0);
	}
}

static void fuse_hold_loop(int dev, int seconds)
{
	char *buf = malloc(FUSE_HOLD_BUF);
	ssize_t n;

	if (!buf)
		_exit(1);
	for (;;) {
		n = read(dev, buf, FUSE_HOLD_BUF);
		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		/* ENODEV: unmounted and every file released. */
		if (n < (ssize_t)sizeof(struct fuse_in_header))
			_exit(0);
		fuse_hold_serve(dev, (struct fuse_in_header *)buf, buf + sizeof(struct fuse_in_header),
				seconds);
	}
}

int fuse_hold_open(int seconds)
{
	char dir[] = "/tmp/fuse-hold.XXXXXX", opts[128], path[64];
	int dev, fd = -1;
	pid_t server;

	dev = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (dev < 0 || !mkdtemp(dir))
		return -errno;
	snprintf(opts, sizeof(opts), "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", dev);
	if (mount("fuse-hold", dir, "fuse", MS_NOSUID | MS_NODEV, opts) < 0) {
		int r = -errno;

		close(dev);
		rmdir(dir);
		return r;
	}
	server = fork();
	if (server == 0) {
		/* Gone with us: a dead server ends a held FLUSH (ENOTCONN). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fuse_hold_loop(dev, seconds);
	}
	close(dev);
	if (server > 0) {
		snprintf(path, sizeof(path), "%s/held", dir);
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	umount2(dir, MNT_DETACH); /* the open file keeps the connection */
	rmdir(dir);
	return fd < 0 ? -EIO : fd;
}
