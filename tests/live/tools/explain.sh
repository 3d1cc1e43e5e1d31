#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify policy explain`: per syscall its layer, the rules its calls meet
# in order (the default included) with file:line, and how each verdict is
# enforced; --syscall NAME; --json with the documented schema.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

demo=$top_srcdir/contrib/policies/demo.policy
dq=$(re_quote "$demo")

say "== demo.policy, text"
ucmd policy explain "$demo"
expect_status "policy explain demo.policy" 0
expect_grep "header names the file" "$OUT" "^policy: $dq\$"
expect_grep "foreign architectures killed" "$OUT" "^foreign architectures .*: killed in the kernel\$"
expect_grep "syscalls no rule names: the default, in the kernel" "$OUT" \
	"^  $dq:[0-9]+: default -> allow\$"
expect_grep "openat: supervisor layer" "$OUT" "^openat \\([0-9]+\\): supervisor: every call goes to the supervisor\$"
# The lines after "openat (NR): ..." up to the next blank line.
block() {
	printf '%s\n' "$OUT" | awk -v s="^$1 \\\\(" '$0 ~ s { on = 1 } on && /^$/ { exit } on'
}
openat=$(block openat)
expect_grep "openat rule 1: the deny, file:line" "$openat" \
	"^  $dq:[0-9]+: @file-read path=/etc/shadow path=/etc/gshadow -> deny EACCES\$"
expect_grep "a deny is answered by the supervisor" "$openat" "the supervisor fails the call"
expect_grep "openat rule 2: an allowed open is performed and injected" "$openat" "ADDFD with SEND"
n=$(printf '%s\n' "$openat" | grep -c ' -> ')
[ "$n" = 3 ] || { printf '%s\n' "$openat"; fail "openat: $n rules listed, expected 3 (2 + default)"; }
say "ok: openat lists its two rules then the default"
getppid=$(block getppid)
expect_grep "return: answered with the value" "$getppid" "completes the call with the value"
expect_no_grep "getppid: an unconditional rule, no default after it" "$getppid" "default ->"
execve=$(block execve)
expect_grep "log on registers only: CONTINUE" "$execve" "CONTINUE: the kernel runs the call"

say "== --syscall: one syscall, even one no rule names"
ucmd policy explain "$demo" --syscall getppid
expect_status "--syscall getppid" 0
n=$(printf '%s\n' "$OUT" | grep -c '^[a-z_0-9]* ([0-9]*):')
[ "$n" = 1 ] || fail "--syscall getppid printed $n syscalls"
ucmd policy explain "$demo" --syscall read
expect_grep "read: decided by the default in the kernel" "$OUT" "^read \\([0-9]+\\): kernel: "
expect_grep "read: the default line" "$OUT" "^  $dq:[0-9]+: default -> allow\$"
ucmd policy explain "$demo" --syscall opnat
expect_status "an unknown syscall is a usage error" 125
expect_grep "names it" "$ERR" "unknown syscall 'opnat'"

say "== layers: mixed, and an allow reached after a path was (maybe) read"
cat >"$T/m.policy" <<'POLICY'
default deny EPERM
allow   socket arg0==1
log     socket arg0==2
deny    openat arg2==0x241 path=/etc/x EACCES
allow   openat
return  getppid 3
POLICY
ucmd policy explain "$T/m.policy"
expect_status "policy explain m.policy" 0
socket=$(block socket)
expect_grep "socket: mixed layer" "$socket" "^socket \\([0-9]+\\): mixed: "
expect_grep "socket: the default settled in the kernel" "$socket" \
	"default -> deny EPERM" 
expect_grep "socket: allow on registers: CONTINUE" "$socket" "CONTINUE"
openat=$(block openat)
expect_grep "openat: allow after a path rule with register conditions: either way" "$openat" \
	"if an earlier rule read memory: performed by the supervisor"

say "== credential changes: notified next to path rules (fixed-view), not without"
ucmd policy explain "$T/m.policy"
expect_grep "path rules: the credential changes are the supervisor's" "$OUT" \
	'^credential changes \(execve, setuid, .*, capset, execveat\): to the supervisor where the policy lets them run'
printf 'default allow\nreturn getppid 7\n' >"$T/nopath.policy"
ucmd policy explain "$T/nopath.policy"
expect_no_grep "no path rule: nothing said of credential changes" "$OUT" '^credential changes'

say "== listen: the supervisor's where binds are decided (a listen may bind), not elsewhere"
ucmd policy explain "$T/m.policy"
expect_grep "a default that refuses binds: listen goes to the supervisor" "$OUT" \
	'^listen: to the supervisor where the policy lets it run'
