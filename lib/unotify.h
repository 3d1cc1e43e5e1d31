/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libunotify: the supervisor core of unotify.
 *
 * Every function returns 0 (or a count) on success and a negative errno on
 * failure; out-parameters are named ret_* and written only on success.
 * The library never prints and never exits: callers decide what to say.
 * It keeps one descriptor of /proc for the process, opened by the first
 * call that needs it (before any chroot of a supervising thread).
 *
 * File descriptors: each fd that crosses this API has one owner, said next
 * to each prototype. "Takes fd": from the call on, the number is the
 * library's (it closes it, also when the call fails, unless it says
 * otherwise): forget it, i.e. set your variable to -1 (`fd = -1;`).
 * "Borrows fd": the caller still owns it and closes it. "Returns an fd":
 * a new one, the caller's to close.
 */
#ifndef UNOTIFY_H
#define UNOTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Kernel features, probed (never guessed from the version) ---- */

struct unotify_features {
	char kernel_release[65];
	bool user_notif;         /* SECCOMP_RET_USER_NOTIF + NEW_LISTENER (5.0) */
	bool sync_wake_up;       /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (6.6) */
	bool addfd;              /* SECCOMP_IOCTL_NOTIF_ADDFD (5.9) */
	bool addfd_send;         /* SECCOMP_ADDFD_FLAG_SEND (5.14) */
	bool wait_killable_recv; /* SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (5.19) */
	bool tsync_esrch;        /* SECCOMP_FILTER_FLAG_TSYNC_ESRCH (5.7) */
	bool pidfd_open;         /* pidfd_open(2) (5.3) */
	bool pidfd_getfd;        /* pidfd_getfd(2) (5.6) */
	bool process_vm_readv;   /* process_vm_readv(2), may be disabled by the kernel config */
	bool openat2;            /* openat2(2) (5.6) */
	bool landlock;           /* Landlock is enabled (5.13; the kernel may be built without it) */
	int landlock_abi;        /* its ABI version (0: none); what each adds: lib/landlock.c */
};

/* Probes every feature once per process (cached; thread-safe). */
int unotify_features_probe(struct unotify_features *ret);
/* Name of the n-th feature and its value; -ENOENT past the last one. */
int unotify_features_get(const struct unotify_features *f, size_t n, const char **ret_name,
			 bool *ret_available);

/* ---- Listener: one seccomp notification fd ---- */

typedef struct unotify_listener unotify_listener;

/*
 * Takes fd: from now on the listener owns the number and
 * unotify_listener_free() closes it; on failure this call closes it, except
 * -EBUSY: fd is already a live listener's (given here twice), left to it.
 * For a spawned child's listener use unotify_child_listener(), which also
 * clears the child's copy of the number and pins the child's root.
 * The calling process becomes non-dumpable (PR_SET_DUMPABLE 0): a process
 * of the same uid then needs CAP_SYS_PTRACE to read its memory, take its
 * descriptors or trace it.
 */
int unotify_listener_new(int fd, unotify_listener **ret);
/* Closes the listener's fd (the target's notified calls then fail with ENOSYS). */
void unotify_listener_free(unotify_listener *l);
/* Borrowed: valid until unotify_listener_free(); never close it. */
int unotify_listener_fd(const unotify_listener *l);
/*
 * Takes rootfd (an O_PATH directory): the sandbox's root. Every name the
 * policy sees (unotify_open_plan.path, unotify_path.path) is relative to
 * it, whatever root the target has since moved to, and a file that has no
 * name there (another mount namespace, outside that root, deleted) is
 * marked unnamed. Set it before the first notification is decided
 * (unotify_child_listener does, from the spawned child's root), or from
 * unotify_root_open(). Until then: the root of the process that made the
 * listener.
 */
int unotify_listener_set_root(unotify_listener *l, int rootfd);
/*
 * Says that the listener's filter notifies every call that changes a
 * thread's credentials (lib/creds-calls.h: the set*id family, setgroups,
 * capset, execve, execveat) wherever it may run, and refuses what the
 * implicit set fixed-view refuses: the kernel layer of a policy with that
 * set (policy_compile). Then the supervising loop drops what it kept of a
 * thread when one of those calls of the thread comes, and a state kept for
 * a thread is used again while that thread lives (one poll of its pidfd),
 * for any target, groups included, instead of being proved afresh each
 * time (unotify_target_new_kept). Set it before supervision starts, and
 * only for such a filter: with a filter that lets one of those calls run
 * unseen, the supervisor would act with credentials the target no longer
 * has.
 */
int unotify_listener_watch_creds(unotify_listener *l);
/*
 * Says that no target may share our pid namespace (such a thread can name
 * us: signal, trace or renice the supervisor). A call the supervisor
 * performs for a thread there fails with EPERM: the check is made on each
 * thread when its state is read (unotify_target_new), so it holds whatever
 * process the listener's owner claimed it supervises. unotifyd sets it
 * unless --allow-shared-pid.
 */
int unotify_listener_refuse_shared_pid(unotify_listener *l);
/*
 * Borrows pidfd. Returns an fd: the root directory of the process pidfd
 * refers to, O_PATH, in its mount namespace. -ESRCH when the process has
 * exited (its pid may name another process by now: nothing of it is
 * returned).
 */
int unotify_root_open(int pidfd, int *ret_rootfd);
/*
 * Borrows pidfd. 1 when its process is in our pid namespace (it can name
 * us, our threads and every process we can name: kill, ptrace,
 * pidfd_open, /proc), 0 when it is in a namespace of its own below ours,
 * -errno.
 */
int unotify_pidns_shared(int pidfd);

/*
 * Turns the same-CPU hand-off (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) on or off.
 * Returns -EOPNOTSUPP when the kernel does not support it; the listener then
 * works without it and unotify_listener_sync() says false.
 */
