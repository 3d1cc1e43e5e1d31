/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seccomp side of the Landlock layer (compile.c calls in here), and the
 * layer in a readable form.
 *
 * For a family the layer decides, the filter lets the calls Landlock
 * decides run in the kernel and sends the others to the supervisor:
 *  - open, openat: notified when the flags hold O_CREAT, O_TMPFILE or
 *    O_PATH (creating is the supervisor's: Landlock would create the file
 *    and then refuse to open it; O_PATH Landlock does not check), access
 *    mode 3 (it reads and writes nothing, so Landlock asks no right; the
 *    kernel's own check is a read and a write, as the policy's), O_TRUNC
 *    when the kernel has no truncate right (ABI < 3), and O_RDWR or
 *    O_RDONLY|O_TRUNC when a rule grants read or write alone (the policy
 *    wants one rule for both); allowed otherwise. The two sets of flag
 *    conditions are disjoint and cover every value, so libseccomp never
 *    has to choose between two actions;
 *  - openat2 (flags in memory) and creat (always creates): notified;
 *  - execve, execveat: notified. Landlock decides them, but cannot tell
 *    the dynamic loader run as a program (which then runs any file it
 *    may read) from the loader run for a program: the supervisor refuses
 *    the first unless a rule names it (daemon/engine/enforce-exec.c).
 * With any file right handled, rename and link (Landlock refuses to move a
 * file between directories without its refer right: EXDEV) and, with the
 * truncate right, truncate are notified whenever the policy may let them
 * run, and the supervisor performs them outside the sandbox.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "lib/uapi.h"
#include "lib/util.h"
#include "policy/internal.h"
#include "policy/landlock.h"

#define LL_O_TMPFILE (O_TMPFILE & ~O_DIRECTORY)

struct ll_term {
	uint64_t mask, value; /* (flags & mask) == value */
};

/* The flag bits the decision reads (landlock_open_notified), the minterms' space. */
static const uint64_t ll_bits[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_PATH, LL_O_TMPFILE};
#define LL_COMBOS (1u << ARRAY_SIZE(ll_bits))
#define LL_BITS	  (O_ACCMODE | O_CREAT | O_TRUNC | O_PATH | LL_O_TMPFILE)
/* Terms over six bits, each one, zero or either: 3^6. */
#define LL_TERMS_MAX 729

/* The roles of an open's access (O_TRUNC writes), as policy_pathcall_roles() gives them. */
static unsigned int ll_access_roles(uint64_t flags)
{
	unsigned int roles = 0;

	if ((flags & O_ACCMODE) == O_RDONLY || (flags & O_ACCMODE) == O_RDWR)
		roles |= POLICY_ROLE_READ;
	if ((flags & O_ACCMODE) == O_WRONLY || (flags & O_ACCMODE) == O_RDWR || (flags & O_TRUNC))
		roles |= POLICY_ROLE_WRITE;
	return roles;
}

bool landlock_open_notified(const struct policy_landlock *ll, uint64_t flags)
{
	unsigned int roles = ll_access_roles(flags);

	/* O_PATH: Landlock does not check it; O_TMPFILE: it does not check creating it. */
	if (flags & (O_PATH | LL_O_TMPFILE))
		return true;
	/* Access mode 3 has no file mode to ask a right for: Landlock lets it open anything. */
	if ((flags & O_ACCMODE) == O_ACCMODE)
		return true;
	/*
	 * O_CREAT: the policy refuses it where it refuses creating, even for a
	 * file that exists, which Landlock checks on the open's rights alone:
	 * those must be refused too, or the supervisor decides.
	 */
	if ((flags & O_CREAT) && (!ll->open_create || !(roles & ll->open_refused)))
		return true;
	/* Without the truncate right (ABI < 3), Landlock lets O_TRUNC through. */
	if ((flags & O_TRUNC) && ll->abi < 3 && (ll->open_refused & POLICY_ROLE_WRITE))
		return true;
	return ll->open_notify_rdwr && roles == (POLICY_ROLE_READ | POLICY_ROLE_WRITE);
}

