#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every policy action, in the kernel layer and in the supervisor, and the
# audit trail each user-space decision leaves (text, JSON, --log FILE).
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

TS='[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z'
echo secret >"$T/secret"

say "== allow: the real call runs (getppid: the sandbox's init, pid 1)"
urun --rule 'allow getppid' --rule 'default allow' -- "$PROBE" getppid
expect_out "allow getppid" "ret=$REAL_PPID"

say "== deny: EPERM when no errno is written, by name, by number"
urun --rule 'deny getppid' --rule 'default allow' -- "$PROBE" getppid
expect_out "deny getppid" "err EPERM"
urun --rule 'deny getppid EXDEV' --rule 'default allow' -- "$PROBE" getppid
expect_out "deny getppid EXDEV" "err EXDEV"
urun --rule 'deny getppid 13' --rule 'default allow' -- "$PROBE" getppid
expect_out "deny getppid 13" "err EACCES"
urun --rule 'deny getppid EXDEV' --rule 'default allow' -- "$PROBE" syscall 39
expect_grep "deny getppid leaves getpid alone" "$OUT" '^ret=[0-9]+$'

say "== kill: the program dies of SIGSYS (128+31)"
urun --rule 'kill getppid' --rule 'default allow' -- "$PROBE" getppid
expect_run "kill getppid" 159 ""

say "== return: the supervisor answers with the value"
urun --rule 'return getppid 42' --rule 'default allow' -- "$PROBE" getppid
expect_out "return getppid 42" "ret=42"
urun --rule 'return getppid 0' --rule 'default allow' -- "$PROBE" getppid
expect_out "return getppid 0" "ret=0"

say "== log: allowed, and recorded in the audit trail"
cat >"$T/log.policy" <<EOF
# line 1 is a comment
log getppid
default allow
EOF
# The trail names a process by its pid in our pid namespace: what the program
# knows of itself (probe --pid) only when it shares it (--share-pid).
urun --share-pid --policy "$T/log.policy" -- "$PROBE" --pid getppid
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "log getppid runs the real call" "$OUT" "^ret=$SUP_PID\$"
expect_grep "log getppid audit line" "$ERR" \
	"^$TS pid=$pid syscall=getppid verdict=log rule=$(re_quote "$T/log.policy"):2 args=\\(\\)\$"

say "== the audit trail in text: return, deny with a path, default"
cat >"$T/audit.policy" <<EOF
return getppid 42
deny openat path=$T/secret EACCES

default allow
EOF
urun --share-pid --log-level all --policy "$T/audit.policy" -- "$PROBE" --pid getppid
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "return in the trail (--log-level all)" "$ERR" \
	"^$TS pid=$pid syscall=getppid verdict=return value=42 rule=$(re_quote "$T/audit.policy"):1 args=\\(\\)\$"
urun --share-pid --policy "$T/audit.policy" -- "$PROBE" --pid open "$T/secret"
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "denied open" "$OUT" '^err EACCES$'
deny_trail=$ERR
expect_grep "deny with path in the trail" "$ERR" \
	"^$TS pid=$pid syscall=openat verdict=deny errno=EACCES rule=$(re_quote "$T/audit.policy"):2 args=\\(AT_FDCWD, \"$(re_quote "$T/secret")\", O_RDONLY[^)]*\\) path=$(re_quote "$T/secret")\$"
echo hello >"$T/other"
urun --share-pid --log-level all --policy "$T/audit.policy" -- "$PROBE" --pid read "$T/other"
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "open decided by the default" "$OUT" '^data=hello$'
expect_grep "default in the trail (--log-level all)" "$ERR" \
	"^$TS pid=$pid syscall=openat verdict=allow rule=default args=\\(AT_FDCWD, \"$(re_quote "$T/other")\", O_RDONLY[^)]*\\) path=$(re_quote "$T/other")\$"

say "== --log-level: allowed calls and returned values are left out by default, counted in --stats"
urun --share-pid --stats --policy "$T/audit.policy" -- "$PROBE" --pid read "$T/other"
expect_grep "the allowed open ran" "$OUT" '^data=hello$'
expect_no_grep "no allowed call in the default trail" "$ERR" ' verdict=allow '
expect_grep "the table counts the allowed opens" "$ERR" '^openat +[1-9][0-9]* +0 +[1-9]'
expect_grep "and says what the trail left out" "$ERR" \
	'^audit: 0 records written, [1-9][0-9]* decisions not recorded \(--log-level deny\)$'
