#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Several rules of one syscall on its registers, settled by the kernel
# layer: each call gets what the rules say. libseccomp 2.5 ORs such rules
# into one decision tree and got some sets wrong (round 16's review: the
# "no IP networking" set below let socket(AF_INET) and socket(AF_INET6)
# run, and `policy explain` called it exact), or looped for ever compiling
# them (the getpriority sets: `unotify run` never started). Such sets are
# now checked once compiled, or kept from libseccomp: their calls go to the
# supervisor. Guards: what the rules allow still runs, and Docker's own
# set's shape (an equality and a range on one argument) stays in the
# kernel.

. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

cat >"$T/no-ip.policy" <<'P'
# No IP networking: the program may use unix sockets and netlink only.
default allow
deny socket arg0==2                   # AF_INET
deny socket arg0==10                  # AF_INET6
deny socket arg0!=16 arg1==3          # no raw sockets (netlink's are SOCK_RAW)
P

say "== a != rule next to == rules on the same argument"
urun --policy "$T/no-ip.policy" -- "$PROBE" socket inet stream
expect_out "socket(AF_INET, SOCK_STREAM) refused" "err EPERM"
urun --policy "$T/no-ip.policy" -- "$PROBE" socket inet6 stream
expect_out "socket(AF_INET6, SOCK_STREAM) refused" "err EPERM"
urun --policy "$T/no-ip.policy" -- "$PROBE" socket inet raw
expect_out "a raw inet socket refused" "err EPERM"
urun --policy "$T/no-ip.policy" -- "$PROBE" socket unix stream
expect_grep "(guard) a unix socket is made" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$T/no-ip.policy" -- "$PROBE" socket netlink raw
expect_grep "(guard) a raw netlink socket is made" "$OUT" '^ok fd=[0-9]+$'
ucmd policy explain "$T/no-ip.policy" --syscall socket
expect_grep "explain: every socket call goes to the supervisor" "$OUT" \
	'^socket \(41\): supervisor: every call goes to the supervisor'

cat >"$T/loops.policy" <<'P'
default allow
deny getpriority arg0<0x1 arg1<=0
deny getpriority arg1==0x1 arg0<0x1
deny getpriority arg1==0 arg2>=0xffffffffffffffff
deny getpriority arg1>=0x7fffffff arg0>0x1
P
say "== a set libseccomp looped on: the run starts, the rules hold"
urun --policy "$T/loops.policy" -- "$PROBE" syscall 140 0 1 0
expect_out "getpriority(0, 1, 0) refused by rule 3" "err EPERM"
urun --policy "$T/loops.policy" -- "$PROBE" syscall 140 0 2 0
expect_grep "(guard) getpriority(0, 2, 0) runs" "$OUT" '^ret=-?[0-9]+$'

