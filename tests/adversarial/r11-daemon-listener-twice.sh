#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, one listener registered twice with unotifyd (found by an
# adversarial review). A client that sent a dup of a listener it had
# registered, on a second connection, under another policy, got it
# accepted: two threads then took the sandbox's notifications in turn,
# each deciding by its own policy, so the program's calls were decided
# alternately by both. Now a listener that is one open file with a
# supervised sandbox's (kcmp) is refused, with a log line. The forbidden
# effects: the second registration accepted, a getppid answered by the
# second policy (43). Guard: a sandbox of its own under the second policy
# is answered 43.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

policy box "default allow
return getppid 42"
policy other "default allow
return getppid 43"
start_daemon

case_begin listener-twice "(client) a dup of a registered listener registered again under another policy, then getppid for a second"
export ATTACK_REGISTER_AGAIN=other
drun box getppid getppid-loop 42 1 "$T/ready"
unset ATTACK_REGISTER_AGAIN
if hung; then
	case_fail "the run did not end within its time limit: a hang"
elif printf '%s\n' "$OUT" | grep -q '^# AGAIN registered'; then
	case_fail "the dup was registered too: $(results | head -1)"
elif ! printf '%s\n' "$OUT" | grep -q '^# AGAIN refused'; then
	case_fail "the second registration did not run: $(printf '%s\n' "$OUT" | head -3)"
elif ! results | grep -q '^BLOCKED all [1-9][0-9]* answers were 42$'; then
	case_fail "answers not the first policy's: $(results | head -1)"
elif ! grep -q 'refused: its listener is supervised already' "$T/d.err"; then
	case_fail "no log line says why"
else
	case_pass "refused, and $(results | head -1 | cut -d' ' -f2-)"
fi

case_begin own-listener "(guard) a sandbox of its own under the second policy"
drun other getppid getppid-loop 43 1 "$T/ready2"
if results | grep -q '^BLOCKED all [1-9][0-9]* answers were 43$'; then
	case_pass "$(results | head -1)"
else
	case_fail "not answered by its policy: $(results | head -1)"
fi

finish
