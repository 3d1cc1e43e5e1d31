#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2, links by other roads that fail (regression guards). The
# write-protected etc/hostname of read-only-system.policy (moved under
# $T/sys), opened read-only as the policy allows, linked into a free
# directory by its descriptor (linkat of /proc/self/fd/N with
# AT_SYMLINK_FOLLOW, linkat AT_EMPTY_PATH) and written there; an O_TMPFILE
# made in a free directory, linked into etc/.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "linkat AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH before Linux 6.10"
setup_tmp

# ---- links of a write-protected file by its descriptor ----
ROS=$top_srcdir/contrib/policies/read-only-system.policy
sed "s#path=/#path=$T/sys/#g" "$ROS" >"$T/ros.policy"
mkdir -p "$T/sys/etc" "$T/free"
echo "host $(token)" >"$T/sys/etc/hostname"
SUM=$(checksum "$T/sys/etc/hostname")

for how in procfd empty; do
	rm -f "$T/free/h"
	case_begin "link-$how" "(read-only-system) etc/hostname linked to free/h by its read-only descriptor ($how), written"
	urun --policy "$T/ros.policy" -- "$ATTACK" link-fd-write "$T/sys/etc/hostname" "$T/free/h" FORGED "$how"
	if [ "$(checksum "$T/sys/etc/hostname")" = "$SUM" ]; then
		case_pass "unchanged ($(results | head -1))"
	else
		case_fail "etc/hostname rewritten: $(results | head -1)"
	fi
done

case_begin tmpfile-link "(read-only-system) an O_TMPFILE of free/ linked as etc/planted"
urun --policy "$T/ros.policy" -- "$ATTACK" tmpfile-link "$T/free" "$T/sys/etc/planted" PLANTED
if [ -e "$T/sys/etc/planted" ]; then
	case_fail "etc/planted exists: $(results | head -1)"
else
	case_pass "nothing planted ($(results | head -1))"
fi

finish
