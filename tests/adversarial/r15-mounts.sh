#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 15, a read-only sandbox written to by a mount (found by round 14's
# review). Under `deny @file-write` (a file category without path=, which
# holds for every file), mounts stayed allowed: the fixed-view set comes
# with path rules only, since a mount gives files no name the category does
# not decide. But a mount writes: overlayfs empties its workdir's "work"
# directory, in a user namespace of its own by any user, and a disk's mount
# writes its superblock. Now the set `mounts` refuses the mount calls next
# to any file category. The forbidden effect: work/work/keep/f is gone.
# Guards: natively the mount empties it; `implicit mounts off` says what
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

case_begin off "(guard) implicit mounts off: policy check names what it gives up"
printf 'default allow\ndeny @file-write EROFS\nimplicit mounts off\n' >"$T/off.policy"
bounded 20 "$UNOTIFY" policy check "$T/off.policy"
if printf '%s\n' "$ERR$OUT" | grep -q "implicit rule set 'mounts' turned off: a mount"; then
	case_pass "$(printf '%s\n' "$ERR$OUT" | grep -m1 "'mounts'")"
else
	case_fail "no warning: $ERR$OUT"
fi
finish
