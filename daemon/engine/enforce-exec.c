/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * execve, execveat: the one family the supervisor cannot perform. An exec
 * replaces the caller's own image; no fd or value injected from outside
 * does that. So a path= rule on them reads and resolves the path like any
 * other, a denial is final (safe), but an allowed exec is CONTINUEd and the
 * kernel reads the path again: a racing thread of the target can swap it
 * in between. `unotify policy check` warns about every rule that allows an
 * exec by path (POLICY_PERFORM_NONE in pathcalls.c); SECURITY.md says so.
 * The Landlock layer, which checks the execute right in the kernel, closes
 * that race where it takes the exec rules (policy/landlock.c).
 *
 * `deny @file-exec kernel` refuses what the kernel's sandbox refuses, and
 * the kernel checks every file it executes for the call: the program, a
 * script's interpreter (#!, up to the kernel's depth) and the ELF
 * interpreter (the dynamic loader). Where the supervisor decides, an exec
 * allowed on its path is refused (EACCES) when one of its interpreters
 * meets such a rule, as the kernel would refuse it.
 */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "enforce-call.h"
#include "lib/util.h"

/* binfmt_script reads this much; the kernel runs at most 5 levels of interpreters. */
#define EXEC_HEAD_MAX  256
#define EXEC_DEPTH_MAX 5

/* The audit trail shows what was run, as strace does, within these bounds. */
#define EXEC_AUDIT_ARGS    32
#define EXEC_AUDIT_ARG_LEN 256

struct exec_state {
	int dirfd;
	uint64_t path_addr;
	uint64_t argv_addr;
	bool nofollow;
	bool empty_path;
	int early;
	/* For the audit record only: read after the decision, never decided on. */
	char path[4096];
	char strings[EXEC_AUDIT_ARGS][EXEC_AUDIT_ARG_LEN];
	const char *args[EXEC_AUDIT_ARGS];
	bool cut[EXEC_AUDIT_ARGS];
	struct audit_argv argv;
};

