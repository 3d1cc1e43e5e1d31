/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 11, execs and socket names: an ELF file whose EI_CLASS byte says
 * 32 bits while the kernel runs it by its 64-bit layout (r11-exec.sh), and
 * the answers of a unix connect or sendto that climbs out of a hidden
 * directory with ".." (r11-climb.sh). /dev/tty opened by unotifyd for a
 * sandbox that left its terminal (r11-daemon-tty.sh).
 */
#include "config.h"

#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attack.h"

/*
 * r11-elf OUT INTERP CLASS: writes OUT, an x86-64 ELF (64-bit layout) of a
 * PT_LOAD and a PT_INTERP naming INTERP, with CLASS as its EI_CLASS byte
 * (the kernel's ELF loader never reads it). Result: WROTE OUT.
 */
static int cmd_r11_elf(int argc, char **argv)
{
	const uint64_t base = 0x400000, phoff = sizeof(Elf64_Ehdr);
	const size_t data = phoff + 2 * sizeof(Elf64_Phdr);
	Elf64_Ehdr eh = { .e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT };
	Elf64_Phdr load = { .p_type = PT_LOAD, .p_flags = PF_R, .p_vaddr = base, .p_paddr = base,
			    .p_align = 0x1000 };
	Elf64_Phdr interp = { .p_type = PT_INTERP, .p_flags = PF_R, .p_align = 1 };
	unsigned char img[sizeof(eh) + 2 * sizeof(Elf64_Phdr) + 4096] = { 0 };
	size_t ilen, size;
	int fd;

	if (argc != 3 || (ilen = strlen(argv[1]) + 1) > 4096)
		return 2;
	size = data + ilen;
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = (unsigned char)strtoul(argv[2], NULL, 0);
	eh.e_ident[EI_DATA] = ELFDATA2LSB, eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_entry = base, eh.e_phoff = phoff, eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr), eh.e_phnum = 2;
	load.p_filesz = load.p_memsz = size;
	interp.p_offset = data, interp.p_vaddr = interp.p_paddr = base + data;
	interp.p_filesz = interp.p_memsz = ilen;
	memcpy(img, &eh, sizeof(eh));
	memcpy(img + phoff, &load, sizeof(load));
	memcpy(img + phoff + sizeof(load), &interp, sizeof(interp));
	memcpy(img + data, argv[1], ilen);
	fd = open(argv[0], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write(fd, img, size) != (ssize_t)size)
		return setup_failed("write", errno);
	close(fd);
	result("WROTE %s", argv[0]);
	return 0;
}

/* The outcome of connecting (stream) or sending (datagram) to the unix socket at path. */
static const char *r11_unix_try(const char *path, int type)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0), r;

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return "SETUP";
	strcpy(sa.sun_path, path);
	if (type == SOCK_STREAM)
		r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	else
		r = (int)sendto(fd, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa));
	if (r < 0)
		r = -errno;
	close(fd);
	return r < 0 ? errname(-r) : "OK";
}

/*
 * r11-unix-probe PATH...: a stream connect and a datagram sendto to each
 * PATH. Result: one line per PATH, UNIX PATH connect=E sendto=E (E: OK or
 * the errno).
 */
static int cmd_r11_unix_probe(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		result("UNIX %s connect=%s sendto=%s", argv[i], r11_unix_try(argv[i], SOCK_STREAM),
		       r11_unix_try(argv[i], SOCK_DGRAM));
	return 0;
}

/* r11-unix-bind PATH: leaves a unix socket file at PATH (no one listens). Result: BOUND PATH. */
static int cmd_r11_unix_bind(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (argc != 1 || strlen(argv[0]) >= sizeof(sa.sun_path))
		return 2;
	strcpy(sa.sun_path, argv[0]);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return setup_failed("bind", errno);
	close(fd);
	result("BOUND %s", argv[0]);
	return 0;
}

/*
 * r11-tty-setsid: in a session of its own (no controlling terminal), opens
 * /dev/tty, which natively fails (ENXIO). Result: TTY OK, or TTY errno.
 */
static int cmd_r11_tty_setsid(int argc, char **argv)
{
	int p[2], err = 0;
	pid_t pid;

	(void)argv;
	if (argc != 0 || pipe2(p, O_CLOEXEC) < 0)
		return 2;
	pid = fork();
	if (pid == 0) {
		int fd = setsid() < 0 ? -1 : open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);

		err = fd < 0 ? errno : 0;
		_exit(write(p[1], &err, sizeof(err)) == (ssize_t)sizeof(err) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &err, sizeof(err)) != (ssize_t)sizeof(err))
		return setup_failed("fork", pid < 0 ? errno : EIO);
	close(p[0]);
	waitpid(pid, NULL, 0);
	result("TTY %s", err ? errname(err) : "OK");
	return 0;
}

/* The abstract address of name, '~' standing for a NUL byte; its length in *ret_len. */
static void r11_abstract(const char *name, struct sockaddr_un *sa, socklen_t *ret_len)
{
	size_t n = strlen(name);

	*sa = (struct sockaddr_un){ .sun_family = AF_UNIX };
	for (size_t i = 0; i < n && i + 1 < sizeof(sa->sun_path); i++)
		sa->sun_path[i + 1] = name[i] == '~' ? '\0' : name[i];
	*ret_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/*
 * r11-abstract-connect NAME...: connects to each abstract socket ('~' is a
 * NUL byte). Result: one line per NAME, ABSTRACT NAME OK or the errno.
 */
static int cmd_r11_abstract_connect(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		struct sockaddr_un sa;
		socklen_t len;
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

		r11_abstract(argv[i], &sa, &len);
		r = fd < 0 ? -1 : connect(fd, (struct sockaddr *)&sa, len);
		result("ABSTRACT %s %s", argv[i], r < 0 ? errname(errno) : "OK");
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

/* r11-abstract-listen NAME SECS: listens on an abstract socket for SECS seconds. Result: LISTENING. */
static int cmd_r11_abstract_listen(int argc, char **argv)
{
	struct sockaddr_un sa;
	socklen_t len;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (argc != 2)
		return 2;
	r11_abstract(argv[0], &sa, &len);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0 || listen(fd, 16) < 0)
		return setup_failed("listen", errno);
	result("LISTENING");
	fflush(stdout);
	sleep((unsigned int)strtoul(argv[1], NULL, 10));
	return 0;
}

const struct attack_cmd attack_r11_exec_cmds[] = {
	{ "r11-abstract-connect", "NAME...  connect to abstract sockets ('~': NUL)",
	  cmd_r11_abstract_connect },
	{ "r11-abstract-listen", "NAME SECS  an abstract socket listening", cmd_r11_abstract_listen },
	{ "r11-tty-setsid", "  /dev/tty opened in a session of its own", cmd_r11_tty_setsid },
	{ "r11-elf", "OUT INTERP CLASS  an x86-64 ELF naming INTERP, EI_CLASS set to CLASS",
	  cmd_r11_elf },
	{ "r11-unix-probe", "PATH...  a unix connect and sendto to each", cmd_r11_unix_probe },
	{ "r11-unix-bind", "PATH  a unix socket file no one listens on", cmd_r11_unix_bind },
	{ NULL, NULL, NULL },
};