int unotify_listener_set_sync(unotify_listener *l, bool on);
bool unotify_listener_sync(const unotify_listener *l);

/*
 * Blocks in SECCOMP_IOCTL_NOTIF_RECV (so the same-CPU wake-up applies) until a
 * notification arrives. *ret points into the listener's buffer, valid until
 * the next receive. EINTR is retried. Returns:
 *   0        a notification;
 *   -ENOENT  one arrived but its target died or was interrupted: call again;
 *   -EPIPE   no task uses the filter any more: supervision is over.
 */
int unotify_listener_recv(unotify_listener *l, const struct seccomp_notif **ret);

/*
 * Replies. -ENOENT means the target died or was interrupted meanwhile: an
 * ordinary event, nothing to do.
 */
int unotify_reply_value(unotify_listener *l, uint64_t id, int64_t val);
int unotify_reply_errno(unotify_listener *l, uint64_t id, int err);
/* Let the kernel run the call. Only after deciding on register values. */
int unotify_reply_continue(unotify_listener *l, uint64_t id);
/*
 * Installs srcfd in the target (ADDFD with SEND) and completes the call with
 * the new fd number as its result. flags: O_CLOEXEC or 0. Borrows srcfd (the
 * target gets its own copy). Returns the target's fd number.
 */
int unotify_reply_addfd(unotify_listener *l, uint64_t id, int srcfd, unsigned int flags);
/*
 * Installs srcfd (borrowed) without completing the call; newfd >= 0 chooses
 * the number (SETFD).
 */
int unotify_addfd(unotify_listener *l, uint64_t id, int srcfd, int newfd, unsigned int flags);
/* 0 while the notification is pending, -ENOENT once its target is gone. */
int unotify_id_valid(unotify_listener *l, uint64_t id);

/* ---- Target memory (each read checked with ID_VALID before it returns) ---- */

/* Reads exactly len bytes at addr; -EFAULT when unmapped. */
int unotify_mem_read(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
		     void *buf, size_t len);
/*
 * Reads a NUL-terminated string of at most size-1 bytes; -ENAMETOOLONG when
 * none ends within size bytes. Returns the length.
 */
int unotify_mem_read_string(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
			    char *buf, size_t size);
/*
 * The same without the ID_VALID after it, for a caller that proves the
 * read afterwards and before acting on it or telling it: by a target got
 * after the read that says so (unotify_target_proves_reads), else by
 * unotify_id_valid(). Until then what it read may be another process's
 * (the thread gone and its number reused). One system call less for a
 * call performed with a kept target.
 */
int unotify_mem_read_string_unproven(unotify_listener *l, const struct seccomp_notif *req,
				     uint64_t addr, char *buf, size_t size);
/*
 * Writes len bytes at addr (out-parameters of emulated calls), only where
 * the target could write them (-EFAULT otherwise, as the kernel's). Never by
 * the thread's number, which may change hands: through its /proc/TID/mem,
 * opened and then proved by ID_VALID (-ENOENT: the call is gone).
 */
int unotify_mem_write(unotify_listener *l, const struct seccomp_notif *req, uint64_t addr,
		      const void *buf, size_t len);

/* ---- Supervision loop ---- */

enum unotify_verdict_kind {
	UNOTIFY_VERDICT_ERRNO,    /* fail the call with .error */
	UNOTIFY_VERDICT_VALUE,    /* complete the call with .value */
	UNOTIFY_VERDICT_CONTINUE, /* let the kernel run it (register-only decisions) */
	UNOTIFY_VERDICT_FD,       /* inject .fd (closed afterwards) with .fd_flags, as the result */
	UNOTIFY_VERDICT_REPLIED,  /* the callback has replied itself */
};

/*
 * Build verdicts with the helpers below: they leave .fd at -1 when no fd
 * goes with the verdict. (A literal that forgets .fd leaves 0 there, and a
 * verdict that is later turned into an fd verdict would close stdin.)
 */
struct unotify_verdict {
	enum unotify_verdict_kind kind;
	int error;
	int64_t value;
	int fd;                 /* owned by the verdict: closed once applied or dropped */
	unsigned int fd_flags;
};

static inline struct unotify_verdict unotify_verdict_errno(int error)
{
	return (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_ERRNO, .error = error, .fd = -1 };
}

static inline struct unotify_verdict unotify_verdict_value(int64_t value)
{
	return (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_VALUE, .value = value, .fd = -1 };
}

static inline struct unotify_verdict unotify_verdict_continue(void)
{
	return (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_CONTINUE, .fd = -1 };
}

static inline struct unotify_verdict unotify_verdict_replied(void)
{
	return (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_REPLIED, .fd = -1 };
}

/* Takes fd; flags: O_CLOEXEC or 0. */
static inline struct unotify_verdict unotify_verdict_fd(int fd, unsigned int flags)
{
	return (struct unotify_verdict){ .kind = UNOTIFY_VERDICT_FD, .fd = fd, .fd_flags = flags };
}

/*
 * Decides one notification. Returning a negative errno fails the call with
 * ENOSYS (fail closed) and goes on; -ENOTRECOVERABLE (the thread is no
 * longer trustworthy, see unotify_open_perform) also ends unotify_supervise.
 * req->data.nr is numbered by req->data.arch: with a filter that lets
 * other architectures through (i386 or x32 on x86_64), check the arch
 * before reading nr as a native number; unotify's own filters kill them.
 */
typedef int (*unotify_decide_fn)(unotify_listener *l, const struct seccomp_notif *req,
				 struct unotify_verdict *ret, void *userdata);
