#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 9, calls through another ABI sent to unotifyd by a filter it did
# not write. An OCI runtime loads the container's filter from its profile,
# and Docker's lists i386 and x32 as x86_64's sub-architectures: the open
# the profile sends to the supervisor is sent through int $0x80 too (i386's
# open is 5, x86_64's 5 is fstat) and by x32's numbers (bit 30 set, beyond
# every native table). A policy names native calls: read as native, i386's
# open of a denied file was decided as an fstat and let run (CONTINUE), and
# an x32 openat fell to the default. The forbidden effect: the denied
# file's token in the output. Now every call through another ABI is
# refused (EPERM) and recorded with its architecture (text and JSON
# trails). Guards: the native open of the denied file is refused by the
# rule, an allowed one read.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp
[ "$(uname -m)" = x86_64 ] || skip "the foreign-ABI attacks are x86_64 only ($(uname -m))"

mkdir -p "$T/priv" "$T/pub"
TOKEN=$(secret "$T/priv/secret")
echo public >"$T/pub/f"
policy box "deny @file-read path=$T/priv/** EACCES
default allow"
start_daemon
CALLS=foreign:open,openat

# expect_refused: the last run read no token, and the daemon refused it (EPERM).
expect_refused() {
	expect_blocked "$TOKEN" || return 0
	if results | grep -q '^BLOCKED EPERM$'; then
		case_pass "$(results | head -1)"
	else
		case_fail "not refused by the supervisor: $(results | head -1)"
	fi
}

case_begin native-denied "(guard) the native open of the denied file"
drun box "$CALLS" read "$T/priv/secret"
if expect_blocked "$TOKEN"; then case_pass "$(results | head -1)"; fi

case_begin native-allowed "(guard) the native open of an allowed file is performed"
drun box "$CALLS" read "$T/pub/f"
if printf '%s\n' "$OUT" | grep -q public; then
	case_pass "read"
else
	case_fail "the allowed file was not read"
fi

case_begin i386-denied "open(2) of the denied file through int \$0x80, sent to unotifyd"
set +e
_base=$("$ATTACK" i386-open "$T/pub/f" 2>&1)
set -e
case $_base in
*LEAK*)
	drun box "$CALLS" i386-open "$T/priv/secret"
	expect_refused
	;;
*)
	case_skip "this kernel runs no i386 system calls ($_base)"
	;;
esac

case_begin i386-allowed "an i386 open of an allowed file: refused too (the policy cannot name it)"
case $_base in
*LEAK*)
	drun box "$CALLS" i386-open "$T/pub/f"
	expect_refused
	;;
*)
	case_skip "this kernel runs no i386 system calls"
	;;
esac

case_begin x32-denied "openat of the denied file by its x32 number, sent to unotifyd"
drun box "$CALLS" x32-open "$T/priv/secret"
expect_refused

case_begin audit "the refusals are recorded with the i386 architecture, named by number"
if wait_until 10 grep -q 'arch=0x40000003 verdict=deny errno=EPERM' "$T/audit.log"; then
	if grep 'arch=0x40000003' "$T/audit.log" | grep -q 'syscall=fstat'; then
		case_fail "an i386 call recorded under a native name"
	else
		case_pass "$(grep -m1 'arch=0x40000003' "$T/audit.log" | cut -c1-160)"
	fi
elif [ "$SKIPPED" -gt 0 ]; then
	case_skip "no i386 call was made"
else
	RC=- OUT=$(tail -n 5 "$T/audit.log") ERR=
	case_fail "no record of the i386 refusal"
fi

daemon_alive || fail "unotifyd died"

case_begin audit-json "the JSON trail has the architecture too"
case $_base in
*LEAK*)
	kill "$DPID"
	wait_until 10 sh -c '! kill -0 '"$DPID"' 2>/dev/null' || fail "unotifyd did not stop"
	# start_daemon waits for its "listening on" in d.err: the first one's must go.
	mv "$T/audit.log" "$T/audit-text.log"
	mv "$T/d.err" "$T/d-text.err"
	UNOTIFYD_ARGS="--log-format json" start_daemon
	drun box "$CALLS" i386-open "$T/priv/secret"
	if ! expect_blocked "$TOKEN"; then
		:
	elif ! results | grep -q '^BLOCKED EPERM$'; then
		case_fail "not refused by the supervisor: $(results | head -1)"
	elif wait_until 10 grep -Eq '"arch": ?"0x40000003"' "$T/audit.log"; then
		case_pass "$(grep -m1 '0x40000003' "$T/audit.log" | cut -c1-160)"
	else
		RC=- OUT=$(tail -n 3 "$T/audit.log") ERR=
		case_fail "no arch in the JSON record"
	fi
	;;
*)
	case_skip "this kernel runs no i386 system calls"
	;;
esac

daemon_alive || fail "unotifyd died"
finish
