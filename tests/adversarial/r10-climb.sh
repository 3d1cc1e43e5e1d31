#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, names in a hidden directory told by climbing out of it (found
# by an adversarial review). A policy hides a directory's names
# (`deny @file-read @file-stat path=S path=S/** ENOENT`); the engine
# decided on the name a path reaches, and the kernel walked every
# directory before it: S/guess/../../work/x ran when guess was a
# directory, failed with ENOTDIR for a file and ENOENT for nothing, by
# stat, open, access and readlink alike, also through a link into S, and
# in an allow-list; and a first fix, a check of each directory left apart
# from the walk, lost the race with a link swapped in between. Now, where
# the policy can refuse a stat, the calls the supervisor performs take
# ".." lexically: the walk never crosses the directory it leaves. The
# forbidden effect: two names of S (a directory, a file, or none) that
# answer differently. Guards: natively the climbs (and the race) tell
# them apart; a climb that leaves no hidden directory still works.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

S=$T/secret
W=$T/work
mkdir -p "$S/hdir" "$W"
: >"$S/hfile"
: >"$W/x"
ln -s "$S" "$T/lnk"
cat >"$T/deny.policy" <<EOF
default allow
deny @file-read @file-stat path=$S path=$S/** ENOENT
EOF
cat >"$T/eacces.policy" <<EOF
default allow
deny @file-read @file-stat path=$S path=$S/** EACCES
EOF
cat >"$T/exec.policy" <<EOF
default allow
deny @file-read @file-stat @file-exec path=$S path=$S/** ENOENT
EOF
cat >"$T/list.policy" <<EOF
default allow
allow @file-read @file-stat path=$W path=$W/** path=/usr/** path=/lib/** path=/lib64/** path=/etc/** path=/proc/** path=/ path=$T
deny @file-read @file-stat ENOENT
EOF

# probes VIA: the climbs out of VIA/hdir, VIA/hfile, VIA/nope to work/x.
probes() {
	echo "$1/hdir/../../work/x" "$1/hfile/../../work/x" "$1/nope/../../work/x"
}

# same_answers: the three PROBE lines of the last run answer alike.
same_answers() {
	n=$(results | grep '^PROBE' | sed 's/^PROBE [^ ]* //' | sort -u | wc -l)
	[ "$(results | grep -c '^PROBE')" = 3 ] && [ "$n" = 1 ]
}

case_begin native "(guard) natively the climbs tell a directory, a file and nothing apart"
URUN_CWD=$T bounded 20 "$ATTACK" r10-probe $(probes "$S")
if same_answers; then
	case_fail "natively the three answer alike: $(results | head -1)"
else
	case_pass "$(results | sed 's/^PROBE [^ ]* //' | sort -u | tr '\n' ';')"
fi

for pol in deny eacces list; do
	for via in "$S" "$T/lnk"; do
		what=direct
		[ "$via" = "$T/lnk" ] && what="through a link"
		case_begin "$pol-$(basename "$via")" "($pol.policy) climbs out of the hidden directory, $what"
		urun --policy "$T/$pol.policy" -- "$ATTACK" r10-probe $(probes "$via")
		if hung; then
			case_fail "the run did not end within its time limit"
		elif same_answers; then
			case_pass "alike: $(results | head -1 | sed 's/^PROBE [^ ]* //')"
		else
			case_fail "the answers tell the names apart: $(results | sed 's/^PROBE [^ ]* //' | tr '\n' ';')"
		fi
	done
done

# The same while a link in the path is swapped between a directory of the
# program's and a name in S: a check of the directory left, made apart
# from the walk, saw the one and the walk crossed the other.
case_begin race-native "(guard) natively the swapped link tells a file in S apart"
bounded 60 "$ATTACK" r10-climb-race "$W" "$S/hfile" 20000
if results | grep -q 'ENOTDIR='; then
	case_pass "$(results | grep '^RACE')"
else
	case_skip "the race did not land here natively: $(results | grep '^RACE' || results | head -1)"
fi
for name in hdir hfile nope; do
	case_begin "race-$name" "(eacces.policy) stats climbing through a link swapped to S/$name"
	urun --policy "$T/eacces.policy" -- "$ATTACK" r10-climb-race "$W" "$S/$name" 3000
	if hung; then
		case_fail "the run did not end within its time limit"
	elif results | grep -qx 'RACE ok=3000'; then
		case_pass "every stat answered alike: $(results | grep '^RACE')"
	else
		case_fail "answers that tell S/$name: $(results | grep '^RACE' || results | head -1)"
	fi
done

# An exec is the kernel's to run on its text: each directory it leaves is
# decided as a stat instead (its race with a swapped link is documented).
# Only where exec is decided on its path (here @file-exec is hidden too):
# elsewhere an exec of S/name tells what name is without climbing.
case_begin exec-climb "(exec.policy) execs climbing out of S answer alike"
urun --policy "$T/exec.policy" -- "$ATTACK" r10-exec-errno $(probes "$S")
if [ "$(results | grep -c '^EXEC')" = 3 ] &&
	[ "$(results | grep '^EXEC' | sed 's/^EXEC [^ ]* //' | sort -u | wc -l)" = 1 ]; then
	case_pass "alike: $(results | grep '^EXEC' | head -1 | sed 's/^EXEC [^ ]* //')"
else
	case_fail "the answers tell the names apart: $(results | grep '^EXEC' | sed 's/^EXEC [^ ]* //' | tr '\n' ';')"
fi

case_begin open-climb "(guard) a climb that leaves no hidden directory works"
urun --policy "$T/deny.policy" -- "$ATTACK" r10-probe "$W/../work/x"
if results | grep -q '^PROBE .* stat=OK open=OK access=OK'; then
	case_pass "$(results | head -1 | sed 's/^PROBE [^ ]* //')"
else
	case_fail "refused: $(results | head -1)"
fi

finish