/* Called after each reply with the time from receive to reply (ns). May be NULL. */
typedef void (*unotify_replied_fn)(const struct seccomp_notif *req,
				   const struct unotify_verdict *verdict, int reply_result,
				   uint64_t ns, void *userdata);

struct unotify_loop_ops {
	unotify_decide_fn decide;
	unotify_replied_fn replied;
	void *userdata;
	/*
	 * The most threads that supervise this listener at once; 0 or 1: the
	 * calling thread only (a call that blocks holds every other). Above 1,
	 * decide and replied are called from several threads at once (each
	 * thread its own req): their userdata must be thread-safe. One thread
	 * receives at a time and answers fast calls inline (the same-CPU
	 * hand-off holds); a call that blocks, or takes longer than a few
	 * milliseconds, is finished by its thread while another receives.
	 */
	unsigned int threads;
};

/* The default of `unotify run --threads` and `unotifyd --sandbox-threads`. */
#define UNOTIFY_SUPERVISE_THREADS_DEFAULT 16

/*
 * With ops->threads > 1 the library interrupts a supervising thread's call
 * that went away (the target was killed) with this signal, sent to that
 * thread only; it installs a handler for it (without SA_RESTART) in the
 * process. A program that supervises with several threads leaves it alone.
 */
#define UNOTIFY_INTERRUPT_SIGNAL (SIGRTMIN + 6)

/*
 * Applies a verdict to a notification. Takes verdict->fd (UNOTIFY_VERDICT_FD):
 * closed once applied, and set to -1.
 */
int unotify_reply_verdict(unotify_listener *l, uint64_t id, struct unotify_verdict *verdict);

/*
 * Supervises in the calling thread (and up to ops->threads - 1 more, which
 * it starts and joins), blocking in RECV, until no task uses the filter
 * (returns 0) or a hard error (negative errno, -ENOTRECOVERABLE from decide
 * included). *stop, when not NULL, is checked after every notification,
 * by whichever thread decided it; with several threads, calls already
 * received by another are still decided.
 * A verdict the kernel does not take fails the call: with EMFILE when an
 * fd verdict finds the target's table full (its own open would), else
 * with ENOSYS.
 */
int unotify_supervise(unotify_listener *l, const struct unotify_loop_ops *ops,
		      const volatile bool *stop);

/* What the supervising threads did (unotify_supervise_counted). */
struct unotify_supervise_stats {
	unsigned int threads;   /* threads that supervised, the caller's included */
	uint64_t calls;         /* notifications received */
	uint64_t partner_calls; /* of them, received by the partner: a second thread in RECV */
	uint64_t partners;      /* times the partner formed (two target threads' calls met) */
	uint64_t spread;        /* calls handed to another thread before their decision */
	uint64_t waited;        /* calls that said they may wait (a FIFO's open, a connect) */
	uint64_t slow;          /* calls taken over after a whole tick of the watchdog's */
};

/*
 * unotify_supervise, and then *ret says what its threads did (with one
 * thread, only threads and calls count).
 */
int unotify_supervise_counted(unotify_listener *l, const struct unotify_loop_ops *ops,
			      const volatile bool *stop, struct unotify_supervise_stats *ret);

/* ---- Filters ---- */

/*
 * The gate: a prefix of BPF that sends one recognisable call to the listener
 * whatever the rest of the filter says, so a freshly spawned child can wait
 * for its supervisor before it execs. unotify_spawn() uses it; decide
 * callbacks see it only if the target itself makes this exact call.
 */
#define UNOTIFY_GATE_IOCTL_FD  (-1)
#define UNOTIFY_GATE_IOCTL_CMD 0x554e4f01UL /* 'U' 'N' 'O' 1 */
bool unotify_is_gate(const struct seccomp_notif *req);

/* ---- Landlock: the kernel's own file sandbox, for the spawned program ---- */

/*
 * A Landlock rule as the policy layer (policy/landlock.h) describes it:
 * the rights on a directory and everything beneath it, or on one file.
 * Landlock binds a rule to the inode found when the program starts; the
 * policy names a path. unotify_landlock_check() says whether the two mean
 * the same here, the child binds it (unotify_spawn_attr.landlock).
 */
struct unotify_landlock_rule {
	const char *path;   /* absolute */
	bool beneath;       /* a directory and what is beneath it; else what is at path */
	uint64_t access;    /* LANDLOCK_ACCESS_FS_* (the file ones are kept for a file) */
	uint64_t covered;   /* !beneath: what other rules grant beneath path anyway */
};

/* A TCP port the program may connect to or bind (Landlock ABI 4). */
struct unotify_landlock_port {
	uint16_t port;
	uint64_t access; /* LANDLOCK_ACCESS_NET_CONNECT_TCP, _BIND_TCP */
};

struct unotify_landlock {
	int abi;            /* the ABI the rights were chosen for (unotify_features) */
	uint64_t handled_fs;
	uint64_t scoped;    /* LANDLOCK_SCOPE_* (ABI 6): abstract Unix sockets, signals */
	const struct unotify_landlock_rule *rules;
	size_t n_rules;
	/*
	 * LANDLOCK_ACCESS_NET_* handled (ABI 4): a TCP connect or bind to a
	 * port no entry of ports grants fails with EACCES. Below ABI 4 the
	 * spawn fails (-EOPNOTSUPP): the caller was to keep them.
	 */
	uint64_t handled_net;
	const struct unotify_landlock_port *ports;
	size_t n_ports;
	/*
	 * The child sets vm.memfd_noexec to 2 for its pid namespace (it must
	 * have one of its own, and root's privilege): a memfd is on a mount
	 * Landlock does not check, so an executable one would run past the
	 * execute right. Fails the spawn if it cannot.
	 */
	bool memfd_noexec;
};

