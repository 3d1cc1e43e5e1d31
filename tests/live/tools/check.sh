#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify policy check`: the shipped policies are OK; broken ones get one
# FILE:LINE:COL: error: MESSAGE (HINT) line per error, every error, exit 1.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

say "== contrib/policies/*.policy are OK"
found=0
for f in "$top_srcdir"/contrib/policies/*.policy; do
	[ -e "$f" ] || continue
	found=$((found + 1))
	ucmd policy check "$f"
	# Their warnings, exactly: tests/policy/contrib.table.
	expect_status "policy check $(basename "$f")" 0
	expect_grep "$(basename "$f"): OK" "$OUT" "^$(re_quote "$f"): OK(, [0-9]+ warnings?)?\$"
done
[ "$found" -gt 0 ] || fail "no contrib/policies/*.policy to check"

# bad NAME CONTENT: writes $T/NAME.policy, sets F to its path.
bad() {
	F=$T/$1.policy
	printf '%s\n' "$2" >"$F"
}

# expect_errors N: the last check exited 1, printed N error lines, no "OK".
expect_errors() {
	[ "$RC" = 1 ] || { show_run; fail "$(basename "$F"): exit status $RC, expected 1"; }
	n=$(printf '%s\n' "$ERR" | grep -c ': error: ' || true)
	[ "$n" = "$1" ] || { show_run; fail "$(basename "$F"): $n error lines, expected $1"; }
	if printf '%s\n' "$OUT" | grep -q 'OK'; then
		show_run
		fail "$(basename "$F"): a broken policy reported OK"
	fi
}

FQ() {
	re_quote "$F"
}

say "== unknown syscall, with a did-you-mean hint"
bad typo 'default deny EPERM
allow read write
deny opnat EACCES'
ucmd policy check "$F"
expect_errors 1
expect_grep "FILE:3:6: error: ... (did you mean 'openat'?)" "$ERR" \
	"^$(FQ):3:6: error: .*opnat.* \\(did you mean 'openat'\\?\\)\$"

say "== two errors in one file: two lines"
bad two 'default allow
deny opnat EACCES
deny getppid EBOGUS'
ucmd policy check "$F"
expect_errors 2
expect_grep "first error, line 2" "$ERR" "^$(FQ):2:6: error: .*opnat"
expect_grep "second error, line 3 (bad errno)" "$ERR" "^$(FQ):3:14: error: .*EBOGUS"

say "== path= on a syscall without a path"
bad nopath 'deny read path=/etc/shadow EACCES
default allow'
ucmd policy check "$F"
expect_errors 1
expect_grep "path= on read" "$ERR" "^$(FQ):1:11: error: "

say "== unreachable rule after an unconditional one"
bad unreachable 'allow getppid
deny getppid EPERM
default allow'
ucmd policy check "$F"
expect_errors 1
expect_grep "line 2 can never match" "$ERR" "^$(FQ):2:[0-9]+: error: "

say "== unknown action, bad condition, bad return value"
bad action 'alow getppid
default allow'
ucmd policy check "$F"
expect_errors 1
expect_grep "misspelt action" "$ERR" "^$(FQ):1:1: error: .*alow"
bad cond 'deny socket arg9==1 EPERM
default allow'
ucmd policy check "$F"
expect_errors 1
expect_grep "arg9 does not exist" "$ERR" "^$(FQ):1:13: error: "
bad retval 'return getppid 42x
default allow'
ucmd policy check "$F"
expect_errors 1
expect_grep "return needs a number" "$ERR" "^$(FQ):1:16: error: "

say "== several files: OK for the good, errors for the bad, exit 1"
printf 'return getppid 42\ndefault allow\n' >"$T/good.policy"
bad typo2 'deny opnat EACCES
default allow'
ucmd policy check "$T/good.policy" "$F"
[ "$RC" = 1 ] || { show_run; fail "a good and a bad file: status $RC, expected 1"; }
expect_grep "good file OK" "$OUT" "^$(re_quote "$T/good.policy"): OK\$"
expect_grep "bad file's error" "$ERR" "^$(FQ):1:6: error: "
ucmd policy check "$T/good.policy"
expect_run "the good file alone" 0 "$T/good.policy: OK"

say "== a file that does not exist"
ucmd policy check "$T/missing.policy"
[ "$RC" != 0 ] || fail "policy check of a missing file exited 0"
expect_grep "names the missing file" "$ERR" "$(re_quote "$T/missing.policy")"

say "== warnings: never a bare OK (they may say how the policy can be walked around)"
printf 'default allow\ndeny @file-read path=/etc/shadow EACCES\nimplicit fixed-view off\n' \
	>"$T/off.policy"
ucmd policy check "$T/off.policy"
expect_run "a policy with a warning" 0 "$T/off.policy: OK, 1 warning"
expect_grep "the warning names the gap and the rule" "$ERR" \
	"^$(re_quote "$T/off.policy"):3:10: warning: implicit rule set 'fixed-view' turned off: .*rule at $(re_quote "$T/off.policy"):2 "

say "== a stopping pattern spelt through a symbolic link never matches: said, unless covered"
mkdir -p "$T/real"
ln -s real "$T/lnk"
printf 'default allow\ndeny connect sendto sendmsg sendmmsg unix=%s/lnk/s.sock EACCES\n' "$T" \
	>"$T/lnk.policy"
printf 'deny @file-read path=%s/lnk/** path=%s/real/** EACCES\n' "$T" "$T" >>"$T/lnk.policy"
printf 'allow @file-read path=%s/lnk/x\n' "$T" >>"$T/lnk.policy"
ucmd policy check "$T/lnk.policy"
expect_run "one warning" 0 "$T/lnk.policy: OK, 1 warning"
expect_grep "the link, the pattern and the name resolved" "$ERR" \
	"^$(re_quote "$T/lnk.policy"):2:1: warning: '$(re_quote "$T/lnk")' is a symbolic link here: .* unix=$(re_quote "$T/lnk/s.sock") never matches, and stops nothing \(write unix=$(re_quote "$T/real/s.sock"), the name resolved\)"

# A class after the link, a link named last, a cover on other calls only (round 15's review).
touch "$T/real/f"
ln -s real/f "$T/flink"
{
	printf 'default allow\n'
	printf 'deny @file-read path=%s/lnk/{f,g} EACCES\n' "$T"
	printf 'deny @file-read path=%s/flink EACCES\n' "$T"
	printf 'deny @file-delete path=%s/flink EROFS\n' "$T"
	printf 'deny @file-write path=%s/lnk/w/** EROFS\n' "$T"
	printf 'deny @file-read path=%s/real/w/** EACCES\n' "$T"
} >"$T/lnk2.policy"
ucmd policy check "$T/lnk2.policy"
for line in 2 3 5; do
	expect_grep "line $line: said" "$ERR" "^$(re_quote "$T/lnk2.policy"):$line:1: warning: '.*' is a symbolic link here"
done
expect_no_grep "a link named for its own calls (unlink): not said" "$ERR" \
	"^$(re_quote "$T/lnk2.policy"):4:1: warning: '.*' is a symbolic link"

say "== a directory given as a policy, or included"
mkdir "$T/pdir"
ucmd policy check "$T/pdir"
expect_status "policy check of a directory" 1
expect_grep "a directory: Is a directory" "$ERR" \
	"^$(re_quote "$T/pdir"): error: cannot read: Is a directory \(give a policy file"
printf 'include pdir\ndefault allow\n' >"$T/incdir.policy"
ucmd policy check "$T/incdir.policy"
expect_status "including a directory" 1
expect_grep "the include line names it" "$ERR" \
	"^$(re_quote "$T/incdir.policy"):1:9: error: cannot include '$(re_quote "$T/pdir")': Is a directory"
urun --policy "$T/pdir" -- true
expect_status "run --policy DIR" 125
expect_grep "run says it too" "$ERR" "Is a directory"

say "PASS: check"
