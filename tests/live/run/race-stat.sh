#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TOCTOU race for the stat family: one thread calls newfstatat on a path
# buffer in a loop while another flips the buffer between an allowed and a
# denied file. A supervisor that checked the path and CONTINUEd would let the
# kernel stat the denied file whenever the flip lands between its check and
# the kernel's own read; one that stats what it resolved and writes the
# result into the target's memory never does.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
setup_tmp
race_iterations

mkdir "$T/a" "$T/d"
echo allowed >"$T/a/f"
echo denied >"$T/d/f"

say "== sanity: unsupervised, the probe does stat the denied file"
race_sanity race-stat race-stat "$T/a/f" "$T/d/f" 100000

say "== allow path=a/**, deny path=d/**: $ITER attempts"
urun --rule "deny newfstatat path=$T/d/** EACCES" --rule "allow newfstatat path=$T/a/**" \
	--rule 'default allow' -- "$PROBE" race-stat "$T/a/f" "$T/d/f" "$ITER"
race_check "newfstatat allow+deny" "$ITER"

say "== deny @file-stat path=d/**, everything else allowed by default: $ITER attempts"
urun --rule "deny @file-stat path=$T/d/** EACCES" --rule 'default allow' -- \
	"$PROBE" race-stat "$T/a/f" "$T/d/f" "$ITER"
race_check "@file-stat deny+default allow" "$ITER"

say "PASS: race-stat"