/*
 * Checks, in the caller's root and mounts (the child's, until the sandbox
 * changes them), that binding rule r to an inode keeps the meaning of its
 * path. Returns 1: bind it; 0: leave it out, nothing changes (no symbolic
 * link may lie on the way, since a resolved path never goes through one,
 * so such a rule matches nothing; a directory rule's path that is a file;
 * a file rule's path that is a directory which directory rules cover);
 * -errno: it cannot be bound exactly (-ENOENT: it does not exist, and if it
 * came to exist the rule would not follow; the file has other names, the
 * directory is mounted elsewhere too, a directory would be granted more
 * beneath it). *ret_why says why, in static text, for 0 and -errno.
 */
int unotify_landlock_check(const struct unotify_landlock_rule *r, const char **ret_why);

/* ---- Spawn a supervised program ---- */

/*
 * What unotify_spawn() does. A zero-initialised attr (`= { 0 }`, or a
 * designated initialiser naming only some fields) means "unset" for every
 * field: the caller's environment, user, capabilities, CPUs and standard
 * fds. path, argv and filter are required.
 */
struct unotify_spawn_attr {
	const char *path;          /* program to exec (searched in PATH when it has no '/') */
	char *const *argv;
	char *const *envp;         /* NULL: the caller's environment */
	const struct sock_fprog *filter; /* loaded last before exec, with NEW_LISTENER */
	const char *user;          /* NULL or a user name / uid: setgroups+setgid+setuid */
	bool drop_caps;            /* drop every capability (bounding, inheritable, ambient) */
	const char *keep_caps;     /* NULL or "cap_net_bind_service,cap_chown": keep only these */
	bool pin_cpu;              /* false: the CPUs the caller may run on */
	int cpu;                   /* with pin_cpu: the child runs on this CPU only */
	bool redirect_stdio;       /* false: the child inherits the caller's 0, 1 and 2 */
	/*
	 * With redirect_stdio: stdio_fds[i] becomes the child's fd i (-1: that
	 * one is inherited). Borrowed: the caller still owns and closes them;
	 * the child gets duplicates, the parent's copies are left untouched.
	 */
	int stdio_fds[3];
	/*
	 * NULL, or the Landlock ruleset the child applies to itself before it
	 * gives up its user and loads the filter (the rules already checked
	 * with unotify_landlock_check; a rule found otherwise in the child
	 * fails the spawn with -ESTALE).
	 */
	const struct unotify_landlock *landlock;
	/*
	 * false (the default): the program starts in a pid namespace and a
	 * mount namespace of its own, with its own /proc, in a process group
	 * of its own, under a minimal init (pid 1, see unotify_spawn): it can
	 * name no process outside its sandbox. Needs CAP_SYS_ADMIN (root, or
	 * a user namespace of the caller's). true: it shares ours and can
	 * signal, trace (with CAP_SYS_PTRACE) or renice us.
	 */
	bool share_pid;
	/*
	 * Without share_pid: NULL, or an executable whose main() calls
	 * unotify_sandbox_init_main() when argv[0] is UNOTIFY_INIT_ARGV0 (the
	 * unotify command is one: "/proc/self/exe"). The sandbox's init then
	 * execs it, so that its memory holds nothing of ours; with NULL the
	 * init is a copy of this process, which a program with CAP_SYS_PTRACE
	 * can read (not write: it holds no fd and is under its own filter).
	 */
	const char *init_exe;
	/*
	 * true: the program's RLIMIT_CORE is 0, soft and hard, set before the
	 * filter: a crash writes no core file (the kernel writes one with no
	 * system call, where no path rule can stop it). Raising it again needs
	 * CAP_SYS_RESOURCE, which a filter can refuse (policy implicit set
	 * core-dumps).
	 */
	bool no_core_dumps;
};

/*
 * Filled by unotify_spawn(). The struct owns its fds until
 * unotify_child_close(); listener_fd (with root_fd) moves: take it
 * with unotify_child_listener() (which leaves -1 here). A caller that gives
 * listener_fd to unotify_listener_new() itself must set it to -1 then; if it
 * forgets, unotify_child_close() still leaves alone a number a live listener
 * owns, but cannot tell once that listener is freed and the number reused.
 */
struct unotify_child {
	pid_t pid;                 /* to wait for and signal: the sandbox's init, or the program */
	int pidfd;                 /* owned */
	int listener_fd;           /* owned until taken (unotify_child_listener) */
	int exec_status_fd;        /* owned; socket: an int errno if exec failed, EOF once exec'd */
	int root_fd;               /* owned until taken: the program's root, pinned before it ran */
	int tty_fd;                /* private: the terminal handed to the program's group, or -1 */
};

/* For a struct unotify_child that unotify_spawn() may not have filled (close is then safe). */
#define UNOTIFY_CHILD_INIT                                                                  \
	{ .pid = -1, .pidfd = -1, .listener_fd = -1, .exec_status_fd = -1, .root_fd = -1,    \
	  .tty_fd = -1 }

/*
 * Forks, prepares the child (user, capabilities, affinity, no_new_privs),
 * loads the filter with NEW_LISTENER (and WAIT_KILLABLE_RECV when the kernel
 * has it), takes the listener with pidfd_getfd, pins its root, releases the
 * child through the gate and returns. The child then execs. -ENOENT /
 * -EACCES: the program was not found / cannot be executed; -ESRCH: unknown
 * user; -EPERM (without share_pid): no right to make namespaces; -EBADFD:
 * an inherited descriptor would let the program out of its pid namespace
 * (a /proc directory, a namespace, a pidfd).
 *
 * Without share_pid, ret->pid is the sandbox's init: pid 1 of the new
 * namespace, outside the filter but under one of its own that lets it
 * only wait and signal the program. It forwards SIGTERM, SIGHUP, SIGUSR1
 * and SIGUSR2 sent to it from outside to the program, reaps every orphan,
 * and exits once no process is left with the program's status (128+N when
 * signal N killed it). If the caller's terminal had the caller's process
 * group in the foreground, the program's group gets it until
 * unotify_child_wait() returns.
 */
