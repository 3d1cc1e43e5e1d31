/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack: the red team's program. Each sub-command tries one thing a policy
 * forbids and prints ONE result line saying what it achieved:
 *
 *   LEAK <n> <data>      read n bytes it should not have (data: first line)
 *   WROTE, CREATED, REWROTE, TRUNCATED, CHANGED, DONE ...   a forbidden effect
 *   STOPPED, KILLED, ATTACHED, STOLE <n> ...   something done to the supervisor
 *   BLOCKED <ERRNO>      the step that mattered failed with ERRNO
 *   SETUP <what> <ERRNO> the attack could not even be set up (not a verdict)
 *
 * Lines starting with "# " are commentary for the log. The program runs
 * under the filter: it is built without sanitizers, and its start-up makes
 * no call a test policy could trip over (no /proc reads before main).
 *
 * Pid arguments may be written "@SUP" (the supervisor of `unotify run`:
 * $ATTACK_SUP, its pid as the harness knows it, else our parent),
 * "@SUPTID" (the newest thread of the supervisor) or a number. Paths may contain those words too: "/proc/@SUP/mem".
 */
#ifndef UNOTIFY_ATTACK_H
#define UNOTIFY_ATTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

struct attack_cmd {
	const char *name;
	const char *usage;
	int (*run)(int argc, char **argv);
};

/* One result line (stdout, flushed at once: the program may be killed next). */
void result(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Commentary: "# ..." on stdout. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "BLOCKED ENAME" for an errno. */
int blocked(int err);
/* "SETUP what ENAME": the attack could not start; exit status 3. */
int setup_failed(const char *what, int err);
const char *errname(int err);

/*
 * Writes text to path (a /proc map, a sysctl): 0 or -errno. By open(2),
 * not openat: a daemon-run sandbox notifies openat only, and a map must
 * be the process's own open.
 */
int write_text(const char *path, const char *text);
/* Reads fd (at most 64 KiB) and prints "LEAK n first-line", or BLOCKED on a read error. */
int leak_fd(int fd);
/* Opens path read-only and leak_fd()s it. */
int leak_path(int dirfd, const char *path);

/* Our parent's pid, from /proc/self/status (getppid may be answered by a policy). */
pid_t sup_pid(void);
/* "@SUP", "@SUPTID" or a number; -1 when it names nothing. */
pid_t parse_pid(const char *s);
/* Replaces @SUP and @SUPTID in a path; returns a static buffer. */
const char *expand_path(const char *s);
long parse_long(const char *s);
/* ADDR PORT as a sockaddr of its family; 0 when ADDR is neither (attack-net.c). */
socklen_t attack_addr(const char *addr, const char *port, struct sockaddr_storage *ss);
/*
 * A TCP socket (close-on-exec) of ADDR's family, ADDR PORT in *ss and *len:
 * the fd; -2 when ADDR is no address, -1 when socket fails (errno).
 */
int attack_tcp_socket(const char *addr, const char *port, struct sockaddr_storage *ss,
		      socklen_t *len);
/* Sends fd over sock in SCM_RIGHTS with one byte: 0 or -errno. */
int send_fd(int sock, int fd);
/* The fd of one SCM_RIGHTS message on sock (close-on-exec), or -errno. */
int recv_fd(int sock);
/* Does buf hold needle? Returns its offset or -1. */
long find_bytes(const char *buf, size_t len, const char *needle, size_t nlen);
/* io_uring by raw system calls (attack-net.c): a ring of 4 entries, mapped. */
struct io_uring_sqe;
struct io_uring_cqe;
struct uring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};
/* 0, or -errno (io_uring_setup's, or ENOMEM when the rings cannot be mapped). */
int uring_setup(struct uring *u);
/* Submits one SQE and waits for its completion: the result, as a syscall would return it. */
int uring_run(struct uring *u, const struct io_uring_sqe *sqe);
/* A process's state letter from /proc/PID/stat ('?' if unreadable). */
char proc_state(pid_t pid);
/* Sleeps ms milliseconds (not a measurement: a pause between steps). */
void pause_ms(long ms);

