#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 19, an open with the program's descriptor table full (found by
# round 19's review of the queue helper). The kernel takes the new
# descriptor's number before it opens anything, and answers EMFILE. The
# supervisor performs the open first and hands the file over with ADDFD,
# which the full table refuses (EMFILE); the call then failed with ENOSYS,
# an answer no open gives, by which a program tells it is supervised. It
# now fails with EMFILE, as natively. What the performed open did stays (a
# file created or truncated): SECURITY.md's known limits say so.
# The forbidden effect: an errno the kernel's own open never gives.
# Guard: natively, the same opens fail with EMFILE.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp
ATTACK=${ATTACK:-$top_builddir/tests/adversarial/attack}
printf 'default allow\ndeny @file-read @file-write @file-create path=%s/nothing/** EACCES\n' "$T" \
	>"$T/p.policy"
echo data >"$T/file"

# full_case HOW: natively, then sandboxed (run, then unotifyd).
full_case() {
	_how=$1
	case_begin "$_how" "with the descriptor table full, an open ($_how): EMFILE, as natively"
	rm -f "$T/new"
	bounded 20 "$ATTACK" r19-full-table "$2" "$_how"
	_native=$OUT
	rm -f "$T/new"
	urun --policy "$T/p.policy" -- "$ATTACK" r19-full-table "$2" "$_how"
	_run=$OUT
	rm -f "$T/new"
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p -- \
		"$ATTACK" r19-full-table "$2" "$_how"
	_daemon=$OUT
	if [ "$_native" != "OPEN EMFILE" ]; then
		case_fail "the guard: natively $_native"
	elif [ "$_run" = "$_native" ] && [ "$_daemon" = "$_native" ]; then
		case_pass "run: $_run; unotifyd: $_daemon"
	else
		case_fail "expected $_native: run $_run, unotifyd $_daemon"
	fi
}

policy p "$(cat "$T/p.policy")"
start_daemon
full_case read "$T/file"
full_case create "$T/new"
full_case trunc "$T/file"
if daemon_alive; then
	:
else
	fail "unotifyd died: $(tail -3 "$T/d.err")"
fi
finish
