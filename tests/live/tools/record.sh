#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run --record FILE`: a policy that allows what the run used. The
# same program run under it exits as before with no denial in the audit
# trail, and still runs when the default is made `kill`, so no call it needs
# was left to the default. Paths are folded into globs, /proc/PID is not
# written literally, and the policy checks.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

# recorded NAME PROGRAM ARGS...: record, then replay twice; the checks of the header.
recorded() {
	name=$1
	shift
	pol=$T/$name.policy
	say "== $name: $*"
	urun --record "$pol" -- "$@"
	rec_rc=$RC
	rec_out=$OUT
	[ -s "$pol" ] || { show_run; fail "$name: no policy written to $pol"; }
	expect_grep "$name: says where the policy went" "$ERR" "recorded policy written to"
	expect_no_grep "$name: no audit trail without --log" "$ERR" " verdict="
	ucmd policy check "$pol"
	expect_run "$name: the recorded policy checks" 0 "$pol: OK"
	expect_grep "$name: ends with default deny EPERM" "$(tail -1 "$pol")" "^default deny EPERM\$"
	expect_no_grep "$name: no pid written literally" "$(grep -v '^#' "$pol")" "/proc/[0-9]"

	urun --log "$T/$name.trail" --policy "$pol" -- "$@"
	if [ "$RC" != "$rec_rc" ] || [ "$OUT" != "$rec_out" ]; then
		show_run
		fail "$name: under the recorded policy: status $RC output '$OUT'; recorded: $rec_rc '$rec_out'"
	fi
	say "ok: $name: same status ($RC) and output under the recorded policy"
	trail=$(cat "$T/$name.trail")
	expect_no_grep "$name: no denial in the audit trail" "$trail" "verdict=deny"

	sed 's/^default deny EPERM$/default kill/' "$pol" >"$T/$name-kill.policy"
	urun --policy "$T/$name-kill.policy" -- "$@"
	if [ "$RC" != "$rec_rc" ]; then
		show_run
		fail "$name: with default kill: status $RC (159 = killed: a call the recording missed)"
	fi
	say "ok: $name: no call left to the default (default kill: status $RC)"
}

recorded true /bin/true
recorded sh sh -c 'cat /etc/os-release; ls /usr'
expect_grep "sh: /etc/os-release is matched by the file it resolves to" "$(cat "$pol")" \
	"path=/usr/lib/os-release"
expect_grep "sh: read-only opens are a rule of their own" "$(cat "$pol")" \
	"^allow +openat arg2&0x243==0 path="
recorded proc sh -c 'cat /proc/self/stat >/dev/null; cat /proc/$$/status >/dev/null; echo done'
expect_grep "proc: the program's own /proc entries" "$(cat "$pol")" "path=/proc/[^ ]*/stat"
recorded status sh -c 'echo out; exit 3'
[ "$rec_rc" = 3 ] || fail "--record: the program's exit status $rec_rc, expected 3"
say "ok: --record keeps the program's exit status"

if command -v python3 >/dev/null 2>&1; then
	recorded python python3 -c 'print(1)'
	expect_grep "python: its library tree folded and marked for review" "$(cat "$pol")" \
		"^#   REVIEW /[^ ]+/\\*\\*: a whole tree, for [0-9]+ paths seen under it\$"
else
	skip_case "python: its library tree folded" "python3 not installed"
fi

say "== a run writing files: the writes are a rule marked for review"
mkdir "$T/w"
chmod 777 "$T/w"
recorded write sh -c "echo x >$T/w/out; cat $T/w/out"
expect_grep "write: these opens may write" "$(cat "$pol")" "REVIEW: these opens may write"

say "== both paths of a rename are recorded (outside scratch directories, kept exact)"
# Not under the build tree: a clone may live in /tmp, which record folds.
W=$(mktemp -d /var/lib/unotify-record-rename.XXXXXX)
trap '_rc=$?; rm -rf "$W"; lib_cleanup "$_rc"' EXIT
chmod 777 "$W"
recorded rename sh -c "rm -f $W/b; echo x >$W/a && mv $W/a $W/b && cat $W/b"
expect_grep "rename: the destination is in the policy" "$(cat "$pol")" "path=$(re_quote "$W")/b( |\$)"

say "== usage"
urun --record "$T/x.policy" --rule 'default allow' -- /bin/true
expect_status "--record with --rule" 125
expect_grep "says why" "$ERR" "--record runs under its own policy"
urun --record "$T/no/such/dir.policy" -- sh -c 'echo RAN'
expect_status "an unwritable policy file" 125
expect_grep "says so" "$ERR" "cannot open .* for the recorded policy"
expect_no_grep "before the program runs" "$OUT" "RAN"

# The file is opened before the program runs, never through a link: a
# program run as another user (--user) in a directory it may write must not
# have the supervisor rewrite a file of root's at exit (found by round 12
# of the adversarial review: the name was opened at exit and followed).
say "== the policy file and links"
printf 'ROOT-ONLY\n' >"$T/victim"
chmod 600 "$T/victim"
ln -s "$T/victim" "$T/link.policy"
urun --record "$T/link.policy" -- /bin/true
expect_status "a symbolic link as the policy file" 125
expect_grep "says so" "$ERR" "cannot open .*link.policy for the recorded policy"
ln "$T/victim" "$T/hard.policy"
urun --record "$T/hard.policy" -- /bin/true
expect_status "a second name of another file as the policy file" 125
expect_grep "victim unchanged" "$(cat "$T/victim")" "^ROOT-ONLY$"
if [ "$(id -u)" = 0 ]; then
	mkdir "$T/app"
	chown nobody "$T/app"
	urun --record "$T/app/out.policy" --user nobody -- \
		sh -c "rm -f '$T/app/out.policy' && ln -s '$T/victim' '$T/app/out.policy'"
	expect_grep "a link planted while the program runs: the victim unchanged" \
		"$(cat "$T/victim")" "^ROOT-ONLY$"
else
	skip_case "a link planted by a program run with --user" "needs root"
fi

say "PASS: tools-record"
