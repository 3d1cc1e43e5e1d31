/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attack: main, the result conventions (attack.h) and the helpers every
 * class of attack shares. The classes live in attack-*.c.
 *
 *   attack [--user UID[:GID]] [--drop-caps] [--chdir DIR] [--hide] [--grep W] CMD...
 *
 * --user drops to UID (and GID, default UID) with no supplementary groups,
 * --drop-caps to root without capabilities, before the command: a sandbox
 * registered with unotifyd by a root client becomes an unprivileged
 * program that way. --hide: a LEAK line gives the size only; --grep WORD:
 * the size and whether WORD was in what leaked.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "attack.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void result(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

void note(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

const char *errname(int err)
{
	static char buf[16];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

int blocked(int err)
{
	result("BLOCKED %s", errname(err));
	return 0;
}

int setup_failed(const char *what, int err)
{
	result("SETUP %s %s", what, errname(err));
	return 3;
}

/* Sends fd (when >= 0) over sock in SCM_RIGHTS with one byte. */
int send_fd(int sock, int fd)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'x';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			    .msg_controllen = sizeof(control) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) < 0 ? -errno : 0;
}

int recv_fd(int sock)
{
	char control[CMSG_SPACE(sizeof(int))] = { 0 }, byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
			    .msg_controllen = sizeof(control) };
	struct cmsghdr *c;
	int fd;

	if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) <= 0)
		return -EIO;
	c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_RIGHTS)
		return -EIO;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/*
 * --hide: what leaked is not printed (a real system file: its size is
 * evidence enough); --grep WORD: nor is it, but whether it holds WORD is.
 */
static bool leak_hide;
static const char *leak_grep;

/* The first line of what was read, printable, so the test can grep the token. */
static void print_leak(const char *buf, size_t n)
{
	char line[256];
	size_t i;

	if (leak_grep) {
		result("LEAK %zu (content hidden%s%s)", n,
		       find_bytes(buf, n, leak_grep, strlen(leak_grep)) >= 0 ? "; holds " : "",
		       find_bytes(buf, n, leak_grep, strlen(leak_grep)) >= 0 ? leak_grep : "");
		return;
	}
	if (leak_hide) {
		result("LEAK %zu (content hidden)", n);
		return;
	}
	for (i = 0; i < n && i < sizeof(line) - 1 && buf[i] != '\n'; i++)
		line[i] = (buf[i] >= 0x20 && buf[i] < 0x7f) ? buf[i] : '.';
	line[i] = '\0';
	result("LEAK %zu %s", n, line);
}

int leak_fd(int fd)
{
	static char buf[65536];
	size_t len = 0;

	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (len > 0)
				break;
			printf("# opened, read failed\n");
			return blocked(errno);
		}
		if (n == 0 || (len += (size_t)n) == sizeof(buf))
			break;
	}
	print_leak(buf, len);
	return 0;
}

int leak_path(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return blocked(errno);
	r = leak_fd(fd);
	close(fd);
	return r;
}

long parse_long(const char *s)
{
	return strtol(s, NULL, 0);
}

long find_bytes(const char *buf, size_t len, const char *needle, size_t nlen)
{
	const char *p = nlen ? memmem(buf, len, needle, nlen) : NULL;

	return p ? (long)(p - buf) : -1;
}

int write_text(const char *path, const char *text)
{
	int fd = (int)syscall(SYS_open, path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -errno : 0;
}

void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* The value after "key:" in /proc/self/status-like text, or -1. */
static long status_field(const char *path, const char *key)
{
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

/*
 * The supervisor: its pid as the harness knows it (ATTACK_SUP), else our
 * parent. Under `unotify run` the parent is the sandbox's init; the
 * supervisor's number names nothing in the program's pid namespace, which
 * is the point (it is ours to try).
 */
pid_t sup_pid(void)
{
	static pid_t cached;
	const char *given = getenv("ATTACK_SUP");

	if (!cached && given && *given)
		cached = (pid_t)parse_long(given);
	if (!cached)
		cached = (pid_t)status_field("/proc/self/status", "PPid");
	return cached;
}

/* The newest thread of the supervisor: the helper threads come after the main one. */
static pid_t sup_tid(void)
{
	char path[64];
	pid_t best = sup_pid();
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)best);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (atoi(e->d_name) > best)
			best = atoi(e->d_name);
	if (d)
		closedir(d);
	return best;
}

