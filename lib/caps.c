/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capabilities of a spawned program, with libcap. The bounding set is what
 * limits a program for good (no_new_privs keeps file capabilities from
 * adding anything); inheritable and ambient carry kept capabilities across
 * the exec of a non-root user.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/capability.h>

#include "internal.h"
#include "util.h"

/* "cap_chown,cap_net_bind_service" (names as cap_from_name(3) knows them). */
int caps_parse(const char *list, uint64_t *ret_keep)
{
	_cleanup_free_ char *copy = strdup(list);
	uint64_t keep = 0;
	char *save = NULL;

	if (!copy)
		return -ENOMEM;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		cap_value_t c;

		if (cap_from_name(name, &c) < 0 || c < 0 || c >= 64)
			return -EINVAL;
		keep |= UINT64_C(1) << c;
	}
	*ret_keep = keep;
	return 0;
}

static bool caps_permitted_empty(void)
{
	cap_t now = cap_get_proc(), none = cap_init();
	bool empty = now && none && !CAP_DIFFERS(cap_compare(now, none), CAP_PERMITTED);

	cap_free(now);
	cap_free(none);
	return empty;
}

int caps_limit_bounding(uint64_t keep)
{
	cap_value_t max = cap_max_bits();

	for (cap_value_t c = 0; c < max; c++) {
		if (c < 64 && (keep & (UINT64_C(1) << c)))
			continue;
		if (cap_get_bound(c) != 1)
			continue;
		if (cap_drop_bound(c) == 0)
			continue;
		/* An unprivileged caller has nothing that no_new_privs lets it gain. */
		if (errno == EPERM && keep == 0 && caps_permitted_empty())
			return 0;
		return negative_errno();
	}
	return 0;
}

/* inheritable = keep; permitted must hold keep already (KEEPCAPS across setuid). */
static int caps_set_inheritable_set(uint64_t keep)
{
	cap_t caps = cap_get_proc();
	int r = 0;

	if (!caps)
		return negative_errno();
	cap_clear_flag(caps, CAP_INHERITABLE);
	for (cap_value_t c = 0; c < 64; c++)
		if ((keep & (UINT64_C(1) << c)) && cap_set_flag(caps, CAP_INHERITABLE, 1, &c, CAP_SET) < 0)
			r = negative_errno();
	if (r == 0 && cap_set_proc(caps) < 0)
		r = negative_errno();
	cap_free(caps);
	return r;
}

int caps_set_inheritable(uint64_t keep)
{
	int r = caps_set_inheritable_set(keep);

	if (r < 0)
		return r;
	if (cap_reset_ambient() < 0)
		return negative_errno();
	for (cap_value_t c = 0; c < 64; c++)
		if ((keep & (UINT64_C(1) << c)) && cap_set_ambient(c, CAP_SET) < 0)
			return negative_errno();
	return 0;
}
