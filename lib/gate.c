/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The gate: a few BPF instructions put in front of a filter so that one
 * recognisable call, ioctl(-1, UNOTIFY_GATE_IOCTL_CMD), always reaches the
 * listener. A spawned child makes it right after loading its filter and so
 * waits for its supervisor without any call the policy could deny.
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "internal.h"
#include "util.h"

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GATE_LO 0
#define GATE_HI 4
#else
#define GATE_LO 4
#define GATE_HI 0
#endif

#define GATE_ARG(i, half) (offsetof(struct seccomp_data, args) + 8 * (i) + (half))
#define GATE_LOAD(off)    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
/* On a mismatch jump to the last instruction of the prefix (n = instructions after this one). */
#define GATE_MATCH(k, n)  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), 0, (n))

#define GATE_FD_HALF  0xffffffffU /* UNOTIFY_GATE_IOCTL_FD (-1), each 32-bit half */

static const struct sock_filter gate_prefix[] = {
	GATE_LOAD(offsetof(struct seccomp_data, arch)),
	GATE_MATCH(UNOTIFY_AUDIT_ARCH, 11),
	GATE_LOAD(offsetof(struct seccomp_data, nr)),
	GATE_MATCH(__NR_ioctl, 9),
	GATE_LOAD(GATE_ARG(0, GATE_LO)),
	GATE_MATCH(GATE_FD_HALF, 7),
	GATE_LOAD(GATE_ARG(0, GATE_HI)),
	GATE_MATCH(GATE_FD_HALF, 5),
	GATE_LOAD(GATE_ARG(1, GATE_LO)),
	GATE_MATCH((uint32_t)UNOTIFY_GATE_IOCTL_CMD, 3),
	GATE_LOAD(GATE_ARG(1, GATE_HI)),
	GATE_MATCH(0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	/* Not the gate: leave A as a filter finds it on entry, then run the filter. */
	BPF_STMT(BPF_LD | BPF_IMM, 0),
};

int gate_prepend(const struct sock_fprog *in, struct sock_fprog *ret)
{
	size_t n = ARRAY_SIZE(gate_prefix);
	struct sock_filter *f;

	if (!in || !in->filter || in->len == 0)
		return -EINVAL;
	if (in->len + n > BPF_MAXINSNS)
		return -E2BIG;
	f = calloc(in->len + n, sizeof(*f));
	if (!f)
		return -ENOMEM;
	memcpy(f, gate_prefix, sizeof(gate_prefix));
	memcpy(f + n, in->filter, in->len * sizeof(*f));
	*ret = (struct sock_fprog){ .len = (unsigned short)(in->len + n), .filter = f };
	return 0;
}

bool unotify_is_gate(const struct seccomp_notif *req)
{
	return req->data.arch == UNOTIFY_AUDIT_ARCH && req->data.nr == __NR_ioctl &&
	       req->data.args[0] == UINT64_MAX && req->data.args[1] == UNOTIFY_GATE_IOCTL_CMD;
}
