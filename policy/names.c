/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Names: syscalls (libseccomp, native arch), errnos, actions, numbers. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "policy/internal.h"

/* ---- Syscalls ---- */

/*
 * libseccomp hands out malloc'd names; policy_syscall_name() promises static
 * storage (the audit trail calls it for every decision), so the native table
 * is copied once. The longest x86_64 name has 23 characters.
 */
static char syscall_names[POLICY_NR_MAX][32];
static pthread_once_t syscall_names_once = PTHREAD_ONCE_INIT;

/*
 * System calls newer than the libseccomp we may be built with (Debian 12's
 * 2.5.4 knows none of these). Left unnamed, they would be in no category
 * and no implicit set, and a `default allow` would let them run unseen:
 * setxattrat changes a file's xattrs and ACL by path, file_setattr its
 * immutable and append-only flags. Since Linux 5.1 new calls take the same
 * number on every architecture but alpha, mips and ia64 (which have
 * offsets); elsewhere the table is empty and libseccomp's word is all.
 */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || defined(__arm__) || \
	defined(__riscv) || defined(__powerpc__) || defined(__s390__) || defined(__loongarch__)
#define NAMES_UNIFIED 1
#endif

struct names_newer {
	const char *name;
	int nr;
};

static const struct names_newer names_newer[] = {
#ifdef NAMES_UNIFIED
	{ "statmount", 457 },	  { "listmount", 458 },	    { "lsm_get_self_attr", 459 },
	{ "lsm_set_self_attr", 460 }, { "lsm_list_modules", 461 }, { "mseal", 462 },
	{ "setxattrat", 463 },	  { "getxattrat", 464 },    { "listxattrat", 465 },
	{ "removexattrat", 466 }, { "open_tree_attr", 467 }, { "file_getattr", 468 },
	{ "file_setattr", 469 },
#endif
	{ NULL, 0 },
};

/* The number of a call libseccomp does not know, from the table above; -ENOENT. */
static int names_newer_nr(const char *name)
{
	for (size_t i = 0; names_newer[i].name; i++)
		if (strcmp(names_newer[i].name, name) == 0)
			return names_newer[i].nr;
	return -ENOENT;
}

static void names_load_syscalls(void)
{
	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		_cleanup_free_ char *s = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

		if (s && strlen(s) < sizeof(syscall_names[nr]))
			strcpy(syscall_names[nr], s);
	}
	for (size_t i = 0; names_newer[i].name; i++)
		if (!syscall_names[names_newer[i].nr][0])
			strcpy(syscall_names[names_newer[i].nr], names_newer[i].name);
}

const char *policy_syscall_name(int nr)
{
	if (nr < 0 || nr >= POLICY_NR_MAX)
		return NULL;
	pthread_once(&syscall_names_once, names_load_syscalls);
	return syscall_names[nr][0] ? syscall_names[nr] : NULL;
}

int names_lookup_syscall(const char *name, int *ret_nr)
{
	int nr = seccomp_syscall_resolve_name(name);

	/* libseccomp answers other architectures' syscalls with pseudo numbers <= -10000. */
	if (nr <= -10000)
		return -ENOSYS;
	if (nr < 0)
		nr = names_newer_nr(name);
	if (nr < 0 || nr >= POLICY_NR_MAX)
		return -ENOENT;
	*ret_nr = nr;
	return 0;
}

int policy_syscall_resolve(const char *name)
{
	int nr, r;

	r = names_lookup_syscall(name, &nr);
	if (r < 0)
		return -ENOENT;
	return nr;
}

bool policy_syscall_has_path(int nr)
{
	const struct policy_pathcall *pc = nr >= 0 ? policy_pathcall_find(nr) : NULL;

	return policy_pathcall_has(pc, 0) || policy_pathcall_has(pc, 1);
}

const char *names_native_arch(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return "x32";
#elif defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "x86";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "arm";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#elif defined(__powerpc64__)
	return "ppc64";
#elif defined(__s390x__)
	return "s390x";
#else
	return "the native architecture";
#endif
}

/* Suggestions: within 1 edit for short words, 2 otherwise; the closest wins. */
static size_t names_suggest_limit(const char *name)
{
	return strlen(name) <= 4 ? 1 : 2;
}

