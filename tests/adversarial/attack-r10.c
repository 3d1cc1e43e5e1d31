/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 10: access(2) without AT_EACCESS checks with the real ids, and
 * with root's permitted capabilities unless SECBIT_NO_SETUID_FIXUP keeps
 * the effective ones (the kernel's access_override_creds). A supervisor
 * that cannot see the bit must not answer yes where the kernel says no
 * (r10-access-caps.sh). Files reached with no path call, and input typed
 * into the terminal (r10-no-path.sh). An ELF interpreter named by a
 * program header the supervisor did not read (r10-exec-phdrs.sh). A send
 * whose data the kernel reads after the call returned (r10-zerocopy.sh).
 * Silent connections that kept unotifyd from reading anyone else's
 * (r10-daemon-flood.sh). The answer to an exec of a file the program may
 * neither read nor execute (r10-exec-oracle.sh). Names in a hidden
 * directory told by climbing out of it with "..", also while a link in
 * the path is swapped (r10-climb.sh). An exec
 * checked while the supervisor has no descriptor left (r10-exec-fds.sh).
 */
#include "config.h"

#include <arpa/inet.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <termios.h>

#include "attack.h"

#define R10_DAC ((UINT32_C(1) << CAP_DAC_OVERRIDE) | (UINT32_C(1) << CAP_DAC_READ_SEARCH))

/* Empties the effective set; the DAC overrides stay permitted unless told. */
static int r10_caps_lower(bool keep_permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	for (size_t i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		d[i].effective = 0;
	if (!keep_permitted)
		d[0].permitted &= ~R10_DAC;
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

/*
 * r10-access-caps full|permitted|dropped fixup|plain FILE: keeps every
 * capability (full) or empties the effective set (the DAC overrides kept
 * permitted, or dropped), with SECBIT_NO_SETUID_FIXUP set first (fixup)
 * or not, then access(FILE, R_OK). Result: ALLOWED, or BLOCKED errno.
 */
static int cmd_r10_access_caps(int argc, char **argv)
{
	bool keep, fixup;
	int r;

	if (argc != 3)
		return 2;
	keep = strcmp(argv[0], "permitted") == 0;
	fixup = strcmp(argv[1], "fixup") == 0;
	if (fixup && prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0) < 0)
		return setup_failed("securebits", errno);
	r = strcmp(argv[0], "full") == 0 ? 0 : r10_caps_lower(keep);
	if (r < 0)
		return setup_failed("capset", -r);
	if (access(argv[2], R_OK) < 0)
		return blocked(errno);
	result("ALLOWED");
	return 0;
}

/*
 * r10-tiocsti: TIOCSTI of "id\n" into a terminal of its own (a pty it
 * opens: the kernel allows it on any terminal with CAP_SYS_ADMIN, on its
 * controlling one to anyone while dev.tty.legacy_tiocsti is 1), then reads
 * the terminal's input back. Result: INJECTED (the bytes are typed), or
 * BLOCKED errno.
 */
static int cmd_r10_tiocsti(int argc, char **argv)
{
	const char line[] = "id\n";
	char got[sizeof(line)] = "";
	int master, slave;
	ssize_t n;

	(void)argv;
	if (argc != 0)
		return 2;
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0)
		return setup_failed("posix_openpt", errno);
	slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (slave < 0)
		return setup_failed("open pty", errno);
	for (size_t i = 0; i + 1 < sizeof(line); i++)
		if (ioctl(slave, TIOCSTI, &line[i]) < 0)
			return blocked(errno);
	n = read(slave, got, sizeof(got) - 1);
	if (n == (ssize_t)strlen(line) && memcmp(got, line, (size_t)n) == 0)
		result("INJECTED");
	else
		result("SETUP read %zd", n);
	return 0;
}

/*
 * r10-fanotify fd|fid FILE: a fanotify group (descriptors with O_RDWR, or
 * file ids), a mark for FILE's opens, an open of FILE for reading (which a
 * policy may allow where it refuses writes), and with fd: a write through
 * the event's descriptor. Result: WROTE, ALLOWED (a fid group, made),
 * or BLOCKED errno.
 */
static int cmd_r10_fanotify(int argc, char **argv)
{
	struct fanotify_event_metadata ev[8];
	bool fid;
	int g, fd;
	ssize_t n;

	if (argc != 2)
		return 2;
	fid = strcmp(argv[0], "fid") == 0;
	g = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | (fid ? FAN_REPORT_FID : 0),
			  (fid ? O_RDONLY : O_RDWR) | O_LARGEFILE);
	if (g < 0)
		return blocked(errno);
	if (fid) {
		result("ALLOWED");
		return 0;
	}
	if (fanotify_mark(g, FAN_MARK_ADD, FAN_OPEN, AT_FDCWD, argv[1]) < 0)
		return setup_failed("fanotify_mark", errno);
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return setup_failed("open", errno);
	close(fd);
	n = read(g, ev, sizeof(ev));
	if (n < (ssize_t)sizeof(ev[0]) || ev[0].fd < 0)
		return setup_failed("no event", n < 0 ? errno : EIO);
	if (pwrite(ev[0].fd, "WRITTEN-BY-EVENT\n", 17, 0) != 17)
		return blocked(errno);
	result("WROTE");
	return 0;
}

