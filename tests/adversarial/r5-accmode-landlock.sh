#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, open's access mode 3 under the Landlock layer. Landlock asks an
# open for the rights of its file mode (hook_file_open: FMODE_READ,
# FMODE_WRITE), and access mode 3 has neither: it needs no right at all,
# so a layer that lets opens run in the kernel lets it open any file the
# kernel's DAC allows, outside every rule (a descriptor for ioctls:
# KVM_CREATE_VM on /dev/kvm). The same open decided by the supervisor
# (--no-landlock) is refused as the read and write it is.
# Policy: reads, writes, creates, deletes under A/ only are granted
# (`deny @file-write @file-create @file-delete kernel`: opens go to the
# layer). The forbidden effect: OPENED (or a VM) where a write is refused.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root: private pid namespace; /dev/kvm is root's"
setup_tmp

A=$T/a
mkdir -p "$A"
echo data >"$A/f"
echo keep >"$T/outside"
chmod 644 "$T/outside"
cat >"$T/layer.policy" <<POL
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
deny @file-write @file-create @file-delete kernel
POL
"$UNOTIFY" policy explain "$T/layer.policy" 2>/dev/null | grep -q '^  opens: decided by Landlock' ||
	skip "explain does not give the opens to Landlock here"

for mode in layer supervisor; do
	flag=
	[ $mode = supervisor ] && flag=--no-landlock
	case_begin "$mode-outside" "($mode) open(outside, 3), a file whose writes are refused"
	urun $flag --policy "$T/layer.policy" -- "$ATTACK" r5-open-mode3 "$T/outside"
	if expect_blocked; then case_pass "$(results)"; fi
	if [ -c /dev/kvm ] && "$ATTACK" r5-open-mode3 /dev/kvm kvm | grep -q '^VM made'; then
		case_begin "$mode-kvm" "($mode) open(/dev/kvm, 3) and KVM_CREATE_VM"
		urun $flag --policy "$T/layer.policy" -- "$ATTACK" r5-open-mode3 /dev/kvm kvm
		if expect_blocked; then case_pass "$(results)"; fi
	else
		case_skip "$mode-kvm: natively no VM through /dev/kvm here"
	fi
done

case_begin guard-inside "(guard, layer) a write-open inside A/: allowed"
urun --policy "$T/layer.policy" -- sh -c "echo more >>'$A/f' && echo WROTE"
if [ "$(results)" = WROTE ]; then case_pass "written"; else case_fail "not written: $(results)"; fi

finish
