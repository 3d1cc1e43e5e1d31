/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named sets of system calls, written where a syscall name goes (@name, so
 * they never clash with a syscall: `read` is one).
 *
 * Categories (@file-read ... @file-attr, @net-connect, @net-bind,
 * @net-listen) say what a call does, and are computed from the one table of
 * path-taking syscalls (pathcalls.c): @file-write is every syscall one of
 * whose paths has the write role, so a rule on it cannot be dodged with a
 * variant the rule's author did not think of. A syscall enters a rule
 * through a category with a membership condition (ENTRY_* in internal.h):
 * an open is in @file-write only when its flags open for writing.
 *
 * Groups (@basic-io, @file-system, @network-io, @process, @system-service
 * ...) are plain lists in the spirit of systemd's SystemCallFilter= sets,
 * written here from their documented purpose. Names the native
 * architecture does not have (i386's _llseek, say) are left out silently.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

/* clang-format off */
static const char *const g_aio[] = {
	"io_cancel", "io_destroy", "io_getevents", "io_pgetevents", "io_pgetevents_time64",
	"io_setup", "io_submit", "io_uring_enter", "io_uring_register", "io_uring_setup", NULL,
};
static const char *const g_basic_io[] = {
	"_llseek", "close", "close_range", "dup", "dup2", "dup3", "lseek", "pread64", "preadv",
	"preadv2", "pwrite64", "pwritev", "pwritev2", "read", "readv", "write", "writev", NULL,
};
static const char *const g_chown[] = {
	"chown", "chown32", "fchown", "fchown32", "fchownat", "lchown", "lchown32", NULL,
};
static const char *const g_clock[] = {
	"adjtimex", "clock_adjtime", "clock_adjtime64", "clock_settime", "clock_settime64",
	"settimeofday", "stime", NULL,
};
static const char *const g_clone[] = { "clone", "clone3", "fork", "unshare", "vfork", NULL };
static const char *const g_cpu_emulation[] = {
	"modify_ldt", "subpage_prot", "switch_endian", "vm86", "vm86old", NULL,
};
static const char *const g_debug[] = {
	"lookup_dcookie", "perf_event_open", "pidfd_getfd", "process_vm_readv",
	"process_vm_writev", "ptrace", "rtas", "s390_runtime_instr", "sys_debug_setcontext", NULL,
};
static const char *const g_default[] = {
	"arch_prctl", "brk", "cacheflush", "clock_getres", "clock_getres_time64",
	"clock_gettime", "clock_gettime64", "clock_nanosleep", "clock_nanosleep_time64",
	"execve", "exit", "exit_group", "futex", "futex_time64", "futex_waitv",
	"get_robust_list", "get_thread_area", "getegid", "getegid32", "geteuid", "geteuid32",
	"getgid", "getgid32", "getgroups", "getgroups32", "getpgid", "getpgrp", "getpid",
	"getppid", "getrandom", "getresgid", "getresgid32", "getresuid", "getresuid32",
	"getrlimit", "getsid", "gettid", "gettimeofday", "getuid", "getuid32", "membarrier",
	"mmap", "mmap2", "mprotect", "munmap", "nanosleep", "pause", "prlimit64",
	"restart_syscall", "riscv_flush_icache", "rseq", "rt_sigreturn", "sched_getaffinity",
	"sched_yield", "set_robust_list", "set_thread_area", "set_tid_address", "set_tls",
	"sigreturn", "time", "ugetrlimit", NULL,
};
static const char *const g_file_system[] = {
	"access", "chdir", "chmod", "close", "creat", "faccessat", "faccessat2", "fallocate",
	"fchdir", "fchmod", "fchmodat", "fcntl", "fcntl64", "fgetxattr", "flistxattr",
	"fremovexattr", "fsetxattr", "fstat", "fstat64", "fstatat64", "fstatfs", "fstatfs64",
	"ftruncate", "ftruncate64", "futimesat", "getcwd", "getdents", "getdents64", "getxattr",
	"inotify_add_watch", "inotify_init", "inotify_init1", "inotify_rm_watch", "lgetxattr",
	"link", "linkat", "listxattr", "llistxattr", "lremovexattr", "lsetxattr", "lstat",
	"lstat64", "mkdir", "mkdirat", "mknod", "mknodat", "mmap", "mmap2", "munmap",
	"newfstatat", "oldfstat", "oldlstat", "oldstat", "open", "openat", "openat2",
	"readlink", "readlinkat", "removexattr", "rename", "renameat", "renameat2", "rmdir",
	"setxattr", "stat", "stat64", "statfs", "statfs64", "statx", "symlink", "symlinkat",
	"truncate", "truncate64", "unlink", "unlinkat", "utime", "utimensat",
	"utimensat_time64", "utimes", NULL,
};
static const char *const g_io_event[] = {
	"_newselect", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old",
	"epoll_pwait", "epoll_pwait2", "epoll_wait", "epoll_wait_old", "eventfd", "eventfd2",
	"poll", "ppoll", "ppoll_time64", "pselect6", "pselect6_time64", "select", NULL,
};
static const char *const g_ipc[] = {
	"ipc", "memfd_create", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
	"mq_timedreceive_time64", "mq_timedsend", "mq_timedsend_time64", "mq_unlink", "msgctl",
	"msgget", "msgrcv", "msgsnd", "pipe", "pipe2", "process_madvise", "process_vm_readv",
	"process_vm_writev", "semctl", "semget", "semop", "semtimedop", "semtimedop_time64",
	"shmat", "shmctl", "shmdt", "shmget", NULL,
};
static const char *const g_keyring[] = { "add_key", "keyctl", "request_key", NULL };
static const char *const g_memlock[] = {
	"mlock", "mlock2", "mlockall", "munlock", "munlockall", NULL,
};
static const char *const g_module[] = { "delete_module", "finit_module", "init_module", NULL };
static const char *const g_mount[] = {
	"chroot", "fsconfig", "fsmount", "fsopen", "fspick", "mount", "mount_setattr",
	"move_mount", "open_tree", "pivot_root", "umount", "umount2", NULL,
};
static const char *const g_network_io[] = {
	"accept", "accept4", "bind", "connect", "getpeername", "getsockname", "getsockopt",
	"listen", "recvfrom", "recvmmsg", "recvmmsg_time64", "recvmsg", "sendmmsg", "sendmsg", "sendto", "setsockopt", "shutdown", "socket", "socketcall",
	"socketpair", NULL,
};
static const char *const g_obsolete[] = {
	"_sysctl", "afs_syscall", "bdflush", "break", "create_module", "ftime",
	"get_kernel_syms", "getpmsg", "gtty", "idle", "lock", "mpx", "prof", "profil",
	"putpmsg", "query_module", "security", "sgetmask", "ssetmask", "stty", "sysfs",
	"tuxcall", "ulimit", "uselib", "ustat", "vserver", NULL,
};
static const char *const g_pkey[] = { "pkey_alloc", "pkey_free", "pkey_mprotect", NULL };
static const char *const g_privileged[] = {
	"@chown", "@clone", "@module", "@raw-io", "@reboot", "@swap", "_sysctl", "acct", "bpf",
	"capset", "chroot", "fanotify_init", "fanotify_mark", "nfsservctl", "open_by_handle_at",
	"pivot_root", "quotactl", "quotactl_fd", "setdomainname", "setfsuid", "setfsuid32",
	"setgroups", "setgroups32", "sethostname", "setresuid", "setresuid32", "setreuid",
	"setreuid32", "setuid", "setuid32", "vhangup", NULL,
};
static const char *const g_process[] = {
	"arch_prctl", "capget", "clone", "clone3", "execveat", "fork", "getrusage", "kill",
	"pidfd_open", "pidfd_send_signal", "prctl", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"setns", "swapcontext", "tgkill", "times", "tkill", "unshare", "vfork", "wait4",
	"waitid", "waitpid", NULL,
};
static const char *const g_raw_io[] = {
	"ioperm", "iopl", "pciconfig_iobase", "pciconfig_read", "pciconfig_write",
	"s390_pci_mmio_read", "s390_pci_mmio_write", NULL,
};
static const char *const g_reboot[] = { "kexec_file_load", "kexec_load", "reboot", NULL };
static const char *const g_resources[] = {
	"ioprio_set", "mbind", "migrate_pages", "move_pages", "nice", "sched_setaffinity",
	"sched_setattr", "sched_setparam", "sched_setscheduler", "set_mempolicy",
	"set_mempolicy_home_node", "setpriority", "setrlimit", NULL,
};
static const char *const g_setuid[] = {
	"setgid", "setgid32", "setgroups", "setgroups32", "setregid", "setregid32", "setresgid",
	"setresgid32", "setresuid", "setresuid32", "setreuid", "setreuid32", "setuid",
	"setuid32", NULL,
};
static const char *const g_signal[] = {
	"rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigsuspend", "rt_sigtimedwait",
	"rt_sigtimedwait_time64", "sigaction", "sigaltstack", "signal", "signalfd", "signalfd4",
	"sigpending", "sigprocmask", "sigsuspend", NULL,
};
static const char *const g_swap[] = { "swapoff", "swapon", NULL };
static const char *const g_sync[] = {
	"fdatasync", "fsync", "msync", "sync", "sync_file_range", "sync_file_range2", "syncfs",
	NULL,
};
static const char *const g_system_service[] = {
	"@aio", "@basic-io", "@chown", "@default", "@file-system", "@io-event", "@ipc",
	"@keyring", "@memlock", "@network-io", "@process", "@resources", "@setuid", "@signal",
	"@sync", "@timer", "capget", "capset", "copy_file_range", "fadvise64", "fadvise64_64",
	"flock", "get_mempolicy", "getcpu", "getpriority", "ioctl", "ioprio_get", "kcmp",
	"madvise", "mremap", "name_to_handle_at", "oldolduname", "olduname", "personality",
	"readahead", "readdir", "remap_file_pages", "sched_get_priority_max",
	"sched_get_priority_min", "sched_getattr", "sched_getparam", "sched_getscheduler",
	"sched_rr_get_interval", "sched_rr_get_interval_time64", "sendfile", "sendfile64",
	"setfsgid", "setfsgid32", "setfsuid", "setfsuid32", "setpgid", "setsid", "splice",
	"sysinfo", "tee", "umask", "uname", "userfaultfd", "vmsplice", NULL,
};
static const char *const g_timer[] = {
	"alarm", "getitimer", "setitimer", "timer_create", "timer_delete", "timer_getoverrun",
	"timer_gettime", "timer_gettime64", "timer_settime", "timer_settime64",
	"timerfd_create", "timerfd_gettime", "timerfd_gettime64", "timerfd_settime",
	"timerfd_settime64", "times", NULL,
};
/* clang-format on */

struct group_def {
	const char *name;
	const char *const *members; /* NULL: a category */
	unsigned int roles;          /* categories: POLICY_ROLE_* */
};

static const struct group_def groups[] = {
	{ "@file-read", NULL, POLICY_ROLE_READ },
	{ "@file-write", NULL, POLICY_ROLE_WRITE },
	{ "@file-create", NULL, POLICY_ROLE_CREATE },
	{ "@file-delete", NULL, POLICY_ROLE_DELETE },
	{ "@file-exec", NULL, POLICY_ROLE_EXEC },
	{ "@file-stat", NULL, POLICY_ROLE_STAT },
	{ "@file-attr", NULL, POLICY_ROLE_ATTR },
	{ "@net-connect", NULL, ENTRY_NET },
	{ "@net-bind", NULL, ENTRY_NET },
	{ "@net-listen", NULL, ENTRY_NET },
	{ "@aio", g_aio, 0 },
	{ "@basic-io", g_basic_io, 0 },
	{ "@chown", g_chown, 0 },
	{ "@clock", g_clock, 0 },
	{ "@clone", g_clone, 0 },
	{ "@cpu-emulation", g_cpu_emulation, 0 },
	{ "@debug", g_debug, 0 },
	{ "@default", g_default, 0 },
	{ "@file-system", g_file_system, 0 },
	{ "@io-event", g_io_event, 0 },
	{ "@ipc", g_ipc, 0 },
	{ "@keyring", g_keyring, 0 },
	{ "@memlock", g_memlock, 0 },
	{ "@module", g_module, 0 },
	{ "@mount", g_mount, 0 },
	{ "@network-io", g_network_io, 0 },
	{ "@obsolete", g_obsolete, 0 },
	{ "@pkey", g_pkey, 0 },
	{ "@privileged", g_privileged, 0 },
	{ "@process", g_process, 0 },
	{ "@raw-io", g_raw_io, 0 },
	{ "@reboot", g_reboot, 0 },
	{ "@resources", g_resources, 0 },
	{ "@setuid", g_setuid, 0 },
	{ "@signal", g_signal, 0 },
	{ "@swap", g_swap, 0 },
	{ "@sync", g_sync, 0 },
	{ "@system-service", g_system_service, 0 },
	{ "@timer", g_timer, 0 },
};

const char *policy_group_at(size_t i)
{
	return i < ARRAY_SIZE(groups) ? groups[i].name : NULL;
}

static const struct group_def *groups_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(groups); i++)
		if (strcmp(groups[i].name, name) == 0)
			return &groups[i];
	return NULL;
}

