#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names guessed from the path's text. To decide an open or a stat in one
# lookup, the supervisor names an absolute path by its text ("." and ".."
# folded), decides, and proves the name with the lookup that performs the
# call (openat2 from the pinned root, no symlink, no magic link, no mount
# crossed; a rename racing a ".." fails it). A program that makes the text
# name another file than the one reached (a symlink, a symlinked or
# renamed directory, a ".." that climbs out of a directory moved meanwhile)
# must never get the denied file under the allowed text. A relative path
# is named by its start's name (the cwd's), proved again for every call.
#
# The denied files hold a secret; the allowed text, when it names what it
# reaches, holds "ok". The program reads the allowed text again and again
# while this script (outside the sandbox) swaps what it names.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program reads root-owned files"
setup_tmp

mkdir -p "$T/allowed/d" "$T/denied"
SECRET=$(secret "$T/denied/x")
echo ok >"$T/allowed/x"
echo ok >"$T/allowed/r"
ln -s "$T/denied/x" "$T/allowed/l"
ln -s "$T/denied" "$T/allowed/sd"
printf 'default allow\ndeny openat open newfstatat statx path=%s/denied/** EACCES\n' "$T" \
	>"$T/deny.policy"

# reads PATH N: the program reads PATH N times with the shell's own open
# (no process per read); any line but "ok" is printed.
reads() {
	urun --policy "$T/deny.policy" -- sh -c '
		n=0 opened=0
		while [ $n -lt "$2" ]; do
			line=
			# The secret has no newline: read fails at its end, line is set.
			if { IFS= read -r line || [ -n "$line" ]; } <"$1"; then
				opened=$((opened + 1))
				[ "$line" = ok ] || echo "READ $line"
			fi 2>/dev/null
			n=$((n + 1))
		done
		echo "BLOCKED no denied content in $n reads ($opened opened)"' sh "$@"
}

# swapping NAME CMD...: CMD in a loop, outside the sandbox, for 8 s at most.
swapping() {
	_n=$1
	shift
	(end=$(($(date +%s) + 8)); while [ "$(date +%s)" -lt $end ]; do "$@"; done) \
		>"$T/$_n.loop" 2>&1 &
	LOOP=$!
	track_pid "$LOOP"
}

stop_swapping() {
	kill "$LOOP" 2>/dev/null || true
	wait "$LOOP" 2>/dev/null || true
}

case_begin symlink "a symlink to the denied file under an allowed name"
reads "$T/allowed/l" 1
if expect_blocked "$SECRET"; then case_pass "never read"; fi

case_begin symlinked-dir "a symlinked directory in the middle of the path"
reads "$T/allowed/sd/x" 1
if expect_blocked "$SECRET"; then case_pass "never read"; fi

case_begin dotdot-text "\"..\" in the text (folded to the denied name)"
reads "$T/allowed/../denied/x" 1
if expect_blocked "$SECRET"; then case_pass "never read"; fi

case_begin stat-symlink "stat through a symlinked directory (the stat family guesses too)"
urun --policy "$T/deny.policy" -- sh -c 'stat -L -c "SIZE %s" "$1" || echo "BLOCKED stat refused"' \
	sh "$T/allowed/sd/x"
if printf '%s\n' "$OUT" | grep -q '^SIZE'; then
	case_fail "the denied file was stat'ed: $OUT"
elif expect_blocked; then
	case_pass "refused"
fi

case_begin symlink-swap "the allowed name swapped between a file and a symlink to the denied one"
swapping swap "$ATTACK" rename "$T/allowed/l" "$T/allowed/r" exchange
reads "$T/allowed/l" 20000
stop_swapping
say "$(results | tail -1)"
if expect_blocked "$SECRET"; then case_pass "never read"; fi

case_begin relative-swap "the same swap, read by a relative path from the allowed directory"
swapping swap2 "$ATTACK" rename "$T/allowed/l" "$T/allowed/r" exchange
URUN_CWD=$T/allowed reads l 20000
stop_swapping
say "$(results | tail -1)"
if expect_blocked "$SECRET"; then case_pass "never read"; fi

case_begin cwd-moved "the program's cwd moved into the denied directory between two relative reads"
mkdir -p "$T/allowed/m"
echo ok >"$T/allowed/m/x"
# The system moves it (the program may not: a move into a stopping rule is refused).
(while [ ! -e "$T/ready" ]; do sleep 0.05; done
	mv "$T/allowed/m" "$T/denied/m" && touch "$T/moved") >"$T/mover.log" 2>&1 &
track_pid $!
urun --policy "$T/deny.policy" -- sh -c '
	cd "$1/allowed/m" || exit 125
	IFS= read -r a <x && echo "# first read: $a"
	: >"$1/ready"
	while [ ! -e "$1/moved" ]; do :; done
	if IFS= read -r b <x 2>/dev/null; then echo "READ $b under $1/denied/m/x"
	else echo "BLOCKED refused once the cwd is $1/denied/m"; fi' sh "$T"
if ! expect_blocked; then
	:
elif printf '%s\n' "$OUT" | grep -q '^BLOCKED'; then
	case_pass "named by where the cwd is now"
else
	case_fail "no result: $OUT"
fi

case_begin dotdot-rename "\"..\" out of a directory renamed into the denied one meanwhile"
swapping rename sh -c 'mv "$1/allowed/d" "$1/denied/d" && mv "$1/denied/d" "$1/allowed/d"' \
	sh "$T"
reads "$T/allowed/d/../x" 20000
stop_swapping
say "$(results | tail -1)"
if expect_blocked "$SECRET"; then case_pass "never read"; fi

finish