/*
 * r10-ioctl NUMBER: ioctl(NUMBER) on the working directory, with a zeroed
 * 4 KiB argument. On a file system that does not know NUMBER the kernel
 * says ENOTTY; a filter that refuses it says so first. Result: BLOCKED
 * errno, or DONE.
 */
static int cmd_r10_ioctl(int argc, char **argv)
{
	static char arg[4096];
	unsigned long nr;
	int dir;

	if (argc != 1)
		return 2;
	nr = strtoul(argv[0], NULL, 0);
	dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return setup_failed("open .", errno);
	if (ioctl(dir, nr, arg) < 0)
		return blocked(errno);
	result("DONE");
	return 0;
}

/*
 * r10-elf-interp INTERP OUT N: writes OUT, an x86-64 ELF of N program
 * headers (N >= 2): one PT_LOAD, PT_NULLs, and PT_INTERP naming INTERP
 * last, then execs it. The kernel reads every header and runs INTERP.
 * Result: what INTERP prints, or BLOCKED errno.
 */
static int cmd_r10_elf_interp(int argc, char **argv)
{
	const uint64_t base = 0x400000, phoff = sizeof(Elf64_Ehdr);
	size_t n, ilen, data, size;
	unsigned char *img;
	Elf64_Ehdr eh = { .e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT };
	Elf64_Phdr load = { .p_type = PT_LOAD, .p_flags = PF_R, .p_vaddr = base, .p_paddr = base,
			    .p_align = 0x1000 };
	Elf64_Phdr interp = { .p_type = PT_INTERP, .p_flags = PF_R, .p_align = 1 };
	char *const args[] = { argv[1], NULL };
	int fd;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 10)) < 2 || n > 1000)
		return 2;
	ilen = strlen(argv[0]) + 1;
	data = phoff + n * sizeof(Elf64_Phdr);
	size = data + ilen;
	img = calloc(1, size);
	if (!img)
		return setup_failed("calloc", ENOMEM);
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64, eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_entry = base, eh.e_phoff = phoff, eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr), eh.e_phnum = (uint16_t)n;
	load.p_filesz = load.p_memsz = size;
	interp.p_offset = data, interp.p_vaddr = interp.p_paddr = base + data;
	interp.p_filesz = interp.p_memsz = ilen;
	memcpy(img, &eh, sizeof(eh));
	memcpy(img + phoff, &load, sizeof(load));
	memcpy(img + phoff + (n - 1) * sizeof(Elf64_Phdr), &interp, sizeof(interp));
	memcpy(img + data, argv[0], ilen);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, img, size) != (ssize_t)size) {
		free(img);
		return setup_failed("write", errno);
	}
	free(img);
	close(fd);
	fflush(stdout);
	execv(argv[1], args);
	return blocked(errno);
}

#define R10_FILL 65536
#define R10_ZN 3000

