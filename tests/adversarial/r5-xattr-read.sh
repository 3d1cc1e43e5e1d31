#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, extended attributes read by path. Policy: reading and stat'ing
# denied/ refused (`deny @file-read @file-stat path=denied/** EACCES`).
# A file's extended attributes are its data too (user.* values programs
# store there: checksums, tags, DOS attributes; as root trusted.* and
# security.*), but getxattr, lgetxattr, listxattr, llistxattr and the
# *xattrat calls (6.13) are in no category: policy/pathcalls.c does not
# list them, nothing decides them by path, and a `default allow` lets them
# run in the kernel. The forbidden effect: the value (or the name) of
# denied/x's user.secret, which the program may neither open nor stat.
# Last, file_getattr (6.17), a stat of the inode flags and project id by
# path, outside @file-stat the same way.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root: a pid namespace of its own"
setup_tmp

mkdir -p "$T/denied"
echo data >"$T/denied/x"
chmod 644 "$T/denied/x"
XSECRET=$(token)
"$ATTACK" r5-getxattr set "$T/denied/x" user.secret "$XSECRET" >/dev/null ||
	skip "no user.* extended attributes on $T's file system"
cat >"$T/deny.policy" <<POL
default allow
deny @file-read @file-stat path=$T/denied/** EACCES
POL

case_begin control-stat "(control) stat and open of denied/x: refused"
urun --policy "$T/deny.policy" -- "$ATTACK" r5-fd-open -100 "$T/denied/x"
if expect_blocked data; then case_pass "$(results)"; fi

for how in getxattr lgetxattr getxattrat list llist listxattrat file_getattr; do
	case_begin "$how" "$how of denied/x's user.secret"
	urun --policy "$T/deny.policy" -- "$ATTACK" r5-getxattr "$how" "$T/denied/x" user.secret
	if results | grep -q '^BLOCKED ENOSYS' && [ "${how%at}" != "$how" ]; then
		case_pass "BLOCKED ENOSYS (no such call here, or refused)"
	elif expect_blocked "$XSECRET"; then
		if results | grep -q 'user\.secret'; then
			case_fail "the attribute's name leaked: $(results)"
		else
			case_pass "$(results)"
		fi
	fi
done

finish
