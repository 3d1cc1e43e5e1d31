#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor blinded: the audit trail must hold every decision.
#   - By default the trail is the stderr the supervisor shares with the
#     program (one open file description). The program sets O_NONBLOCK on
#     its fd 2 and fills the pipe; the reader starts only once the program
#     made 100 denied opens. All 100 must be in the trail, or the trail
#     must say how many records were lost: never a silent drop.
#   - A record longer than the 40 KiB line buffer (a rename or link of two
#     4 KiB paths of unprintable bytes, each shown twice, escaped 4x) is cut:
#     its verdict and rule, at the end, must still be there (text and JSON,
#     `unotify run` and unotifyd).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

NEEDLE=secret-$(token)
secret "$T/$NEEDLE" >/dev/null
mkdir -p "$T/from" "$T/huge"
cat >"$T/p.policy" <<EOF
default allow
deny openat open path=$T/$NEEDLE EACCES
deny rename renameat renameat2 link linkat path=$T/huge/** EACCES
EOF

case_begin nonblock-stderr "the program makes the shared stderr non-blocking, fills it, makes 100 denied opens"
rm -f "$T/go"
HUNG=no
set +e
(timeout --verbose -k 3 20 "$UNOTIFY" run -q --policy "$T/p.policy" -- "$ATTACK" \
	audit-nonblock "$T/$NEEDLE" 100 "$T/go" 2>&1 >"$T/nb.out" </dev/null) |
	(wait_until 20 test -e "$T/go"; cat >"$T/nb.err")
set -e
RC=- OUT=$(cat "$T/nb.out") ERR=$(grep -av '^xxxx' "$T/nb.err" || true)
grep -q '^timeout: sending signal' "$T/nb.err" && HUNG=yes
recorded=$(grep -ac "verdict=deny.*$NEEDLE" "$T/nb.err" || true)
lost=$(grep -aiE 'lost|dropped' "$T/nb.err" | grep -av '^xxxx' | head -1 || true)
say "$(results | head -1); $recorded of 100 denials in the trail; loss notice: ${lost:-none}"
if hung; then
	case_fail "the run did not end within 20 s"
elif ! results | grep -q '^FILLED .* DENIED 100$'; then
	case_fail "the attack did not run as planned: $(results | head -1)"
elif [ "$recorded" = 100 ] || [ -n "$lost" ]; then
	case_pass "$recorded recorded${lost:+, loss reported: $lost}"
else
	case_fail "$recorded of 100 denials recorded, and no record of the loss"
fi

# expect_whole_line SYSCALL FILE [json]: the record of SYSCALL ends with its verdict and rule.
expect_whole_line() {
	_line=$(grep -a "syscall=$1 \|\"syscall\":\"$1\"" "$2" | tail -1)
	say "the $1 record is $(printf '%s' "$_line" | wc -c) bytes long"
	if [ -z "$_line" ]; then
		case_fail "no record of the $1 at all"
	elif [ "${3:-}" = json ]; then
		if printf '%s\n' "$_line" | python3 -c 'import json, sys; r = json.loads(sys.stdin.read()); sys.exit(0 if r.get("verdict") == "deny" and r.get("rule") else 1)'; then
			case_pass "valid JSON with its verdict and rule"
		else
			case_fail "the JSON record is cut or lacks its verdict or rule: ends '$(printf '%s' "$_line" | tail -c 60)'"
		fi
	elif printf '%s\n' "$_line" | grep -q ' verdict=deny errno=EACCES rule=.*p\.policy:3'; then
		case_pass "verdict and rule present"
	else
		case_fail "verdict or rule missing: the record ends '$(printf '%s' "$_line" | tail -c 60)'"
	fi
}

for c in rename link; do
	case_begin "huge-$c" "a $c of two 4 KiB unprintable paths: the record keeps its verdict and rule"
	rm -f "$T/audit.txt"
	urun --log "$T/audit.txt" --policy "$T/p.policy" -- "$ATTACK" audit-huge "$T/from" "$T/huge" "$c"
	expect_whole_line "$c" "$T/audit.txt"
done

case_begin huge-json "the rename again, --log-format json: one valid JSON object with verdict and rule"
if command -v python3 >/dev/null 2>&1; then
	rm -f "$T/audit.json"
	urun --log "$T/audit.json" --log-format json --policy "$T/p.policy" -- "$ATTACK" \
		audit-huge "$T/from" "$T/huge" rename
	expect_whole_line rename "$T/audit.json" json
else
	case_skip "needs python3 to parse JSON"
fi

policy p "$(cat "$T/p.policy")"
start_daemon

case_begin daemon-huge "(unotifyd) the rename again: the daemon's record keeps its verdict and rule"
drun p rename audit-huge "$T/from" "$T/huge" rename
wait_until 5 grep -aq 'syscall=rename' "$T/audit.log" || true
expect_whole_line rename "$T/audit.log"

finish
