/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `unotify bench`: what an intercepted system call costs, measured with a
 * method that can be trusted (warm-up, batches, median of batch medians,
 * repeated runs, a noise warning) and compared against floors and baselines.
 */
#ifndef UNOTIFY_BENCH_H
#define UNOTIFY_BENCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "audit/audit.h"
#include "latency.h"

/* ---------------------------------------------------------------- bench: configuration */

#define BENCH_THREADS_MAX 64
#define BENCH_REPLY_VALUE 42
#define BENCH_FUTEX_MAGIC UINT64_C(0x5a5a5a5a00000000)
#define BENCH_DAEMON_ARGS_MAX 8

enum bench_pin {
	BENCH_PIN_FREE,      /* the scheduler places both sides */
	BENCH_PIN_SAME,      /* target and supervisor on one CPU */
	BENCH_PIN_DIFFERENT, /* target and supervisor on two CPUs */
	BENCH_PIN_MAX,
};

enum bench_wait {
	BENCH_WAIT_BLOCK, /* blocking SECCOMP_IOCTL_NOTIF_RECV */
	BENCH_WAIT_POLL,  /* poll(), then RECV */
	BENCH_WAIT_EPOLL, /* epoll_wait(), then RECV */
	BENCH_WAIT_SPIN,  /* poll(fd, 0) for up to spin_us, then blocking RECV */
	BENCH_WAIT_MAX,
};

/* What the measured process does before its loop. */
enum bench_target_kind {
	BENCH_TARGET_PLAIN,    /* no filter */
	BENCH_TARGET_ALLOWED,  /* a filter that allows getppid in the kernel */
	BENCH_TARGET_NOTIFIED, /* a filter that notifies getppid; listener sent to the parent */
	BENCH_TARGET_FUTEX,    /* a futex request/reply with the parent instead of a syscall */
};

/* The call the target makes (--call), and on what (--path). */
enum bench_call {
	BENCH_CALL_GETPPID,  /* answered with 42: the round trip alone */
	BENCH_CALL_OPEN,     /* openat(AT_FDCWD, path, O_RDONLY|O_CLOEXEC), then close */
	BENCH_CALL_STAT,     /* newfstatat(AT_FDCWD, path, &st, 0) */
	BENCH_CALL_ACCESS,   /* faccessat(AT_FDCWD, path, R_OK) */
	BENCH_CALL_READLINK, /* readlinkat(AT_FDCWD, path, buf, size) */
	BENCH_CALL_MAX,
};

/* Which axes apply to a mode. */
#define BENCH_MODE_SYNC (1u << 0)     /* SYNC_WAKE_UP on/off */
#define BENCH_MODE_WAIT (1u << 1)     /* the supervisor's wait strategy is chosen */
#define BENCH_MODE_PEER (1u << 2)     /* a second process answers (pinning places both) */
#define BENCH_MODE_LISTENER (1u << 3) /* the peer reads a seccomp listener */
#define BENCH_MODE_GETPPID (1u << 4)  /* only the getppid call (futex) */
#define BENCH_MODE_PATH (1u << 5)     /* only the path calls (the floor's variants) */
/* The parent counts another process's thread: the target waits for it to start (daemon). */
#define BENCH_MODE_COUNTED_OUTSIDE (1u << 6)

struct bench_run;
struct bench_settings;
struct bench_config;

struct bench_mode {
	const char *name;
	const char *summary;
	enum bench_target_kind target;
	unsigned int flags;
	/*
	 * Once per row, around its runs (e.g. start and stop a daemon). -EOPNOTSUPP
	 * makes the row "unsupported", another error "failed"; either with a reason.
	 */
	int (*row_start)(const struct bench_config *cfg, const struct bench_settings *set,
			 void **ret_data, char *error, size_t error_size);
	void (*row_stop)(void *data);
	/* The filter the row's targets load instead of the raw one (NULL: the raw one). */
	const struct sock_fprog *(*row_layer)(void *data);
	/* Parent side; NULL when the target runs alone. */
	int (*prepare)(struct bench_run *run);   /* before the target starts measuring */
	int (*supervise)(struct bench_run *run); /* until the target is done */
	void (*cleanup)(struct bench_run *run);
	const char *unavailable;                 /* why the mode cannot run yet, or NULL */
	unsigned int floor_flags;                /* the floor's variant (FLOOR_WALK, ...) */
	unsigned int floor_receivers;            /* > 1: threads in RECV on the listener */
	unsigned int floor_workers;              /* > 0: one receiver, this many workers */
	unsigned int lib_threads;                /* > 1: the library's pool (`unotify run`'s) */
};

