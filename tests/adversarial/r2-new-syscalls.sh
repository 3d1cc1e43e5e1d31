#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: calls that change files without any call the policy can name.
# read-only-system.policy (moved under $T/sys) says nothing under etc/ may
# be written, created, deleted or have its attributes changed, and its
# implicit rules keep the view fixed and the inode flags out. As root:
#   - setxattrat, removexattrat (Linux 6.13) and a POSIX ACL through
#     setxattrat: @file-attr names setxattr and its kin, not these, and
#     libseccomp 2.5 has no name for them (the default allow lets them run);
#   - file_setattr (6.17): FS_XFLAG_IMMUTABLE / APPEND by path, which the
#     inode-flags set refuses by ioctl only; and the append-only flag that
#     SECURITY.md offers against fcntl(F_SETFL) cleared that way, the log
#     then rewritten at offset 0;
#   - open_tree_attr (6.15): open_tree under another name, a detached clone
#     of etc/ whose files read back as /NAME and escape every path rule;
#   - acct(2): the kernel appends process accounting records to a file of
#     etc/ (run in a private pid namespace: accounting is per namespace);
#   - a core dump: the kernel creates etc/core (core_pattern "core") with
#     no system call; `unotify run` keeps RLIMIT_CORE 0 (r3-coredump.sh),
#     and `policy check` names what stays open.
# Each case checks the file, its xattrs, flags or mode, from outside.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "xattrs of root's files, inode flags, mounts, acct"
need_cmd lsattr
setup_tmp
on_cleanup "chattr -R -i -a '$T' >/dev/null 2>&1"

ROS=$top_srcdir/contrib/policies/read-only-system.policy
sed "s#path=/#path=$T/sys/#g" "$ROS" >"$T/ros.policy"
mkdir -p "$T/sys/etc"
F=$T/sys/etc/hostname

# fresh: etc/hostname as it was, with a user.keep attribute and no flags.
fresh() {
	chattr -i -a "$F" 2>/dev/null || true
	rm -f "$F" "$T/sys/etc/core"
	echo host >"$F"
	chmod 644 "$F"
	"$ATTACK" setxattr "$F" user.keep yes >/dev/null || fail "this file system has no user xattrs"
	SUM=$(checksum "$F")
}

xattr_present() {
	"$ATTACK" xattr-get "$F" "$1" | grep -q '^VALUE'
}

flags_of() {
	lsattr -d "$1" 2>/dev/null | cut -d' ' -f1
}

# A case whose call this kernel lacks is skipped, not passed: nothing was
# tried. Whether it has the call is asked outside the sandbox (on a scratch
# file), as the policy may itself answer ENOSYS: what an older kernel says,
# so that programs fall back to the calls the rules decide.
# absent NAME ATTACK-COMMAND ARGS...: the scratch file is $T/probe.
absent() {
	_name=$1
	shift
	rm -f "$T/probe"
	echo probe >"$T/probe"
	"$ATTACK" setxattr "$T/probe" user.keep yes >/dev/null 2>&1 || true
	if "$ATTACK" "$@" 2>/dev/null | grep -q '^SETUP .* ENOSYS'; then
		case_skip "this kernel has no $_name"
		return 0
	fi
	return 1
}

fresh
case_begin control-setxattr "(read-only-system) setxattr(2) of etc/hostname is denied (guard)"
urun --policy "$T/ros.policy" -- "$ATTACK" setxattr "$F" user.adv pwned
if xattr_present user.adv; then case_fail "user.adv was set"; else case_pass "$(results | head -1)"; fi

fresh
case_begin setxattrat "(read-only-system) setxattrat(2) user.adv on etc/hostname"
urun --policy "$T/ros.policy" -- "$ATTACK" setxattrat "$F" user.adv pwned
if absent setxattrat setxattrat "$T/probe" user.adv x; then :
elif xattr_present user.adv; then case_fail "user.adv was set: $(results | head -1)"
else case_pass "no user.adv ($(results | head -1))"; fi

fresh
case_begin removexattrat "(read-only-system) removexattrat(2) of user.keep on etc/hostname"
urun --policy "$T/ros.policy" -- "$ATTACK" removexattrat "$F" user.keep
if absent removexattrat removexattrat "$T/probe" user.keep; then :
elif xattr_present user.keep; then case_pass "user.keep still there ($(results | head -1))"
else case_fail "user.keep was removed: $(results | head -1)"; fi

fresh
MODE=$(stat -c %a "$F")
case_begin acl-setxattrat "(read-only-system) a POSIX ACL giving nobody rw on etc/hostname, by setxattrat(2)"
urun --policy "$T/ros.policy" -- "$ATTACK" acl-grant-at "$F" 65534
if absent setxattrat setxattrat "$T/probe" user.adv x; then :
elif xattr_present system.posix_acl_access || [ "$(stat -c %a "$F")" != "$MODE" ]; then
	case_fail "an ACL was set, mode now $(stat -c %a "$F") (was $MODE)"
else
	case_pass "no ACL, mode $MODE"
fi

