#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TOCTOU race: one thread opens a path buffer in a loop while another
# flips the buffer between an allowed and a denied file. A supervisor that
# checked the path and let the kernel continue would open the denied file
# whenever the flip lands between its check and the kernel's own read; one
# that opens the file itself and injects the fd never does.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

ITER=${UNOTIFY_RACE_ITERATIONS:-100000}
[ "$ITER" -ge 100000 ] || say "note: $ITER iterations (fewer than the required 100000)"
echo allowed >"$T/allowed"
echo denied >"$T/denied"
chmod 600 "$T/denied" # readable by the program's user: only the policy stops it

# count KEY LINE: the number after " KEY=" in LINE.
count() {
	printf ' %s\n' "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

# check_race NAME: the last run's counts: nothing denied was opened, and
# both outcomes occurred, so the race really ran.
check_race() {
	line=$(printf '%s\n' "$OUT" | grep '^opened-denied=' || true)
	if [ "$RC" != 0 ] || [ -z "$line" ]; then
		show_run
		fail "$1: the race probe did not complete"
	fi
	opened_denied=$(count opened-denied "$line")
	allowed=$(count allowed "$line")
	denied=$(count denied "$line")
	other=$(count other "$line")
	say "$1: $line"
	[ "$opened_denied" -eq 0 ] ||
		fail "$1: the denied file was opened $opened_denied times out of $ITER"
	[ "$allowed" -gt 0 ] || fail "$1: no allowed open succeeded: the race did not run"
	[ "$denied" -gt 0 ] || fail "$1: no open was denied: the race did not run"
	say "ok: $1: denied file never opened ($allowed allowed, $denied denied, $other other)"
}

say "== sanity: unsupervised, the probe does open the denied file"
OUT=$("$PROBE" race "$T/allowed" "$T/denied" 100000)
case $OUT in
"opened-denied=0 "*) fail "the probe cannot see an opened denied file: $OUT" ;;
"opened-denied="*) say "ok: unsupervised: $OUT" ;;
*) fail "probe race: $OUT" ;;
esac

say "== allow path=allowed, deny path=denied, $ITER attempts"
urun --rule "allow openat path=$T/allowed" --rule "deny openat path=$T/denied EACCES" \
	--rule 'default allow' -- "$PROBE" race "$T/allowed" "$T/denied" "$ITER"
check_race "allow+deny"

say "== deny path=denied, everything else allowed by default, $ITER attempts"
urun --rule "deny openat path=$T/denied EACCES" --rule 'default allow' -- \
	"$PROBE" race "$T/allowed" "$T/denied" "$ITER"
check_race "deny+default allow"

say "== deny path=denied, then an unconditional allow openat, $ITER attempts"
urun --rule "deny openat path=$T/denied EACCES" --rule 'allow openat' --rule 'default allow' -- \
	"$PROBE" race "$T/allowed" "$T/denied" "$ITER"
check_race "deny+allow openat"

say "PASS: race"
