#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TOCTOU race for a call that changes the file system: one thread calls
# mkdir on a path buffer in a loop while another flips it between a name in
# an allowed and one in a denied directory. The supervisor creates the
# directory itself, by name in the parent it resolved from its own copy of
# the path: the denied directory is never created.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
setup_tmp
race_iterations

mkdir "$T/a" "$T/d"

say "== sanity: unsupervised, the probe does create the denied directory"
race_sanity race-mkdir race-mkdir "$T/a/x" "$T/d/x" 20000

say "== allow mkdir path=a/**, deny path=d/**: $ITER attempts"
urun --rule "deny mkdir path=$T/d/** EACCES" --rule "allow mkdir path=$T/a/**" \
	--rule 'default allow' -- "$PROBE" race-mkdir "$T/a/x" "$T/d/x" "$ITER"
race_check "mkdir allow+deny" "$ITER"
[ ! -e "$T/d/x" ] || fail "the denied directory exists"

say "PASS: race-mkdir"