const char *names_suggest_syscall(const char *name)
{
	size_t limit = names_suggest_limit(name), best = limit + 1;
	const char *found = NULL;

	for (int nr = 0; nr < POLICY_NR_MAX; nr++) {
		const char *s = policy_syscall_name(nr);
		size_t d;

		if (!s)
			continue;
		d = names_distance(name, s, limit);
		if (d < best) {
			best = d;
			found = s;
		}
	}
	return found;
}

/* ---- Errnos ---- */

struct errno_name {
	int err;
	const char *name;
};

/* clang-format off */
#define ERRNO(e) { e, #e }
/* Every Linux errno, E2BIG..EXDEV; aliases last, so numbers map to the usual name. */
static const struct errno_name errno_names[] = {
	ERRNO(EPERM),
	ERRNO(ENOENT),
	ERRNO(ESRCH),
	ERRNO(EINTR),
	ERRNO(EIO),
	ERRNO(ENXIO),
	ERRNO(E2BIG),
	ERRNO(ENOEXEC),
	ERRNO(EBADF),
	ERRNO(ECHILD),
	ERRNO(EAGAIN),
	ERRNO(ENOMEM),
	ERRNO(EACCES),
	ERRNO(EFAULT),
	ERRNO(ENOTBLK),
	ERRNO(EBUSY),
	ERRNO(EEXIST),
	ERRNO(EXDEV),
	ERRNO(ENODEV),
	ERRNO(ENOTDIR),
	ERRNO(EISDIR),
	ERRNO(EINVAL),
	ERRNO(ENFILE),
	ERRNO(EMFILE),
	ERRNO(ENOTTY),
	ERRNO(ETXTBSY),
	ERRNO(EFBIG),
	ERRNO(ENOSPC),
	ERRNO(ESPIPE),
	ERRNO(EROFS),
	ERRNO(EMLINK),
	ERRNO(EPIPE),
	ERRNO(EDOM),
	ERRNO(ERANGE),
	ERRNO(EDEADLK),
	ERRNO(ENAMETOOLONG),
	ERRNO(ENOLCK),
	ERRNO(ENOSYS),
	ERRNO(ENOTEMPTY),
	ERRNO(ELOOP),
	ERRNO(ENOMSG),
	ERRNO(EIDRM),
	ERRNO(ECHRNG),
	ERRNO(EL2NSYNC),
	ERRNO(EL3HLT),
	ERRNO(EL3RST),
	ERRNO(ELNRNG),
	ERRNO(EUNATCH),
	ERRNO(ENOCSI),
	ERRNO(EL2HLT),
	ERRNO(EBADE),
	ERRNO(EBADR),
	ERRNO(EXFULL),
	ERRNO(ENOANO),
	ERRNO(EBADRQC),
	ERRNO(EBADSLT),
	ERRNO(EBFONT),
	ERRNO(ENOSTR),
	ERRNO(ENODATA),
	ERRNO(ETIME),
	ERRNO(ENOSR),
	ERRNO(ENONET),
	ERRNO(ENOPKG),
	ERRNO(EREMOTE),
	ERRNO(ENOLINK),
	ERRNO(EADV),
	ERRNO(ESRMNT),
	ERRNO(ECOMM),
	ERRNO(EPROTO),
	ERRNO(EMULTIHOP),
	ERRNO(EDOTDOT),
	ERRNO(EBADMSG),
	ERRNO(EOVERFLOW),
	ERRNO(ENOTUNIQ),
	ERRNO(EBADFD),
	ERRNO(EREMCHG),
	ERRNO(ELIBACC),
	ERRNO(ELIBBAD),
	ERRNO(ELIBSCN),
	ERRNO(ELIBMAX),
	ERRNO(ELIBEXEC),
	ERRNO(EILSEQ),
	ERRNO(ERESTART),
	ERRNO(ESTRPIPE),
	ERRNO(EUSERS),
	ERRNO(ENOTSOCK),
	ERRNO(EDESTADDRREQ),
	ERRNO(EMSGSIZE),
	ERRNO(EPROTOTYPE),
	ERRNO(ENOPROTOOPT),
	ERRNO(EPROTONOSUPPORT),
	ERRNO(ESOCKTNOSUPPORT),
	ERRNO(EOPNOTSUPP),
	ERRNO(EPFNOSUPPORT),
	ERRNO(EAFNOSUPPORT),
	ERRNO(EADDRINUSE),
	ERRNO(EADDRNOTAVAIL),
	ERRNO(ENETDOWN),
	ERRNO(ENETUNREACH),
	ERRNO(ENETRESET),
	ERRNO(ECONNABORTED),
	ERRNO(ECONNRESET),
	ERRNO(ENOBUFS),
	ERRNO(EISCONN),
	ERRNO(ENOTCONN),
	ERRNO(ESHUTDOWN),
	ERRNO(ETOOMANYREFS),
	ERRNO(ETIMEDOUT),
	ERRNO(ECONNREFUSED),
	ERRNO(EHOSTDOWN),
	ERRNO(EHOSTUNREACH),
	ERRNO(EALREADY),
	ERRNO(EINPROGRESS),
	ERRNO(ESTALE),
	ERRNO(EUCLEAN),
	ERRNO(ENOTNAM),
	ERRNO(ENAVAIL),
	ERRNO(EISNAM),
	ERRNO(EREMOTEIO),
	ERRNO(EDQUOT),
	ERRNO(ENOMEDIUM),
	ERRNO(EMEDIUMTYPE),
	ERRNO(ECANCELED),
	ERRNO(ENOKEY),
	ERRNO(EKEYEXPIRED),
	ERRNO(EKEYREVOKED),
	ERRNO(EKEYREJECTED),
	ERRNO(EOWNERDEAD),
	ERRNO(ENOTRECOVERABLE),
	ERRNO(ERFKILL),
	ERRNO(EHWPOISON),
	ERRNO(EWOULDBLOCK),
	ERRNO(EDEADLOCK),
	ERRNO(ENOTSUP),
};
#undef ERRNO
/* clang-format on */

