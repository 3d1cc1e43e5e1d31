#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A multi-threaded program whose threads all make notified calls at once
# (path-decided opens, allowed and denied, and getppid answered with 42):
# every call of every thread gets its own, correct answer.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

echo "thread data" >"$T/data"
echo secret >"$T/secret"
cat >"$T/threads.policy" <<EOF
return getppid 42
allow openat path=$T/data $LOADER_PATHS
deny  openat EACCES
default allow
EOF

say "== sanity: the probe fails when the answers are wrong"
out=$("$PROBE" threads 4 "$T/data" 10 42 "$T/secret")
case $out in fail*) ;; *) fail "unsupervised run should fail (real getppid, secret readable): $out" ;; esac
say "ok: unsupervised: $out"

say "== 8 threads x 300 iterations: open+read, getppid, denied open"
urun --policy "$T/threads.policy" -- "$PROBE" threads 8 "$T/data" 300 42 "$T/secret"
expect_out "8 threads, every answer right" "ok 8"

say "== 32 threads x 50 iterations"
urun --policy "$T/threads.policy" -- "$PROBE" threads 32 "$T/data" 50 42 "$T/secret"
expect_out "32 threads, every answer right" "ok 32"

say "== the same without the same-CPU hand-off"
urun --no-sync --policy "$T/threads.policy" -- "$PROBE" threads 8 "$T/data" 300 42 "$T/secret"
expect_out "8 threads, --no-sync" "ok 8"

say "PASS: threads"