const char *groups_suggest(const char *name)
{
	size_t best = 3;
	const char *found = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(groups); i++) {
		size_t d = names_distance(name, groups[i].name, 2);

		if (d < best) {
			best = d;
			found = groups[i].name;
		}
	}
	return found;
}

bool groups_is_category(const char *name)
{
	const struct group_def *g = groups_find(name);

	return g && !g->members;
}

static int groups_emit(group_emit_fn emit, void *userdata, const char *name, unsigned int roles)
{
	int nr;

	/* Another architecture's name, or one newer than libseccomp: not on this machine. */
	if (names_lookup_syscall(name, &nr) < 0)
		return 0;
	return emit(userdata, nr, roles);
}

/* The network categories: the calls that connect, bind or listen, whatever their variant. */
static int groups_emit_net(const char *name, group_emit_fn emit, void *userdata)
{
	static const char *const connect_addressed[] = { "sendto", "sendmsg", "sendmmsg" };
	int r;

	if (strcmp(name, "@net-bind") == 0)
		return groups_emit(emit, userdata, "bind", ENTRY_NET);
	if (strcmp(name, "@net-listen") == 0)
		return groups_emit(emit, userdata, "listen", ENTRY_NET);
	r = groups_emit(emit, userdata, "connect", ENTRY_NET);
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(connect_addressed); i++)
		r = groups_emit(emit, userdata, connect_addressed[i],
				ENTRY_NET | ENTRY_NET_ADDRESSED);
	return r;
}

