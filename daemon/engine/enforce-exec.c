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
 *
 * The dynamic loader run as a program maps and runs any file it may read
 * (`ld.so FILE`, `#!ld.so FILE`), and an exec allow-list must let it run
 * for every dynamic program: neither a path pattern nor Landlock's execute
 * right tells the two apart. So an exec whose program or #! interpreter is
 * a loader (read from the file: EXEC_LOADER) must be allowed by its exact
 * name (policy_evaluate_named), wherever an exec rule refuses something;
 * under the Landlock layer the execs come here too for that.
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

/* What the kernel makes of one file it executes, as far as the decision needs. */
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
	 * supervisor without CAP_DAC_OVERRIDE): it may be a loader, so it is
	 * decided as one (fail closed: only its exact name lets it run).
	 */
	EXEC_UNREADABLE,
};

struct exec_file {
	enum exec_kind kind;
	bool has_next;
	char next[4096];
};

/* The ELF header's fields the walk needs, 64 or 32 bits (the file's byte order being ours). */
struct exec_elf {
	bool is64;
	unsigned int type, phnum, phentsize;
	uint64_t phoff;
};

/*
 * The kernel's bound on the program header table (load_elf_phdrs): it
 * refuses to run a file whose table is larger, or whose entries are not
 * its struct's size. A file within it has every entry read, whatever
 * their number: the kernel takes the first PT_INTERP, wherever it is.
 */
#define EXEC_PHDRS_MAX 65536

/* Program header i of the table read in phdrs: its type and where its contents are. */
static void exec_elf_phdr(const unsigned char *phdrs, const struct exec_elf *e, unsigned int i,
			  uint32_t *ret_type, uint64_t *ret_off, uint64_t *ret_len)
{
	const unsigned char *at = phdrs + (size_t)i * e->phentsize;

	if (e->is64) {
		Elf64_Phdr ph;

		memcpy(&ph, at, sizeof(ph));
		*ret_type = ph.p_type, *ret_off = ph.p_offset, *ret_len = ph.p_filesz;
	} else {
		Elf32_Phdr ph;

		memcpy(&ph, at, sizeof(ph));
		*ret_type = ph.p_type, *ret_off = ph.p_offset, *ret_len = ph.p_filesz;
	}
}

/*
 * The whole program header table, as the kernel reads it: 0 and the table
 * (to free), 1 when the kernel would refuse to run the file (no table, or
 * one out of its bounds), -1 when it cannot be read whole.
 */
static int exec_elf_phdrs(int fd, const struct exec_elf *e, unsigned char **ret)
{
	size_t entry = e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
	size_t size = (size_t)e->phnum * e->phentsize;
	unsigned char *buf;

	if (e->phentsize != entry || size == 0 || size > EXEC_PHDRS_MAX)
		return 1;
	buf = malloc(size);
	if (!buf)
		return -1;
	if (pread(fd, buf, size, (off_t)e->phoff) != (ssize_t)size) {
		free(buf);
		return -1;
	}
	*ret = buf;
	return 0;
}

/* Does the dynamic section hold DF_1_PIE (a position-independent program, not a library)? */
static bool exec_elf_pie(int fd, bool is64, uint64_t off, uint64_t len)
{
	unsigned char buf[64 * sizeof(Elf64_Dyn)];
	size_t esz = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	ssize_t n = pread(fd, buf, len < sizeof(buf) ? len : sizeof(buf), (off_t)off);

	for (size_t i = 0; n > 0 && (i + 1) * esz <= (size_t)n; i++) {
		int64_t tag;
		uint64_t val;

		if (is64) {
			Elf64_Dyn d;

			memcpy(&d, buf + i * esz, esz);
			tag = d.d_tag, val = d.d_un.d_val;
		} else {
			Elf32_Dyn d;

			memcpy(&d, buf + i * esz, esz);
			tag = d.d_tag, val = d.d_un.d_val;
		}
		if (tag == DT_NULL)
			break;
		if (tag == DT_FLAGS_1)
			return val & DF_1_PIE;
	}
	return false;
}

