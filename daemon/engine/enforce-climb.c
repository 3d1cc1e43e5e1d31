/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A path that climbs out of a directory with "..": the policy decides on
 * the name the path reaches, and the kernel walks every directory before
 * it. So `HIDDEN/guess/../../allowed` ran or failed (ENOENT, ENOTDIR) by
 * what HIDDEN/guess is, and told a program which names exist in a
 * directory the policy hides from it (`deny @file-stat path=HIDDEN/...`),
 * by stat, access, readlink or open alike.
 *
 * Where the policy can refuse a stat (elsewhere no name is hidden, and
 * gcc's `.../12/../../../../include` costs nothing more), two things:
 *  - a call the supervisor performs takes "..", in the text, lexically
 *    (enforce_fold_dots), as a shell's `cd` does: the path never goes
 *    through the directory it leaves, so nothing there can answer, and no
 *    link swapped meanwhile can change what the walk crosses;
 *  - what is left, a ".." of a call the kernel runs itself (exec, decided
 *    and CONTINUEd, and the interpreters it names), has each directory it
 *    leaves resolved as the target would and decided as a newfstatat; a
 *    refusal refuses the whole call, with that rule's answer
 *    (enforce_climb_refusal, enforce_climb_text). That check and the
 *    kernel's walk are two lookups: a program that swaps a link between
 *    them can still learn a name there (unotify.policy(5)).
 * A ".." inside a symbolic link's text is followed by the kernel alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

#include "enforce-call.h"
#include "lib/util.h"

struct climb_ask {
	const char *name;
};

static int climb_ask_path(void *userdata, int n, const char **ret_path)
{
	(void)n;
	*ret_path = ((struct climb_ask *)userdata)->name;
	return 0;
}

/*
 * May the target stat the directory text names up to offset `end`,
 * relative to dirfd? 0, or 1 and the refusal.
 */
static int climb_check_prefix(struct enforce_call *c, const char *text, int dirfd, size_t end,
			      struct policy_decision *ret)
{
	struct policy_call call = { .nr = SYS_newfstatat, .args = { (uint64_t)AT_FDCWD } };
	struct policy_args_ops ops = { .path = climb_ask_path };
	struct unotify_path_how how = { .dirfd = dirfd, .walk = UNOTIFY_WALK_FOLLOW };
	char prefix[sizeof(c->paths[0].arg)];
	struct unotify_path res;
	struct policy_decision d;
	struct climb_ask ask;
	unotify_target *t;
	int r;

	memcpy(prefix, text, end);
	prefix[end] = '\0';
	how.path = prefix;
	if (enforce_target(c, &t) < 0 || unotify_path_resolve(t, &how, &res) < 0) {
		*ret = (struct policy_decision){ .action = POLICY_DENY, .error = EPERM,
						 .path_consulted = true };
		return 1;
	}
	ask.name = res.path;
	r = res.unnamed ? -EACCES : policy_evaluate_args(c->policy, &call, &ops, &ask, &d);
	unotify_path_release(&res);
	if (r == 0 && (d.action == POLICY_ALLOW || d.action == POLICY_LOG))
		return 0;
	if (r < 0)
		d = (struct policy_decision){ .error = r == -EACCES ? EACCES : EPERM };
	/* Whatever the stat's rule does (kill, return), the climb is only refused. */
	*ret = (struct policy_decision){ .action = POLICY_DENY,
					 .error = d.error ? d.error : EACCES,
					 .file = d.file, .line = d.line, .path_consulted = true };
	return 1;
}

/* Does a ".." component of text start at offset i? */
static bool climb_is_dotdot(const char *text, size_t i)
{
	return text[i] == '.' && text[i + 1] == '.' && (i == 0 || text[i - 1] == '/') &&
	       (text[i + 2] == '/' || text[i + 2] == '\0');
}

/*
 * Folds the ".." components of text with the ones before them, in place:
 * "a/b/../c" is "a/c", "/../x" is "/x"; a relative path keeps the ".."
 * that climb out of where it starts ("../x", "a/../../x" is "../x"), and a
 * trailing slash stays (the kernel then wants a directory).
 */
void enforce_fold_dots(char *text)
{
	bool absolute = text[0] == '/', trailing;
	size_t len = strlen(text), out = absolute ? 1 : 0, kept_up = 0;
	char *w = text;

	trailing = len > 1 && text[len - 1] == '/';
	for (size_t i = 0; i < len;) {
		size_t n;

		while (i < len && text[i] == '/')
			i++;
		n = strcspn(text + i, "/");
		if (n == 0)
			break;
		if (n == 1 && text[i] == '.') {
			/* "." changes nothing, but "a/." wants a directory: the trailing slash says so. */
			trailing = trailing || i + n >= len;
		} else if (n == 2 && text[i] == '.' && text[i + 1] == '.') {
			size_t start = absolute ? 1 : 0;

			if (out > start + 3 * kept_up) {
				/* Back over the last component we wrote (and its slash). */
				while (out > start && w[out - 1] == '/')
					out--;
				while (out > start && w[out - 1] != '/')
					out--;
			} else if (!absolute) {
				memcpy(w + out, "../", 3);
				out += 3;
				kept_up++;
			}
			trailing = trailing || i + n >= len;
		} else {
			memmove(w + out, text + i, n);
			out += n;
			w[out++] = '/';
		}
		i += n;
	}
	while (out > (absolute ? 1u : 0u) && w[out - 1] == '/')
		out--;
	if (out == 0)
		w[out++] = '.';
	if (trailing && w[out - 1] != '/')
		w[out++] = '/';
	w[out] = '\0';
}

/* Does text have a ".." component? */
static bool climb_has_dotdot(const char *text)
{
	for (const char *s = strstr(text, ".."); s; s = strstr(s + 1, ".."))
		if (climb_is_dotdot(text, (size_t)(s - text)))
			return true;
	return false;
}

bool enforce_folds_dots(const struct enforce_call *c, const char *text)
{
	/* An exec is the kernel's to run, on the text as it is: folding would decide another file. */
	return c->family && c->family != &enforce_exec_family && climb_has_dotdot(text) &&
	       policy_can_refuse(c->policy, SYS_newfstatat);
}

/* Does the directory text names up to offset end end in a ".." (one that names no guess)? */
static bool climb_ends_in_dotdot(const char *text, size_t end)
{
	return end >= 2 && text[end - 1] == '.' && text[end - 2] == '.' &&
	       (end == 2 || text[end - 3] == '/');
}

int enforce_climb_text(struct enforce_call *c, const char *text, int dirfd,
		       struct policy_decision *ret)
{
	if (!strstr(text, "..") || !policy_can_refuse(c->policy, SYS_newfstatat))
		return 0;
	for (size_t i = 0; text[i]; i++) {
		size_t end = i;

		if (!climb_is_dotdot(text, i))
			continue;
		while (end > 1 && text[end - 1] == '/')
			end--;
		/*
		 * "..": the dirfd or cwd's parent, left from a place the
		 * program is; "../..": a parent left for its own, no name
		 * guessed on the way.
		 */
		if (end == 0 || (end == 1 && text[0] == '/') || climb_ends_in_dotdot(text, end))
			continue;
		if (climb_check_prefix(c, text, dirfd, end, ret))
			return 1;
	}
	return 0;
}

int enforce_climb_refusal(struct enforce_call *c, struct policy_decision *ret)
{
	/*
	 * Every text the supervisor performs was folded as it was read, but
	 * an exec's is the kernel's to walk, and a family that reads its text
	 * another way (a socket's name) is held to the same rule here.
	 */
	if (!c->paths)
		return 0;
	for (int n = 0; n < 2; n++) {
		int dirfd = AT_FDCWD;

		if (!c->paths[n].have_arg)
			continue;
		if (c->pc && c->pc->dirfd_arg[n] >= 0)
			dirfd = (int)c->args[c->pc->dirfd_arg[n]];
		if (enforce_climb_text(c, c->paths[n].arg, dirfd, ret))
			return 1;
	}
	return 0;
}
