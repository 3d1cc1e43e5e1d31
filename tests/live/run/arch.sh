#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# System calls through a foreign ABI (i386 `int $0x80`, x32) would bypass a
# filter written for x86_64 numbers: the program is killed (SIGSYS, 159)
# even under `default allow`.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

[ "$(uname -m)" = x86_64 ] || skip "the foreign-ABI probes are x86_64 only ($(uname -m))"

say "== native calls still work under the same policy"
urun --rule 'default allow' -- "$PROBE" syscall 39
expect_grep "native getpid" "$OUT" '^ret=[0-9]+$'

say "== i386: int \$0x80"
set +e
base=$("$PROBE" i386-getpid 2>&1)
set -e
case $base in
ret=[0-9]*)
	say "unsupervised: i386 getpid works ($base)"
	urun --rule 'default allow' -- "$PROBE" i386-getpid
	expect_run "i386 getpid under default allow" 159 ""
	urun --rule 'allow getpid' --rule 'default allow' -- "$PROBE" i386-getpid
	expect_run "i386 getpid with getpid allowed by name" 159 ""
	;;
*)
	skip_case "i386 getpid killed" "this kernel runs no i386 system calls ($base)"
	;;
esac

say "== x32: the __X32_SYSCALL_BIT"
set +e
base=$("$PROBE" x32-getpid 2>&1)
set -e
# Without x32 support the kernel answers -ENOSYS, but seccomp sees the call
# first, so the filter must kill it either way.
say "unsupervised: $base"
urun --rule 'default allow' -- "$PROBE" x32-getpid
expect_run "x32 getpid under default allow" 159 ""
urun --rule 'allow getpid' --rule 'default allow' -- "$PROBE" x32-getpid
expect_run "x32 getpid with getpid allowed by name" 159 ""

say "PASS: arch"
