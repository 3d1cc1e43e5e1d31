/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Once listening, with policies loaded and before the first client thread,
 * the daemon gives up what it does not need: every capability but the few
 * that supervision needs (man/unotifyd.8 justifies each), the bounding set
 * and ambient set, then sets no_new_privs and loads a seccomp filter of its
 * own that allows only the calls the daemon makes. Capabilities and filters
 * are per thread and inherited, so this must run before any thread exists.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <seccomp.h>
#include <sys/capability.h>

#include "harden.h"
#include "lib/uapi.h"
#include "lib/util.h"
#include "log.h"

/* Keep in sync with man/unotifyd.8 (CAPABILITIES), which says why each is needed. */
static const cap_value_t harden_caps[] = {
	CAP_SYS_PTRACE,      /* read/write target memory, pidfd_getfd, /proc/PID of any target */
	CAP_DAC_OVERRIDE,    /* opens performed for targets that hold it themselves */
	CAP_DAC_READ_SEARCH, /* the same, and reading the policy directory on SIGHUP */
	CAP_FOWNER,          /* opens for targets that hold it (O_NOATIME, owner checks) */
	CAP_SETUID,          /* setfsuid to the target's fsuid (per supervising thread) */
	CAP_SETGID,          /* setfsgid and setgroups to the target's groups */
	CAP_SYS_CHROOT,      /* resolve paths in the target's root */
	CAP_KILL,            /* the kill action on targets of another user */
	/* Calls performed for targets that hold these themselves (never lent: see man page): */
	CAP_CHOWN,           /* chown family */
	CAP_FSETID,          /* chmod keeping set-id bits, writes by targets that hold it */
	CAP_MKNOD,           /* mknod of device nodes */
	CAP_NET_BIND_SERVICE, /* bind below 1024 */
};

static const char harden_caps_text[] = "cap_sys_ptrace,cap_dac_override,cap_dac_read_search,"
				       "cap_fowner,cap_setuid,cap_setgid,cap_sys_chroot,cap_kill";

const char *harden_caps_kept(void)
{
	return harden_caps_text;
}

static bool harden_cap_kept(cap_value_t c)
{
	for (size_t i = 0; i < ARRAY_SIZE(harden_caps); i++)
		if (harden_caps[i] == c)
			return true;
	return false;
}

static int harden_caps_apply(void)
{
	cap_t caps;
	int r = 0;

	for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits(); c++)
		if (!harden_cap_kept(c) && cap_drop_bound(c) < 0 && errno != EINVAL)
			return negative_errno();
	if (cap_reset_ambient() < 0 && errno != EINVAL)
		return negative_errno();
	caps = cap_init();
	if (!caps)
		return -ENOMEM;
	if (cap_set_flag(caps, CAP_PERMITTED, ARRAY_SIZE(harden_caps), harden_caps, CAP_SET) < 0 ||
	    cap_set_flag(caps, CAP_EFFECTIVE, ARRAY_SIZE(harden_caps), harden_caps, CAP_SET) < 0 ||
	    cap_set_proc(caps) < 0)
		r = negative_errno();
	cap_free(caps);
	return r;
}

