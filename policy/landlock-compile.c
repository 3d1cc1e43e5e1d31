/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The seccomp side of the Landlock layer (compile.c calls in here), and the
 * layer in a readable form.
 *
 * For a family the layer decides, the filter lets the calls Landlock
 * decides run in the kernel and sends the others to the supervisor:
 *  - open, openat: notified when the flags hold O_CREAT, O_TMPFILE or
 *    O_PATH (creating is the supervisor's: Landlock would create the file
 *    and then refuse to open it; O_PATH Landlock does not check), O_TRUNC
 *    when the kernel has no truncate right (ABI < 3), and O_RDWR or
 *    O_RDONLY|O_TRUNC when a rule grants read or write alone (the policy
 *    wants one rule for both); allowed otherwise. The two sets of flag
 *    conditions are disjoint and cover every value, so libseccomp never
 *    has to choose between two actions;
 *  - openat2 (flags in memory) and creat (always creates): notified;
 *  - execve, execveat: allowed.
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

static int ll_compile_open(scmp_filter_ctx ctx, const struct policy_landlock *ll, int nr,
			   uint32_t def)
{
	static const uint64_t bits[] = {O_CREAT, LL_O_TMPFILE, O_PATH, O_TRUNC};
	unsigned int arg = nr == SYS_openat ? 2 : 1;
	uint64_t m = ll->open_notify_flags;
	struct ll_term notify[ARRAY_SIZE(bits) + 2], allow[3];
	size_t n_notify = 0, n_allow = 0;
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (m & bits[i])
			notify[n_notify++] = (struct ll_term){bits[i], bits[i]};
	if (ll->open_notify_rdwr) {
		notify[n_notify++] = (struct ll_term){O_ACCMODE, O_RDWR};
		notify[n_notify++] = (struct ll_term){O_TRUNC | O_ACCMODE, O_TRUNC};
		/* The rest: read-only without O_TRUNC, write-only, and the odd access mode 3. */
		allow[n_allow++] = (struct ll_term){m | O_TRUNC | O_ACCMODE, O_RDONLY};
		allow[n_allow++] = (struct ll_term){m | O_ACCMODE, O_WRONLY};
		allow[n_allow++] = (struct ll_term){m | O_ACCMODE, O_ACCMODE};
	} else {
		allow[n_allow++] = (struct ll_term){m, 0};
	}
	if (def != SCMP_ACT_NOTIFY)
		r = ll_add_terms(ctx, SCMP_ACT_NOTIFY, nr, arg, notify, n_notify);
	if (r == 0 && def != SCMP_ACT_ALLOW)
		r = ll_add_terms(ctx, SCMP_ACT_ALLOW, nr, arg, allow, n_allow);
	return r;
}

int landlock_compile_syscall(void *ctx, const struct policy_landlock *ll, int nr, uint32_t def,
			     bool *ret_notified)
{
	int r = 0;

	if (policy_landlock_family_of(nr) == POLICY_LANDLOCK_EXEC) {
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
	/* openat2 and creat, when the opens are in the layer: the supervisor's. */
	return policy_landlock_family_of(nr) == POLICY_LANDLOCK_OPEN &&
	       ll->decided[POLICY_LANDLOCK_OPEN] && !policy_landlock_decides(ll, nr);
}

const char *policy_landlock_why_not(const struct policy_landlock *ll, int nr)
{
	const struct policy_pathcall *pc = policy_pathcall_find(nr);
	int f = policy_landlock_family_of(nr);

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
	if (landlock_forces_notify(ll, nr) || pc->path_arg[1] >= 0)
		return "Landlock refuses to move a file to another directory (EXDEV) without "
		       "its refer right: the supervisor performs it, outside the sandbox";
	return "Landlock checks names made and removed on their directory, a rule "
	       "matches the name: the supervisor decides them";
}

/* ---- The readable form ---- */

static void ll_write_open_flags(const struct policy_landlock *ll, FILE *out)
{
	fprintf(out, " (not with O_CREAT, O_TMPFILE, O_PATH%s%s)",
		(ll->open_notify_flags & O_TRUNC) ? ", O_TRUNC" : "",
		ll->open_notify_rdwr ? ", nor O_RDWR or O_RDONLY|O_TRUNC" : "");
}

int policy_landlock_write(const struct policy *p, const struct policy_landlock *ll, FILE *out)
{
	char names[256];

	if (!p || !ll || !out)
		return -EINVAL;
	fprintf(out, "# The Landlock layer, for Landlock ABI %d\n", ll->abi);
	policy_landlock_access_names(ll->handled_fs, names, sizeof(names));
	fprintf(out, "handled %s\n", ll->handled_fs ? names : "(nothing: no ruleset)");
	for (int f = 0; f < POLICY_LANDLOCK_FAMILIES; f++) {
		const char *name = policy_landlock_family_name((enum policy_landlock_family)f);

		if (!ll->decided[f]) {
			fprintf(out, "# %s stay with the supervisor: %s\n", name, ll->why_not[f]);
			continue;
		}
		fprintf(out, "# decides %s", f == POLICY_LANDLOCK_OPEN ? "open, openat" : name);
		if (f == POLICY_LANDLOCK_OPEN)
			ll_write_open_flags(ll, out);
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
