#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run` exits with the program's status, 128+N when a signal killed
# it, and 125/126/127 for its own failures (as env(1) and timeout(1)).
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

say "== the program's exit status"
for n in 0 1 3 255; do
	urun --rule 'default allow' -- "$PROBE" exit "$n"
	expect_status "probe exit $n" "$n"
done

say "== killed by a signal: 128+N"
urun --rule 'default allow' -- "$PROBE" kill 9
expect_status "SIGKILL" 137
urun --rule 'default allow' -- "$PROBE" kill 15
expect_status "SIGTERM" 143
urun --rule 'default allow' -- "$PROBE" kill 6
expect_status "SIGABRT" 134

say "== program not found: 127"
urun --rule 'default allow' -- "$T/no-such-program"
expect_status "absolute path that does not exist" 127
[ -n "$ERR" ] || fail "no diagnostic for a missing program"
urun --rule 'default allow' -- no-such-program-unotify-test
expect_status "name not found in PATH" 127

say "== program not executable: 126"
printf '#!/bin/sh\nexit 0\n' >"$T/noexec"
chmod 644 "$T/noexec"
urun --rule 'default allow' -- "$T/noexec"
expect_status "file without the x bit" 126
[ -n "$ERR" ] || fail "no diagnostic for a program that cannot be executed"
urun --rule 'default allow' -- "$T"
expect_status "a directory" 126

say "== supervisor errors: 125, with the reason on stderr, and the program never runs"
# expect_refused WHAT: status 125, something on stderr, no output from the probe.
expect_refused() {
	expect_status "$1" 125
	[ -n "$ERR" ] || fail "$1: no diagnostic on stderr"
	[ -z "$OUT" ] || fail "$1: the program ran anyway: $OUT"
}
urun --rule 'alow getppid' -- "$PROBE" getppid
expect_refused "misspelt action"
urun --rule 'deny opnat EACCES' --rule 'default allow' -- "$PROBE" getppid
expect_refused "unknown syscall"
expect_grep "did-you-mean hint" "$ERR" "did you mean 'openat'"
printf 'default allow\ndeny getppid EBOGUS\n' >"$T/bad.policy"
urun --policy "$T/bad.policy" -- "$PROBE" getppid
expect_refused "bad errno in a policy file"
expect_grep "diagnostic with FILE:LINE:COL: error:" "$ERR" \
	"^$(re_quote "$T/bad.policy"):2:[0-9]+: error: "
urun --policy "$T/missing.policy" -- "$PROBE" getppid
expect_refused "policy file that does not exist"
urun -- "$PROBE" getppid
expect_refused "no policy"
expect_grep "says no policy was given" "$ERR" 'no policy given'
urun --no-such-option --rule 'default allow' -- "$PROBE" getppid
expect_refused "unknown option"
urun --log-format yaml --rule 'default allow' -- "$PROBE" getppid
expect_refused "unknown --log-format"
urun --log "$T/no-such-dir/audit.log" --rule 'default allow' -- "$PROBE" getppid
expect_refused "--log in a directory that does not exist"
urun --rule 'default allow'
expect_status "no program" 125

say "PASS: exit"
