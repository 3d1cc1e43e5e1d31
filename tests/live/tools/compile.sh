#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify policy compile`: --bpf writes the kernel layer as raw BPF that a
# filter loader (tests/live/seccomp-load, and bwrap --seccomp when installed)
# loads and that behaves as the policy's kernel layer; --pfc prints
# libseccomp's pseudo filter code.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

LOADER=$top_builddir/tests/live/seccomp-load
[ -x "$LOADER" ] || fail "$LOADER is not built"

cat >"$T/k.policy" <<'POLICY'
default allow
deny    getppid EACCES
deny    socket arg0==10 EAFNOSUPPORT
return  gettid 7
POLICY

say "== --bpf: raw sock_filter array, len*8 bytes"
ucmd policy compile "$T/k.policy" --bpf "$T/k.bpf"
expect_status "policy compile --bpf" 0
size=$(stat -c %s "$T/k.bpf")
[ "$size" -gt 0 ] && [ $((size % 8)) = 0 ] || fail "$T/k.bpf: $size bytes, not a multiple of 8"
expect_grep "the size is reported as instructions*8" "$ERR" \
	"^unotify: $((size / 8)) instructions, $size bytes\$"
expect_grep "notified syscalls named (ENOSYS without a supervisor)" "$ERR" \
	"^unotify: note: sent to a supervisor, so ENOSYS without one: gettid\$"
expect_no_grep "no note on syscalls the kernel settles" "$ERR" "note:.*(getppid|socket)"

say "== --bpf -: the same bytes on stdout"
"$UNOTIFY" policy compile "$T/k.policy" --bpf - >"$T/k2.bpf" 2>/dev/null
cmp -s "$T/k.bpf" "$T/k2.bpf" || fail "--bpf - differs from --bpf FILE"
say "ok: --bpf - writes the same program"

say "== the BPF loaded without a supervisor behaves as the kernel layer"
gettid_nr=$("$UNOTIFY" policy explain "$T/k.policy" --syscall gettid | sed -n 's/^gettid (\([0-9]*\)).*/\1/p')
[ -n "$gettid_nr" ] || fail "cannot find gettid's number with policy explain"
# loaded RUN: runs PROBE ARGS under the compiled filter, sets RC and OUT.
loaded() {
	set +e
	OUT=$("$LOADER" "$T/k.bpf" "$PROBE" "$@" 2>"$T/.err")
	RC=$?
	set -e
	ERR=$(cat "$T/.err")
}
loaded getppid
expect_out "deny getppid EACCES: in the kernel" "err EACCES"
loaded socket inet stream
expect_grep "socket(AF_INET) allowed (arg0 != 10)" "$OUT" "^ok"
loaded socket inet6 stream
expect_out "deny socket arg0==10: AF_INET6 refused in the kernel" "err EAFNOSUPPORT"
loaded syscall "$gettid_nr"
expect_out "return gettid 7 needs the supervisor: ENOSYS without one" "err ENOSYS"
loaded read /etc/hostname
expect_grep "default allow: open and read work" "$OUT" "^data="

say "== --pfc: libseccomp's pseudo filter code"
ucmd policy compile "$T/k.policy" --pfc
expect_status "policy compile --pfc" 0
expect_grep "a PFC header" "$OUT" "^# pseudo filter code start"
expect_grep "getppid denied with EACCES (13)" "$OUT" "action ERRNO\\(13\\);"
expect_grep "foreign architectures killed" "$OUT" "^action KILL_PROCESS;"

say "== usage and bad policies"
ucmd policy compile "$T/k.policy"
expect_status "neither --bpf nor --pfc" 125
ucmd policy compile "$T/k.policy" --bpf "$T/x.bpf" --pfc
expect_status "both --bpf and --pfc" 125
printf 'deny opnat EACCES\ndefault allow\n' >"$T/bad.policy"
ucmd policy compile "$T/bad.policy" --pfc
expect_status "an invalid policy" 1
expect_grep "its diagnostic" "$ERR" "bad.policy:1:6: error: "

say "== bwrap --seccomp reads the same format"
if command -v bwrap >/dev/null 2>&1; then
	set +e
	OUT=$(bwrap --ro-bind / / --dev /dev --proc /proc --seccomp 9 -- "$PROBE" getppid \
		9<"$T/k.bpf" 2>"$T/.err")
	RC=$?
	set -e
	ERR=$(cat "$T/.err")
	if [ "$RC" = 0 ] || [ -n "$OUT" ]; then
		expect_out "bwrap --seccomp: getppid denied with EACCES" "err EACCES"
	else
		skip_case "bwrap --seccomp" "bwrap could not start here ($ERR)"
	fi
else
	skip_case "bwrap --seccomp" "bwrap not installed (apt-get install bubblewrap)"
fi

say "PASS: tools-compile"
