#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, an exec checked while the supervisor has no descriptor left
# (found by an adversarial review). A performed sendmsg takes a copy of
# every descriptor its SCM_RIGHTS carries and holds them while the send
# blocks on a full queue: a program can make the supervisor hold any
# number of descriptors. Holding all but a couple (its soft limit 1024),
# the #! line of a script in the exec allow-list could no longer be
# resolved, and the check took that for "nothing to refuse": the dynamic
# loader ran a program outside the list. Now a check that cannot be made
# refuses the exec. The forbidden effect: the program outside the list
# prints its word, at any count held. Guards: natively the script runs;
# the sweep made its execs.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "copies of the shell and the loader"
setup_tmp

need_loader
X=$T/x
D=$T/denied
mkdir -p "$X" "$D"
cp "$ATTACK" "$X/attack"
cp "$(readlink -f /bin/sh)" "$D/sh"
chmod 755 "$X/attack" "$D/sh"
WORD=RAN-OUTSIDE-THE-LIST
printf '#!%s %s\necho %s\n' "$LOADER" "$D/sh" "$WORD" >"$X/via-loader"
chmod 755 "$X/via-loader"
cat >"$T/p.policy" <<EOF
default allow
deny @net-connect addr=10.0.0.0/8
allow @file-exec path=/usr/** path=$X/**
deny @file-exec EACCES
EOF

case_begin native "(guard) natively the script runs the program outside the list"
if "$X/via-loader" 2>&1 | grep -q "$WORD"; then
	case_pass "it prints its word"
else
	case_fail "the script does not run natively"
fi

case_begin sweep "the #!-loader script, while the supervisor holds 960 to 1020 descriptors (limit 1024)"
bounded 120 sh -c 'ulimit -n 1024 && exec "$@"' sh "$UNOTIFY" run -q --no-landlock --log /dev/null \
	--policy "$T/p.policy" -- "$X/attack" r10-fdhold-exec "$X/via-loader" "$WORD" 960 1020
if hung; then
	case_fail "the run did not end within its time limit"
elif ! results | grep -q '^HELD-EXECS [1-9]'; then
	case_fail "the sweep did not run: $(results | head -2 | tr '\n' ' ') $(printf '%s' "$ERR" | tail -1)"
elif results | grep -qx 'RAN 0'; then
	case_pass "refused at every count ($(results | grep HELD-EXECS))"
else
	case_fail "the program outside the list ran: $(results | grep '^RAN') ($(printf '%s\n' "$OUT" | grep 'held' | head -3 | tr '\n' ' '))"
fi

finish
