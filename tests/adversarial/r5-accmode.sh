#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, open's access mode 3 (O_ACCMODE: neither O_RDONLY, O_WRONLY nor
# O_RDWR). The kernel checks read AND write permission for it and gives a
# descriptor that reads and writes nothing but takes ioctls: on /dev/kvm,
# KVM_CREATE_VM. policy/pathcalls.c gave such an open no role at all, so
# no rule of a category met it, neither the refusal nor the allow, and
# the default decided: `deny @file-read @file-write path=X` let it open X.
# Policy here: that refusal on denied/ and /dev/kvm, the default allow.
# The forbidden effect: the open succeeds (OPENED), or a VM is made.
# Guards: an allow-list of reads does not let it through either, and a
# plain read of an allowed file still works.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root; /dev/kvm is root's"
setup_tmp

mkdir -p "$T/denied" "$T/allowed"
SECRET=$(secret "$T/denied/x")
echo ok >"$T/allowed/f"
cat >"$T/deny.policy" <<POL
default allow
deny @file-read @file-write path=$T/denied/** path=/dev/kvm EACCES
POL
cat >"$T/reads.policy" <<POL
default allow
allow @file-read path=$T/allowed/**
deny @file-read path=$T/** EACCES
POL

case_begin denied-file "open(denied/x, 3) under a refusal of reads and writes there"
urun --policy "$T/deny.policy" -- "$ATTACK" r5-open-mode3 "$T/denied/x"
if expect_blocked "$SECRET"; then case_pass "$(results)"; fi

case_begin reads-allow-list "open(T/x, 3) where only allowed/ may be read (a read too: not allowed)"
echo other >"$T/x"
urun --policy "$T/reads.policy" -- "$ATTACK" r5-open-mode3 "$T/x"
if expect_blocked; then case_pass "$(results)"; fi

case_begin reads-allowed "(guard) allowed/f read plainly under the same policy"
urun --policy "$T/reads.policy" -- "$ATTACK" r5-fd-open -100 "$T/allowed/f"
if [ "$(results)" = "LEAK 3 ok" ]; then case_pass "read"; else case_fail "not read: $(results)"; fi

if [ -c /dev/kvm ] && "$ATTACK" r5-open-mode3 /dev/kvm kvm | grep -q '^VM made'; then
	case_begin kvm "open(/dev/kvm, 3), KVM_CREATE_VM, under a refusal of reads and writes of /dev/kvm"
	urun --policy "$T/deny.policy" -- "$ATTACK" r5-open-mode3 /dev/kvm kvm
	if expect_blocked; then case_pass "$(results)"; fi
else
	case_skip "kvm: natively no VM through /dev/kvm here"
fi

finish