/* One Quine-McCluskey round over terms of one mask: merged pairs to next, the rest to primes. */
static size_t ll_qm_round(const struct ll_term *cur, size_t n, struct ll_term *next,
			  struct ll_term *primes, size_t *n_primes)
{
	bool merged[LL_TERMS_MAX] = {false};
	size_t n_next = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			uint64_t diff = cur[i].value ^ cur[j].value;
			struct ll_term t = {cur[i].mask & ~diff, cur[i].value & ~diff};
			bool seen = false;

			if (cur[i].mask != cur[j].mask || !diff || (diff & (diff - 1)))
				continue;
			merged[i] = merged[j] = true;
			for (size_t k = 0; k < n_next && !seen; k++)
				seen = next[k].mask == t.mask && next[k].value == t.value;
			if (!seen)
				next[n_next++] = t;
		}
	for (size_t i = 0; i < n; i++)
		if (!merged[i])
			primes[(*n_primes)++] = cur[i];
	return n_next;
}

/* Few terms whose union is exactly the combinations with notify == want. */
static size_t ll_cover(const struct policy_landlock *ll, bool want, struct ll_term *out)
{
	struct ll_term mins[LL_COMBOS], a[LL_TERMS_MAX], b[LL_TERMS_MAX], primes[LL_TERMS_MAX];
	bool covered[LL_COMBOS] = {false};
	size_t n_mins = 0, n, n_primes = 0, n_out = 0, left;

	for (unsigned int c = 0; c < LL_COMBOS; c++) {
		uint64_t v = 0;

		for (size_t k = 0; k < ARRAY_SIZE(ll_bits); k++)
			if (c & (1u << k))
				v |= ll_bits[k];
		/* O_WRONLY|O_RDWR is the access mode 3: one value among four. */
		if (landlock_open_notified(ll, v) == want)
			mins[n_mins++] = (struct ll_term){LL_BITS, v};
	}
	memcpy(a, mins, n_mins * sizeof(*a));
	for (n = n_mins; n;) {
		n = ll_qm_round(a, n, b, primes, &n_primes);
		memcpy(a, b, n * sizeof(*a));
	}
	for (left = n_mins; left > 0;) {
		size_t best = 0, best_count = 0;

		for (size_t p = 0; p < n_primes; p++) {
			size_t count = 0;

			for (size_t m = 0; m < n_mins; m++)
				count += !covered[m] &&
					 (mins[m].value & primes[p].mask) == primes[p].value;
			if (count > best_count) {
				best = p;
				best_count = count;
			}
		}
		for (size_t m = 0; m < n_mins; m++)
			if (!covered[m] &&
			    (mins[m].value & primes[best].mask) == primes[best].value) {
				covered[m] = true;
				left--;
			}
		out[n_out++] = primes[best];
	}
	return n_out;
}

static int ll_add_terms(scmp_filter_ctx ctx, uint32_t action, int nr, unsigned int arg,
			const struct ll_term *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int r = seccomp_rule_add_exact(
			ctx, action, nr, 1,
			SCMP_CMP64(arg, SCMP_CMP_MASKED_EQ, t[i].mask, t[i].value));

		if (r < 0)
			return r;
	}
	return 0;
}

/* The notified and the allowed flag values, as two disjoint sets of terms. */
static int ll_compile_open(scmp_filter_ctx ctx, const struct policy_landlock *ll, int nr,
			   uint32_t def)
{
	unsigned int arg = nr == SYS_openat ? 2 : 1;
	struct ll_term terms[LL_COMBOS];
	size_t n;
	int r = 0;

	if (def != SCMP_ACT_NOTIFY) {
		n = ll_cover(ll, true, terms);
		r = ll_add_terms(ctx, SCMP_ACT_NOTIFY, nr, arg, terms, n);
	}
	if (r == 0 && def != SCMP_ACT_ALLOW) {
		n = ll_cover(ll, false, terms);
		r = ll_add_terms(ctx, SCMP_ACT_ALLOW, nr, arg, terms, n);
	}
	return r;
}

