#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# perf3's relative starts: the directory a relative path starts from is
# stat'ed through its magic link (/proc/TID/cwd) and named by a readlink of
# the same link, two lookups where there was one fd. A thread flips the
# process's cwd between an allowed directory and one whose file is refused
# while another thread opens the relative name both hold: the refused copy
# must never be read (the proof that the name reaches the stat'ed directory
# must catch a chdir between the two). Then getxattr (decided on its path
# since the xattr branch, names guessed by their text) of an allowed name
# while a thread exchanges it with a symlink to the refused file. The guard: both outcomes happened
# (the allowed copy opened, the refused one refused), or the race was not run.
. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

mkdir -p "$T/pub" "$T/denied"
TOKEN=$(token)
echo public >"$T/pub/x"
echo "$TOKEN" >"$T/denied/x"

cat >"$T/p.policy" <<EOF2
default allow
deny @file-read path=$T/denied/x EACCES
EOF2

for opt in "" "--no-landlock"; do
	name=cwd-flip${opt:+-off}
	case_begin "$name" "relative opens while the cwd flips ($opt)"
	# shellcheck disable=SC2086
	urun $opt --policy "$T/p.policy" -- "$ATTACK" r6-cwd-flip "$T/pub" "$T/denied" x "$TOKEN" 3000
	expect_blocked "$TOKEN" && case_pass "never the refused copy: $(printf '%s\n' "$OUT" | grep '^# ' | tail -1)"
done

# getxattr of an allowed name exchanged with a symlink to the refused file.
"$ATTACK" r5-getxattr set "$T/denied/x" user.secret "$TOKEN" >/dev/null 2>&1 &&
	"$ATTACK" r5-getxattr set "$T/pub/x" user.secret public >/dev/null 2>&1
xattrs=$?
ln -s "$T/denied/x" "$T/pub/link"
for opt in "" "--no-landlock"; do
	case_begin "xattr-swap${opt:+-off}" "getxattr of pub/x while it swaps with a symlink to denied/x ($opt)"
	if [ $xattrs != 0 ]; then
		case_skip "no user.* xattrs on $T's file system"
		continue
	fi
	# shellcheck disable=SC2086
	urun $opt --policy "$T/p.policy" -- "$ATTACK" r6-xattr-swap "$T/pub/x" "$T/pub/link" \
		user.secret "$TOKEN" 3000
	expect_blocked "$TOKEN" && case_pass "never the refused value: $(printf '%s\n' "$OUT" | grep '^# ' | tail -1)"
done

finish
