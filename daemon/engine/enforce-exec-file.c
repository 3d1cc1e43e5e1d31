/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kernel makes of one file it executes, read as its handlers read
 * it, so that the exec checks (enforce-exec.c) follow the very files the
 * kernel runs:
 *  - binfmt_script takes "#!" and a name from the first 256 bytes, however
 *    short the file ("#!p" names p);
 *  - binfmt_elf goes by e_machine, never by EI_CLASS: a native loader reads
 *    the 64-bit layout, the compat one (i386, x32) the 32-bit layout, each
 *    refusing a table whose entries are not its struct's size. So the
 *    header is read both ways: the layout whose table the kernel would
 *    take is followed; a header that reads both ways is one we cannot
 *    tell, and is decided as a loader (EXEC_UNREADABLE).
 */
#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "enforce-exec.h"
#include "lib/util.h"

/* binfmt_script reads this much. */
#define EXEC_HEAD_MAX 256

/*
 * The kernel's bound on the program header table (load_elf_phdrs): it
 * refuses to run a file whose table is larger, or whose entries are not
 * its struct's size. A file within it has every entry read, whatever
 * their number: the kernel takes the first PT_INTERP, wherever it is.
 */
#define EXEC_PHDRS_MAX 65536

/* The ELF header's fields the walk needs, as one layout (64 or 32 bits) reads them. */
struct exec_elf {
	bool is64;
	unsigned int type, phnum, phentsize;
	uint64_t phoff;
	unsigned char *phdrs; /* the whole table, once read */
};

/* Program header i of the table: its type and where its contents are. */
static void exec_elf_phdr(const struct exec_elf *e, unsigned int i, uint32_t *ret_type,
			  uint64_t *ret_off, uint64_t *ret_len)
{
	const unsigned char *at = e->phdrs + (size_t)i * e->phentsize;

	if (e->is64) {
		Elf64_Phdr ph;

		memcpy(&ph, at, sizeof(ph));
		*ret_type = ph.p_type, *ret_off = ph.p_offset, *ret_len = ph.p_filesz;
	} else {
		Elf32_Phdr ph;

		memcpy(&ph, at, sizeof(ph));
		*ret_type = ph.p_type, *ret_off = ph.p_offset, *ret_len = ph.p_filesz;
	}
}

/* The header's fields as e->is64's layout places them; false when the file is too short. */
static bool exec_elf_header(const unsigned char *head, size_t n, struct exec_elf *e)
{
	if (e->is64) {
		Elf64_Ehdr h;

		if (n < sizeof(h))
			return false;
		memcpy(&h, head, sizeof(h));
		e->type = h.e_type, e->phoff = h.e_phoff;
		e->phnum = h.e_phnum, e->phentsize = h.e_phentsize;
	} else {
		Elf32_Ehdr h;

		if (n < sizeof(h))
			return false;
		memcpy(&h, head, sizeof(h));
		e->type = h.e_type, e->phoff = h.e_phoff;
		e->phnum = h.e_phnum, e->phentsize = h.e_phentsize;
	}
	return true;
}

/*
 * The whole program header table of e's layout, as that layout's loader
 * reads it: 0 and the table in e->phdrs (to free), 1 when that loader
 * would refuse the file (no table, or one out of its bounds), -1 when it
 * cannot be read whole.
 */
static int exec_elf_layout(int fd, const unsigned char *head, size_t n, struct exec_elf *e)
{
	size_t entry = e->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr), size;

	if (!exec_elf_header(head, n, e))
		return 1;
	size = (size_t)e->phnum * e->phentsize;
	if (e->phentsize != entry || size == 0 || size > EXEC_PHDRS_MAX)
		return 1;
	e->phdrs = malloc(size);
	if (!e->phdrs)
		return -1;
	if (pread(fd, e->phdrs, size, (off_t)e->phoff) != (ssize_t)size) {
		free(e->phdrs);
		e->phdrs = NULL;
		return -1;
	}
	return 0;
}

