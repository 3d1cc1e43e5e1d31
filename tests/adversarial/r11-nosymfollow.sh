#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, the nosymfollow mount option (found by an adversarial review).
# The kernel follows no symlink of a nosymfollow mount (ELOOP); the
# supervisor's walk reads and follows symlinks itself, and followed them
# there: a program opened, through a performed open, what the mount's
# owner meant it to reach only by its own name. Now a symlink whose mount
# has it fails with ELOOP, as natively. The mount is a tmpfs under the
# test's own temp dir, unmounted at exit. The forbidden effect: the file's
# token read through the link, at the end of the path or in its middle.
# Guards: natively each open fails with ELOOP; a link on a mount without
# the option is followed by the supervisor.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "mount"
setup_tmp

mkdir "$T/m" "$T/plain"
mount -t tmpfs -o nosymfollow,size=1m r11nsf "$T/m" 2>/dev/null ||
	skip "cannot mount a tmpfs with nosymfollow (Linux < 5.10?)"
on_cleanup "umount '$T/m'"
chmod 755 "$T/m"
TOK=$(secret "$T/m/real")
ln -s real "$T/m/link"
ln -s . "$T/m/dir"
cp "$T/m/real" "$T/plain/real"
ln -s real "$T/plain/link"
printf 'default allow\ndeny @file-read @file-stat path=/nonexistent-zzz EACCES\n' >"$T/p.policy"

# nsf_case NAME PATH WHAT: natively and supervised (as nobody), cat PATH must fail with ELOOP.
nsf_case() {
	case_begin "$1" "(run, nobody) cat $3 on a nosymfollow mount"
	bounded 20 setpriv --reuid=65534 --regid=65534 --clear-groups cat "$2"
	if [ "$RC" = 0 ] || ! printf '%s\n' "$ERR" | grep -q 'Too many levels'; then
		case_skip "natively not ELOOP: $OUT $ERR"
		return
	fi
	urun --policy "$T/p.policy" --user nobody -- cat "$2"
	if printf '%s\n' "$OUT" | grep -q "$TOK"; then
		case_fail "bypass: the file was read through the link"
	elif printf '%s\n' "$ERR" | grep -q 'Too many levels'; then
		case_pass "ELOOP, as natively"
	else
		case_fail "not ELOOP: $(printf '%s\n' "$ERR" | grep -v warning | tail -1)"
	fi
}

nsf_case final "$T/m/link" "a symlink at the end of the path"
nsf_case middle "$T/m/dir/real" "a symlink to its directory in the middle of the path"

case_begin plain "(guard) a link on a mount without nosymfollow is followed"
urun --policy "$T/p.policy" --user nobody -- cat "$T/plain/link"
if printf '%s\n' "$OUT" | grep -q "$TOK"; then
	case_pass "read through the link"
else
	case_fail "the link was not followed (status $RC)"
fi

finish