struct bench_config {
	const struct bench_mode *mode;
	int sync; /* 1 on, 0 off, -1 does not apply */
	enum bench_wait wait;
	enum bench_pin pin;
	unsigned int threads;
	enum bench_call call;
	bool missing;         /* the path does not exist: the call fails with ENOENT */
	bool relative;        /* the path is relative: the target's cwd is the files' directory */
};

struct bench_settings {
	unsigned int iterations; /* calls per batch and thread */
	unsigned int batches;
	unsigned int warmup;     /* calls per thread before measuring */
	unsigned int repeat;     /* runs per configuration, each with a fresh target */
#define BENCH_REPEAT_MAX 1000
	unsigned int spin_us;    /* BENCH_WAIT_SPIN budget */
	double precision;        /* noise warning above this spread (fraction) */
	int cpu_a;               /* CPUs used to pin; cpu_b -1 when only one is allowed */
	int cpu_b;
	const char *unotifyd;    /* --unotifyd, or NULL: look for it */
	const char *unotifyd_args[BENCH_DAEMON_ARGS_MAX]; /* --unotifyd-arg, in order */
	unsigned int n_unotifyd_args;
	/*
	 * --log-level: what the run and daemon modes record, as `unotify run`
	 * and unotifyd do (default deny: denials, kills, `log` rules, so the
	 * getppid rows record nothing; with all they pay for each `return`).
	 */
	enum audit_level log_level;
	/*
	 * The path calls' directory: "file" (BENCH_FILE_TEXT), "link" -> "file",
	 * no "missing". Made by bench_files_make, absolute, or "" when unused;
	 * the target of a relative row works in it.
	 */
	char files[256];
};

#define BENCH_FILE_TEXT "unotify bench file\n"
#define BENCH_LINK_TEXT "file"

extern const struct bench_mode bench_modes[];
extern const size_t bench_modes_count;
const struct bench_mode *bench_mode_find(const char *name);
const char *bench_pin_name(enum bench_pin p);
const char *bench_call_name(enum bench_call c);
int bench_call_parse(const char *s, enum bench_call *ret);
/* The system call number the target makes, and its name in a policy. */
int bench_call_nr(enum bench_call c);
const char *bench_call_syscall(enum bench_call c);
/* The path a call of cfg names, in set->files. */
void bench_call_path(const struct bench_config *cfg, const struct bench_settings *set, char *buf,
		     size_t size);
/* A new directory for the path calls, in TMPDIR; removed by bench_files_remove. */
int bench_files_make(struct bench_settings *set);
void bench_files_remove(struct bench_settings *set);
const char *bench_wait_name(enum bench_wait w);
int bench_pin_parse(const char *s, enum bench_pin *ret);
int bench_wait_parse(const char *s, enum bench_wait *ret);
/* "bare sync=on wait=poll pin=same threads=4": the axes that are not defaults. */
void bench_config_label(const struct bench_config *c, char *buf, size_t size);

/* ---------------------------------------------------------------- bench: counters */

enum bench_counter_source {
	BENCH_COUNTERS_NONE,
	BENCH_COUNTERS_PERF,   /* perf_event_open software counters */
	BENCH_COUNTERS_SCHED,  /* /proc/thread-self/sched (CONFIG_SCHED_DEBUG) */
	BENCH_COUNTERS_RUSAGE, /* getrusage(RUSAGE_THREAD): switches only */
};

struct bench_counts {
	uint64_t migrations;
	uint64_t switches;
	bool has_migrations;
};

/* Counts the calling thread's CPU migrations and context switches from start to stop. */
struct bench_counters {
	enum bench_counter_source source;
	pid_t pid;               /* another process's thread (pid, tid), or 0: the caller */
	pid_t tid;
	int fd_migrations;
	int fd_switches;
	struct bench_counts base;
};