# Round 16's second review: equalities only, 6 on a chain beside chains of
# 1 on later arguments. libseccomp's work grows exponentially with them
# (40 rules: not done in minutes); more than 12 such chains are kept from it.
cat >"$T/mixed.policy" <<'P'
default allow
kill getpriority arg0==0x5 arg1==0xffffffff00000000 arg2==0xffffffff00000000 arg3==0x5 arg4==0x5 arg5==0x100000000
kill getpriority arg2==0x300000001
kill getpriority arg0==0x5 arg1==0x5 arg2==0xffffffff00000000 arg3==0x100000005 arg4==0xffffffff00000000 arg5==0xffffffff00000000
kill getpriority arg2==0x200000000
kill getpriority arg0==0x5 arg1==0x5 arg2==0x100000000 arg3==0x100000005 arg4==0x5 arg5==0x100000005
kill getpriority arg4==0x300000001
kill getpriority arg0==0x100000005 arg1==0x100000005 arg2==0x100000000 arg3==0x5 arg4==0x5 arg5==0x100000005
kill getpriority arg0==0x300000001
kill getpriority arg0==0x5 arg1==0x5 arg2==0x100000000 arg3==0xffffffff00000000 arg4==0x5 arg5==0x100000005
kill getpriority arg3==0x300000001
kill getpriority arg0==0x100000005 arg1==0x5 arg2==0x5 arg3==0x5 arg4==0x100000000 arg5==0x100000000
kill getpriority arg4==0x7
kill getpriority arg0==0x5 arg1==0xffffffff00000000 arg2==0x100000005 arg3==0xffffffff00000000 arg4==0x100000005 arg5==0xffffffff00000000
kill getpriority arg1==0x300000001
kill getpriority arg0==0x100000005 arg1==0x100000000 arg2==0xffffffff00000000 arg3==0x100000005 arg4==0x100000005 arg5==0xffffffff00000000
kill getpriority arg4==0x7
kill getpriority arg0==0x5 arg1==0x100000000 arg2==0xffffffff00000000 arg3==0x100000000 arg4==0x5 arg5==0x100000005
kill getpriority arg3==0x7
kill getpriority arg0==0x5 arg1==0x100000005 arg2==0x5 arg3==0x5 arg4==0xffffffff00000000 arg5==0x100000005
kill getpriority arg5==0x300000001
kill getpriority arg0==0x100000005 arg1==0x5 arg2==0x100000005 arg3==0x5 arg4==0x100000005 arg5==0xffffffff00000000
kill getpriority arg3==0x7
kill getpriority arg0==0x5 arg1==0x100000000 arg2==0x100000005 arg3==0xffffffff00000000 arg4==0x100000005 arg5==0xffffffff00000000
kill getpriority arg2==0x300000001
kill getpriority arg0==0x5 arg1==0x5 arg2==0x5 arg3==0x5 arg4==0xffffffff00000000 arg5==0x100000000
kill getpriority arg5==0x7
kill getpriority arg0==0x100000005 arg1==0xffffffff00000000 arg2==0x100000005 arg3==0x100000000 arg4==0x5 arg5==0x100000005
kill getpriority arg5==0x200000000
kill getpriority arg0==0x100000005 arg1==0x100000005 arg2==0x5 arg3==0x100000005 arg4==0x100000005 arg5==0xffffffff00000000
kill getpriority arg3==0x300000001
kill getpriority arg0==0xffffffff00000000 arg1==0x5 arg2==0xffffffff00000000 arg3==0x5 arg4==0x100000005 arg5==0x100000005
kill getpriority arg5==0x300000001
kill getpriority arg0==0x5 arg1==0x5 arg2==0x100000005 arg3==0x5 arg4==0xffffffff00000000 arg5==0x5
kill getpriority arg4==0x200000000
kill getpriority arg0==0x100000000 arg1==0x100000000 arg2==0x5 arg3==0x100000005 arg4==0x100000000 arg5==0x5
kill getpriority arg5==0x300000001
kill getpriority arg0==0x100000005 arg1==0x100000000 arg2==0x100000000 arg3==0x5 arg4==0x5 arg5==0x5
kill getpriority arg4==0x300000001
kill getpriority arg0==0x5 arg1==0x100000005 arg2==0xffffffff00000000 arg3==0x100000005 arg4==0x100000000 arg5==0xffffffff00000000
kill getpriority arg5==0x200000000
P
say "== 40 equality rules of mixed lengths: the run starts, the rules hold"
urun --policy "$T/mixed.policy" -- "$PROBE" syscall 140 0 0 0x300000001
# Killed by the supervisor (SIGKILL, 128+9): the set is kept from the kernel layer.
expect_run "getpriority(0, 0, 0x300000001) killed by rule 2" 137 ""
urun --policy "$T/mixed.policy" -- "$PROBE" syscall 140 0 0 0
expect_grep "(guard) getpriority(0, 0, 0) runs" "$OUT" '^ret=-?[0-9]+$'

cat >"$T/ranges.policy" <<'P'
default allow
deny socket arg0==40
deny socket arg0>45
P
say "== an equality and a range on one argument (the shape of Docker's socket rules): in the kernel"
urun --policy "$T/ranges.policy" -- "$PROBE" socket unix stream
expect_grep "(guard) AF_UNIX is made" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$T/ranges.policy" -- "$PROBE" socket 40 stream
expect_out "AF_VSOCK (40) refused" "err EPERM"
urun --policy "$T/ranges.policy" -- "$PROBE" socket 46 stream
expect_out "family 46 refused" "err EPERM"
ucmd policy explain "$T/ranges.policy" --syscall socket
expect_grep "explain: settled in the kernel" "$OUT" \
	'^socket \(41\): kernel: every call settled in the kernel'