int landlock_compile_syscall(void *ctx, const struct policy_landlock *ll, int nr, uint32_t def,
			     bool *ret_notified)
{
	int r = 0;

	if (policy_landlock_family_of(nr) == POLICY_LANDLOCK_EXEC) {
		if (def != SCMP_ACT_NOTIFY)
			r = seccomp_rule_add_exact(ctx, SCMP_ACT_NOTIFY, nr, 0);
		*ret_notified = true;
		return r;
	}
	/* connect and bind: the rules allow what is not TCP (landlock-net.c). */
	if (policy_landlock_family_of(nr) != POLICY_LANDLOCK_OPEN) {
		if (def != SCMP_ACT_ALLOW)
			r = seccomp_rule_add_exact(ctx, SCMP_ACT_ALLOW, nr, 0);
		*ret_notified = false;
		return r;
	}
	r = ll_compile_open(ctx, ll, nr, def);
	*ret_notified = true;
	return r;
}

bool landlock_forces_notify(const struct policy_landlock *ll, int nr)
{
	static const int refer[] = {
#ifdef SYS_rename
		SYS_rename,
#endif
#ifdef SYS_link
		SYS_link,
#endif
		SYS_renameat, SYS_renameat2, SYS_linkat,
	};

	if (!ll || !ll->handled_fs)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(refer); i++)
		if (refer[i] == nr)
			return true;
	if (nr == SYS_truncate)
		return ll->handled_fs & LANDLOCK_ACCESS_FS_TRUNCATE;
	/* mknod makes regular files too (mode S_IFREG or 0). */
	if (nr == SYS_mknodat
#ifdef SYS_mknod
	    || nr == SYS_mknod
#endif
	)
		return ll->handled_fs & LANDLOCK_ACCESS_FS_MAKE_REG;
	/* openat2 and creat, when the opens are in the layer: the supervisor's. */
	return policy_landlock_family_of(nr) == POLICY_LANDLOCK_OPEN &&
	       ll->decided[POLICY_LANDLOCK_OPEN] && !policy_landlock_decides(ll, nr);
}

static const char ll_why_names[] = "Landlock checks names made and removed on their directory, "
				   "a rule matches the name: the supervisor decides them";

const char *policy_landlock_why_not(const struct policy_landlock *ll, int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);
	int f = policy_landlock_family_of(nr);

	if (f == POLICY_LANDLOCK_CONNECT || f == POLICY_LANDLOCK_BIND)
		return ll->decided[f] ? NULL : ll->why_not[f];
	if (nr == SYS_sendto || nr == SYS_sendmsg || nr == SYS_sendmmsg)
		return "Landlock does not check sends (a TCP Fast Open send connects without "
		       "connect): the supervisor decides them";
	if (!pc)
		return NULL;
	if (f >= 0 && !ll->decided[f])
		return ll->why_not[f];
	if (nr == SYS_openat2)
		return "openat2 keeps its flags in memory: the supervisor decides it (and "
		       "performs it outside the sandbox)";
	if (f == POLICY_LANDLOCK_OPEN && !policy_landlock_decides(ll, nr))
		return "creat always creates: the supervisor decides it";
	if (f >= 0)
		return NULL;
	switch (pc->perform) {
	case POLICY_PERFORM_STAT:
	case POLICY_PERFORM_READLINK:
	case POLICY_PERFORM_ACCESS:
		return "Landlock does not check stat, access or readlink";
	case POLICY_PERFORM_XATTR:
		/* A read rule's opens may be Landlock's: these stay notified where it refuses. */
		return "Landlock does not check xattr reads or file_getattr: the supervisor "
		       "decides them on their path";
	case POLICY_PERFORM_MUTATE:
		break;
	default:
		return NULL;
	}
	if (pc->role[0] == POLICY_ROLE_ATTR)
		return "Landlock does not check chmod, chown, utimes or xattrs";
	if (nr == SYS_truncate)
		return "the supervisor performs truncate (with the ruleset's truncate right "
		       "handled, outside the sandbox)";
	if (nr == SYS_mknodat
#ifdef SYS_mknod
	    || nr == SYS_mknod
#endif
	)
		return "mknod makes regular files too: the supervisor decides it (and, with the "
		       "make-reg right handled, performs it outside the sandbox)";
	if (nr == SYS_symlinkat
#ifdef SYS_symlink
	    || nr == SYS_symlink
#endif
	)
		return ll_why_names;
	if (landlock_forces_notify(ll, nr) || pc->path_arg[1] >= 0)
		return "Landlock refuses to move a file to another directory (EXDEV) without "
		       "its refer right: the supervisor performs it, outside the sandbox";
	return ll_why_names;
}

/* ---- The readable form ---- */

