#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kept target state (lib/target-cache.c) and supplementary groups.
# PIDFD_GET_INFO shows a thread's eight ids, capget its capabilities; its
# groups neither. A state kept for a thread id is used again while those
# match, on the ground that its groups cannot have changed (no CAP_SETGID
# under no_new_privs). But what stands behind a thread id can change: when
# a thread that is not the leader execs, it takes the leader's id (and the
# pidfd of the leader's id follows it). Here the leader keeps a group that
# may read a file, and its state is kept; a second thread drops every group
# to the same ids (so the same, empty, capabilities) and execs a reader,
# which runs under the leader's id without the group. The kernel refuses
# the reader (EACCES); a supervisor that reuses the leader's groups reads.
# The reverse (the leader has no group, the exec'ing thread one whose class
# may not read a file others may) reads too: any difference matters.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program changes its ids and groups"
setup_tmp

chmod 755 "$T"
cp "$ATTACK" "$T/attack"
chmod 755 "$T/attack"
SECRET=$(secret "$T/secret")
# Only group 4242 may read it (owner 4343, not the program's uid 1000).
chown 4343:4242 "$T/secret"
chmod 040 "$T/secret"
printf 'default allow\ndeny openat open path=%s/nothing/** EACCES\n' "$T" >"$T/p.policy"

case_begin native "without a supervisor the reader is refused (the attack's premise)"
OUT=$(timeout 20 "$T/attack" r4-exec-groups "$T/secret" 4242 1000 "$T/attack" 2>&1 || true)
say "$OUT"
if printf '%s\n' "$OUT" | grep -q '^BLOCKED EACCES'; then
	case_pass "EACCES"
else
	fail "the premise does not hold natively: $OUT"
fi

case_begin exec-groups "a grouped leader's kept state, its thread id taken by an exec without the group"
urun --policy "$T/p.policy" -- "$T/attack" r4-exec-groups "$T/secret" 4242 1000 "$T/attack"
if expect_blocked "$SECRET"; then case_pass "the reader was refused"; fi

# The other way round: fewer groups may read more. Group 4242 may not read
# this one, everyone else may; the leader has no group, the exec'ing thread
# has 4242.
SECRET2=$(secret "$T/secret2")
chown 4343:4242 "$T/secret2"
chmod 604 "$T/secret2"

case_begin native-reverse "without a supervisor the grouped reader is refused (the premise)"
OUT=$(timeout 20 "$T/attack" r4-exec-groups "$T/secret2" 4242 1000 "$T/attack" exec 2>&1 || true)
say "$OUT"
if printf '%s\n' "$OUT" | grep -q '^BLOCKED EACCES'; then
	case_pass "EACCES"
else
	fail "the premise does not hold natively: $OUT"
fi

case_begin exec-groups-reverse "a group-less leader's kept state, its thread id taken by an exec with a denied group"
urun --policy "$T/p.policy" -- "$T/attack" r4-exec-groups "$T/secret2" 4242 1000 "$T/attack" exec
if expect_blocked "$SECRET2"; then case_pass "the reader was refused"; fi

finish
