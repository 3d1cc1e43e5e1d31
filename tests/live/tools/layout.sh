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

# docs/ARCHITECTURE.md's table of concerns names only directories that exist.
arch=$(sed -n '/^## Where each concern lives/,/^## /p' "$top_srcdir/docs/ARCHITECTURE.md" |
	sed -n 's/^| `\([^`]*\)\/` |.*/\1/p')
[ -n "$arch" ] || fail "no table of concerns in docs/ARCHITECTURE.md"
for d in $arch; do
	[ -d "$top_srcdir/$d" ] || fail "docs/ARCHITECTURE.md names $d/, which does not exist"
done
say "ok: every directory docs/ARCHITECTURE.md's table names exists"

if command -v git >/dev/null 2>&1 && git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
	# What git tracks, not what a build left: every top-level directory
	# but dot ones, every daemon/ folder, and every tests/ folder in the
	# tests/ row.
	tracked=$(cd "$top_srcdir" && git ls-files | sed -n 's|^\([^./][^/]*\)/.*|\1|p' | sort -u)
	for d in $tracked $(cd "$top_srcdir" && git ls-files daemon | sed -n 's|^\(daemon/[^/]*\)/.*|\1|p' | sort -u); do
		[ "$d" = daemon ] || printf '%s\n' "$named" | grep -qx -- "$d" ||
			fail "git tracks $d/, which README.md's layout does not name"
	done
	row=$(sed -n '/^## Layout/,$p' "$README" | grep '^| `tests/` |')
	for d in $(cd "$top_srcdir" && git ls-files tests | sed -n 's|^tests/\([^/]*\)/.*|\1|p' | sort -u); do
		case $row in *"\`$d/\`"*) ;; *) fail "git tracks tests/$d/, which README.md's tests/ row does not name" ;; esac
	done
	say "ok: every directory git tracks (top level, daemon/, tests/) is in README.md's layout"
	hits=$(cd "$top_srcdir" && git grep -n -e '\.\./shared' -e 'FIELD-NOTES' -- . ':!tests/live/tools/layout.sh' || true)
	[ -z "$hits" ] || fail "files outside the repository cited: $hits"
	say "ok: no code or doc cites a file outside the repository"
	# A constant missing from old headers is defined once, in lib/uapi.h:
	# no `#ifndef NAME` / `#define NAME` pair elsewhere but include guards
	# and the test programs' data directories (set by the build).
	fallbacks=$(cd "$top_srcdir" && git grep -n -A1 -E '^#\s*ifndef\s+\w+' -- '*.c' '*.h' ':!lib/uapi.h' |
		awk '/ifndef/ { sub(/.*ifndef[ \t]+/, ""); name = $1; next }
		     name != "" && $0 ~ ("define[ \t]+" name "([ \t(]|$)") { print }
		     { name = "" }' | grep -vE 'define[[:space:]]+(\w+_H|TESTDATA_DIR|DATA_DIR)\b' || true)
	[ -z "$fallbacks" ] || fail "kernel fallbacks outside lib/uapi.h: $fallbacks"
	say "ok: every kernel fallback constant is defined in lib/uapi.h only"
else
	skip_case "no citation of files outside the repository" "not a git checkout"
fi