int landlock_open_notified_text(const struct policy_landlock *ll, char *buf, size_t size)
{
	size_t len = (size_t)snprintf(buf, size, "O_PATH, O_TMPFILE");

	if (!ll->open_create)
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, ", O_CREAT");
	else if (landlock_open_notified(ll, O_CREAT) ||
		 landlock_open_notified(ll, O_CREAT | O_WRONLY))
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0,
					", O_CREAT when its access is not refused");
	if (landlock_open_notified(ll, O_TRUNC | O_WRONLY))
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, ", O_TRUNC");
	if (ll->open_notify_rdwr)
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0,
					", O_RDWR, O_RDONLY|O_TRUNC");
	return len < size ? (int)len : -ERANGE;
}

static void ll_write_open_flags(const struct policy_landlock *ll, FILE *out)
{
	char text[256];

	landlock_open_notified_text(ll, text, sizeof(text));
	fprintf(out, " (not with %s)", text);
	if (!ll->open_create)
		fprintf(out, "\n# the opens that create stay with the supervisor: %s",
			ll->create_why);
}

/* "abstract-unix-socket signal": the scopes of the domain, as Landlock names them. */
static const char *ll_scope_text(const struct policy_landlock *ll)
{
	if ((ll->scoped & LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET) &&
	    (ll->scoped & LANDLOCK_SCOPE_SIGNAL))
		return "abstract-unix-socket signal";
	if (ll->scoped & LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET)
		return "abstract-unix-socket";
	if (ll->scoped & LANDLOCK_SCOPE_SIGNAL)
		return "signal";
	return "(none)";
}

/* "connect-tcp bind-tcp": the TCP rights, as Landlock names them. */
static const char *ll_net_text(uint64_t access)
{
	if ((access & LANDLOCK_ACCESS_NET_CONNECT_TCP) && (access & LANDLOCK_ACCESS_NET_BIND_TCP))
		return "connect-tcp bind-tcp";
	return access & LANDLOCK_ACCESS_NET_CONNECT_TCP ? "connect-tcp" : "bind-tcp";
}

int policy_landlock_write(const struct policy *p, const struct policy_landlock *ll, FILE *out)
{
	char names[256];

	if (!p || !ll || !out)
		return -EINVAL;
	fprintf(out, "# The Landlock layer, for Landlock ABI %d\n", ll->abi);
	policy_landlock_access_names(ll->handled_fs, names, sizeof(names));
	fprintf(out, "handled %s\n", ll->handled_fs ? names : "(no file right)");
	if (ll->handled_net)
		fprintf(out, "handled-net %s\n", ll_net_text(ll->handled_net));
	if (ll->scope_why)
		fprintf(out, "# no scope: %s\n", ll->scope_why);
	else if (ll->scoped)
		fprintf(out, "scoped %s\n", ll_scope_text(ll));
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++) {
		const char *name = policy_landlock_family_name((enum policy_landlock_family)f);

		if (!ll->decided[f]) {
			fprintf(out, "# %s stay with the supervisor: %s\n", name, ll->why_not[f]);
			continue;
		}
		fprintf(out, "# decides %s", f == POLICY_LANDLOCK_OPEN ? "open, openat" : name);
		if (f == POLICY_LANDLOCK_OPEN)
			ll_write_open_flags(ll, out);
		if (f == POLICY_LANDLOCK_CONNECT || f == POLICY_LANDLOCK_BIND)
			fprintf(out,
				" (TCP ports; every %s runs in the kernel, which refuses a TCP "
				"port no line below grants)",
				name);
		fputc('\n', out);
	}
	for (size_t i = 0; i < ll->n_ports; i++) {
		const struct policy_landlock_port *pp = &ll->ports[i];

		fprintf(out, "port    %u %s", pp->port, ll_net_text(pp->access));
		if (pp->file)
			fprintf(out, "   # %s:%d", pp->file, pp->line);
		fputc('\n', out);
	}
	for (size_t i = 0; i < ll->n_rules; i++) {
		const struct policy_landlock_rule *r = &ll->rules[i];

		policy_landlock_access_names(r->access, names, sizeof(names));
		fprintf(out, "%-7s %s %s", r->beneath ? "beneath" : "path", r->path, names);
		if (r->file)
			fprintf(out, "   # %s:%d", r->file, r->line);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