pid_t parse_pid(const char *s)
{
	if (strcmp(s, "@SUP") == 0)
		return sup_pid();
	if (strcmp(s, "@SUPTID") == 0)
		return sup_tid();
	return (pid_t)parse_long(s);
}

/* One word replaced in place; the longer one first (@SUPTID contains @SUP). */
static void expand_word(char *buf, size_t size, const char *word, pid_t pid)
{
	char *p, rest[4096], num[16];

	snprintf(num, sizeof(num), "%d", (int)pid);
	while ((p = strstr(buf, word))) {
		snprintf(rest, sizeof(rest), "%s", p + strlen(word));
		snprintf(p, size - (size_t)(p - buf), "%s%s", num, rest);
	}
}

const char *expand_path(const char *s)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s", s);
	if (strstr(buf, "@SUPTID"))
		expand_word(buf, sizeof(buf), "@SUPTID", sup_tid());
	if (strstr(buf, "@SUP"))
		expand_word(buf, sizeof(buf), "@SUP", sup_pid());
	return buf;
}

char proc_state(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* Root without capabilities: what --drop-caps gives a program. */
static int drop_caps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3] = { { 0 } };

	for (int cap = 0; cap < 64; cap++)
		prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

static int drop_to(const char *spec)
{
	char *colon;
	uid_t uid = (uid_t)strtoul(spec, &colon, 10);
	gid_t gid = *colon == ':' ? (gid_t)strtoul(colon + 1, NULL, 10) : (gid_t)uid;

	if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
		return -errno;
	return 0;
}

static const struct attack_cmd *const attack_tables[] = {
	attack_proc_cmds, attack_sup_cmds,   attack_ns_cmds,	 attack_fs_cmds,
	attack_net_cmds,  attack_stall_cmds, attack_daemon_cmds, attack_r2_fs_cmds,
	attack_r2_net_cmds, attack_r2_sys_cmds, attack_r2_daemon_cmds,
	attack_r3_cmds, attack_r4_cmds, attack_r5_cmds, attack_tcp_cmds, attack_r6_cmds,
	attack_r7_cmds, attack_r7_abi_cmds, attack_r8_cmds, attack_r10_cmds, attack_r11_cmds,
	attack_r11_exec_cmds, attack_r11_daemon_cmds, attack_r14_cmds, attack_r15_cmds,
	attack_r17_cmds, attack_r18_cmds, attack_r19_cmds, attack_r24_cmds,
};

static void usage(void)
{
	fputs("usage: attack [--user UID[:GID]] [--drop-caps] [--chdir DIR] [--hide] [--grep WORD]"
	      " COMMAND...\n", stderr);
	for (size_t t = 0; t < ARRAY_SIZE(attack_tables); t++)
		for (const struct attack_cmd *c = attack_tables[t]; c->name; c++)
			fprintf(stderr, "  %-18s %s\n", c->name, c->usage);
}

/* One leading option; returns how many arguments it took, 0 if none, -1 on failure. */
static int option(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : NULL;

	if (strcmp(argv[0], "--drop-caps") == 0)
		return drop_caps() < 0 ? setup_failed("drop-caps", errno), -1 : 1;
	if (strcmp(argv[0], "--hide") == 0) {
		leak_hide = true;
		return 1;
	}
	if (!arg)
		return 0;
	if (strcmp(argv[0], "--user") == 0)
		return drop_to(arg) < 0 ? setup_failed("user", errno), -1 : 2;
	if (strcmp(argv[0], "--chdir") == 0)
		return chdir(arg) < 0 ? setup_failed("chdir", errno), -1 : 2;
	if (strcmp(argv[0], "--grep") == 0) {
		leak_grep = arg;
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (i < argc && (n = option(argc - i, argv + i)) != 0) {
		if (n < 0)
			return 3;
		i += n;
	}
	if (i >= argc) {
		usage();
		return 2;
	}
	for (size_t t = 0; t < ARRAY_SIZE(attack_tables); t++)
		for (const struct attack_cmd *c = attack_tables[t]; c->name; c++)
			if (strcmp(c->name, argv[i]) == 0)
				return c->run(argc - i - 1, argv + i + 1);
	fprintf(stderr, "attack: unknown command '%s'\n", argv[i]);
	usage();
	return 2;
}
