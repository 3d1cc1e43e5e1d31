#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: what a call performed by the supervisor lends. The policy
# decides opens, file changes and connects on their paths and addresses
# (rules that match nothing here), so the supervisor (unotify run, then
# unotifyd) performs every one of them for the program, in a thread or a
# helper that takes the program's ids, groups, capabilities, root and
# umask, but not:
#   - its Landlock domain: a program that restricted itself (no file read,
#     no TCP connect) has the call refused by the kernel, and performed by
#     the supervisor, which has no such domain;
#   - its RLIMIT_FSIZE: truncate(2) past it is performed under the
#     supervisor's own limit.
# Landlock cannot be lent: next to path or network rules the policy's
# kernel layer answers the program's Landlock calls EOPNOTSUPP (implicit
# set self-landlock), so a domain the supervisor would not honour is never
# made. Under unotifyd that holds where the sandbox's filter is the
# policy's kernel layer (`unotify run --daemon`); SECURITY.md says what a
# runtime's own filter leaves out.
# r2-caps.sh has the capabilities and ids, which are not lent.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

cat >"$T/caps.policy" <<EOF
default allow
deny @file-read @file-write @file-create @file-delete @file-attr path=/nonexistent/** EACCES
deny @net-bind @net-connect port=1 EACCES
EOF

PUB=$(secret "$T/pub")

case_begin landlock-read "a Landlock domain that reads no file, then $T/pub (world-readable)"
if "$ATTACK" landlock-read "$T/pub" | grep -q '^BLOCKED EACCES'; then
	urun --policy "$T/caps.policy" -- "$ATTACK" landlock-read "$T/pub"
	if expect_blocked "$PUB"; then case_pass "$(results | head -1)"; fi
else
	case_skip "Landlock does not refuse the read here: $("$ATTACK" landlock-read "$T/pub" | tail -1)"
fi

listener tcp tcp 127.0.0.1
TCP=$(port tcp)
case_begin landlock-connect "a Landlock domain with no TCP connect, then 127.0.0.1:$TCP"
if "$ATTACK" landlock-connect 127.0.0.1 "$TCP" | grep -q '^BLOCKED EACCES'; then
	urun --policy "$T/caps.policy" -- "$ATTACK" landlock-connect 127.0.0.1 "$TCP"
	expect_count tcp 0
else
	case_skip "Landlock (ABI 4) does not refuse the connect here"
fi

: >"$T/grow"
case_begin fsize-truncate "RLIMIT_FSIZE 4096, then truncate(2) to 1 MB"
urun --policy "$T/caps.policy" -- "$ATTACK" truncate-limited "$T/grow" 1048576 4096
if [ "$(stat -c %s "$T/grow")" -le 4096 ]; then
	case_pass "size $(stat -c %s "$T/grow") ($(results | head -1))"
else
	case_fail "the file is $(stat -c %s "$T/grow") bytes: $(results | head -1)"
fi

: >"$T/grow2"
case_begin fsize-within "(guard) RLIMIT_FSIZE 4096, truncate(2) to 2048: allowed as the kernel allows it"
urun --policy "$T/caps.policy" -- "$ATTACK" truncate-limited "$T/grow2" 2048 4096
if [ "$(stat -c %s "$T/grow2")" = 2048 ]; then
	case_pass "size 2048 ($(results | head -1))"
else
	case_fail "the file is $(stat -c %s "$T/grow2") bytes: $(results | head -1)"
fi

policy web "$(cat "$T/caps.policy")"
start_daemon

case_begin daemon-landlock-read "(unotify run --daemon) a sandbox landlocked to read no file reads $T/pub"
if "$ATTACK" landlock-read "$T/pub" | grep -q '^BLOCKED EACCES'; then
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name web -- \
		"$ATTACK" landlock-read "$T/pub"
	if expect_blocked "$PUB"; then case_pass "$(results | head -1)"; fi
else
	case_skip "Landlock does not refuse the read here"
fi

finish
