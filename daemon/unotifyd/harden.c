/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Once listening, with policies loaded and before the first client thread,
 * the daemon gives up what it does not need: every capability but those of
 * capabilities.list (harden-caps.c), then sets no_new_privs and loads a
 * seccomp filter of its own that allows only the calls the daemon makes.
 * Capabilities and filters are per thread and inherited, so this must run
 * before any thread exists.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kcmp.h>
#include <linux/nsfs.h>
#include <linux/sched.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <seccomp.h>

#include "engine/enforce.h"
#include "harden.h"
#include "lib/uapi.h"
#include "lib/util.h"
#include "log.h"

/*
 * The seccomp allowlist. Three sources, one list each, never copied here:
 * - the daemon's own calls, and those of what it links (libc, json-c,
 *   libsystemd): harden_base below;
 * - libunotify's calls, by work (lib/syscalls.c, unotify_work_syscalls);
 * - which works the engine's call families use (daemon/engine, each
 *   family's .works; enforce_works() walks every call number), so a family
 *   the engine performs can never be missing from the filter.
 * A call the daemon's own code starts making goes into harden_base, in the
 * same change; one the library makes, into lib/syscalls.c.
 */
#define ANY(name) { SCMP_SYS(name), -1, 0, 0 }
#define ARG_EQ(name, n, v) { SCMP_SYS(name), (n), UINT64_MAX, (uint64_t)(v) }
#define ARG_MASK(name, n, m, v) { SCMP_SYS(name), (n), (uint64_t)(m), (uint64_t)(v) }

static const struct unotify_syscall_rule harden_base[] = {
	/* memory, threads (never a process: CLONE_THREAD), signals, time */
	ANY(brk), ANY(mmap), ANY(munmap), ANY(mremap), ANY(mprotect), ANY(madvise), ANY(futex),
	ANY(set_robust_list), ANY(rseq), ANY(exit), ANY(exit_group), ANY(gettid), ANY(getpid),
	ARG_MASK(clone, 0, CLONE_THREAD, CLONE_THREAD),
	ANY(rt_sigaction), ANY(rt_sigprocmask), ANY(rt_sigreturn), ANY(sigaltstack),
	ANY(restart_syscall), ANY(clock_gettime), ANY(clock_nanosleep), ANY(nanosleep),
	ANY(sched_yield), ANY(sched_getaffinity), ANY(getrandom), ANY(uname), ANY(prctl),
	ANY(tgkill), ANY(timer_create), ANY(timer_settime), ANY(timer_delete), /* closing.c */
	/* files: the audit trail, the policy directory (SIGHUP), /proc/self, the signalfd */
	ANY(read), ANY(write), ANY(readv), ANY(writev), ANY(pread64), ANY(pwrite64), ANY(close),
	ANY(fstat), ANY(newfstatat), ANY(statx), ANY(lseek), ANY(open), ANY(openat),
	ANY(readlink), ANY(readlinkat), ANY(getdents64), ANY(fcntl), ANY(dup), ANY(dup3),
	ANY(fstatfs), ANY(statfs), ANY(access), ANY(faccessat), ANY(faccessat2), ANY(getcwd),
	ANY(unlink), ANY(memfd_create), ANY(fsync), ANY(fdatasync),
	ARG_EQ(ioctl, 1, TCGETS), /* isatty() on stdio */
	ARG_EQ(ioctl, 1, NS_GET_PARENT), /* a client's pid namespace (pending.c) */
	ARG_EQ(kcmp, 2, KCMP_FILE), /* a listener registered twice (sandbox.c) */
	/* the socket and its clients; sd_notify and the journal */
	ANY(poll), ANY(ppoll), ANY(accept4), ANY(recvmsg), ANY(sendmsg), ANY(sendto),
	ANY(recvfrom), ANY(getsockopt), ANY(setsockopt), ANY(shutdown), ANY(connect),
	ANY(getsockname), ARG_EQ(socket, 0, AF_UNIX),
	ANY(getuid), ANY(geteuid), ANY(getgid), ANY(getegid), ANY(getgroups), ANY(capget),
};

/*
 * LeakSanitizer checks at exit from a tracer that is a clone() but not a
 * thread, and that ptraces the daemon's threads; ThreadSanitizer prints its
 * reports with a symbolizer it starts: sanitizer builds (tests only) allow
 * that much more; real builds allow threads only.
 */