/* Writable mappings of a process, from /proc/PID/maps. */
struct mapping {
	unsigned long start, end;
};
int maps_read(pid_t pid, struct mapping *maps, int max);
/* Reads (or, write: writes) another process's memory: /proc/PID/mem or process_vm_*. */
typedef ssize_t (*mem_io)(void *ctx, void *buf, size_t len, unsigned long addr, bool write);
/* Counts the copies of needle in the mappings; flip: overwrites each one's first byte. */
long mem_scan(mem_io io, void *ctx, const struct mapping *maps, int n, const char *needle,
	      bool flip, unsigned long *ret_first);

/*
 * n connections to the unix socket sock that never send, each one the other
 * end closes opened again, for secs seconds; ready is created once all are
 * open. Result: FLOOD n open, r reopened (attack-r10.c).
 */
int r10_flood(const char *sock, long n, long secs, const char *ready);

/* Stolen listeners (attack-sup.c): is fd one (its anon inode's name)? */
bool is_listener(int fd);
/* Every listener among the descriptors of pidfd's process (pidfd_getfd); -errno when refused. */
int take_listeners_pidfd(int pidfd, int *fds, int max);
/* Answers the pending notifications of fds: getppid with value (>= 0), else CONTINUE. */
int answer_all(const int *fds, int n, int timeout_ms, long value, int *ret_count);
/* A child that reads secret (leak_path) with its stdout on *ret_fd. */
pid_t spawn_reader(const char *secret, int *ret_fd);

extern const struct attack_cmd attack_proc_cmds[];
extern const struct attack_cmd attack_sup_cmds[];
extern const struct attack_cmd attack_ns_cmds[];
extern const struct attack_cmd attack_fs_cmds[];
extern const struct attack_cmd attack_net_cmds[];
extern const struct attack_cmd attack_stall_cmds[];
extern const struct attack_cmd attack_daemon_cmds[];
extern const struct attack_cmd attack_r2_fs_cmds[];
extern const struct attack_cmd attack_r2_net_cmds[];
extern const struct attack_cmd attack_r2_sys_cmds[];
extern const struct attack_cmd attack_r2_daemon_cmds[];
extern const struct attack_cmd attack_r3_cmds[];
extern const struct attack_cmd attack_r4_cmds[];
extern const struct attack_cmd attack_tcp_cmds[];
extern const struct attack_cmd attack_r5_cmds[];
extern const struct attack_cmd attack_r6_cmds[];
extern const struct attack_cmd attack_r7_cmds[];
extern const struct attack_cmd attack_r7_abi_cmds[];
extern const struct attack_cmd attack_r8_cmds[];
extern const struct attack_cmd attack_r10_cmds[];
extern const struct attack_cmd attack_r11_exec_cmds[];
extern const struct attack_cmd attack_r11_cmds[];
extern const struct attack_cmd attack_r11_daemon_cmds[];
extern const struct attack_cmd attack_r14_cmds[];
extern const struct attack_cmd attack_r15_cmds[];
extern const struct attack_cmd attack_r17_cmds[];
extern const struct attack_cmd attack_r18_cmds[];
extern const struct attack_cmd attack_r19_cmds[];
extern const struct attack_cmd attack_r24_cmds[];

/* Round 7's helpers (attack-r7.c). The uid a thread drops to. */
#define R7_UID 1000
/* 0 when r >= 0, else -errno. */
long r7_sys(long r);
/* Opens PATH and closes it: 0 or -errno (no secret printed). */
int r7_open(const char *path);
/* "opened" for 0, else the errno's name. */
const char *r7_what(int r);
/* Drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from this thread's effective set. */
int r7_caps_drop_dac(void);
pid_t r7_gettid(void);

#endif