/* Every syscall of the path table one of whose paths may have a role in the category. */
static int groups_emit_category(const struct group_def *g, group_emit_fn emit, void *userdata)
{
	const struct policy_pathcall *pc;
	int r = 0;

	if (g->roles & ENTRY_NET)
		return groups_emit_net(g->name, emit, userdata);
	for (size_t i = 0; r == 0 && (pc = policy_pathcall_at(i)); i++) {
		bool in = false;

		for (int n = 0; n < 2; n++) {
			struct policy_flagterm t[32];

			if (!policy_pathcall_has(pc, n))
				continue;
			/* An open is in the categories some open flags give it. */
			if (pc->role[n] == POLICY_ROLE_BY_OPEN_FLAGS)
				in |= flags_role_terms(pc, g->roles, false, t, ARRAY_SIZE(t)) > 0;
			else
				in |= (pc->role[n] & g->roles) != 0;
		}
		if (in)
			r = emit(userdata, pc->nr, g->roles);
	}
	/* bind(2) of an AF_UNIX path creates the socket file. */
	if (r == 0 && (g->roles & POLICY_ROLE_CREATE))
		r = groups_emit(emit, userdata, "bind", g->roles | ENTRY_UNIX_BIND);
	return r;
}

static int groups_walk(const struct group_def *g, group_emit_fn emit, void *userdata, int depth)
{
	int r = 0;

	if (!g->members)
		return groups_emit_category(g, emit, userdata);
	if (depth > 8)
		return -ELOOP; /* the table is wrong; the test suite would say so */
	for (size_t i = 0; r == 0 && g->members[i]; i++) {
		const struct group_def *sub;

		if (g->members[i][0] != '@') {
			r = groups_emit(emit, userdata, g->members[i], ENTRY_GROUP);
			continue;
		}
		sub = groups_find(g->members[i]);
		r = sub ? groups_walk(sub, emit, userdata, depth + 1) : -ENOENT;
	}
	return r;
}

