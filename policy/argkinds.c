/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What some system calls' register arguments are, for `policy check`: a
 * pointer (a condition on it compares the address, not what it points
 * to) or a 32-bit int (the kernel's SYSCALL_DEFINE wrapper keeps the low
 * 32 bits; a condition on all 64 misses a value with stray high bits).
 * From the kernel's prototypes; the calls whose arguments conditions
 * most often name. A call or argument not listed is "other": no warning.
 */
#include "config.h"

#include <string.h>
#include <sys/syscall.h>

#include "lib/util.h"
#include "policy/internal.h"

struct argkinds_entry {
	int nr;
	const char *kinds; /* per argument: 'p' pointer, 'i' 32-bit int, '-' other */
};

static const struct argkinds_entry argkinds_table[] = {
	{ SYS_ioctl, "ii-" },	      /* unsigned int fd, unsigned int cmd, unsigned long */
	{ SYS_fcntl, "ii-" },	      /* unsigned int fd, unsigned int cmd, unsigned long */
	{ SYS_prctl, "i-" },	      /* int option, unsigned long... */
	{ SYS_socket, "iii" },	      /* family, type, protocol */
	{ SYS_socketpair, "iiip" },
	{ SYS_setsockopt, "iiipi" },
	{ SYS_getsockopt, "iiipp" },
	{ SYS_connect, "ipi" },
	{ SYS_bind, "ipi" },
	{ SYS_sendto, "ip-ipi" },
	{ SYS_sendmsg, "ipi" },
	{ SYS_setns, "ii" },
	{ SYS_clone3, "p-" },	      /* struct clone_args *, size_t */
	{ SYS_kill, "ii" },
	{ SYS_tkill, "ii" },
	{ SYS_tgkill, "iii" },
	{ SYS_personality, "i" },
	{ SYS_setrlimit, "ip" },
	{ SYS_prlimit64, "iipp" },
	{ SYS_madvise, "--i" },
	{ SYS_seccomp, "iip" },
	{ SYS_bpf, "ipi" },
	{ SYS_memfd_create, "pi" },
	{ SYS_userfaultfd, "i" },
	{ SYS_fanotify_init, "ii" },
	{ SYS_quotactl, "ipip" },
	{ SYS_openat, "ipi" },
	{ SYS_openat2, "ipp-" },
	{ SYS_execve, "ppp" },
	{ SYS_execveat, "ipppi" },
	{ SYS_renameat2, "ipipi" },
	{ SYS_setuid, "i" },
	{ SYS_setgid, "i" },
	{ SYS_setresuid, "iii" },
	{ SYS_setresgid, "iii" },
};

enum argkind argkinds_of(int nr, unsigned int arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(argkinds_table); i++) {
		const char *k = argkinds_table[i].kinds;

		if (argkinds_table[i].nr != nr || arg >= strlen(k))
			continue;
		return k[arg] == 'p' ? ARGKIND_POINTER : k[arg] == 'i' ? ARGKIND_INT : ARGKIND_OTHER;
	}
	return ARGKIND_OTHER;
}
