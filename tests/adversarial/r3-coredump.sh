#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 3: a core dump is a file the kernel writes in the program's working
# directory with no system call (core_pattern "core"), where no path rule
# can stop it. Under a policy with file rules, `unotify run` gives the
# program RLIMIT_CORE 0:0 and the implicit set core-dumps keeps it there
# (setrlimit and prlimit64 of RLIMIT_CORE: EPERM; a prlimit64 read runs).
# The program, root with every capability (CAP_SYS_RESOURCE may raise a
# hard limit), first tries to raise the limit, then a child crashes in a
# directory the policy protects (SIGSEGV, abort): no core file there.
# The control (the set turned off) shows the same program does dump core
# here, so the cases can fail. Round 14: rules that refuse writing opens
# by name (no category, no path) bring the set too.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "core_pattern is the machine's; CAP_SYS_RESOURCE raises a hard limit"
setup_tmp

PAT=/proc/sys/kernel/core_pattern
USES_PID=/proc/sys/kernel/core_uses_pid
old_pat=$(cat "$PAT")
old_pid=$(cat "$USES_PID" 2>/dev/null || echo 0)
if [ "$old_pat" != core ]; then
	echo core >"$PAT" 2>/dev/null || skip "cannot set core_pattern to 'core' (a read-only /proc/sys)"
	on_cleanup "printf '%s\n' '$old_pat' >$PAT"
fi
if [ "$old_pid" != 0 ]; then
	echo 0 >"$USES_PID" 2>/dev/null || true
	on_cleanup "echo $old_pid >$USES_PID"
fi

mkdir -p "$T/sys/etc" "$T/work"
cat >"$T/ro.policy" <<EOF
default allow
deny @file-write @file-create @file-delete @file-attr path=$T/sys/etc path=$T/sys/etc/** EROFS
EOF
cat >"$T/off.policy" <<EOF
default allow
deny @file-write @file-create @file-delete @file-attr path=$T/sys/etc path=$T/sys/etc/** EROFS
implicit core-dumps off
EOF

cores() {
	ls "$1" | grep '^core' || true
}

# control: with the set off, the program's own raise works and it dumps core.
rm -f "$T/sys/etc/"core*
case_begin control "(core-dumps off) the same program raises RLIMIT_CORE and dumps core in etc/"
urun --policy "$T/off.policy" -- "$ATTACK" coredump-raise "$T/sys/etc" segv
if [ -n "$(cores "$T/sys/etc")" ] && results | grep -q '^CREATED'; then
	case_pass "the kernel wrote $(cores "$T/sys/etc") (the attack works here)"
	CONTROL=yes
else
	case_skip "no core dumped even with the set off (core_pattern '$(cat "$PAT")', status $RC): $(results | head -1)"
	CONTROL=no
fi
rm -f "$T/sys/etc/"core*

for how in segv abort; do
	case_begin "run-$how" "(file rules) raise RLIMIT_CORE, then a child crashes ($how) in etc/: no core file"
	urun --policy "$T/ro.policy" -- "$ATTACK" coredump-raise "$T/sys/etc" "$how"
	if [ -n "$(cores "$T/sys/etc")" ]; then
		case_fail "the kernel wrote $(cores "$T/sys/etc") in etc/"
	elif ! expect_blocked; then
		:
	elif ! results | grep -q '^BLOCKED EPERM$'; then
		case_fail "the raise was not refused with EPERM: $(results | head -1)"
	elif ! printf '%s\n' "$OUT" | grep -q '^# core limit 0:0$'; then
		case_fail "prlimit64 with no new limit must read 0:0: $(printf '%s\n' "$OUT" | grep limit)"
	else
		case_pass "no core, raise refused (EPERM), limit read as 0:0"
	fi
	rm -f "$T/sys/etc/"core*
done

# Landlock off: the limit is the spawn's, not the Landlock layer's.
case_begin run-no-landlock "(file rules, --no-landlock) the same: no core file"
urun --no-landlock --policy "$T/ro.policy" -- "$ATTACK" coredump-raise "$T/sys/etc" segv
if [ -n "$(cores "$T/sys/etc")" ]; then
	case_fail "the kernel wrote $(cores "$T/sys/etc") in etc/"
elif expect_blocked; then
	case_pass "no core: $(results | head -1)"
fi
rm -f "$T/sys/etc/"core*

# Round 14 (adversarial review): rules that refuse writing opens by name,
# no category, no path, brought no core-dumps set: as nobody, with no
# capability, the program raised its soft limit and the kernel wrote a
# core where no open for writing may be made.
case_begin by-name "(no write opens, by name: deny openat arg2&0x3==0x1 ...) no core file"
cat >"$T/byname.policy" <<EOF
default allow
deny creat openat2 EROFS
deny open arg1&0x3==0x1 EROFS
deny open arg1&0x3==0x2 EROFS
deny openat arg2&0x3==0x1 EROFS
deny openat arg2&0x3==0x2 EROFS
EOF
urun --policy "$T/byname.policy" -- "$ATTACK" coredump-raise "$T/sys/etc" segv
if [ -n "$(cores "$T/sys/etc")" ]; then
	case_fail "the kernel wrote $(cores "$T/sys/etc") in etc/"
elif expect_blocked; then
	case_pass "no core: $(results | head -1)"
fi
rm -f "$T/sys/etc/"core*

# Without file rules the program's limits are its own (nothing to protect).
case_begin no-file-rules "(network rules only) the limit stays the program's: raising works"
printf 'default allow\ndeny @net-connect port=25 ECONNREFUSED\n' >"$T/net.policy"
urun --policy "$T/net.policy" -- "$ATTACK" coredump-raise "$T/work" segv
if [ "$CONTROL" = yes ] && [ -z "$(cores "$T/work")" ]; then
	case_fail "no core in an unprotected directory: the limit was taken from a policy without file rules"
else
	case_pass "$(results | head -1)"
fi

# What stays open: a runtime-started container's limits are the runtime's.
case_begin check-wording "policy check names only what stays open (a runtime's container under unotifyd)"
"$UNOTIFY" policy check "$T/ro.policy" >"$T/check.out" 2>&1 || true
if ! grep -q "ro.policy:2:1: warning: under unotifyd, a container an OCI runtime starts" "$T/check.out"; then
	case_fail "no runtime-container warning: $(head -c 400 "$T/check.out")"
elif grep -q "give the program RLIMIT_CORE" "$T/check.out"; then
	case_fail "the warning still says unotify run is open: $(head -c 400 "$T/check.out")"
else
	case_pass "$(grep -o 'warning: under unotifyd[^(]*' "$T/check.out" | head -1)"
fi

finish