const char *policy_errno_name(int err)
{
	for (size_t i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (errno_names[i].err == err)
			return errno_names[i].name;
	return NULL;
}

/* Numbers beyond 4095 are not errors to the kernel's syscall return convention. */
int policy_errno_parse(const char *s)
{
	uint64_t v;

	if (!s)
		return -EINVAL;
	if (s[0] >= '0' && s[0] <= '9') {
		if (names_parse_u64(s, &v) < 0 || v < 1 || v > 4095)
			return -EINVAL;
		return (int)v;
	}
	for (size_t i = 0; i < ARRAY_SIZE(errno_names); i++)
		if (strcmp(errno_names[i].name, s) == 0)
			return errno_names[i].err;
	return -EINVAL;
}

const char *names_suggest_errno(const char *name)
{
	size_t limit = names_suggest_limit(name), best = limit + 1;
	const char *found = NULL;
	char upper[64];
	size_t i;

	/* "eacces" is EACCES: compare in capitals, where every errno name lives. */
	for (i = 0; name[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (name[i] >= 'a' && name[i] <= 'z') ? name[i] - 'a' + 'A' : name[i];
	upper[i] = '\0';
	for (i = 0; i < ARRAY_SIZE(errno_names); i++) {
		size_t d = names_distance(upper, errno_names[i].name, limit);

		if (d < best) {
			best = d;
			found = errno_names[i].name;
		}
	}
	return found;
}

/* ---- Actions ---- */

const char *policy_action_name(enum policy_action a)
{
	switch (a) {
	case POLICY_ALLOW:
		return "allow";
	case POLICY_DENY:
		return "deny";
	case POLICY_KILL:
		return "kill";
	case POLICY_LOG:
		return "log";
	case POLICY_RETURN:
		return "return";
	}
	return "unknown";
}

/* ---- Helpers ---- */

/*
 * Optimal string alignment distance: Levenshtein plus adjacent
 * transpositions, the typos people make ("opnat", "EACESS", "raed").
 * Names are short: words over 63 characters are never close.
 */
size_t names_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t prev2[64], prev[64], cur[64];

	if (la > 63 || lb > 63)
		return limit + 1;
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	prev2[0] = 0;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		memcpy(prev2, prev, sizeof(prev));
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb] > limit ? limit + 1 : prev[lb];
}

int names_parse_u64(const char *s, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	/* strtoull would also take blanks, '+' and '-': the language does not. */
	if (!s || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end != '\0' || end == s)
		return -EINVAL;
	*ret = v;
	return 0;
}

int names_parse_i64(const char *s, int64_t *ret)
{
	bool neg = s && s[0] == '-';
	uint64_t v;
	int r;

	r = names_parse_u64(neg ? s + 1 : s, &v);
	if (r < 0)
		return r;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*ret = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > (uint64_t)INT64_MAX)
			return -ERANGE;
		*ret = (int64_t)v;
	}
	return 0;
}
