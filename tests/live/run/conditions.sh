#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Register conditions (== != < <= > >= and masked) give the same result in
# the kernel layer (deny: settled by the BPF filter) and in the user-space
# layer (return: only the supervisor can answer), and first match wins
# across the two layers.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

say "== the example: deny socket arg0==10 (AF_INET6)"
urun --rule 'deny socket arg0==10 EAFNOSUPPORT' --rule 'default allow' -- \
	"$PROBE" socket inet6 stream
expect_out "socket inet6 denied" "err EAFNOSUPPORT"
urun --rule 'deny socket arg0==10 EAFNOSUPPORT' --rule 'default allow' -- \
	"$PROBE" socket inet stream
expect_grep "socket inet allowed" "$OUT" '^ok fd=[0-9]+$'
urun --rule 'allow socket arg0==1' --rule 'deny socket EAFNOSUPPORT' --rule 'default allow' -- \
	"$PROBE" socket unix stream
expect_grep "allow socket arg0==1 (AF_UNIX)" "$OUT" '^ok fd=[0-9]+$'
urun --rule 'allow socket arg0==1' --rule 'deny socket EAFNOSUPPORT' --rule 'default allow' -- \
	"$PROBE" socket inet stream
expect_out "then deny socket: AF_INET" "err EAFNOSUPPORT"

# cond_case COND ARGS MATCH: getppid (nr 110) called with raw ARGS must match
# COND (MATCH=yes) or not (MATCH=no), in both layers.
cond_case() {
	cond=$1
	args=$2
	match=$3

	# shellcheck disable=SC2086 # ARGS are several words on purpose
	urun --rule "deny getppid $cond EXDEV" --rule 'default allow' -- "$PROBE" syscall 110 $args
	if [ "$match" = yes ]; then
		expect_out "kernel layer: '$cond' with ($args) matches" "err EXDEV"
	else
		expect_out "kernel layer: '$cond' with ($args) does not match" "ret=$REAL_PPID"
	fi
	# shellcheck disable=SC2086
	urun --log-level all --rule "return getppid $cond 42" --rule 'default allow' -- \
		"$PROBE" syscall 110 $args
	if [ "$match" = yes ]; then
		expect_out "user layer: '$cond' with ($args) matches" "ret=42"
		expect_grep "user layer: the supervisor decided it" "$ERR" \
			'syscall=getppid .*verdict=return value=42'
	else
		expect_out "user layer: '$cond' with ($args) does not match" "ret=$REAL_PPID"
	fi
}

say "== each operator, both layers"
cond_case 'arg0==10' '10' yes
cond_case 'arg0==10' '9' no
cond_case 'arg0==10' '11' no
cond_case 'arg0!=10' '9' yes
cond_case 'arg0!=10' '11' yes
cond_case 'arg0!=10' '10' no
cond_case 'arg0<10' '9' yes
cond_case 'arg0<10' '0' yes
cond_case 'arg0<10' '10' no
cond_case 'arg0<10' '11' no
cond_case 'arg0<=10' '10' yes
cond_case 'arg0<=10' '9' yes
cond_case 'arg0<=10' '11' no
cond_case 'arg0>10' '11' yes
cond_case 'arg0>10' '10' no
cond_case 'arg0>10' '9' no
cond_case 'arg0>=10' '10' yes
cond_case 'arg0>=10' '11' yes
cond_case 'arg0>=10' '9' no
cond_case 'arg0&240==16' '16' yes
cond_case 'arg0&240==16' '31' yes
cond_case 'arg0&240==16' '32' no
cond_case 'arg0&240==16' '15' no

say "== 64-bit values: compared unsigned, never truncated to 32 bits"
cond_case 'arg0==4294967296' '4294967296' yes
cond_case 'arg0==4294967296' '0' no
cond_case 'arg0>10' '-1' yes
cond_case 'arg0<10' '-1' no

say "== other argument positions"
cond_case 'arg1==7' '0 7' yes
cond_case 'arg1==7' '7 0' no
cond_case 'arg5==3' '0 0 0 0 0 3' yes
cond_case 'arg5==3' '3 3 3 3 3 0' no

say "== first match wins across the layers"
urun --rule 'allow getppid arg0==1' --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" syscall 110 1
expect_out "allow arg0==1 before return: arg0=1" "ret=$REAL_PPID"
urun --rule 'allow getppid arg0==1' --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" syscall 110 0
expect_out "allow arg0==1 before return: arg0=0" "ret=42"
urun --rule 'return getppid arg0==1 42' --rule 'deny getppid EXDEV' --rule 'default allow' -- \
	"$PROBE" syscall 110 1
expect_out "return arg0==1 before deny: arg0=1" "ret=42"
urun --rule 'return getppid arg0==1 42' --rule 'deny getppid EXDEV' --rule 'default allow' -- \
	"$PROBE" syscall 110 0
expect_out "return arg0==1 before deny: arg0=0" "err EXDEV"
urun --rule 'deny getppid arg0==1 EXDEV' --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" syscall 110 1
expect_out "deny arg0==1 before return: arg0=1" "err EXDEV"
urun --rule 'deny getppid arg0==1 EXDEV' --rule 'return getppid 42' --rule 'default allow' -- \
	"$PROBE" syscall 110 0
expect_out "deny arg0==1 before return: arg0=0" "ret=42"

say "PASS: conditions"
