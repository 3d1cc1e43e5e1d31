/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 10: access(2) without AT_EACCESS checks with the real ids, and
 * with root's permitted capabilities unless SECBIT_NO_SETUID_FIXUP keeps
 * the effective ones (the kernel's access_override_creds). A supervisor
 * that cannot see the bit must not answer yes where the kernel says no.
 * Driven by r10-access-caps.sh.
 */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "attack.h"

#define R10_DAC ((UINT32_C(1) << CAP_DAC_OVERRIDE) | (UINT32_C(1) << CAP_DAC_READ_SEARCH))

/* Empties the effective set; the DAC overrides stay permitted unless told. */
static int r10_caps_lower(bool keep_permitted)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	for (size_t i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		d[i].effective = 0;
	if (!keep_permitted)
		d[0].permitted &= ~R10_DAC;
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

/*
 * r10-access-caps full|permitted|dropped fixup|plain FILE: keeps every
 * capability (full) or empties the effective set (the DAC overrides kept
 * permitted, or dropped), with SECBIT_NO_SETUID_FIXUP set first (fixup)
 * or not, then access(FILE, R_OK). Result: ALLOWED, or BLOCKED errno.
 */
static int cmd_r10_access_caps(int argc, char **argv)
{
	bool keep, fixup;
	int r;

	if (argc != 3)
		return 2;
	keep = strcmp(argv[0], "permitted") == 0;
	fixup = strcmp(argv[1], "fixup") == 0;
	if (fixup && prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0) < 0)
		return setup_failed("securebits", errno);
	r = strcmp(argv[0], "full") == 0 ? 0 : r10_caps_lower(keep);
	if (r < 0)
		return setup_failed("capset", -r);
	if (access(argv[2], R_OK) < 0)
		return blocked(errno);
	result("ALLOWED");
	return 0;
}

const struct attack_cmd attack_r10_cmds[] = {
	{ "r10-access-caps", "full|permitted|dropped fixup|plain FILE  access(R_OK) as root",
	  cmd_r10_access_caps },
	{ NULL, NULL, NULL },
};