/* Never fails: falls back from perf to procfs to getrusage and says which it used. */
void bench_counters_start(struct bench_counters *c);
/*
 * The same for thread tid of process pid (perf_event or procfs only; the
 * source is BENCH_COUNTERS_NONE when neither may be read).
 */
void bench_counters_start_task(struct bench_counters *c, pid_t pid, pid_t tid);
void bench_counters_stop(struct bench_counters *c, struct bench_counts *ret);
const char *bench_counter_source_name(enum bench_counter_source s);

/* ---------------------------------------------------------------- bench: one run */

/* The target moves through these and FUTEX_WAKEs the word at each step. */
enum bench_phase {
	BENCH_PHASE_WARMUP,
	BENCH_PHASE_WARM,    /* BENCH_MODE_COUNTED_OUTSIDE: waits for the parent's counters */
	BENCH_PHASE_MEASURE,
	BENCH_PHASE_DONE,    /* every thread has measured */
};

/* One request/reply slot of the futex mode, on its own cache line. */
struct bench_futex_slot {
	_Atomic uint32_t state; /* 0 idle, 1 request posted, 2 replied */
	uint32_t pad;
	_Atomic uint64_t value;
	char pad2[48];
};

/*
 * Memory shared by the parent and the target process (MAP_SHARED, mapped
 * before fork), so samples come back without any system call on the
 * measured path.
 */
struct bench_shared {
	_Atomic int phase;
	bool counted_outside;       /* BENCH_MODE_COUNTED_OUTSIDE, set before the fork */
	_Atomic uint32_t counting;  /* then: 1 once the parent counts (FUTEX_WAKE) */
	_Atomic int failed;         /* the first failing target thread sets it */
	char failure[192];          /* and says why */
	uint64_t t_start;           /* measured window, CLOCK_MONOTONIC ns */
	_Atomic uint64_t t_end;
	_Atomic uint64_t migrations; /* target threads, summed over the window */
	_Atomic uint64_t switches;
	_Atomic int counters_source;
	_Atomic int has_migrations;
	_Atomic int32_t futex_pending; /* requests posted and not yet served */
	struct bench_futex_slot slots[BENCH_THREADS_MAX];
	uint64_t samples[];         /* [thread][batch][iteration] */
};

struct bench_run {
	const struct bench_config *cfg;
	const struct bench_settings *set;
	struct bench_shared *shm;
	pid_t pid;                  /* the target */
	int listener;               /* seccomp listener fd, or -1 */
	void *mode_data;
	void *row_data;             /* from the mode's row_start */
	uint64_t calls_expected;    /* every call the target makes, warm-up included */
	/* the peer's counters, enabled while the target measures */
	struct bench_counters counters;
	struct bench_counts peer_counts;
	int counter_state;          /* 0 waiting, 1 counting, 2 done */
	uint64_t counted;
	uint64_t measured_calls;
	char error[192];            /* parent-side failure, when a hook fails */
};

/* CLOCK_MONOTONIC in ns: a vDSO call, no system call on the measured path. */
static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The peer calls this once per call it answered: starts and stops its counters. */
void bench_run_tick(struct bench_run *run);
/* Stops the peer's counters if the loop ended before the last measured call. */
void bench_run_tick_end(struct bench_run *run);
bool bench_run_child_exited(void);

/* Target side (in the forked child): returns the child's exit code. */
int bench_target_main(const struct bench_config *cfg, const struct bench_settings *set,
		      const struct sock_fprog *layer, struct bench_shared *shm, int sock,
		      pid_t parent);
size_t bench_shared_size(const struct bench_config *cfg, const struct bench_settings *set);
int bench_pin_self(int cpu);
/* One fd over a socketpair (SCM_RIGHTS, one byte of data); received with O_CLOEXEC. */
int bench_send_fd(int sock, int fd);
int bench_recv_fd(int sock, int *ret);

