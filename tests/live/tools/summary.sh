#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/summary.sh, which prints the suite's last line, counts what the TAP
# driver recorded: on a build tree made by hand (.trs and .log files as the
# driver writes them), it counts PASS and XFAIL as passed, FAIL, ERROR and
# XPASS as failed, SKIP as skipped; names each failed case with its line
# from the log, and each skip with its reason; exits 1 on a failure.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp
SUMMARY=$top_srcdir/tests/summary.sh

# trs DIR/NAME RESULT...: NAME.trs with those results, NAME.log from stdin
# (Automake names them after the test without its .sh).
trs() {
	mkdir -p "$(dirname "$1")"
	: >"$1.trs"
	name=$1
	shift
	for r in "$@"; do echo ":test-result: $r" >>"$name.trs"; done
	cat >"$name.log"
}

B=$T/ok
trs "$B/tests/a/one" PASS PASS XFAIL <<'L'
PASS: tests/a/one.sh 1 - first
L
trs "$B/tests/b/two" PASS SKIP <<'L'
SKIP: tests/b/two.sh 2 - the second # SKIP no frobnicator here
L
capture "summary of passing tests" sh "$SUMMARY" "$B"
expect_status "no failure: exit 0" 0
expect_grep "the skip with its reason" "$OUT" '^SKIP: tests/b/two\.sh 2 - the second: no frobnicator here$'
expect_grep "the counts" "$(printf '%s\n' "$OUT" | tail -1)" '^4 passed, 0 failed, 1 skipped$'

B=$T/bad
trs "$B/tests/a/one" PASS FAIL FAIL <<'L'
PASS: tests/a/one.sh 1 - first
FAIL: tests/a/one.sh 2 - inflight-denied: the attack printed no result line
FAIL: tests/a/one.sh 3 - leader-exit: bypass: LEAK 3 secret
L
trs "$B/tests/c/three" ERROR <<'L'
nothing the driver said
L
trs "$B/tests/d/four" XPASS <<'L'
XPASS: tests/d/four.sh 1 - expected to fail
L
capture "summary with failures" sh "$SUMMARY" "$B"
expect_status "failures: exit 1" 1
expect_grep "a failed case named with what it saw" "$OUT" \
	"^FAIL: tests/a/one\\.sh 2 - inflight-denied: the attack printed no result line \\(see $(re_quote "$B")/tests/a/one\\.log\\)$"
expect_grep "the second failed case" "$OUT" '^FAIL: tests/a/one\.sh 3 - leader-exit: bypass: LEAK 3 secret '
expect_grep "a test that died without a line: its name" "$OUT" '^FAIL: tests/c/three \(see '
expect_grep "an unexpected pass" "$OUT" '^XPASS: tests/d/four\.sh 1 - expected to fail '
expect_grep "the counts" "$(printf '%s\n' "$OUT" | tail -1)" '^1 passed, 4 failed, 0 skipped$'

capture "two build trees" sh "$SUMMARY" "$T/ok" "$T/bad"
expect_grep "each line names its tree" "$OUT" "^FAIL: $(re_quote "$T/bad"): tests/a/one\\.sh 2 "
expect_grep "the counts of both" "$(printf '%s\n' "$OUT" | tail -1)" '^5 passed, 4 failed, 1 skipped$'

mkdir -p "$T/empty/tests"
capture "no tests ran" sh "$SUMMARY" "$T/empty"
expect_status "nothing ran: exit 1" 1