urun --policy "$T/audit.policy" -- "$PROBE" open "$T/secret"
expect_grep "a denial is still recorded by default" "$ERR" \
	"syscall=openat verdict=deny errno=EACCES rule=$(re_quote "$T/audit.policy"):2 args="
urun --policy "$T/log.policy" -- "$PROBE" getppid
expect_grep "a log rule is still recorded by default" "$ERR" 'syscall=getppid verdict=log .* args=\(\)'
urun --stats --policy "$T/audit.policy" -- "$PROBE" getppid
expect_out "a value returned by the policy" "ret=42"
expect_no_grep "is not in the default trail" "$ERR" ' verdict='
expect_grep "but is counted" "$ERR" '^getppid +1 +0 +0 +1 +0 '
for v in -13 -4095; do
	urun --rule "return getppid $v" --rule 'default allow' -- "$PROBE" getppid
	expect_grep "return $v: the program sees a failure" "$OUT" '^err '
	expect_grep "return $v is a denial: recorded by default" "$ERR" \
		"syscall=getppid verdict=return value=$v rule="
done
for v in -4096 0; do
	urun --rule "return getppid $v" --rule 'default allow' -- "$PROBE" getppid
	expect_out "return $v: a value, not an error" "ret=$v"
	expect_no_grep "return $v is not recorded by default" "$ERR" ' verdict='
done
urun --log-level none --policy "$T/audit.policy" -- "$PROBE" open "$T/secret"
expect_grep "--log-level none: the denial still happens" "$OUT" '^err EACCES$'
expect_no_grep "--log-level none: no record at all" "$ERR" ' verdict='
urun --log-level verbose --policy "$T/audit.policy" -- "$PROBE" getppid
expect_status "an unknown --log-level is bad usage" 125
expect_grep "and says which levels exist" "$ERR" "takes deny, all or none, not 'verbose'"

say "== the audit trail in JSON"
urun --share-pid --log-format json --policy "$T/audit.policy" -- "$PROBE" --pid open "$T/secret"
pid=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "denied open (json run)" "$OUT" '^err EACCES$'
printf '%s\n' "$ERR" >"$T/json.err"
if ! python3 - "$T/json.err" "$pid" "$T/secret" "$T/audit.policy:2" <<'EOF'
import json, re, sys
path, pid, secret, rule = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
found = 0
for line in open(path):
    line = line.strip()
    if not line.startswith("{"):
        continue
    o = json.loads(line)        # every JSON line must parse
    for key in ("time", "pid", "syscall", "args", "verdict", "rule"):
        assert key in o, "missing %r in %s" % (key, line)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", o["time"]), line
    assert isinstance(o["args"], list) and len(o["args"]) == 6, line
    assert all(re.fullmatch(r"0x[0-9a-f]+", a) for a in o["args"]), line
    if o.get("path") == secret:
        assert o["pid"] == pid, line
        assert o["syscall"] == "openat", line
        assert int(o["args"][0], 16) & 0xffffffff == 0xffffff9c, line   # AT_FDCWD
        assert o["verdict"] == "deny" and o["errno"] == "EACCES", line
        assert o["rule"] == rule, line
        found += 1
assert found == 1, "expected one JSON record for %s, found %d" % (secret, found)
EOF
then
	show_run
	fail "JSON audit trail"
fi
say "ok: JSON audit line for the denied open parses with every field"

urun --share-pid --log-level all --log-format json --policy "$T/audit.policy" -- "$PROBE" --pid getppid
printf '%s\n' "$ERR" >"$T/json.err"
if ! python3 - "$T/json.err" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
ret = [r for r in recs if r.get("syscall") == "getppid"]
assert len(ret) == 1, recs
r = ret[0]
assert r["verdict"] == "return", r
assert r.get("value") in (42, "42"), r
assert "errno" not in r and "path" not in r, r
EOF
then
	show_run
	fail "JSON audit trail for return"
fi
say "ok: JSON audit line for return has value 42, no errno, no path"

say "== --log FILE: the trail goes to the file, not to stderr"
urun --log "$T/audit.log" --log-level all --policy "$T/audit.policy" -- "$PROBE" getppid
expect_out "return with --log" "ret=42"
[ -f "$T/audit.log" ] || fail "--log did not create $T/audit.log"
expect_grep "--log file has the record" "$(cat "$T/audit.log")" \
	"^$TS pid=[0-9]+ syscall=getppid verdict=return value=42 rule="
expect_no_grep "no record on stderr with --log" "$ERR" ' verdict='