int groups_expand(const char *name, group_emit_fn emit, void *userdata)
{
	const struct group_def *g = groups_find(name);

	if (!g)
		return -ENOENT;
	return groups_walk(g, emit, userdata, 0);
}

struct groups_collect {
	int *nrs;
	size_t size;
	size_t n;
};

static int groups_collect_one(void *userdata, int nr, unsigned int roles)
{
	struct groups_collect *c = userdata;

	(void)roles;
	for (size_t i = 0; i < c->n; i++)
		if (c->nrs[i] == nr)
			return 0;
	if (c->n == c->size)
		return -ENOBUFS;
	c->nrs[c->n++] = nr;
	return 0;
}

static int groups_cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int policy_group_expand(const char *name, int *nrs, size_t size, size_t *ret_n)
{
	struct groups_collect c = { .nrs = nrs, .size = size };
	int r;

	if (!name || (!nrs && size))
		return -EINVAL;
	r = groups_expand(name, groups_collect_one, &c);
	if (r < 0)
		return r;
	if (c.n)
		qsort(nrs, c.n, sizeof(int), groups_cmp_int);
	*ret_n = c.n;
	return 0;
}

/*
 * Names newer than the libseccomp this was written against may be unknown
 * to it; any other unknown name is a typo in the tables above.
 */
static const char *const groups_newer[] = {
	"futex_waitv", "set_mempolicy_home_node", "fchmodat2", "map_shadow_stack", NULL,
};

const char *groups_unknown_member(size_t *ret_count)
{
	const char *first = NULL;
	size_t count = 0;

	for (size_t g = 0; g < ARRAY_SIZE(groups); g++)
		for (size_t i = 0; groups[g].members && groups[g].members[i]; i++) {
			const char *name = groups[g].members[i];
			bool newer = false;
			int nr;

			for (size_t k = 0; groups_newer[k]; k++)
				newer |= strcmp(groups_newer[k], name) == 0;
			if (name[0] == '@' ? groups_find(name) != NULL
					   : newer || names_lookup_syscall(name, &nr) != -ENOENT)
				continue;
			count++;
			if (!first)
				first = name;
		}
	*ret_count = count;
	return first;
}