static void exec_decode(struct enforce_call *c)
{
	struct exec_state *s = calloc(1, sizeof(*s));
	const uint64_t *a = c->args;

	c->state = s;
	c->has_path[0] = true;
	if (!s)
		return;
	if (c->req->data.nr == SYS_execveat) {
		s->dirfd = (int)a[0];
		s->path_addr = a[1];
		s->argv_addr = a[2];
		s->nofollow = a[4] & AT_SYMLINK_NOFOLLOW;
		s->empty_path = a[4] & AT_EMPTY_PATH;
		if (a[4] & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			s->early = EINVAL;
	} else {
		s->dirfd = AT_FDCWD;
		s->path_addr = a[0];
		s->argv_addr = a[1];
	}
}

static int exec_path(struct enforce_call *c, int n, const char **ret_path)
{
	struct exec_state *s = c->state;
	struct unotify_path_how how;
	int r;

	if (!s)
		return enforce_fail(c, ENOMEM);
	if (s->early)
		return enforce_fail(c, s->early);
	r = enforce_read_path(c, 0, s->path_addr);
	if (r < 0)
		return r;
	how = (struct unotify_path_how){
		.dirfd = s->dirfd,
		.walk = s->nofollow ? UNOTIFY_WALK_NOFOLLOW : UNOTIFY_WALK_FOLLOW,
		.empty_path = s->empty_path,
	};
	return enforce_resolve_path(c, 0, &how, ret_path);
}

/* Does a `kernel` rule name this syscall? Only then are interpreters asked. */
static bool exec_has_kernel_rules(const struct policy *p, int nr)
{
	struct policy_rule_info in;
	size_t i;

	for (size_t k = 0; k < policy_syscall_rule_count(p, nr); k++)
		if (policy_syscall_rule_at(p, nr, k, &i) == 0 && policy_rule_info(p, i, &in) == 0 &&
		    in.kernel_answer)
			return true;
	return false;
}

/* PT_INTERP of an ELF file (64 or 32 bits, the file's own byte order being ours). */
static int exec_elf_interp(int fd, const unsigned char *head, size_t n, char *out, size_t size)
{
	bool is64 = n >= EI_NIDENT && head[EI_CLASS] == ELFCLASS64;
	uint64_t phoff, off, len;
	unsigned int phnum, phentsize;

	if (n < (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return 0;
	if (is64) {
		const Elf64_Ehdr *e = (const Elf64_Ehdr *)head;

		phoff = e->e_phoff, phnum = e->e_phnum, phentsize = e->e_phentsize;
	} else {
		const Elf32_Ehdr *e = (const Elf32_Ehdr *)head;

		phoff = e->e_phoff, phnum = e->e_phnum, phentsize = e->e_phentsize;
	}
	for (unsigned int i = 0; i < phnum && i < 64; i++) {
		Elf64_Phdr ph64;
		Elf32_Phdr ph32;

		if (pread(fd, is64 ? (void *)&ph64 : (void *)&ph32, is64 ? sizeof(ph64) : sizeof(ph32),
			  (off_t)(phoff + (uint64_t)i * phentsize)) != (ssize_t)(is64 ? sizeof(ph64)
											: sizeof(ph32)))
			return 0;
		if ((is64 ? ph64.p_type : ph32.p_type) != PT_INTERP)
			continue;
		off = is64 ? ph64.p_offset : ph32.p_offset;
		len = is64 ? ph64.p_filesz : ph32.p_filesz;
		if (len < 2 || len > size || pread(fd, out, len, (off_t)off) != (ssize_t)len ||
		    out[len - 1] != '\0')
			return 0;
		return 1;
	}
	return 0;
}

/* The next file the kernel executes for this one: 1 and its path, 0 when none. */
static int exec_interpreter(int pathfd, char *out, size_t size)
{
	unsigned char head[EXEC_HEAD_MAX + 1];
	_cleanup_close_ int fd = -1;
	char link[64];
	ssize_t n;

	/* Read as the supervisor: the kernel runs what the program may not read. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", pathfd);
	fd = open(link, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return 0;
	n = pread(fd, head, EXEC_HEAD_MAX, 0);
	if (n < 4)
		return 0;
	head[n] = '\0';
	if (head[0] == '#' && head[1] == '!') {
		const char *s = (const char *)head + 2 + strspn((const char *)head + 2, " \t");
		size_t len = strcspn(s, " \t\n");

		if (!len || len >= size)
			return 0;
		memcpy(out, s, len);
		out[len] = '\0';
		return 1;
	}
	if (memcmp(head, ELFMAG, SELFMAG) == 0)
		return exec_elf_interp(fd, head, (size_t)n, out, size);
	return 0;
}

struct exec_ask {
	const char *path;
};

static int exec_ask_path(void *userdata, const char **ret_path)
{
	*ret_path = ((struct exec_ask *)userdata)->path;
	return 0;
}

/* 0, or EACCES when an interpreter meets `deny ... kernel` (the kernel would refuse it). */
static int exec_check_interpreters(struct enforce_call *c)
{
	int fd = c->paths[0].res.fd, r = 0;
	struct unotify_path res[EXEC_DEPTH_MAX];
	int n_res = 0;
	char interp[4096];

	for (int depth = 0; depth < EXEC_DEPTH_MAX && r == 0 && fd >= 0; depth++) {
		struct unotify_path_how how = { .dirfd = AT_FDCWD, .walk = UNOTIFY_WALK_FOLLOW };
		struct policy_call call = { .nr = SYS_execve };
		struct policy_decision d;
		unotify_target *t;
		struct exec_ask ask;

		if (exec_interpreter(fd, interp, sizeof(interp)) <= 0 || enforce_target(c, &t) < 0)
			break;
		how.path = interp;
		/* A missing interpreter: the kernel says ENOENT itself, sandbox or not. */
		if (unotify_path_resolve(t, &how, &res[n_res]) < 0)
			break;
		if (res[n_res].error) {
			unotify_path_release(&res[n_res]);
			break;
		}
		ask.path = res[n_res].path;
		fd = res[n_res++].fd;
		if (policy_evaluate(c->policy, &call, exec_ask_path, &ask, &d) == 0 &&
		    d.action == POLICY_DENY && d.kernel_answer)
			r = EACCES;
	}
	while (n_res > 0)
		unotify_path_release(&res[--n_res]);
	return r;
}

/* No safe way: the kernel runs it (see above). */
static void exec_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	int err = 0;

	if (c->policy && c->paths && c->paths[0].resolved &&
	    exec_has_kernel_rules(c->policy, c->req->data.nr))
		err = exec_check_interpreters(c);
	*v = err ? unotify_verdict_errno(err) : unotify_verdict_continue();
}

/* `deny ... kernel`: the lookup's error, else the refusal. */
static int exec_refuse(struct enforce_call *c)
{
	const char *ignored;

	if (exec_path(c, 0, &ignored) < 0)
		return c->read_error ? c->read_error : EPERM;
	return c->paths[0].res.error ? c->paths[0].res.error : EACCES;
}

/* One string of argv into s->strings[i]; a string too long is cut, and said so. */
static int exec_read_arg(struct enforce_call *c, struct exec_state *s, size_t i, uint64_t addr)
{
	char *buf = s->strings[i];
	int r = unotify_mem_read_string(c->l, c->req, addr, buf, EXEC_AUDIT_ARG_LEN);

	if (r == -ENAMETOOLONG) {
		/* No NUL in the first EXEC_AUDIT_ARG_LEN bytes, which were readable. */
		r = unotify_mem_read(c->l, c->req, addr, buf, EXEC_AUDIT_ARG_LEN - 1);
		buf[EXEC_AUDIT_ARG_LEN - 1] = '\0';
		s->cut[i] = true;
	}
	return r < 0 ? r : 0;
}

/*
 * The program and its arguments for the trail, as strace shows them: the
 * path when no rule read it, and argv up to EXEC_AUDIT_ARGS strings. What
 * cannot be read (a bad pointer) stays a raw value; the call's fate is the
 * kernel's, the decision was taken before.
 */
static void exec_audit(struct enforce_call *c, struct audit_record *r)
{
	struct exec_state *s = c->state;
	size_t n = 0;

	if (!s)
		return;
	if (!r->path_arg && unotify_mem_read_string(c->l, c->req, s->path_addr, s->path,
						    sizeof(s->path)) >= 0)
		r->path_arg = s->path;
	for (; n < EXEC_AUDIT_ARGS; n++) {
		uint64_t addr;

		if (unotify_mem_read(c->l, c->req, s->argv_addr + n * sizeof(addr), &addr,
				     sizeof(addr)) < 0)
			return; /* argv itself unreadable: leave the pointer */
		if (!addr)
			break;
		if (exec_read_arg(c, s, n, addr) < 0)
			return;
		s->args[n] = s->strings[n];
	}
	s->argv = (struct audit_argv){ .args = s->args, .cut = s->cut, .n = n,
				       .more = n == EXEC_AUDIT_ARGS };
	if (s->argv.more) {
		uint64_t addr;

		/* Exactly EXEC_AUDIT_ARGS strings: nothing more to show. */
		if (unotify_mem_read(c->l, c->req, s->argv_addr + n * sizeof(addr), &addr,
				     sizeof(addr)) == 0 && !addr)
			s->argv.more = false;
	}
	r->argv = &s->argv;
}

const struct enforce_family enforce_exec_family = {
	.decode = exec_decode,
	.path = exec_path,
	.perform = exec_perform,
	.refuse = exec_refuse,
	.release = enforce_free_state,
	.audit = exec_audit,
	.works = 1U << UNOTIFY_WORK_SUPERVISE, /* resolves, performs nothing */
};