static void exec_elf_read(int fd, const unsigned char *head, size_t n, struct exec_file *ret)
{
	struct exec_elf e = { .is64 = n >= EI_NIDENT && head[EI_CLASS] == ELFCLASS64 };
	_cleanup_free_ unsigned char *phdrs = NULL;
	bool dynamic = false, pie = false;
	int r;

	ret->kind = EXEC_ELF;
	if (n < (e.is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return;
	if (e.is64) {
		const Elf64_Ehdr *h = (const Elf64_Ehdr *)head;

		e.type = h->e_type, e.phoff = h->e_phoff;
		e.phnum = h->e_phnum, e.phentsize = h->e_phentsize;
	} else {
		const Elf32_Ehdr *h = (const Elf32_Ehdr *)head;

		e.type = h->e_type, e.phoff = h->e_phoff;
		e.phnum = h->e_phnum, e.phentsize = h->e_phentsize;
	}
	r = exec_elf_phdrs(fd, &e, &phdrs);
	if (r < 0)
		ret->kind = EXEC_UNREADABLE; /* what it would run is unknown: decided as a loader */
	if (r != 0)
		return;
	for (unsigned int i = 0; i < e.phnum; i++) {
		uint64_t off, len;
		uint32_t type;

		exec_elf_phdr(phdrs, &e, i, &type, &off, &len);
		if (type == PT_DYNAMIC && !dynamic) {
			dynamic = true;
			pie = exec_elf_pie(fd, e.is64, off, len);
		}
		if (type != PT_INTERP)
			continue;
		if (len < 2 || len > sizeof(ret->next) ||
		    pread(fd, ret->next, len, (off_t)off) != (ssize_t)len ||
		    ret->next[len - 1] != '\0')
			return;
		ret->has_next = true;
		return;
	}
	if (e.type == ET_DYN && dynamic && !pie)
		ret->kind = EXEC_LOADER;
}

/* What the kernel does with the file open at pathfd: its kind, and the next file it runs. */
static void exec_file_read(int pathfd, struct exec_file *ret)
{
	unsigned char head[EXEC_HEAD_MAX + 1];
	_cleanup_close_ int fd = -1;
	char link[64];
	ssize_t n;

	ret->kind = EXEC_OTHER;
	ret->has_next = false;
	/* Read as the supervisor: the kernel runs what the program may not read. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", pathfd);
	fd = open(link, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	n = fd < 0 ? -1 : pread(fd, head, EXEC_HEAD_MAX, 0);
	if (n < 0)
		ret->kind = EXEC_UNREADABLE;
	if (n < 4)
		return;
	head[n] = '\0';
	if (head[0] == '#' && head[1] == '!') {
		const char *s = (const char *)head + 2 + strspn((const char *)head + 2, " \t");
		size_t len = strcspn(s, " \t\n");

		ret->kind = EXEC_SCRIPT;
		if (!len || len >= sizeof(ret->next))
			return;
		memcpy(ret->next, s, len);
		ret->next[len] = '\0';
		ret->has_next = true;
		return;
	}
	if (memcmp(head, ELFMAG, SELFMAG) == 0)
		exec_elf_read(fd, head, (size_t)n, ret);
}

struct exec_ask {
	const char *path;
};

static int exec_ask_path(void *userdata, const char **ret_path)
{
	*ret_path = ((struct exec_ask *)userdata)->path;
	return 0;
}

/*
 * A loader run as a program (or as a script's #! interpreter) runs any
 * file it may read: a pattern that lets programs run does not cover it,
 * only its exact name does (policy_evaluate_named). 1 and the refusal in
 * ret, or 0: it may run.
 */
static int exec_check_loader(struct enforce_call *c, const struct policy_call *call,
			     const char *path, struct policy_decision *ret)
{
	struct exec_ask ask = { .path = path };
	struct policy_decision d;

	if (policy_evaluate_named(c->policy, call, exec_ask_path, &ask, &d) < 0)
		d = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM };
	if (d.action == POLICY_ALLOW || d.action == POLICY_LOG)
		return 0;
	d.path_consulted = true;
	*ret = d;
	return 1;
}

/*
 * The checks below could not be made (no descriptor left, no memory, the
 * target gone): what the kernel would run is unknown, so the exec is
 * refused. Once, a program that held all but two of the supervisor's
 * descriptors (in a performed sendmsg of many SCM_RIGHTS, blocked on a
 * full queue) had a #! loader line go unchecked.
 */
static int exec_check_failed(struct policy_decision *ret)
{
	*ret = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM,
					 .path_consulted = true };
	return 1;
}

/* An error of the lookup or access check that the kernel's exec meets as well. */
static bool exec_kernel_refuses(int err)
{
	return err == ENOENT || err == ENOTDIR || err == ELOOP || err == EACCES ||
	       err == ENAMETOOLONG || err == EPERM;
}

/*
 * Every file the kernel executes for the call, as it does: the program, a
 * script's interpreter (#!, up to its depth), the ELF interpreter. A
 * program or #! interpreter that is a loader (EXEC_LOADER) must be named
 * (exec_check_loader); with `kernel` rules, every interpreter must not
 * meet one (the kernel's sandbox would refuse it: EACCES, blamed on the
 * rule). 1 and the refusal in ret, or 0.
 */
static int exec_check_files(struct enforce_call *c, struct policy_decision *ret)
{
	struct policy_call call = { .nr = c->req->data.nr };
	bool kernel = exec_has_kernel_rules(c->policy, call.nr);
	struct unotify_path res[EXEC_DEPTH_MAX];
	const struct unotify_path *file = &c->paths[0].res;
	int fd = file->fd, n_res = 0, r = 0;
	const char *path = file->path;
	struct exec_file f;

	memcpy(call.args, c->req->data.args, sizeof(call.args));
	if (fd < 0)
		return exec_check_failed(ret);
	for (int depth = 0; depth <= EXEC_DEPTH_MAX && r == 0; depth++) {
		struct unotify_path_how how = { .dirfd = AT_FDCWD, .walk = UNOTIFY_WALK_FOLLOW };
		struct policy_decision d;
		struct exec_ask ask;
		unotify_target *t;

		if (enforce_target(c, &t) < 0) {
			r = exec_check_failed(ret);
			break;
		}
		/*
		 * A file the target may not execute, the kernel refuses itself
		 * (EACCES): its contents, read as the supervisor, must not
		 * decide anything, or the answer tells the target what a file
		 * it cannot read holds.
		 */
		r = unotify_path_access(t, file, X_OK);
		if (r < 0) {
			r = exec_kernel_refuses(-r) ? 0 : exec_check_failed(ret);
			break;
		}
		exec_file_read(fd, &f);
		if ((f.kind == EXEC_LOADER || f.kind == EXEC_UNREADABLE) &&
		    (r = exec_check_loader(c, &call, path, ret)))
			break;
		/* The ELF interpreter runs for the program: it is not a program itself. */
		if (!f.has_next || depth == EXEC_DEPTH_MAX)
			break;
		how.path = f.next;
		if (unotify_path_resolve(t, &how, &res[n_res]) < 0) {
			r = exec_check_failed(ret);
			break;
		}
		if (res[n_res].error) {
			/* A missing interpreter: the kernel says ENOENT itself, sandbox or not. */
			if (!exec_kernel_refuses(res[n_res].error))
				r = exec_check_failed(ret);
			unotify_path_release(&res[n_res]);
			break;
		}
		file = &res[n_res];
		path = ask.path = res[n_res].path;
		fd = res[n_res++].fd;
		call = (struct policy_call){ .nr = SYS_execve };
		if (kernel && policy_evaluate(c->policy, &call, exec_ask_path, &ask, &d) == 0 &&
		    d.action == POLICY_DENY && d.kernel_answer) {
			d.path_consulted = true;
			*ret = d;
			r = 1;
		}
		if (f.kind != EXEC_SCRIPT)
			break;
	}
	while (n_res > 0)
		unotify_path_release(&res[--n_res]);
	return r;
}

/*
 * The policy let the exec run on its path: what else the kernel would run
 * for it may still refuse it (above). Only where some exec rule refuses:
 * without one, no exec is refused, a loader's neither.
 */
static void exec_recheck(struct enforce_call *c, struct policy_decision *d)
{
	struct policy_decision refusal;

	if (!c->policy || !c->paths || !c->paths[0].resolved || c->paths[0].res.error)
		return;
	if (exec_check_files(c, &refusal) > 0)
		*d = refusal;
}

/* No safe way: the kernel runs it (see above). */
static void exec_perform(struct enforce_call *c, struct unotify_verdict *v)
{
	(void)c;
	*v = unotify_verdict_continue();
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
	.recheck = exec_recheck,
	.perform = exec_perform,
	.refuse = exec_refuse,
	.release = enforce_free_state,
	.audit = exec_audit,
	.works = 1U << UNOTIFY_WORK_SUPERVISE, /* resolves, performs nothing */
};