int unotify_spawn(const struct unotify_spawn_attr *attr, struct unotify_child *ret);
/*
 * The sandbox's init, in the image unotify_spawn_attr.init_exe names: call
 * it first thing in main() when argv[0] is UNOTIFY_INIT_ARGV0. Never
 * returns on success (it exits with the program's status); 125 on misuse.
 */
#define UNOTIFY_INIT_ARGV0 "unotify-init"
int unotify_sandbox_init_main(int argc, char **argv);
/*
 * The child's exec result: 0 once exec'd, the (positive) errno exec failed
 * with, or -errno. Never blocks: -EAGAIN until the child has exec'd or
 * exited; may be asked again.
 */
int unotify_child_exec_result(struct unotify_child *c);
/* Waits for the child; returns its status as a shell would (128+signal when killed). */
int unotify_child_wait(struct unotify_child *c);
/*
 * The child's listener as a listener: takes c->listener_fd and c->root_fd
 * (set to -1 here whatever the result; closed when this fails), the root
 * becoming the listener's (unotify_listener_set_root). -EBADF if already
 * taken.
 */
int unotify_child_listener(struct unotify_child *c, unotify_listener **ret);
/*
 * Closes the fds the struct still owns and sets them to -1; a listener_fd
 * that a live listener owns is only forgotten. May be called again.
 */
void unotify_child_close(struct unotify_child *c);

/* ---- Calls performed on the target's behalf ---- */

/* One pending notification's target thread (below, unotify_target_new). */
typedef struct unotify_target unotify_target;

/*
 * An open the target asked for, performed by the supervisor so that no
 * racing thread can change what was decided on: resolution happens in the
 * target's root, relative to its cwd or dirfd, with its fsuid, fsgid,
 * supplementary groups, effective capabilities and umask, exactly as the
 * kernel would resolve it for the target.
 */
struct unotify_open_how {
	int dirfd;         /* the target's dirfd, or AT_FDCWD */
	const char *path;  /* copied out of the target's memory by the caller */
	uint64_t flags;    /* O_* as the target passed them */
	uint64_t mode;
	uint64_t resolve;  /* RESOLVE_* (openat2) */
	bool guess;        /* may name it by its text alone (unotify_open_resolve) */
};

/*
 * Returned by the perform functions for a path named by its text alone
 * (guessed) when the one lookup that was to prove the name finds it is
 * not one (a symlink, a mount crossed, a rename raced): nothing was done.
 * Resolve again without guess and decide again on that name. Never an
 * errno: never a reply.
 */
#define UNOTIFY_EGUESS 4097

struct unotify_open_plan {
	/*
	 * The path the call resolves to, absolute, as the target sees it (its
	 * root is "/"). When resolution failed (error != 0) this is the best
	 * lexical guess, so a policy can still deny it without revealing whether
	 * the file exists. For O_TMPFILE it is the directory. /proc/self and
	 * /proc/thread-self resolve to the target's own entries.
	 */
	char path[4096];
	int error;          /* errno the target's own open would get while resolving, or 0 */
	bool creates;       /* the file does not exist yet and O_CREAT will create it */
	/*
	 * path is not a name the file has under the sandbox's pinned root (it
	 * is in another mount namespace or outside that root, or was replaced
	 * or deleted while we looked): never match it against a path rule;
	 * fail closed (EACCES) when one would be consulted.
	 */
	bool unnamed;
	/*
	 * Named by its text alone (how.guess): nothing was looked up yet;
	 * unotify_open_perform looks it up once, and fails with
	 * -UNOTIFY_EGUESS, having done nothing, when the text is not the name.
	 */
	bool guessed;
	/* private to lib/ */
	int pathfd;         /* O_PATH fd of the resolved file, or of its parent when creating;
			     * owned, closed by unotify_open_plan_release() */
	char base[256];     /* last component when creating */
	struct unotify_open_how how;
	void *context;
};

/*
 * Resolves the open in the target's context. ret->path and ret->error are
 * what a policy decides on. Returns 0, or -ENOENT when the target is gone,
 * or another -errno when the supervisor itself failed (fail closed).
 * Call unotify_open_plan_release() afterwards in every case where 0 was returned.
 */
int unotify_open_prepare(unotify_listener *l, const struct seccomp_notif *req,
			 const struct unotify_open_how *how, struct unotify_open_plan *ret);
/*
 * The same for a target the caller holds (unotify_target_new*, freed after
 * the plan). With how->guess, an absolute path of an open that creates
 * nothing (no O_CREAT, O_TMPFILE, O_PATH, O_ASYNC, no RESOLVE_* flags) in
 * a target whose root is the pinned root is named by its text, "." and
 * ".." folded: the name of what it reaches when no symlink is met, no
 * mount crossed and no rename races a "..", which unotify_open_perform's
 * one openat2 (RESOLVE_IN_ROOT, NO_SYMLINKS, NO_MAGICLINKS, NO_XDEV from
 * the pinned root) proves, or it fails with -UNOTIFY_EGUESS. A decision
 * that does not let a guessed open run must be taken again without guess.
 */
int unotify_open_resolve(unotify_target *t, const struct unotify_open_how *how,
			 struct unotify_open_plan *ret);
