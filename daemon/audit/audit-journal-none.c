/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built --without-systemd: there is no journal to write to. */
#include "config.h"

#include <errno.h>

#include "audit-args.h"

bool audit_journal_available(void)
{
	return false;
}

int audit_journal_write(const struct audit_record *r)
{
	(void)r;
	return -EOPNOTSUPP;
}

int audit_journal_write_held(const char *sandbox, long uid, uint64_t records, uint64_t bytes,
			     const char *limit)
{
	(void)sandbox;
	(void)uid;
	(void)records;
	(void)bytes;
	(void)limit;
	return -EOPNOTSUPP;
}
