/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A classic BPF interpreter for seccomp filters, written from the kernel's
 * rules (Documentation/networking/filter.rst, seccomp_check_filter): the
 * instructions a seccomp filter may hold, 32-bit aligned loads from struct
 * seccomp_data only. The compiler checks what libseccomp made of a set of
 * rules in it (compile-verify.c); test-policy runs whole kernel layers.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "policy/internal.h"

static int bpf_alu(uint32_t *a, uint16_t op, uint32_t v)
{
	if ((op == BPF_DIV || op == BPF_MOD) && v == 0)
		return -EINVAL;
	switch (op) {
	case BPF_ADD:
		*a += v;
		return 0;
	case BPF_SUB:
		*a -= v;
		return 0;
	case BPF_MUL:
		*a *= v;
		return 0;
	case BPF_DIV:
		*a /= v;
		return 0;
	case BPF_MOD:
		*a %= v;
		return 0;
	case BPF_AND:
		*a &= v;
		return 0;
	case BPF_OR:
		*a |= v;
		return 0;
	case BPF_XOR:
		*a ^= v;
		return 0;
	case BPF_LSH:
		*a = v < 32 ? *a << v : 0;
		return 0;
	case BPF_RSH:
		*a = v < 32 ? *a >> v : 0;
		return 0;
	case BPF_NEG:
		*a = -*a;
		return 0;
	}
	return -EINVAL;
}

static int bpf_jump(uint16_t op, uint32_t a, uint32_t v, bool *ret)
{
	switch (op) {
	case BPF_JEQ:
		*ret = a == v;
		return 0;
	case BPF_JGT:
		*ret = a > v;
		return 0;
	case BPF_JGE:
		*ret = a >= v;
		return 0;
	case BPF_JSET:
		*ret = (a & v) != 0;
		return 0;
	}
	return -EINVAL;
}

static int bpf_load(const struct seccomp_data *d, uint32_t k, uint32_t *ret)
{
	/* seccomp allows 32-bit aligned loads inside struct seccomp_data only. */
	if (k % 4 || k + 4 > sizeof(*d))
		return -EINVAL;
	memcpy(ret, (const char *)d + k, 4);
	return 0;
}

/* Loads, stores and register moves; -ENOENT when f is none of them. */
static int bpf_move(const struct sock_filter *f, const struct seccomp_data *d, uint32_t *a,
		    uint32_t *x, uint32_t *mem)
{
	uint16_t cls = BPF_CLASS(f->code);

	if ((cls == BPF_LD || cls == BPF_LDX || cls == BPF_ST || cls == BPF_STX) &&
	    (cls == BPF_ST || cls == BPF_STX || BPF_MODE(f->code) == BPF_MEM) &&
	    f->k >= BPF_MEMWORDS)
		return -EINVAL;
	if (f->code == (BPF_LD | BPF_W | BPF_ABS))
		return bpf_load(d, f->k, a);
	else if (f->code == (BPF_LD | BPF_W | BPF_LEN))
		*a = sizeof(*d);
	else if (f->code == (BPF_LDX | BPF_W | BPF_LEN))
		*x = sizeof(*d);
	else if (f->code == (BPF_LD | BPF_IMM))
		*a = f->k;
	else if (f->code == (BPF_LDX | BPF_IMM))
		*x = f->k;
	else if (f->code == (BPF_LD | BPF_MEM))
		*a = mem[f->k];
	else if (f->code == (BPF_LDX | BPF_MEM))
		*x = mem[f->k];
	else if (f->code == BPF_ST)
		mem[f->k] = *a;
	else if (f->code == BPF_STX)
		mem[f->k] = *x;
	else if (f->code == (BPF_MISC | BPF_TAX))
		*x = *a;
	else if (f->code == (BPF_MISC | BPF_TXA))
		*a = *x;
	else
		return -ENOENT;
	return 0;
}

static int bpf_step(const struct sock_filter *f, const struct seccomp_data *d, uint32_t *a,
		    uint32_t *x, uint32_t *mem, uint32_t *pc, uint32_t *ret, bool *done)
{
	uint16_t cls = BPF_CLASS(f->code);
	bool taken;
	int r;

	r = bpf_move(f, d, a, x, mem);
	if (r != -ENOENT)
		return r;
	if (f->code == (BPF_RET | BPF_K) || f->code == (BPF_RET | BPF_A)) {
		*ret = BPF_RVAL(f->code) == BPF_A ? *a : f->k;
		*done = true;
		return 0;
	}
	if (f->code == (BPF_JMP | BPF_JA)) {
		*pc += f->k;
		return 0;
	}
	if (cls == BPF_ALU)
		return bpf_alu(a, BPF_OP(f->code), BPF_SRC(f->code) == BPF_X ? *x : f->k);
	if (cls != BPF_JMP)
		return -EINVAL;
	if (bpf_jump(BPF_OP(f->code), *a, BPF_SRC(f->code) == BPF_X ? *x : f->k, &taken) < 0)
		return -EINVAL;
	*pc += taken ? f->jt : f->jf;
	return 0;
}

int policy_bpf_run(const struct sock_fprog *prog, const struct seccomp_data *d, uint32_t *ret)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };
	bool done = false;

	for (uint32_t pc = 0; pc < prog->len; pc++) {
		if (bpf_step(&prog->filter[pc], d, &a, &x, mem, &pc, ret, &done) < 0)
			return -EINVAL;
		if (done)
			return 0;
	}
	return -EINVAL; /* fell off the end, or jumped past it */
}
