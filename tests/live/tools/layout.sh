#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's layout table matches the tree: every directory it names
# exists, and every top-level directory and daemon/ folder is in it.
# Nothing in the tree cites a file outside it (../shared, FIELD-NOTES).
. "${top_srcdir:-.}/tests/live/lib.sh"

README=$top_srcdir/README.md
named=$(sed -n '/^## Layout/,$p' "$README" | sed -n 's/^| `\([^`]*\)\/` |.*/\1/p')
[ -n "$named" ] || fail "no layout table in README.md"
for d in $named; do
	[ -d "$top_srcdir/$d" ] || fail "README.md's layout names $d/, which does not exist"
done
say "ok: every directory of the layout table exists ($(echo $named))"
for d in "$top_srcdir"/*/ "$top_srcdir"/daemon/*/; do
	d=${d%/}
	d=${d#"$top_srcdir"/}
	case $d in build* | autom4te.cache | m4 | daemon) continue ;; esac
	# daemon/ is named through its folders; others by themselves.
	printf '%s\n' "$named" | grep -qx -- "$d" || fail "$d/ is in the tree but not in README.md's layout"
done
say "ok: every top-level directory and daemon/ folder is in the table"

if command -v git >/dev/null 2>&1 && git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
	hits=$(cd "$top_srcdir" && git grep -n -e '\.\./shared' -e 'FIELD-NOTES' -- . ':!tests/live/tools/layout.sh' || true)
	[ -z "$hits" ] || fail "files outside the repository cited: $hits"
	say "ok: no code or doc cites a file outside the repository"
else
	skip_case "no citation of files outside the repository" "not a git checkout"
fi