/* The peer's bytes after the fill: how many differ from 'Z' (-1: not all arrived). */
static int r10_zc_check(int peer)
{
	static char buf[R10_FILL + R10_ZN];
	size_t got = 0;
	int bad = 0;

	fcntl(peer, F_SETFL, O_NONBLOCK);
	for (int tries = 0; got < sizeof(buf) && tries < 300; tries++) {
		ssize_t r = read(peer, buf + got, sizeof(buf) - got);

		if (r > 0)
			got += (size_t)r;
		else
			pause_ms(10);
	}
	if (got < sizeof(buf))
		return -1;
	for (size_t i = 0; i < R10_ZN; i++)
		bad += buf[R10_FILL + i] != 'Z';
	return bad;
}

/*
 * r10-zerocopy zerocopy|plain: a TCP connection on 127.0.0.1 to itself, the
 * peer's window filled, then sendmsg of 3000 'Z' bytes (MSG_ZEROCOPY on an
 * SO_ZEROCOPY socket, or plain), then 8 more supervised sendmsg calls of
 * 'Y' bytes elsewhere (memory reused), then the peer reads. Result:
 * INTACT, CORRUPT n (bytes that are not what was sent), or BLOCKED errno.
 */
static int cmd_r10_zerocopy(int argc, char **argv)
{
	static char fill[R10_FILL], z[R10_ZN], y[R10_ZN];
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in discard;
	struct iovec iov = { z, R10_ZN };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	socklen_t al = sizeof(a);
	int one = 1, small = 1024, big = 1 << 22, ls, c, peer, u, bad;
	bool zc;

	if (argc != 1)
		return 2;
	zc = strcmp(argv[0], "zerocopy") == 0;
	memset(fill, 'F', sizeof(fill)), memset(z, 'Z', sizeof(z)), memset(y, 'Y', sizeof(y));
	ls = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	u = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (ls < 0 || c < 0 || u < 0)
		return setup_failed("socket", errno);
	setsockopt(ls, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	setsockopt(c, SOL_SOCKET, SO_SNDBUFFORCE, &big, sizeof(big));
	if (bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(ls, 1) < 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &al) < 0)
		return setup_failed("listen", errno);
	if (zc && setsockopt(c, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) < 0)
		return setup_failed("SO_ZEROCOPY", errno);
	if (connect(c, (struct sockaddr *)&a, sizeof(a)) < 0)
		return setup_failed("connect", errno);
	peer = accept(ls, NULL, NULL);
	if (peer < 0 || write(c, fill, sizeof(fill)) != (ssize_t)sizeof(fill))
		return setup_failed("fill", errno);
	pause_ms(200);
	if (sendmsg(c, &m, zc ? MSG_ZEROCOPY : 0) != R10_ZN)
		return blocked(errno);
	discard = a;
	discard.sin_port = htons(9);
	for (int i = 0; i < 8; i++) {
		struct iovec iy = { y, R10_ZN };
		struct msghdr my = { .msg_name = &discard, .msg_namelen = sizeof(discard),
				     .msg_iov = &iy, .msg_iovlen = 1 };

		sendmsg(u, &my, 0);
	}
	pause_ms(100);
	bad = r10_zc_check(peer);
	if (bad < 0)
		return setup_failed("the peer got less", EIO);
	if (bad)
		result("CORRUPT %d", bad);
	else
		result("INTACT");
	return 0;
}

static int r10_unix_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	/* EAGAIN: the queue is full; tried again on the next round. */
	if (s >= 0 && connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(s);
		return -1;
	}
	return s;
}

/*
 * r10-flood SOCK N SECS READY [SPLIT]: N connections to SOCK that never
 * send, each one the other end closes opened again, for SECS seconds;
 * READY is created once all N are open. With SPLIT, SPLIT processes each
 * in a pid namespace of its own (nested in ours) share the N. Result:
 * FLOOD n open, r reopened (one line per process).
 */
