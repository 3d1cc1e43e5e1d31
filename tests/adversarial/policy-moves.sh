#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Renaming what contains a protected file (policy/moves.c): a rename, link
# or exchange that would carry a file across a path pattern fails with
# EXDEV, so a read-only tree cannot be renamed away, edited and renamed
# back, and the parent of a denied file cannot be renamed to read it.
. "${top_srcdir:-.}/tests/adversarial/policy-lib.sh"
need_root "a root program, which file permissions do not stop"
setup_tmp

mkdir -p "$T/sys" "$T/home/secret" "$T/pub"
echo original >"$T/sys/hostname"
echo SECRET-MOVE >"$T/home/secret/key"
echo public >"$T/pub/x"

say "== read-only-system.policy's rule on a tree of our own"
policy ro 'default allow' \
	"deny @file-write @file-create @file-delete @file-attr path=$T/sys/** EROFS"
attempt "$POL" rename-edit "$T/sys" hostname EVIL
blocked "rename the tree away" rename EXDEV
expect_out "no step after the refused rename" "rename err EXDEV"
[ "$(cat "$T/sys/hostname")" = original ] || fail "$T/sys/hostname was changed"
say "ok: $T/sys/hostname unchanged"
expect_grep "audited, blamed on the rule" "$(audit_lines)" \
	"syscall=rename verdict=deny errno=EXDEV rule=$(re_quote "$POL"):2 "
urun --rule 'default allow' -- "$ESCAPE" rename-edit "$T/sys" hostname EVIL
[ "$(cat "$T/sys/hostname")" = EVIL ] || { show_run; fail "control: the edit did not work"; }
say "ok: control: unprotected, the edit works"
echo original >"$T/sys/hostname"

say "== the parent of a read- and write-denied file"
policy secret 'default allow' "deny @file-read @file-write path=$T/home/secret/key EACCES"
attempt "$POL" rename-read "$T/home/secret" key
blocked "rename the parent" rename EXDEV
not_leaked "rename the parent" SECRET-MOVE
attempt "$POL" rename-read "$T/home" secret/key
blocked "rename the grandparent" rename EXDEV
not_leaked "rename the grandparent" SECRET-MOVE
[ -e "$T/home/secret/key" ] || fail "the key moved"
attempt "$POL" exchange "$T/home/secret" "$T/pub"
blocked "exchange the parent with another directory" exchange EXDEV
not_leaked "exchange" SECRET-MOVE
attempt "$POL" rename-read "$T/pub" x
expect_grep "a directory no pattern tells apart still moves" "$OUT" "^read: public\$"

say "PASS: policy-moves"