#if defined(__SANITIZE_ADDRESS__)
static const struct unotify_syscall_rule harden_sanitizer[] = {
	ANY(clone), ANY(ptrace), ANY(wait4), ANY(getppid), ANY(getdents),
};
#elif defined(__SANITIZE_THREAD__)
/* ThreadSanitizer's report: its clock, and the symbolizer it forks and execs. */
static const struct unotify_syscall_rule harden_sanitizer[] = {
	ANY(gettimeofday), ANY(clone), ANY(execve), ANY(wait4), ANY(pipe2), ANY(dup2),
	ANY(getppid), ANY(getdents), ANY(sched_getparam), ANY(getrusage),
};
#else
static const struct unotify_syscall_rule harden_sanitizer[] = { ANY(getpid) }; /* allowed anyway */
#endif

static int harden_rule_add(scmp_filter_ctx ctx, const struct unotify_syscall_rule *r)
{
	struct scmp_arg_cmp cmp = {
		.arg = (unsigned int)r->arg,
		.op = r->mask == UINT64_MAX ? SCMP_CMP_EQ : SCMP_CMP_MASKED_EQ,
		.datum_a = r->mask == UINT64_MAX ? r->value : r->mask,
		.datum_b = r->value,
	};

	if (r->arg < 0)
		return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, r->nr, 0);
	return seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, r->nr, 1, &cmp);
}

static int harden_rules_add(scmp_filter_ctx ctx, const struct unotify_syscall_rule *rules,
			    size_t n)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < n; i++)
		r = harden_rule_add(ctx, &rules[i]);
	return r;
}

/* The library's calls for every work the engine's families use (SUPERVISE always). */
static int harden_work_rules(scmp_filter_ctx ctx)
{
	const struct unotify_syscall_rule *rules;
	unsigned int works;
	int r, nr;

	r = enforce_works(&works, &nr);
	if (r < 0) {
		log_error("the engine's family for system call %d names no library work: "
			  "cannot derive the daemon's seccomp filter", nr);
		return r;
	}
	works |= 1U << UNOTIFY_WORK_SUPERVISE;
	for (int w = 0; r >= 0 && w < UNOTIFY_WORK_COUNT; w++) {
		size_t n = unotify_work_syscalls((enum unotify_work)w, &rules);

		if (works & (1U << w))
			r = harden_rules_add(ctx, rules, n);
	}
	return r;
}

static int harden_seccomp_rules(scmp_filter_ctx ctx)
{
	int r = harden_rules_add(ctx, harden_base, ARRAY_SIZE(harden_base));

	if (r >= 0)
		r = harden_rules_add(ctx, harden_sanitizer, ARRAY_SIZE(harden_sanitizer));
	if (r >= 0)
		r = harden_work_rules(ctx);
	/* clone3 hides its flags in memory: ENOSYS makes glibc fall back to clone. */
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	return r;
}

static int harden_seccomp_apply(bool kill)
{
	scmp_filter_ctx ctx = seccomp_init(kill ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO(EPERM));
	int r;

	if (!ctx)
		return -ENOMEM;
	/* Foreign architectures (i386, x32 entry points) are killed, never allowed. */
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	/*
	 * The filter runs on every RECV and SEND of every sandbox: a binary
	 * tree of syscall numbers and ioctl checked first keep it off the
	 * round trip (docs/BENCHMARKS.md measured ~0.15 us with a linear list).
	 */
	if (r >= 0)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (r >= 0)
		r = seccomp_syscall_priority(ctx, SCMP_SYS(ioctl), 255);
	if (r >= 0)
		r = harden_seccomp_rules(ctx);
	if (r >= 0)
		r = seccomp_load(ctx);
	seccomp_release(ctx);
	return r;
}

int harden_apply(bool seccomp_kill)
{
	int r;

	if (geteuid() == 0) {
		r = harden_caps_apply();
		if (r < 0) {
			log_error("dropping capabilities failed: %s", strerror(-r));
			return r;
		}
	} else {
		log_info("not root: capabilities left as they are");
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		r = negative_errno();
		log_error("no_new_privs: %s", strerror(-r));
		return r;
	}
	r = harden_seccomp_apply(seccomp_kill);
	if (r < 0) {
		log_error("loading the daemon's own seccomp filter failed: %s", strerror(-r));
		return r;
	}
	return 0;
}
