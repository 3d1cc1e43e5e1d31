/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "policy-env.h"
#include "lib/util.h"

static void policy_env_kernel(struct policy_env *env)
{
	struct utsname u;

	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &env->kernel_major,
				     &env->kernel_minor) == 2)
		return;
	env->kernel_major = 0;
	env->kernel_minor = 0;
}

static uint64_t policy_env_caps_of(cap_t caps, cap_flag_t set)
{
	uint64_t bits = 0;

	for (cap_value_t c = 0; c < 64 && cap_valid(c); c++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(caps, c, set, &v) == 0 && v == CAP_SET)
			bits |= 1ULL << c;
	}
	return bits;
}

int policy_env_of_self(struct policy_env *ret)
{
	cap_t caps = cap_get_proc();

	if (!caps)
		return negative_errno();
	ret->caps = policy_env_caps_of(caps, CAP_EFFECTIVE);
	cap_free(caps);
	policy_env_kernel(ret);
	return 0;
}

/* "cap_chown,cap_net_bind_service" as bits; -EINVAL on an unknown name. */
static int policy_env_parse_caps(const char *list, uint64_t *ret)
{
	_cleanup_free_ char *copy = strdup(list);
	char *save = NULL;
	uint64_t bits = 0;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		cap_value_t c;

		if (cap_from_name(tok, &c) < 0 || c >= 64)
			return -EINVAL;
		bits |= 1ULL << c;
	}
	*ret = bits;
	return 0;
}

static bool policy_env_user_is_root(const char *user)
{
	struct passwd *pw;
	char *end;
	unsigned long uid = strtoul(user, &end, 10);

	if (*user && !*end)
		return uid == 0;
	pw = getpwnam(user);
	return pw && pw->pw_uid == 0;
}

int policy_env_for_run(const char *user, bool drop_caps, const char *keep_caps,
		       struct policy_env *ret)
{
	int r = policy_env_of_self(ret);

	if (r < 0)
		return r;
	if (drop_caps)
		ret->caps = 0;
	else if (keep_caps)
		return policy_env_parse_caps(keep_caps, &ret->caps);
	else if (user ? !policy_env_user_is_root(user) : getuid() != 0)
		ret->caps = 0;
	return 0;
}
