#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Renaming what contains a protected file. `path=/etc/**` does not cover
# /etc itself, nor /: under contrib/policies/read-only-system.policy
# (rewritten for a private tree $T/sys, never the real /etc) the program
# renames $T/sys/etc aside (or RENAME_EXCHANGEs it with a free directory,
# or renames its parent), edits hostname there and puts it back. Renaming
# the parent of a read- and write-denied file makes it readable. A rename
# or an exchange onto a file a no-delete rule protects replaces it; a hard
# link gives a protected file a free name to write it by.
#
# Each case asserts the protected file's checksum (or content) is unchanged
# after the run, whatever the program says.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "hard links to another user's files, a private tree owned by root"
setup_tmp

ROS=$top_srcdir/contrib/policies/read-only-system.policy
[ -r "$ROS" ] || fail "$ROS is missing"
# The shipped policy, its absolute paths moved under $T/sys.
sed "s#path=/#path=$T/sys/#g" "$ROS" >"$T/ros.policy"
grep -q "path=$T/sys/etc/\*\*" "$T/ros.policy" || fail "could not rewrite $ROS for $T/sys"

# A fresh private system tree before each case (a successful attack changed it).
reset_tree() {
	rm -rf "$T/sys" "$T/sys.x" "$T/tmp"
	mkdir -p "$T/sys/etc" "$T/sys/usr/lib" "$T/tmp/aside"
	echo "host-$(token)" >"$T/sys/etc/hostname"
	echo "lib" >"$T/sys/usr/lib/libc.so"
	HOSTNAME_SUM=$(checksum "$T/sys/etc/hostname")
}

# expect_unchanged FILE SUM WHAT
expect_unchanged() {
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif [ ! -e "$1" ]; then
		case_fail "$1 is gone ($3)"
	elif [ "$(checksum "$1")" != "$2" ]; then
		case_fail "$1 was changed ($3): now '$(head -c 60 "$1")'"
	else
		case_pass "$1 unchanged ($(results | head -1))"
	fi
}

reset_tree
case_begin control-write "(read-only-system) writing $T/sys/etc/hostname directly is denied"
urun --policy "$T/ros.policy" -- "$ATTACK" write "$T/sys/etc/hostname" pwned
expect_unchanged "$T/sys/etc/hostname" "$HOSTNAME_SUM" "direct write"

reset_tree
case_begin rename-etc "(read-only-system) rename etc aside, edit hostname there, rename it back"
urun --policy "$T/ros.policy" -- "$ATTACK" rename-edit "$T/sys/etc" "$T/sys/etc.x" hostname pwned
expect_unchanged "$T/sys/etc/hostname" "$HOSTNAME_SUM" "through the renamed directory"

reset_tree
case_begin rename-root "(read-only-system) rename the tree's root ($T/sys) aside, edit etc/hostname, rename back"
urun --policy "$T/ros.policy" -- "$ATTACK" rename-edit "$T/sys" "$T/sys.x" etc/hostname pwned
expect_unchanged "$T/sys/etc/hostname" "$HOSTNAME_SUM" "through the renamed root"

reset_tree
case_begin exchange-etc "(read-only-system) RENAME_EXCHANGE etc with a free dir, edit, exchange back"
urun --policy "$T/ros.policy" -- "$ATTACK" rename-edit "$T/sys/etc" "$T/tmp/aside" hostname pwned \
	exchange
expect_unchanged "$T/sys/etc/hostname" "$HOSTNAME_SUM" "through the exchanged directory"

reset_tree
case_begin link-write "(read-only-system) hard link hostname into a free dir, write the link"
urun --policy "$T/ros.policy" -- "$ATTACK" link-write "$T/sys/etc/hostname" "$T/tmp/h" pwned
expect_unchanged "$T/sys/etc/hostname" "$HOSTNAME_SUM" "through the hard link"

reset_tree
case_begin rename-onto-ros "(read-only-system) rename a free file onto hostname (guard: denied today)"
echo junk >"$T/tmp/junk"
urun --policy "$T/ros.policy" -- "$ATTACK" rename "$T/tmp/junk" "$T/sys/etc/hostname"
expect_unchanged "$T/sys/etc/hostname" "$HOSTNAME_SUM" "replaced by rename"

# ---- a read- and write-denied file, and its parent ----
mkdir -p "$T/p"
SECRET=$(secret "$T/p/secret")
printf 'default allow\ndeny @file-read @file-write path=%s/p/secret EACCES\n' "$T" >"$T/rw.policy"

case_begin rename-parent-read "(deny read+write of p/secret) rename p aside, read secret there"
urun --policy "$T/rw.policy" -- "$ATTACK" rename-read "$T/p" "$T/q" secret
if expect_blocked "$SECRET"; then case_pass "$(results | head -1)"; fi
[ -e "$T/p/secret" ] || mv "$T/q" "$T/p"

case_begin link-read "(deny read+write of p/secret) hard link secret, read the link (guard: link reads its source)"
urun --policy "$T/rw.policy" -- "$ATTACK" link "$T/p/secret" "$T/s-link"
urun --policy "$T/rw.policy" -- "$ATTACK" read "$T/s-link"
if expect_blocked "$SECRET"; then case_pass "$(results | head -1)"; fi

# ---- a no-delete rule: files under keep/ may be created, never removed ----
mkdir -p "$T/keep"
echo "important-$(token)" >"$T/keep/important"
KEEP_SUM=$(checksum "$T/keep/important")
printf 'default allow\ndeny @file-delete path=%s/keep/** EPERM\n' "$T" >"$T/nodelete.policy"

case_begin control-unlink "(no-delete) unlink keep/important directly is denied"
urun --policy "$T/nodelete.policy" -- "$ATTACK" rename "$T/keep/important" "$T/tmp/stolen"
expect_unchanged "$T/keep/important" "$KEEP_SUM" "renamed away"

case_begin rename-onto "(no-delete) rename a junk file onto keep/important (deletes it)"
echo junk >"$T/tmp/junk"
urun --policy "$T/nodelete.policy" -- "$ATTACK" rename "$T/tmp/junk" "$T/keep/important"
expect_unchanged "$T/keep/important" "$KEEP_SUM" "replaced by rename"
[ "$(checksum "$T/keep/important")" = "$KEEP_SUM" ] || echo "important-again" >"$T/keep/important"
KEEP_SUM=$(checksum "$T/keep/important")

case_begin exchange-onto "(no-delete) RENAME_EXCHANGE a junk file with keep/important"
echo junk >"$T/tmp/junk2"
urun --policy "$T/nodelete.policy" -- "$ATTACK" rename "$T/tmp/junk2" "$T/keep/important" exchange
expect_unchanged "$T/keep/important" "$KEEP_SUM" "exchanged away"

finish