say "== no audit line for what the kernel layer settles"
urun --rule 'deny getppid EXDEV' --rule 'default allow' -- "$PROBE" getppid
expect_out "kernel-layer deny" "err EXDEV"
expect_no_grep "kernel-layer deny leaves no trail" "$ERR" 'syscall=getppid'

say "== default deny / default allow"
# Enough for a dynamically linked probe to start and print; getppid and
# socket are not listed, so the default decides them.
BASE='read write close mmap mprotect munmap brk ioctl pread64 access execve arch_prctl'
BASE="$BASE set_tid_address openat newfstatat fstat set_robust_list prlimit64 getrandom rseq"
BASE="$BASE exit_group exit rt_sigaction rt_sigprocmask rt_sigreturn futex madvise readlink"
BASE="$BASE getpid gettid uname sigaltstack sched_getaffinity"
urun --rule "allow $BASE" --rule 'default deny' -- "$PROBE" getppid
expect_out "default deny (no errno): getppid" "err EPERM"
urun --rule "allow $BASE" --rule 'default deny EXDEV' -- "$PROBE" socket inet stream
expect_out "default deny EXDEV: socket" "err EXDEV"
urun --rule "allow $BASE" --rule 'return getppid 42' --rule 'default deny EXDEV' -- \
	"$PROBE" getppid
expect_out "return before default deny" "ret=42"
urun --rule 'default allow' -- "$PROBE" getppid
expect_out "default allow" "ret=$REAL_PPID"
urun --rule 'default kill' -- "$PROBE" getppid
expect_run "default kill: execve itself is killed" 159 ""

say "== arguments decoded as in the documented example"
# CLI.md: args=(AT_FDCWD, "/etc/shadow", O_RDONLY): no mode without O_CREAT.
ERR=$deny_trail
expect_grep "openat without O_CREAT shows three arguments" "$ERR" \
	"syscall=openat .* args=\\(AT_FDCWD, \"$(re_quote "$T/secret")\", O_RDONLY\\) path="
urun --log-level all --policy "$T/audit.policy" -- "$PROBE" open "$T" directory
expect_grep "O_DIRECTORY is not O_TMPFILE: no mode either" "$ERR" \
	"syscall=openat .* args=\\(AT_FDCWD, \"$(re_quote "$T")\", O_RDONLY\\|O_DIRECTORY\\) path="
urun --log-level all --policy "$T/audit.policy" -- "$PROBE" open "$T/created" wronly creat mode=0600
expect_grep "O_CREAT shows the mode in octal" "$ERR" \
	"syscall=openat .* args=\\(AT_FDCWD, \"$(re_quote "$T/created")\", O_WRONLY\\|O_CREAT, 0600\\) path="

say "== execve: the program and its argv, as strace shows them, bounded and escaped"
urun --rule 'log execve' --rule 'default allow' -- /bin/sh -c 'exec /bin/echo "a b" "q\"x" "$(printf "\001")"'
expect_grep "the shell's execve: path and argv" "$ERR" \
	'syscall=execve verdict=log .* args=\("/bin/sh", \["/bin/sh", "-c", "exec\\x20/bin/echo\\x20.*"\], 0x[0-9a-f]+\)'
expect_grep "quotes, blanks and control characters escaped" "$ERR" \
	'syscall=execve verdict=log .* args=\("/bin/echo", \["/bin/echo", "a\\x20b", "q\\"x", "\\x01"\], 0x[0-9a-f]+\)'
long=$(printf '%0300d' 0)
urun --rule 'log execve' --rule 'default allow' -- /bin/sh -c "exec /bin/true $long \$(seq 40)"
expect_grep "a long argument is cut at 255 bytes, marked ..." "$ERR" \
	"syscall=execve verdict=log .* args=\(\"/bin/true\", \[\"/bin/true\", \"$(printf '%0255d' 0)\"\.\.\., \"1\", "
expect_grep "32 arguments shown (/bin/true, the long one, 1..30), then ..." "$ERR" \
	'verdict=log .*"29", "30", \.\.\.\], 0x[0-9a-f]+\)'
urun --log-format json --rule 'log execve' --rule 'default allow' -- /bin/true x
expect_grep "JSON: program and argv" "$ERR" '"program":"\\/bin\\/true","argv":\["\\/bin\\/true","x"\]'
urun --rule 'log execve' --rule 'default allow' -- "$PROBE" syscall 59 0 1 0
expect_grep "a bad path and argv stay raw values" "$ERR" 'syscall=execve verdict=log .* args=\(0x0, 0x1, 0x0\)'

say "PASS: actions"