/* Calls allowed whatever their arguments. */
static const int harden_syscalls[] = {
	/* memory, threads, signals, time */
	SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect),
	SCMP_SYS(madvise), SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(rseq),
	SCMP_SYS(exit), SCMP_SYS(exit_group), SCMP_SYS(gettid), SCMP_SYS(getpid),
	SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn),
	SCMP_SYS(sigaltstack), SCMP_SYS(restart_syscall), SCMP_SYS(clock_gettime), SCMP_SYS(clock_nanosleep),
	SCMP_SYS(nanosleep), SCMP_SYS(sched_yield), SCMP_SYS(sched_getaffinity),
	SCMP_SYS(getrandom), SCMP_SYS(uname), SCMP_SYS(prctl), SCMP_SYS(tgkill),
	/* files: the audit log, policies, /proc, opens performed for targets */
	SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(pread64),
	SCMP_SYS(pwrite64), SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat),
	SCMP_SYS(statx), SCMP_SYS(lseek), SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2),
	SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(getdents64), SCMP_SYS(fcntl),
	SCMP_SYS(dup), SCMP_SYS(dup3), SCMP_SYS(fstatfs), SCMP_SYS(statfs), SCMP_SYS(access),
	SCMP_SYS(faccessat), SCMP_SYS(faccessat2), SCMP_SYS(getcwd), SCMP_SYS(unlink),
	SCMP_SYS(memfd_create), SCMP_SYS(fsync), SCMP_SYS(fdatasync),
	/* the socket and its clients; sd_notify and the journal */
	SCMP_SYS(poll), SCMP_SYS(ppoll), SCMP_SYS(accept4), SCMP_SYS(recvmsg), SCMP_SYS(sendmsg),
	SCMP_SYS(sendto), SCMP_SYS(recvfrom), SCMP_SYS(getsockopt), SCMP_SYS(setsockopt),
	SCMP_SYS(shutdown), SCMP_SYS(connect), SCMP_SYS(getsockname),
	/* supervision: target memory, pidfds, impersonation */
	SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(pidfd_open),
	SCMP_SYS(pidfd_getfd), SCMP_SYS(pidfd_send_signal), SCMP_SYS(kill), SCMP_SYS(setfsuid),
	SCMP_SYS(setfsgid), SCMP_SYS(setgroups), SCMP_SYS(setresuid), SCMP_SYS(setresgid),
	SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid), SCMP_SYS(getegid),
	SCMP_SYS(getgroups), SCMP_SYS(capget), SCMP_SYS(capset), SCMP_SYS(chroot),
	SCMP_SYS(chdir), SCMP_SYS(fchdir), SCMP_SYS(umask),
	/* procfs owners (lib/procfs.c): is that task a helper sharing our memory? */
	SCMP_SYS(kcmp),
};

/* ioctl: the seccomp notification calls and the isatty() probe of stdio. */
static const unsigned long harden_ioctls[] = {
	SECCOMP_IOCTL_NOTIF_RECV,
	SECCOMP_IOCTL_NOTIF_SEND,
	SECCOMP_IOCTL_NOTIF_ID_VALID,
	_IOR(SECCOMP_IOC_MAGIC, 2, __u64), /* ID_VALID as Linux < 5.17 headers spell it */
	SECCOMP_IOCTL_NOTIF_ADDFD,
	SECCOMP_IOCTL_NOTIF_SET_FLAGS,
	TCGETS,
	/* A procfs instance of another pid namespace: where the target is there (lib/procfs.c). */
	NS_GET_PARENT,
};

/*
 * LeakSanitizer checks at exit from a tracer that is a clone() but not a
 * thread, and that ptraces the daemon's threads: sanitizer builds (tests
 * only) allow that much more; real builds allow threads only.
 */
#if defined(__SANITIZE_ADDRESS__)
static const int harden_sanitizer_syscalls[] = { SCMP_SYS(clone), SCMP_SYS(ptrace),
						 SCMP_SYS(wait4), SCMP_SYS(getppid),
						 SCMP_SYS(getdents) };
#else
static const int harden_sanitizer_syscalls[] = { SCMP_SYS(getpid) }; /* allowed anyway */
#endif

static int harden_seccomp_rules(scmp_filter_ctx ctx)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(harden_syscalls); i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, harden_syscalls[i], 0);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(harden_sanitizer_syscalls); i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, harden_sanitizer_syscalls[i], 0);
	for (size_t i = 0; r >= 0 && i < ARRAY_SIZE(harden_ioctls); i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
				     SCMP_A1_64(SCMP_CMP_EQ, harden_ioctls[i], 0));
	/* Threads only: a new process (fork) or exec is never needed. */
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
				     SCMP_A0_64(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
	/* clone3 hides its flags in memory: ENOSYS makes glibc fall back to clone. */
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	/* Each supervising thread takes a private fs context, nothing else. */
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(unshare), 1,
				     SCMP_A0_64(SCMP_CMP_EQ, CLONE_FS, 0));
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
				     SCMP_A0_64(SCMP_CMP_EQ, AF_UNIX, 0));
	/* Sizing the notification buffers of each new listener; never a new filter. */
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(seccomp), 1,
				     SCMP_A0_64(SCMP_CMP_EQ, SECCOMP_GET_NOTIF_SIZES, 0));
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