ucmd policy explain "$T/nopath.policy"
expect_no_grep "binds all run: nothing said of listen" "$OUT" '^listen:'

say "== --json"
ucmd policy explain "$T/m.policy" --json
expect_status "--json" 0
if command -v python3 >/dev/null 2>&1; then
	printf '%s\n' "$OUT" >"$T/m.json"
	python3 - "$T/m.json" "$T/m.policy" <<'PY' || fail "--json does not follow the documented schema"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["files"] == [sys.argv[2]], d["files"]
assert d["foreign_arch"] == "kill"
assert d["default"]["default"] is True and d["default"]["action"] == "deny"
assert d["default"]["errno"] == "EPERM" and d["default"]["enforcement"] == ["kernel"]
assert d["implicit"]["fixed-view"] == "in effect", d["implicit"]
# The default refuses binds and connects, and `log socket arg0==2` lets raw IPv4 sockets be made.
assert d["implicit"]["raw-sockets"] == "in effect", d["implicit"]
assert d["credential_changes_notified"] is True
assert d["listen_decided_as_bind"] is True  # the default refuses binds
def own(s):
    return any(not r["default"] and not r["file"].startswith("implicit:") for r in s["rules"])
by = {s["name"]: s for s in d["syscalls"] if own(s)}
assert set(by) == {"socket", "openat", "getppid"}, set(by)
assert any(r["file"] == "implicit:fixed-view" for s in d["syscalls"] for r in s["rules"])
sock = [r for r in by["socket"]["rules"] if not r["file"].startswith("implicit:")]
assert by["socket"]["rules"][0]["file"] == "implicit:raw-sockets"
assert by["socket"]["layer"] == "mixed"
assert [r["line"] for r in sock] == [2, 3, 1]
assert sock[0]["enforcement"] == ["continue"]
assert sock[1]["action"] == "log"
assert sock[2]["enforcement"] == ["kernel"]
o = by["openat"]
assert o["layer"] == "supervisor" and [r["line"] for r in o["rules"]] == [4, 5]
assert o["rules"][0]["needs"] == "memory" and o["rules"][1]["needs"] == "nothing"
assert sock[0]["needs"] == "registers"
assert o["rules"][0]["enforcement"] == ["supervisor-errno"]
assert o["rules"][1]["enforcement"] == ["continue", "performed-open"]
g = by["getppid"]["rules"]
assert len(g) == 1 and g[0]["value"] == 3 and g[0]["enforcement"] == ["supervisor-value"]
for s in d["syscalls"]:
    assert isinstance(s["nr"], int)
    for r in s["rules"]:
        assert set(r) >= {"file", "line", "default", "text", "action", "needs",
                          "enforcement"}, r
PY
	say "ok: --json schema"
else
	skip_case "--json schema" "python3 not installed"
fi

say "== execve decided on a path cannot be enforced safely (when the language allows it)"
printf 'default allow\ndeny execve path=/usr/bin/nope EACCES\nallow execve\n' >"$T/x.policy"
if "$UNOTIFY" policy check "$T/x.policy" >/dev/null 2>&1; then
	ucmd policy explain "$T/x.policy" --syscall execve
	expect_grep "execve allowed after reading its path: unsafe" "$OUT" "NOT enforced safely"
else
	skip_case "execve allowed after reading its path: unsafe" \
		"path= on execve not accepted by this language version"
fi

say "== implicit rules: listed, their state said, a set turned off named with its gap"
printf 'default allow\ndeny @file-read path=/etc/shadow EACCES\nimplicit io-uring off\n' >"$T/i.policy"
ucmd policy explain "$T/i.policy"
expect_status "policy explain i.policy" 0
expect_grep "fixed-view in effect" "$OUT" "^  fixed-view: in effect\$"
expect_grep "raw-sockets not needed" "$OUT" "^  raw-sockets: not needed\$"
expect_grep "io-uring off, with where and the gap" "$OUT" \
	"^  io-uring: OFF at $(re_quote "$T/i.policy"):3: io_uring opens files"
expect_grep "the implicit rule of chroot" "$(block chroot)" "^  implicit:fixed-view:1: chroot "
expect_grep "the warning is shown too" "$ERR" "warning: implicit rule set 'io-uring' turned off"
ucmd policy explain "$T/i.policy" --syscall rename
expect_grep "a rename no rule names goes to the supervisor (moves are checked)" "$OUT" \
	"^rename \([0-9]+\): supervisor: "

say "== an invalid policy"
printf 'deny opnat EACCES\ndefault allow\n' >"$T/bad.policy"
ucmd policy explain "$T/bad.policy"
expect_status "invalid policy" 1
expect_grep "its diagnostic" "$ERR" "bad.policy:1:6: error: "

say "PASS: tools-explain"