static int cmd_r10_flood(int argc, char **argv)
{
	long n, secs, split = 1;

	if ((argc != 4 && argc != 5) || (n = parse_long(argv[1])) < 1 || n > 4000 ||
	    (secs = parse_long(argv[2])) < 1 || (argc == 5 && (split = parse_long(argv[4])) < 1))
		return 2;
	if (split == 1)
		return r10_flood(argv[0], n, secs, argv[3]);
	for (long i = 0; i < split; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			if (unshare(CLONE_NEWPID) < 0)
				_exit(setup_failed("unshare", errno));
			pid = fork();
			if (pid == 0)
				_exit(r10_flood(argv[0], n / split, secs, argv[3]));
			waitpid(pid, NULL, 0);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
	return 0;
}

int r10_flood(const char *sock, long n, long secs, const char *ready)
{
	struct pollfd *p;
	long reopened = 0, open_now = 0;
	time_t end;

	p = calloc((size_t)n, sizeof(*p));
	if (!p)
		return setup_failed("calloc", ENOMEM);
	for (long i = 0; i < n; i++) {
		p[i].fd = r10_unix_connect(sock);
		p[i].events = POLLIN;
	}
	close(open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		/* A round every 50 ms at most: the queue stays full, the machine usable. */
		pause_ms(50);
		if (poll(p, (nfds_t)n, 100) < 0 && errno != EINTR)
			break;
		for (long i = 0; i < n; i++) {
			if (p[i].fd >= 0 && !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (p[i].fd >= 0)
				close(p[i].fd);
			p[i].fd = r10_unix_connect(sock);
			p[i].revents = 0;
			reopened++;
		}
	}
	for (long i = 0; i < n; i++)
		if (p[i].fd >= 0) {
			open_now++;
			close(p[i].fd);
		}
	free(p);
	result("FLOOD %ld open, %ld reopened", open_now, reopened);
	return 0;
}

/*
 * r10-exec-errno FILE...: execs each FILE in a child. Result: one line per
 * FILE, EXEC FILE errno (the exec failed) or EXEC FILE RAN.
 */
static int cmd_r10_exec_errno(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char *const args[] = { argv[i], NULL };
		int p[2], err = 0;
		pid_t pid;

		if (pipe2(p, O_CLOEXEC) < 0)
			return setup_failed("pipe", errno);
		pid = fork();
		if (pid == 0) {
			execv(argv[i], args);
			err = errno;
			if (write(p[1], &err, sizeof(err)) < 0)
				_exit(126);
			_exit(127);
		}
		close(p[1]);
		if (pid < 0 || read(p[0], &err, sizeof(err)) != (ssize_t)sizeof(err))
			err = 0;
		close(p[0]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		if (err)
			result("EXEC %s %s", argv[i], errname(err));
		else
			result("EXEC %s RAN", argv[i]);
	}
	return 0;
}

static const char *r10_outcome(int r)
{
	return r < 0 ? errname(errno) : "OK";
}

/*
 * r10-probe PATH...: stat, open, access and readlink of each PATH. Result:
 * one line per PATH, PROBE PATH stat=E open=E access=E readlink=E (E: OK
 * or the errno).
 */
static int cmd_r10_probe(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		char buf[64];
		const char *st, *op, *ac, *rl;
		struct stat sb;
		int fd;

		st = r10_outcome(stat(argv[i], &sb));
		fd = open(argv[i], O_RDONLY | O_CLOEXEC);
		op = r10_outcome(fd);
		if (fd >= 0)
			close(fd);
		ac = r10_outcome(access(argv[i], F_OK));
		rl = r10_outcome((int)readlink(argv[i], buf, sizeof(buf)));
		result("PROBE %s stat=%s open=%s access=%s readlink=%s", argv[i], st, op, ac, rl);
	}
	return 0;
}

#define R10_RIGHTS_MAX 253 /* SCM_MAX_FD: descriptors one message may carry */

/* A sendmsg of n copies of fd 0 blocked on a full datagram queue: n descriptors the supervisor holds. */
struct r10_holder {
	int sv[2];
	int n;
	pthread_t thread;
	bool started;
};

static void *r10_hold_run(void *arg)
{
	struct r10_holder *h = arg;
	char ctl[CMSG_SPACE(R10_RIGHTS_MAX * sizeof(int))] = { 0 };
	char byte = 'h';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c = (struct cmsghdr *)ctl;

	if (h->n > 0) {
		int *fds = (int *)CMSG_DATA(c);

		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN((size_t)h->n * sizeof(int));
		for (int i = 0; i < h->n; i++)
			fds[i] = 0;
		m.msg_control = ctl;
		m.msg_controllen = CMSG_SPACE((size_t)h->n * sizeof(int));
	}
	sendmsg(h->sv[0], &m, 0);
	return NULL;
}

static int r10_hold_start(struct r10_holder *h, int n)
{
	char byte = 'f';

	h->n = n;
	h->started = false;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, h->sv) < 0)
		return -errno;
	while (send(h->sv[0], &byte, 1, MSG_DONTWAIT) == 1)
		;
	if (pthread_create(&h->thread, NULL, r10_hold_run, h) != 0)
		return -EAGAIN;
	h->started = true;
	return 0;
}