fresh
case_begin control-setflags "(read-only-system) ioctl(FS_IOC_SETFLAGS) immutable is refused (guard)"
bounded 20 "$UNOTIFY" run -q --policy "$T/ros.policy" -- chattr +i "$F"
case $(flags_of "$F") in
*i*) case_fail "chattr +i set the flag: $(flags_of "$F")" ;;
*) case_pass "flags $(flags_of "$F") (chattr status $RC)" ;;
esac

fresh
case_begin file-setattr "(read-only-system) file_setattr(2) FS_XFLAG_IMMUTABLE on etc/hostname"
urun --policy "$T/ros.policy" -- "$ATTACK" file-setattr "$F" immutable
if absent file_setattr file-setattr "$T/probe" noatime; then :
else
	case $(flags_of "$F") in
	*i*) case_fail "etc/hostname is immutable now: $(flags_of "$F")" ;;
	*) case_pass "flags $(flags_of "$F") ($(results | head -1))" ;;
	esac
fi

# ---- the append-only flag SECURITY.md offers, undone ----
mkdir -p "$T/log"
cat >"$T/append.policy" <<EOF
default allow
deny openat open path=$T/log/** access=w,rw flags=!O_APPEND EPERM
EOF
LOG_START="first line of the log $(token)"
append_log() {
	chattr -a "$T/log/app.log" 2>/dev/null || true
	printf '%s\n' "$LOG_START" >"$T/log/app.log"
	chattr +a "$T/log/app.log"
}

append_log
case_begin control-append-flag "(append-only log, chattr +a) O_APPEND dropped by fcntl, pwrite at 0 (guard)"
urun --policy "$T/append.policy" -- "$ATTACK" append-rewrite "$T/log/app.log" FORGED
if head -1 "$T/log/app.log" | grep -qF "$LOG_START"; then
	case_pass "the first line is intact ($(results | head -1))"
else
	case_fail "the log was rewritten: $(head -c 80 "$T/log/app.log")"
fi

append_log
case_begin append-undo "(append-only log, chattr +a) the flag cleared by file_setattr(2), then rewritten at 0"
urun --policy "$T/append.policy" -- "$ATTACK" append-undo "$T/log/app.log" FORGED
if absent file_setattr file-setattr "$T/probe" noatime; then :
elif head -1 "$T/log/app.log" | grep -qF "$LOG_START"; then
	case_pass "the first line is intact ($(results | head -1))"
else
	case_fail "the log was rewritten: $(head -c 40 "$T/log/app.log" | tr '\n' ' ') (flags now $(flags_of "$T/log/app.log"))"
fi

# ---- a detached clone of etc/ ----
fresh
case_begin open-tree-attr "(read-only-system) open_tree_attr(2) OPEN_TREE_CLONE of etc/, hostname rewritten in the clone"
urun --policy "$T/ros.policy" -- "$ATTACK" tree-attr-write "$T/sys/etc" hostname PWNED
if absent open_tree_attr tree-attr-write "$T/sys" probe-none x; then :
elif [ "$(checksum "$F")" = "$SUM" ]; then
	case_pass "etc/hostname unchanged ($(results | head -1))"
else
	case_fail "etc/hostname now reads '$(head -c 40 "$F")': $(results | head -1)"
fi

# ---- files the kernel writes for the program ----
fresh
case_begin acct "(read-only-system) acct(2) on etc/hostname: the kernel appends accounting records"
if command -v unshare >/dev/null 2>&1 && unshare --pid --fork --mount-proc true 2>/dev/null; then
	bounded "$RUN_TIMEOUT" unshare --pid --fork --mount-proc \
		"$UNOTIFY" run -q --policy "$T/ros.policy" -- "$ATTACK" acct-append "$F"
	if [ "$(checksum "$F")" = "$SUM" ]; then
		case_pass "etc/hostname unchanged ($(results | head -1))"
	else
		case_fail "etc/hostname grew to $(stat -c %s "$F") bytes of accounting records: $(results | head -1)"
	fi
else
	case_skip "no unshare --pid --mount-proc here (acct(2) must stay in a private pid namespace)"
fi

# A core dump is written by the kernel with no system call: `unotify run`
# keeps the program's RLIMIT_CORE at 0 (r3-coredump.sh tries it); what
# stays open is a runtime's container under unotifyd, which `policy check`
# names at the rule, and SECURITY.md lists.
case_begin coredump-warned "(read-only-system) a core dump in etc/: policy check names the runtime-container gap, SECURITY.md lists it"
"$UNOTIFY" policy check "$T/ros.policy" >"$T/check.out" 2>&1 || true
if ! grep -q "ros.policy:[0-9]*:[0-9]*: warning: under unotifyd, a container an OCI runtime starts .* can dump core" "$T/check.out"; then
	case_fail "no core dump warning at a rule: $(head -c 300 "$T/check.out")"
elif ! grep -q 'A core dump' "$top_srcdir/SECURITY.md"; then
	case_fail "SECURITY.md does not list core dumps"
else
	case_pass "$(grep -o 'ros.policy:[0-9]*:[0-9]*: warning: under unotifyd' "$T/check.out")"
fi

finish