/*
 * Performs the planned open with the target's flags and credentials and
 * returns a new fd, the caller's (ready for unotify_reply_addfd), or the -errno the
 * target would have got. O_PATH: ADDFD refuses O_PATH files, so a directory
 * or regular file is opened read-only as the target, anything else gives
 * -EOPNOTSUPP. A blocking FIFO writer waits for a reader, as the kernel's
 * open would, while the call is pending (and so does this listener); a
 * reader does not wait for a writer. A create on an mqueue mount (a POSIX
 * message queue, charged to its creator's real uid and checked against its
 * RLIMIT_MSGQUEUE) runs in a short-lived helper process that is the target
 * (as unotify_net_connect's), with the target's limit; so does
 * unotify_path_mknod of a regular file there. The helper is in our user
 * namespace: for a target in another, such a create gives -EACCES (the
 * kernel would charge it in the target's). -ENOTRECOVERABLE (also
 * from prepare and thread_init): the thread could not be restored to its own
 * credentials or root; stop supervising with it.
 */
int unotify_open_perform(struct unotify_open_plan *plan);
void unotify_open_plan_release(struct unotify_open_plan *plan);
/*
 * The kernel's answer to this open when its sandbox refuses it (policy
 * `deny ... kernel`): plan->error, or the error of a check the kernel makes
 * before the sandbox's (EISDIR, EROFS, EPERM, ETXTBSY, the file's
 * permissions), else EACCES. A positive errno.
 */
int unotify_open_refusal(const struct unotify_open_plan *plan);

/*
 * Prepares the calling thread for impersonation (its own root, cwd and
 * umask: unshare(CLONE_FS)). Once per supervising thread; unotify_open_prepare
 * calls it if it was not done.
 */
int unotify_thread_init(void);

/* ---- Path and network calls performed on the target's behalf ---- */

/*
 * The same principle as for opens, for every other call a policy decides
 * on a pointer argument: the supervisor copies the argument once, decides
 * on its copy, and performs the call itself, as the target, on what it
 * resolved; never CONTINUE, which would let the kernel read the target's
 * memory a second time. Each unotify_path_*() and unotify_net_*() returns
 * what the target's own call returns (0, a count, or -errno), except
 * -ENOTRECOVERABLE (the supervising thread could not be restored: stop
 * supervising with it) and -ENOENT from unotify_target_new() and
 * unotify_path_resolve() (the target is gone).
 */
struct stat;
struct statx;
struct timespec;
struct msghdr;

/*
 * One pending notification's target thread: its credentials (real,
 * effective, saved and file-system ids, groups, capabilities), umask, root
 * and cwd, read once and used by every resolution and call below.
 */
typedef struct unotify_target unotify_target;

int unotify_target_new(unotify_listener *l, const struct seccomp_notif *req, unotify_target **ret);
/*
 * The same from what was read of the thread at an earlier call, when that
 * provably still holds (the same thread, the same eight ids and
 * capabilities, groups it cannot have changed or that decide nothing; or,
 * on a listener that watches credentials, the same thread and no
 * credential change since; see lib/target-cache.c), else read afresh and
 * kept. view_fixed: the
 * sandbox's filter refuses every call that changes a root or a user
 * namespace (chroot, pivot_root, setns, new mount or user namespaces: the
 * policy's implicit set fixed-view); without it nothing is kept. Such a
 * target has no umask nor signal dispositions: only for calls that create
 * and signal nothing (opens without O_CREAT or O_TMPFILE, the stat family).
 * It does not prove the notification pending: read the target's memory
 * (which does) or call unotify_id_valid() after it and before acting.
 */
int unotify_target_new_kept(unotify_listener *l, const struct seccomp_notif *req, bool view_fixed,
			    unotify_target **ret);
/*
 * Did getting t prove its thread the notification's, after anything read
 * of its memory before (unotify_mem_read_string_unproven)? A target read
 * afresh ends with ID_VALID; a kept one does on a listener that watches
 * credentials (the poll of its thread's pidfd, for a call made after the
 * one that proved what was kept). When false, call unotify_id_valid().
 */
bool unotify_target_proves_reads(const unotify_target *t);
/*
 * unotify_mem_write() for t's call: through the address space kept with
 * t's state where there is one (no system call but the write and its
 * check), else as unotify_mem_write() does.
 */
int unotify_target_mem_write(unotify_target *t, uint64_t addr, const void *buf, size_t len);
void unotify_target_free(unotify_target *t);
/*
 * access(2), faccessat(2), and faccessat2(2) without AT_EACCESS check with
 * the target's real uid and gid, and with no capabilities unless the real
 * uid is 0 (the kernel's access_override_creds): call this before resolving.
 * Root keeps its effective set, not its permitted one: the kernel's choice
 * between the two depends on a securebit /proc does not show.
 */
void unotify_target_use_real_ids(unotify_target *t);
/*
 * A copy of the target's fd number fd (pidfd_getfd), owned by the caller
 * (close it); -EBADF when the target has no such fd.
 */
int unotify_target_getfd(unotify_target *t, int fd);
/*
 * Sends sig to the target thread through its pidfd (never to a process that
 * took its number since), e.g. SIGPIPE after unotify_net_sendmsg() gave
 * -EPIPE.
 */
int unotify_target_signal(unotify_target *t, int sig);

enum unotify_sig_disposition {
	UNOTIFY_SIG_DEFAULT,
	UNOTIFY_SIG_IGNORED,
	UNOTIFY_SIG_CAUGHT,
};

/*
 * What the target does with sig, as its /proc status said when read. Raise
 * a signal with the default action before replying (if fatal, it ends the
 * call as the kernel's own would); a caught one after replying (before, it
 * could interrupt a filter without WAIT_KILLABLE_RECV and restart the call).
 */
enum unotify_sig_disposition unotify_target_sig_disposition(unotify_target *t, int sig);