/* Drains the queue (the held send lands, its descriptors closed), joins, closes. */
static void r10_hold_stop(struct r10_holder *h)
{
	char ctl[CMSG_SPACE(R10_RIGHTS_MAX * sizeof(int))], buf[16];

	while (h->started) {
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				    .msg_controllen = sizeof(ctl) };
		ssize_t r = recvmsg(h->sv[1], &m, MSG_DONTWAIT);

		if (r < 0) {
			if (errno != EAGAIN || pthread_tryjoin_np(h->thread, NULL) == 0)
				break;
			pause_ms(1);
			continue;
		}
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
			for (int *f = (int *)CMSG_DATA(c);
			     c->cmsg_type == SCM_RIGHTS && (char *)f < (char *)c + c->cmsg_len; f++)
				close(*f);
	}
	close(h->sv[0]);
	close(h->sv[1]);
}

/* Runs SCRIPT in a child: true when it printed WORD. */
static bool r10_exec_ran(const char *script, const char *word)
{
	char out[512] = "";
	char *const args[] = { (char *)script, NULL };
	int p[2];
	ssize_t n;
	pid_t pid;

	if (pipe(p) < 0)
		return false;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		execv(script, args);
		_exit(127);
	}
	close(p[1]);
	n = read(p[0], out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return strstr(out, word) != NULL;
}

/*
 * r10-fdhold-exec SCRIPT WORD FROM TO: for each N from FROM to TO, the
 * supervisor is made to hold N descriptors (performed sendmsg calls of
 * SCM_RIGHTS, blocked), then SCRIPT is run. Result: RAN n (the runs that
 * printed WORD), then HELD-EXECS the number tried.
 */
static int cmd_r10_fdhold_exec(int argc, char **argv)
{
	struct r10_holder bulk[8], h;
	long from, to, ran = 0, tried = 0;
	int nbulk = 0, rest;

	if (argc != 4 || (from = parse_long(argv[2])) < 0 || (to = parse_long(argv[3])) < from ||
	    to - from > 200 || from > 8 * R10_RIGHTS_MAX)
		return 2;
	rest = (int)from;
	for (; rest > R10_RIGHTS_MAX && nbulk < 8; rest -= R10_RIGHTS_MAX)
		if (r10_hold_start(&bulk[nbulk++], R10_RIGHTS_MAX) < 0)
			return setup_failed("hold", errno);
	for (long n = rest; n <= rest + (to - from) && n <= R10_RIGHTS_MAX; n++) {
		if (r10_hold_start(&h, (int)n) < 0)
			return setup_failed("hold", errno);
		pause_ms(30);
		if (r10_exec_ran(argv[0], argv[1])) {
			note("held %ld: ran", from - rest + n);
			ran++;
		}
		tried++;
		r10_hold_stop(&h);
	}
	while (nbulk > 0)
		r10_hold_stop(&bulk[--nbulk]);
	result("RAN %ld", ran);
	result("HELD-EXECS %ld", tried);
	return 0;
}

struct r10_swap {
	char link[512], dir[512], target[512];
	atomic_bool stop;
};

