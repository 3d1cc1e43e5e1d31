#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 15, a read-only sandbox written to by a mount (found by round 14's
# review). Under `deny @file-write` (a file category without path=, which
# holds for every file), mounts stayed allowed: the fixed-view set comes
# with path rules only, since a mount gives files no name the category does
# not decide. But a mount writes: overlayfs empties its workdir's "work"
# directory, in a user namespace of its own by any user, and a disk's mount
# writes its superblock. Now the set `file-systems` refuses the mount
# calls next to any file category, and a file system's own ioctls
# (relabelled, frozen through a read-only descriptor by this round's
# review). The forbidden effect: work/work/keep/f is gone.
# Guards: natively the mount empties it; `implicit file-systems off` says what
# it gives up.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "a mount namespace and overlayfs"
setup_tmp

# overlay_case NAME WHAT POLICY WANT KEPT: the attack's overlay mount under
# POLICY (natively when empty) prints WANT; KEPT (yes|no): the workdir's file stays.
overlay_case() {
	rm -rf "$T/o"
	mkdir -p "$T/o/lower" "$T/o/upper" "$T/o/work/work/keep" "$T/o/m"
	echo data >"$T/o/work/work/keep/f"
	prints_case "$1" "$2" "$3" "$4" r15-overlay "$T/o"
	_kept=no
	[ -e "$T/o/work/work/keep/f" ] && _kept=yes
	if [ "$_kept" != "$5" ]; then
		case_begin "$1-file" "the workdir's file: kept $5"
		case_fail "kept: $_kept"
	fi
}

printf 'default allow\ndeny @file-write EROFS\n' >"$T/ro.policy"
overlay_case native "(guard) natively: the overlay mount empties work/work" "" "MOUNTED" no
overlay_case ro "deny @file-write: an overlay mount in a mount namespace of its own" ro \
	"BLOCKED EPERM" yes

# A file system's own ioctls through a descriptor opened for reading
# (found by this round's review: the label went to the disk, and a
# freeze stops every writer, the host's too).
case_begin fs-label "deny @file-write: FS_IOC_SETFSLABEL through a read-only descriptor"
if setup_image "$T/img"; then
	echo data >"$T/img/f"
	urun --policy "$T/ro.policy" -- "$ATTACK" r15-fs-ioctl label "$T/img/f"
	got=$(results | head -1)
	bounded 20 "$ATTACK" r15-fs-ioctl freeze "$T/img/f"
	native_freeze=$(results | head -1)
	label=$(e2label "$IMG_DEV" 2>/dev/null || echo '?')
	if [ "$label" = r15-label ]; then
		case_fail "the disk's label was written: $got"
	elif [ "$got" != "BLOCKED EPERM" ]; then
		case_fail "expected BLOCKED EPERM: $got"
	else
		case_pass "$got (label '$label')"
	fi
	case_begin fs-freeze "deny @file-write: FIFREEZE through a read-only descriptor (natively: $native_freeze)"
	urun --policy "$T/ro.policy" -- "$ATTACK" r15-fs-ioctl freeze "$T/img/f"
	if [ "$native_freeze" != "FROZEN and thawed" ]; then
		case_fail "the guard: natively $native_freeze"
	elif [ "$(results | head -1)" = "BLOCKED EPERM" ]; then
		case_pass "BLOCKED EPERM"
	else
		case_fail "expected BLOCKED EPERM: $(results | head -1)"
	fi
else
	case_skip "no loop device or mkfs.ext4 here"
fi

case_begin off "(guard) implicit file-systems off: policy check names what it gives up"
printf 'default allow\ndeny @file-write EROFS\nimplicit file-systems off\n' >"$T/off.policy"
bounded 20 "$UNOTIFY" policy check "$T/off.policy"
if printf '%s\n' "$ERR$OUT" | grep -q "implicit rule set 'file-systems' turned off: mounts, swap"; then
	case_pass "$(printf '%s\n' "$ERR$OUT" | grep -m1 "'file-systems'")"
else
	case_fail "no warning: $ERR$OUT"
fi
finish