enum unotify_walk {
	UNOTIFY_WALK_FOLLOW,   /* the whole path, a final symlink followed (stat, chmod, ...) */
	UNOTIFY_WALK_NOFOLLOW, /* the whole path, a final symlink not followed (lstat, readlink) */
	UNOTIFY_WALK_PARENT,   /* all but the last component, the name acted on (unlink, mkdir) */
};

struct unotify_path_how {
	int dirfd;             /* the target's dirfd, or AT_FDCWD */
	const char *path;      /* copied out of the target's memory; NULL only with empty_path */
	enum unotify_walk walk;
	bool empty_path;       /* AT_EMPTY_PATH: "" (or NULL) is the file dirfd refers to */
	/*
	 * May name the path by its text alone, as unotify_open_resolve does
	 * (UNOTIFY_WALK_FOLLOW and _NOFOLLOW, a target in the pinned root):
	 * then the file is not looked up, ret->guessed is set, path must
	 * stay valid until unotify_path_release(), and unotify_path_stat,
	 * _statx, _readlink and _access look it up once and fail with
	 * -UNOTIFY_EGUESS, having done nothing, when the text is not the name.
	 */
	bool guess;
};

struct unotify_path {
	/*
	 * Absolute, as the target sees it, /proc/self meaning the target. For
	 * UNOTIFY_WALK_PARENT: the resolved parent and the last component (the
	 * name itself is not followed). When error != 0, the best lexical guess.
	 */
	char path[4096];
	int error;             /* errno the target's own lookup fails with, or 0 */
	mode_t type;           /* S_IFMT of the file (0 for UNOTIFY_WALK_PARENT) */
	bool unnamed;          /* as in struct unotify_open_plan: never match path as a path */
	bool guessed;          /* named by its text alone (how.guess): type and fd unknown */
	/* private to lib/ */
	const char *text;      /* guessed: the text looked up by the perform functions */
	char *owned;           /* guessed, relative: text, the start's name and the path */
	bool nofollow;         /* guessed: UNOTIFY_WALK_NOFOLLOW */
	int fd;                /* O_PATH: the file, or the parent directory; owned, closed by
				* unotify_path_release() */
	char name[258];        /* UNOTIFY_WALK_PARENT: the last component, "/" kept if it had one */
	char link[48];         /* procfs self, thread-self: the text the target reads */
};

/*
 * Resolves in the target's root, relative to its cwd or dirfd, with its
 * credentials. Returns 0 (ret->error tells the outcome) or a -errno of the
 * supervisor's own. Call unotify_path_release() when 0 was returned.
 */
int unotify_path_resolve(unotify_target *t, const struct unotify_path_how *how,
			 struct unotify_path *ret);
/*
 * The kernel's answer when its own sandbox (Landlock) refuses the call
 * (policy `deny ... kernel`): the error of a check the kernel makes before
 * the sandbox's, EACCES otherwise (lib/refusal.c lists them). A positive
 * errno, never 0. For syscall nr on its resolved paths a (and b, the second
 * path of rename, link, symlink); flags: AT_REMOVEDIR, RENAME_*.
 */
int unotify_path_refusal(unotify_target *t, int nr, const struct unotify_path *a,
			 const struct unotify_path *b, unsigned int flags);
void unotify_path_release(struct unotify_path *p);
/* An empty result (no file, nothing owned), e.g. to fill from an open plan; release it too. */
void unotify_path_init(struct unotify_path *p);

/*
 * The kernel's checks of each call's other arguments, made before any
 * lookup: 0, or the -errno the target's own call fails with (-EINVAL).
 * stat family: its AT_* flags (statx: and its mask); access family: its
 * mode and flags (access and faccessat: 0); readlink: its bufsiz.
 */
int unotify_path_stat_check(bool statx_call, uint64_t flags, uint64_t mask);
int unotify_path_access_check(uint64_t mode, uint64_t flags);
int unotify_path_readlink_check(uint64_t size);
/* stat, lstat, newfstatat: the kernel's struct stat of the resolved file. */
int unotify_path_stat(unotify_target *t, const struct unotify_path *p, struct stat *ret);
/* statx: flags may hold AT_STATX_SYNC_TYPE bits (the walk's flags were used already). */
int unotify_path_statx(unotify_target *t, const struct unotify_path *p, unsigned int flags,
		       unsigned int mask, struct statx *ret);
/* readlink, readlinkat (UNOTIFY_WALK_NOFOLLOW): the text, not NUL-terminated; its length. */
int unotify_path_readlink(unotify_target *t, const struct unotify_path *p, char *buf,
			  size_t size);
int unotify_path_access(unotify_target *t, const struct unotify_path *p, int mode);
/* On UNOTIFY_WALK_PARENT paths: unlinkat (flags: AT_REMOVEDIR), mkdirat, mknodat, ... */
int unotify_path_unlink(unotify_target *t, const struct unotify_path *p, int flags);
int unotify_path_mkdir(unotify_target *t, const struct unotify_path *p, mode_t mode);
/* dev as the system call takes it (the kernel's 32-bit encoding). */
int unotify_path_mknod(unotify_target *t, const struct unotify_path *p, mode_t mode,
		       unsigned int dev);
int unotify_path_rename(unotify_target *t, const struct unotify_path *from,
			const struct unotify_path *to, unsigned int flags);
/*
 * from: UNOTIFY_WALK_PARENT (link's default: a symlink itself is linked) or
 * UNOTIFY_WALK_FOLLOW (AT_SYMLINK_FOLLOW; AT_EMPTY_PATH): the file is then
 * linked through /proc/self/fd/N, as the target itself could link it
 * without CAP_DAC_READ_SEARCH. to: UNOTIFY_WALK_PARENT.
 */
int unotify_path_link(unotify_target *t, const struct unotify_path *from,
		      const struct unotify_path *to);