/* Swaps the link between the two places, each time whole (rename over it). */
static void *r10_swap_run(void *arg)
{
	struct r10_swap *w = arg;
	char tmp[600];

	snprintf(tmp, sizeof(tmp), "%s.new", w->link);
	while (!atomic_load(&w->stop)) {
		unlink(tmp);
		if (symlink(w->dir, tmp) == 0)
			rename(tmp, w->link);
		unlink(tmp);
		if (symlink(w->target, tmp) == 0)
			rename(tmp, w->link);
	}
	return NULL;
}

/*
 * r10-climb-race DIR TARGET N: a thread swaps the link DIR/l between
 * DIR/d (made here) and TARGET; meanwhile N stats of DIR/l/../../BASE/x,
 * BASE being DIR's name (a file x there, made by the caller). Result:
 * RACE ok=n and e=n per errno seen.
 */
static int cmd_r10_climb_race(int argc, char **argv)
{
	static struct r10_swap w;
	char path[1200], out[256];
	const char *base;
	int counts[256] = { 0 }, ok = 0;
	long n;
	pthread_t t;
	size_t len;

	if (argc != 3 || (n = parse_long(argv[2])) < 1 || n > 1000000)
		return 2;
	base = strrchr(argv[0], '/');
	base = base ? base + 1 : argv[0];
	snprintf(w.link, sizeof(w.link), "%s/l", argv[0]);
	snprintf(w.dir, sizeof(w.dir), "%s/d", argv[0]);
	snprintf(w.target, sizeof(w.target), "%s", argv[1]);
	snprintf(path, sizeof(path), "%s/l/../../%s/x", argv[0], base);
	mkdir(w.dir, 0755);
	if (pthread_create(&t, NULL, r10_swap_run, &w) != 0)
		return setup_failed("thread", EAGAIN);
	for (struct stat sb; lstat(w.link, &sb) < 0;)
		sched_yield(); /* the swapping has begun */
	for (long i = 0; i < n; i++) {
		struct stat sb;

		if (stat(path, &sb) == 0)
			ok++;
		else if (errno < 256)
			counts[errno]++;
	}
	atomic_store(&w.stop, true);
	pthread_join(t, NULL);
	len = (size_t)snprintf(out, sizeof(out), "RACE ok=%d", ok);
	for (int e = 1; e < 256 && len < sizeof(out) - 32; e++)
		if (counts[e])
			len += (size_t)snprintf(out + len, sizeof(out) - len, " %s=%d", errname(e),
						counts[e]);
	result("%s", out);
	return 0;
}

const struct attack_cmd attack_r10_cmds[] = {
	{ "r10-access-caps", "full|permitted|dropped fixup|plain FILE  access(R_OK) as root",
	  cmd_r10_access_caps },
	{ "r10-tiocsti", " TIOCSTI into a pty of its own, read back", cmd_r10_tiocsti },
	{ "r10-fanotify", "fd|fid FILE  a write through a fanotify event's descriptor",
	  cmd_r10_fanotify },
	{ "r10-ioctl", "NUMBER  ioctl(NUMBER) on the working directory", cmd_r10_ioctl },
	{ "r10-elf-interp", "INTERP OUT N  an ELF of N program headers, PT_INTERP last, run",
	  cmd_r10_elf_interp },
	{ "r10-zerocopy", "zerocopy|plain  sendmsg on a full TCP window, the peer's bytes checked",
	  cmd_r10_zerocopy },
	{ "r10-flood", "SOCK N SECS READY [SPLIT]  N silent connections, reopened as they close",
	  cmd_r10_flood },
	{ "r10-exec-errno", "FILE...  exec each, the errno it gets", cmd_r10_exec_errno },
	{ "r10-probe", "PATH...  stat, open, access and readlink of each", cmd_r10_probe },
	{ "r10-climb-race", "DIR TARGET N  stats climbing through a link swapped to TARGET",
	  cmd_r10_climb_race },
	{ "r10-fdhold-exec", "SCRIPT WORD FROM TO  SCRIPT run while the supervisor holds N fds",
	  cmd_r10_fdhold_exec },
	{ NULL, NULL, NULL },
};