/* Does the dynamic section hold DF_1_PIE (a position-independent program, not a library)? */
static bool exec_elf_pie(int fd, bool is64, uint64_t off, uint64_t len)
{
	unsigned char buf[64 * sizeof(Elf64_Dyn)];
	size_t esz = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	ssize_t n = pread(fd, buf, len < sizeof(buf) ? len : sizeof(buf), (off_t)off);

	for (size_t i = 0; n > 0 && (i + 1) * esz <= (size_t)n; i++) {
		int64_t tag;
		uint64_t val;

		if (is64) {
			Elf64_Dyn d;

			memcpy(&d, buf + i * esz, esz);
			tag = d.d_tag, val = d.d_un.d_val;
		} else {
			Elf32_Dyn d;

			memcpy(&d, buf + i * esz, esz);
			tag = d.d_tag, val = d.d_un.d_val;
		}
		if (tag == DT_NULL)
			break;
		if (tag == DT_FLAGS_1)
			return val & DF_1_PIE;
	}
	return false;
}

/* The ELF interpreter of the table read in e, or what makes the file a loader. */
static void exec_elf_walk(int fd, const struct exec_elf *e, struct exec_file *ret)
{
	bool dynamic = false, pie = false;

	for (unsigned int i = 0; i < e->phnum; i++) {
		uint64_t off, len;
		uint32_t type;

		exec_elf_phdr(e, i, &type, &off, &len);
		if (type == PT_DYNAMIC && !dynamic) {
			dynamic = true;
			pie = exec_elf_pie(fd, e->is64, off, len);
		}
		if (type != PT_INTERP)
			continue;
		if (len < 2 || len > sizeof(ret->next) ||
		    pread(fd, ret->next, len, (off_t)off) != (ssize_t)len ||
		    ret->next[len - 1] != '\0')
			return;
		ret->has_next = true;
		return;
	}
	if (e->type == ET_DYN && dynamic && !pie)
		ret->kind = EXEC_LOADER;
}

static void exec_elf_read(int fd, const unsigned char *head, size_t n, struct exec_file *ret)
{
	struct exec_elf wide = { .is64 = true }, narrow = { .is64 = false };
	int r64 = exec_elf_layout(fd, head, n, &wide);
	int r32 = exec_elf_layout(fd, head, n, &narrow);

	ret->kind = EXEC_ELF;
	if (r64 < 0 || r32 < 0 || (r64 == 0 && r32 == 0))
		/* What it would run is unknown: decided as a loader. */
		ret->kind = EXEC_UNREADABLE;
	else if (r64 == 0)
		exec_elf_walk(fd, &wide, ret);
	else if (r32 == 0)
		exec_elf_walk(fd, &narrow, ret);
	free(wide.phdrs);
	free(narrow.phdrs);
}

void exec_file_read(int pathfd, struct exec_file *ret)
{
	unsigned char head[EXEC_HEAD_MAX + 1];
	_cleanup_close_ int fd = -1;
	char link[64];
	ssize_t n;

	ret->kind = EXEC_OTHER;
	ret->has_next = false;
	/* Read as the supervisor: the kernel runs what the program may not read. */
	snprintf(link, sizeof(link), "/proc/self/fd/%d", pathfd);
	fd = open(link, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	n = fd < 0 ? -1 : pread(fd, head, EXEC_HEAD_MAX, 0);
	if (n < 0)
		ret->kind = EXEC_UNREADABLE;
	if (n < 2)
		return;
	head[n] = '\0';
	if (head[0] == '#' && head[1] == '!') {
		const char *s = (const char *)head + 2 + strspn((const char *)head + 2, " \t");
		size_t len = strcspn(s, " \t\n");

		ret->kind = EXEC_SCRIPT;
		if (!len || len >= sizeof(ret->next))
			return;
		memcpy(ret->next, s, len);
		ret->next[len] = '\0';
		ret->has_next = true;
		return;
	}
	if ((size_t)n >= SELFMAG && memcmp(head, ELFMAG, SELFMAG) == 0)
		exec_elf_read(fd, head, (size_t)n, ret);
}