int unotify_path_symlink(unotify_target *t, const char *text, const struct unotify_path *to);
/* On UNOTIFY_WALK_FOLLOW or _NOFOLLOW paths (the l- variants act on a symlink itself). */
int unotify_path_chmod(unotify_target *t, const struct unotify_path *p, mode_t mode);
int unotify_path_chown(unotify_target *t, const struct unotify_path *p, uid_t uid, gid_t gid);
/* times: NULL (now), or two timespecs with UTIME_NOW / UTIME_OMIT as utimensat takes them. */
int unotify_path_utimens(unotify_target *t, const struct unotify_path *p,
			 const struct timespec *times);
int unotify_path_truncate(unotify_target *t, const struct unotify_path *p, int64_t length);
/*
 * setxattr, removexattr and their l- and f- variants on the file resolved
 * (a symlink itself for the l- ones): name and value copied by the caller,
 * flags XATTR_CREATE or XATTR_REPLACE. A POSIX ACL is an xattr.
 */
int unotify_path_setxattr(unotify_target *t, const struct unotify_path *p, const char *name,
			  const void *value, size_t size, int flags);
int unotify_path_removexattr(unotify_target *t, const struct unotify_path *p, const char *name);
/*
 * getxattr, lgetxattr, getxattrat; listxattr, llistxattr, listxattrat; on
 * the file resolved (UNOTIFY_WALK_FOLLOW, or _NOFOLLOW for the l- calls and
 * AT_SYMLINK_NOFOLLOW), read with the target's credentials: the value or
 * the list of names into buf (size bytes, the caller's; size 0 asks for
 * the size needed), its length, or the kernel's -ERANGE, -E2BIG, -ENODATA,
 * -EOPNOTSUPP, -EACCES. The caller clamps size to 64 KiB as the kernel does.
 */
int unotify_path_getxattr(unotify_target *t, const struct unotify_path *p, const char *name,
			  void *buf, size_t size);
int unotify_path_listxattr(unotify_target *t, const struct unotify_path *p, char *buf,
			   size_t size);
/*
 * file_getattr (Linux 6.17): the kernel's struct file_attr of the resolved
 * file into buf (size bytes: the structure size the caller passes the
 * kernel, at least 24). 0 or -errno.
 */
int unotify_path_file_getattr(unotify_target *t, const struct unotify_path *p, void *buf,
			      size_t size);

/*
 * connect, bind, sendmsg on the target's own socket sock (a copy from
 * unotify_target_getfd, borrowed), with the address copied out of its memory. They
 * run in a short-lived helper process that has the target's real,
 * effective, saved and file-system ids, groups, capabilities and umask, so
 * that a peer sees the target's uid and gid (SO_PEERCRED, SCM_CREDENTIALS),
 * not the supervisor's; the pid it sees is the helper's. A blocking socket
 * blocks the caller as long as the target's call would block.
 * unix_path: for an AF_UNIX path address, the socket file resolved as the
 * target (UNOTIFY_WALK_FOLLOW; bind: UNOTIFY_WALK_PARENT, and the socket
 * then records the address by its last component, unless the target gave
 * a single component), used instead of the text, so nothing is looked up
 * twice; NULL otherwise.
 */
int unotify_net_connect(unotify_target *t, int sock, const void *addr, size_t len,
			const struct unotify_path *unix_path);
int unotify_net_bind(unotify_target *t, int sock, const void *addr, size_t len,
		     const struct unotify_path *unix_path);
/*
 * msg: msg_name, the data (msg_iov pointing into the caller's memory) and
 * msg_control as copied from the target. SCM_RIGHTS carries the target's
 * fd numbers: each is taken from the target with pidfd_getfd (-EBADF as
 * the kernel). SCM_CREDENTIALS must name the target itself (else -EPERM);
 * it is sent as the helper's. Returns the count sent. The helper sends with
 * MSG_NOSIGNAL: when the kernel would raise SIGPIPE (-EPIPE without
 * MSG_NOSIGNAL in flags), the caller raises it (unotify_target_signal).
 * MSG_ZEROCOPY is refused (-ENOBUFS): the kernel would read the data after
 * the call returns, from the caller's copy, freed by then.
 */
int unotify_net_sendmsg(unotify_target *t, int sock, const struct msghdr *msg, int flags,
			const struct unotify_path *unix_path);

/* ---- The system calls the library makes, for supervisors that confine themselves ---- */

/*
 * A supervisor may load a seccomp allowlist of its own (unotifyd does): it
 * must then let through every call the library makes for it. They are
 * listed by work, in one table (lib/syscalls.c): SUPERVISE always, each
 * other work when the supervisor uses its functions. Not included: what
 * malloc and the thread library call (brk, mmap, futex, clone3...).
 */
enum unotify_work {
	UNOTIFY_WORK_SUPERVISE, /* listener, replies, target memory, unotify_target_*, resolution */
	UNOTIFY_WORK_OPEN,      /* unotify_open_perform */
	UNOTIFY_WORK_STAT,      /* unotify_path_stat, _statx, _readlink, _access, _getxattr,
				 * _listxattr, _file_getattr */
	UNOTIFY_WORK_MUTATE,    /* unotify_path_unlink ... unotify_path_truncate */
	UNOTIFY_WORK_NET,       /* unotify_net_*: a helper process (clone) and its calls */
	UNOTIFY_WORK_COUNT
};

struct unotify_syscall_rule {
	int nr;         /* native system call number */
	int arg;        /* -1: whatever the arguments; else allowed when */
	uint64_t mask;  /*   (args[arg] & mask) == value */
	uint64_t value;
};

/* The rules of one work, a static table (*ret); its length, 0 for an unknown work. */
size_t unotify_work_syscalls(enum unotify_work work, const struct unotify_syscall_rule **ret);

#ifdef __cplusplus
}
#endif
#endif
