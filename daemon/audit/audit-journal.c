/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The journal sink: one structured entry per decision. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <systemd/sd-journal.h>

#include "audit-args.h"
#include "policy/policy.h"

bool audit_journal_available(void)
{
	return true;
}

int audit_journal_write(const struct audit_record *r)
{
	/* Native names only: another ABI's numbers mean other calls (i386's 5 is open). */
	const char *name = r->arch ? NULL : policy_syscall_name(r->nr);
	char nr[16], arch[16] = "";

	snprintf(nr, sizeof(nr), "%d", r->nr);
	if (r->arch)
		snprintf(arch, sizeof(arch), "0x%x", (unsigned int)r->arch);
	return sd_journal_send("MESSAGE=%s %s%s%s -> %s", r->sandbox ? r->sandbox : "run",
			name ? name : nr, r->path ? " " : "", r->path ? r->path : "", r->verdict,
			"PRIORITY=%d", strcmp(r->verdict, "deny") == 0 ? 5 : 6,
			"SANDBOX=%s", r->sandbox ? r->sandbox : "", "PID=%d", (int)r->pid,
			"SYSCALL=%s", name ? name : nr, "ARCH=%s", arch, "PATH=%s", r->path ? r->path : "",
			"PATH2=%s", r->path2 ? r->path2 : "", "ADDR=%s", r->addr ? r->addr : "",
			"VERDICT=%s", r->verdict, "ERRNO=%s",
			strcmp(r->verdict, "deny") == 0 ? audit_errno_name(r->error) : "",
			"RULE_FILE=%s", r->rule_file ? r->rule_file : "", "RULE_LINE=%d",
			r->rule_line, NULL);
}

int audit_journal_write_held(const char *sandbox, long uid, uint64_t records, uint64_t bytes,
			     const char *limit)
{
	char who[64];

	/* A budget the sandboxes of a user share names the user. */
	if (uid == AUDIT_UID_OTHERS)
		snprintf(who, sizeof(who), "uid others");
	else if (uid >= 0)
		snprintf(who, sizeof(who), "uid %ld", uid);
	else
		snprintf(who, sizeof(who), "%s", sandbox ? "" : "run");
	/* records 0: the first record held back; the count comes when the window ends. */
	if (!records)
		return sd_journal_send(
			"MESSAGE=%s%s: audit records over the limit %s are held back "
			"and counted",
			who, uid == -1 && sandbox ? sandbox : "", limit, "PRIORITY=%d", 4,
			"SANDBOX=%s", uid == -1 && sandbox ? sandbox : "", "USER=%s",
			uid != -1 ? who + 4 : "", "VERDICT=suppressing", "LIMIT=%s", limit, NULL);
	return sd_journal_send("MESSAGE=%s%s: %llu audit records suppressed, over the limit %s",
			       who, uid == -1 && sandbox ? sandbox : "",
			       (unsigned long long)records, limit, "PRIORITY=%d", 4, "SANDBOX=%s",
			       uid == -1 && sandbox ? sandbox : "", "USER=%s",
			       uid != -1 ? who + 4 : "", "VERDICT=suppressed", "SUPPRESSED=%llu",
			       (unsigned long long)records, "SUPPRESSED_BYTES=%llu",
			       (unsigned long long)bytes, "LIMIT=%s", limit, NULL);
}
