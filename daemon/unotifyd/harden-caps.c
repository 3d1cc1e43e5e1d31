/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The capabilities unotifyd keeps: those of capabilities.list (the one list,
 * which the build turns into capabilities-list.h here, the systemd unit's
 * CapabilityBoundingSet, and which unotifyd(8) and the DaemonSet carry).
 * Every other one goes, from every set. What the list names but the daemon
 * was not given is not an error: it runs without it, and says so (a
 * sandbox's call that needs it then fails as if the sandbox lacked it).
 * SECURITY.md says why each is kept and how they serve a sandbox.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sys/capability.h>

#include "harden.h"
#include "lib/util.h"
#include "log.h"

static const cap_value_t harden_caps[] = {
#include "daemon/unotifyd/capabilities-list.h"
};

static bool harden_cap_kept(cap_value_t c)
{
	for (size_t i = 0; i < ARRAY_SIZE(harden_caps); i++)
		if (harden_caps[i] == c)
			return true;
	return false;
}

/* "cap_a cap_b" for the capabilities in mask (bit c: capability c). */
static void harden_caps_names(uint64_t mask, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (cap_value_t c = 0; c < 64 && len + 1 < size; c++) {
		char *name;

		if (!(mask & (1ULL << c)) || !(name = cap_to_name(c)))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", name);
		cap_free(name);
	}
}

/*
 * The bounding set: every capability not kept is dropped, which needs
 * CAP_SETPCAP; one that is not there any more is left alone (a unit's or
 * a container's bounding set already is the list). Without CAP_SETPCAP the
 * rest stays: *ret_left says which.
 */
static int harden_caps_bound(bool setpcap, uint64_t *ret_left)
{
	uint64_t left = 0;

	for (cap_value_t c = 0; c < (cap_value_t)cap_max_bits() && c < 64; c++) {
		if (harden_cap_kept(c) || cap_get_bound(c) != 1)
			continue;
		if (!setpcap)
			left |= 1ULL << c;
		else if (cap_drop_bound(c) < 0)
			return negative_errno();
	}
	*ret_left = left;
	return 0;
}

/* Permitted and effective: the list, as far as we have it; *ret_lacking: what we lack of it. */
static int harden_caps_set(cap_t now, uint64_t *ret_lacking)
{
	cap_value_t keep[ARRAY_SIZE(harden_caps)];
	uint64_t lacking = 0;
	size_t n = 0;
	cap_t caps;
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(harden_caps); i++) {
		cap_flag_value_t v = CAP_CLEAR;

		if (cap_get_flag(now, harden_caps[i], CAP_PERMITTED, &v) == 0 && v == CAP_SET)
			keep[n++] = harden_caps[i];
		else
			lacking |= 1ULL << harden_caps[i];
	}
	caps = cap_init();
	if (!caps)
		return -ENOMEM;
	if ((n > 0 && (cap_set_flag(caps, CAP_PERMITTED, (int)n, keep, CAP_SET) < 0 ||
		       cap_set_flag(caps, CAP_EFFECTIVE, (int)n, keep, CAP_SET) < 0)) ||
	    cap_set_proc(caps) < 0)
		r = negative_errno();
	cap_free(caps);
	if (r == 0)
		*ret_lacking = lacking;
	return r;
}

int harden_caps_apply(void)
{
	cap_t now = cap_get_proc();
	cap_flag_value_t setpcap = CAP_CLEAR;
	uint64_t left = 0, lacking = 0;
	char names[512];
	int r;

	if (!now)
		return negative_errno();
	cap_get_flag(now, CAP_SETPCAP, CAP_EFFECTIVE, &setpcap);
	r = harden_caps_bound(setpcap == CAP_SET, &left);
	if (r >= 0 && cap_reset_ambient() < 0 && errno != EINVAL)
		r = negative_errno();
	if (r >= 0)
		r = harden_caps_set(now, &lacking);
	cap_free(now);
	if (r < 0)
		return r;
	if (lacking) {
		harden_caps_names(lacking, names, sizeof(names));
		log_warning("running without %s (not given to the daemon): a sandbox's call that "
			    "needs one fails as if the sandbox lacked it", names);
	}
	if (left) {
		/* With no_new_privs and no execve allowed, a bounding set grants nothing. */
		harden_caps_names(left, names, sizeof(names));
		log_info("no CAP_SETPCAP to drop from the bounding set: %s (never usable: "
			 "no_new_privs, no exec)", names);
	}
	return 0;
}
