#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: a rename that creates. As root: RENAME_WHITEOUT makes a rename
# the policy allows (inbox/ to done/, by name) also create a node (a
# whiteout, character device 0:0) at its source, where @file-create is
# denied: the roles of renameat2 (source deleted, target created) do not
# say so. r2-links.sh has the moves by other roads that fail.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "RENAME_WHITEOUT needs CAP_MKNOD"
setup_tmp

# ---- a rename that creates ----
mkdir -p "$T/inbox" "$T/done"
cat >"$T/inbox.policy" <<EOF
default allow
allow rename renameat renameat2 path=$T/inbox/* path=$T/done/*
deny @file-create EACCES
EOF

case_begin control-create "(moves from inbox/ to done/ only, nothing created) mkdir inbox/d is denied (guard)"
urun --policy "$T/inbox.policy" -- mkdir "$T/inbox/d"
if [ -e "$T/inbox/d" ]; then case_fail "inbox/d created"; else case_pass "nothing created"; fi

echo mail >"$T/inbox/msg"
case_begin rename-whiteout "(moves from inbox/ to done/ only) renameat2(inbox/msg, done/msg, RENAME_WHITEOUT)"
urun --policy "$T/inbox.policy" -- "$ATTACK" rename-whiteout "$T/inbox/msg" "$T/done/msg"
# The forbidden effect is the node (a whiteout: character device 0:0); a
# refused rename leaves inbox/msg the regular file it was.
if [ -c "$T/inbox/msg" ]; then
	case_fail "a node was created at inbox/msg: $(ls -l "$T/inbox/msg" | cut -c1-40) ($(results | head -1))"
elif [ -e "$T/inbox/msg" ] && [ ! -f "$T/inbox/msg" ]; then
	case_fail "inbox/msg is no longer a regular file: $(ls -l "$T/inbox/msg" | cut -c1-40)"
else
	case_pass "no node at inbox/msg ($(results | head -1))"
fi

rm -f "$T/inbox/msg" "$T/done/msg"
echo mail >"$T/inbox/msg"
case_begin control-rename "(guard) the same move without RENAME_WHITEOUT is allowed"
urun --policy "$T/inbox.policy" -- mv "$T/inbox/msg" "$T/done/msg"
if [ -f "$T/done/msg" ] && [ ! -e "$T/inbox/msg" ]; then
	case_pass "moved"
else
	case_fail "the policy does not allow the move, so rename-whiteout tests nothing (status $RC)"
fi

finish
