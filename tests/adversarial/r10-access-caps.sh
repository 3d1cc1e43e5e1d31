#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, access(2) as root with lowered capabilities. Without
# AT_EACCESS the kernel checks with the real ids, and gives root its
# permitted capabilities, unless SECBIT_NO_SETUID_FIXUP is set: then root
# keeps its effective ones. /proc does not show securebits. A supervisor
# that always gave root its permitted set answered yes to a program that
# set the bit and emptied its effective set, where the kernel says
# EACCES. Now root's effective set is used: never more than the kernel.
# The forbidden effect: ALLOWED where the kernel refuses. Guards: root
# with every capability is allowed, the policy's own rule refuses, and
# the case the kernel allows and unotify refuses (documented) is pinned.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program lowers its capabilities as root"
setup_tmp

chmod 755 "$T"
secret "$T/root-only" >/dev/null
chown 4343:4343 "$T/root-only"
chmod 600 "$T/root-only"
printf 'default allow\ndeny access faccessat faccessat2 path=%s/nothing/** EACCES\n' "$T" \
	>"$T/p.policy"

# native CAPS BIT: what the kernel answers, as the attack's result line.
native() {
	timeout 20 "$ATTACK" r10-access-caps "$1" "$2" "$T/root-only" 2>&1 | grep -Ev '^# ' | tail -1
}

# access_case NAME WHAT CAPS BIT WANT: unotify must answer WANT.
access_case() {
	case_begin "$1" "$2"
	urun --policy "$T/p.policy" -- "$ATTACK" r10-access-caps "$3" "$4" "$T/root-only"
	if hung; then
		case_fail "the run did not end within its time limit"
	elif results | grep -qx "$5"; then
		case_pass "$5 (the kernel: $(native "$3" "$4"))"
	else
		case_fail "expected $5: $(results | head -1)"
	fi
}

case_begin rule "(guard) the policy's rule refuses access below nothing/"
urun --policy "$T/p.policy" -- "$ATTACK" r10-access-caps full plain "$T/nothing/x"
if results | grep -qx 'BLOCKED EACCES'; then
	case_pass "refused by the rule"
else
	case_fail "the access was not decided by the supervisor: $(results | head -1)"
fi

access_case full "(guard) root with every capability may read a 0600 file of another uid" \
	full plain ALLOWED

if [ "$(native permitted fixup)" != "BLOCKED EACCES" ]; then
	case_begin fixup "the kernel's own answer"
	case_skip "natively the securebit case is not refused: $(native permitted fixup)"
else
	access_case fixup "SECBIT_NO_SETUID_FIXUP, DAC overrides permitted, none effective: the kernel refuses" \
		permitted fixup 'BLOCKED EACCES'
fi

access_case dropped "(guard) DAC overrides neither effective nor permitted" \
	dropped plain 'BLOCKED EACCES'

access_case stricter "(documented) no securebit, DAC overrides permitted, none effective: EACCES, the kernel allows" \
	permitted plain 'BLOCKED EACCES'

finish