/* Parent side of the modes (bench-supervise.c). */
int bench_bare_prepare(struct bench_run *run);
int bench_bare_supervise(struct bench_run *run);
int bench_lib_prepare(struct bench_run *run);
int bench_lib_supervise(struct bench_run *run);
void bench_lib_cleanup(struct bench_run *run);
int bench_futex_supervise(struct bench_run *run);
/* The safe-supervisor floor (floor.h) for the path calls, and its variants. */
int bench_floor_supervise(struct bench_run *run);
/* The library with the decision engine and a path rule, for the path calls. */
int bench_engine_prepare(struct bench_run *run);
int bench_engine_supervise(struct bench_run *run);
void bench_engine_cleanup(struct bench_run *run);
/* The policy the lib and daemon modes decide by: 42 for getppid, a path rule otherwise. */
void bench_policy_text(const struct bench_config *cfg, char *buf, size_t size);
/* The daemon mode (bench-daemon.c): a private unotifyd per row. */
int bench_daemon_row_start(const struct bench_config *cfg, const struct bench_settings *set,
			   void **ret_data, char *error, size_t error_size);
void bench_daemon_row_stop(void *data);
/* The row's daemon's kernel layer, which its targets load. */
const struct sock_fprog *bench_daemon_row_layer(void *data);
int bench_daemon_prepare(struct bench_run *run);
int bench_daemon_supervise(struct bench_run *run);
void bench_daemon_cleanup(struct bench_run *run);

/* ---------------------------------------------------------------- bench: results */

enum bench_status {
	BENCH_OK,
	BENCH_FAILED,      /* a wrong result or a setup error: the numbers are not valid */
	BENCH_UNSUPPORTED, /* this machine cannot run it (kernel feature, one CPU) */
};

struct bench_result {
	struct bench_config cfg;
	char label[96];
	enum bench_status status;
	char error[256];
	unsigned int runs;
	struct latency_stats samples;       /* every measured call of every run */
	struct latency_stats batch_medians;
	uint64_t *run_median;               /* each run's median of its batches, by round */
	void *row_data;                     /* the mode's, from row_start to row_stop */
	bool row_started;                   /* row_start succeeded: row_stop is due */
	struct latency_summary summary;
	struct latency_bucket *hist;
	size_t hist_n;
	uint64_t median;                    /* median of batch medians: the headline */
	double spread;                      /* (p75 - p25) / median of batch medians */
	uint64_t calls;
	uint64_t window_ns;
	struct bench_counts target;
	struct bench_counts peer;
	enum bench_counter_source target_source;
	enum bench_counter_source peer_source;
};

/*
 * One configuration's row: started (its mode's row_start), run once per
 * round (set->repeat rounds, every row's run in each round before the
 * next round, so that slow drift of a noisy machine falls on every row
 * alike), ended (summary, row_stop). The result says what happened.
 */
void bench_result_start(struct bench_result *res, const struct bench_config *cfg,
			const struct bench_settings *set);
void bench_result_run_once(struct bench_result *res, const struct bench_settings *set);
void bench_result_end(struct bench_result *res);
void bench_result_done(struct bench_result *res);
/*
 * res against the floor f, round by round: the median of the ratios of
 * each round's run medians (the runs nearest in time), 0 when none pairs.
 */
double bench_result_ratio(const struct bench_result *res, const struct bench_result *f);
bool bench_result_noisy(const struct bench_result *res, const struct bench_settings *set);
/* The bare row this one is compared to (same sync, pin and threads; blocking wait). */
const struct bench_result *bench_result_floor(const struct bench_result *res,
					      const struct bench_result *all, size_t n);
/* The sync=off twin of a sync=on row, or NULL. */
const struct bench_result *bench_result_sync_off(const struct bench_result *res,
						 const struct bench_result *all, size_t n);

/* ---------------------------------------------------------------- bench: output */

struct bench_machine {
	char hostname[256];
	char kernel[65];
	char cpu_model[128];
	long nproc;
	bool sync_wake_up;
	char date[32]; /* ISO 8601, UTC */
};

struct bench_report {
	const struct bench_machine *machine;
	const struct bench_settings *set;
	const struct bench_result *results;
	size_t n;
	const char *command;
	bool compare;
};

void bench_machine_probe(struct bench_machine *ret);
/* One row's histogram, printed as the row completes. */
void bench_report_histogram(FILE *out, struct bench_result *res);
void bench_report_text(FILE *out, const struct bench_report *r);
int bench_report_json(FILE *out, const struct bench_report *r);
/* On stderr: every noisy row and every failed one. */
void bench_report_warnings(const struct bench_report *r);

#endif
