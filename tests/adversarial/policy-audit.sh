#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The audit trail cannot be blinded: on stderr it has its own open file
# description (a program setting O_NONBLOCK on its stderr and filling the
# pipe loses none of its denials); what cannot be written is counted and
# said; a record too long keeps its verdict and rule, its paths cut visibly.
. "${top_srcdir:-.}/tests/adversarial/policy-lib.sh"
setup_tmp

echo SECRET >"$T/secret"
policy deny 'default allow' "deny openat path=$T/secret EACCES"

say "== O_NONBLOCK on a full stderr pipe: 100 of 100 denials recorded"
# The reader starts late, so the program finds the pipe full; nothing is timed.
set +e
timeout -k 5 "$UNOTIFY_TEST_TIMEOUT" sh -c \
	'"$0" run --policy "$1" -- "$2" denials 100 "$3" 2>&1 >"$4" | { sleep 1; cat >"$5"; }' \
	"$UNOTIFY" "$POL" "$ESCAPE" "$T/secret" "$T/out" "$T/trail"
RC=$?
set -e
OUT=$(cat "$T/out")
ERR=$(cat "$T/trail")
expect_grep "the program was denied 100 times" "$OUT" '^denied=100$'
n=$(grep -c "syscall=openat verdict=deny errno=EACCES rule=$(re_quote "$POL"):2 " "$T/trail" || true)
[ "$n" = 100 ] || fail "$n of 100 denials in the audit trail"
say "ok: 100 of 100 denials in the trail"

say "== records that cannot be written are counted and said"
urun --policy "$POL" --log /dev/full -- "$PROBE" open "$T/secret"
expect_grep "the denial itself" "$OUT" '^err EACCES$'
expect_grep "run says records were lost" "$ERR" \
	'^unotify: [0-9]+ audit records? lost: could not be written \(No space left on device\)'

say "== a record too long keeps its verdict and rule, its fields cut visibly"
long=$T/$(printf 'a%.0s' $(seq 1 200))/$(printf 'b%.0s' $(seq 1 200))
long=$long/$long
policy long 'default allow' "deny openat path=$T/** EACCES"
urun --policy "$POL" -- "$PROBE" open "$long/$long"
line=$(audit_lines | grep 'syscall=openat verdict=deny' || true)
expect_grep "verdict and rule come first" "$line" \
	"^[^ ]+ pid=[0-9]+ syscall=openat verdict=deny errno=EACCES rule=$(re_quote "$POL"):2 args="
expect_grep "the long fields are marked cut" "$line" ' truncated=args,path$'
expect_grep "a cut value ends with ..." "$line" 'aaa\.\.\.'

say "PASS: policy-audit"
