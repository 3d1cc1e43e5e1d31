#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A FIFO opened for writing, decided on its path, waits for a reader as the
# kernel's own open would (runc's exec fifo is such an open), instead of
# failing with ENXIO; and a writer whose reader never comes does not keep
# the supervisor once the program is gone.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

mkfifo "$T/fifo"
RULE="allow openat open path=$T/**"

say "== a writer waits until a reader opens the FIFO"
(sleep 1; cat "$T/fifo" >"$T/read.out") &
track_pid $!
urun --rule "$RULE" --rule 'default allow' -- "$PROBE" open "$T/fifo" wronly
expect_status "the writer's run" 0
case "$OUT" in
ok*) say "ok: the open waited for the reader and succeeded ($OUT)" ;;
*) show_run; fail "the writer's open did not succeed: $OUT" ;;
esac

say "== a reader that never comes: killing the program ends the wait"
"$UNOTIFY" run --rule "$RULE" --rule 'default allow' -- "$PROBE" open "$T/fifo" wronly \
	>"$T/.out2" 2>&1 </dev/null &
SUP=$!
track_pid $SUP
sleep 1
PROG=$(pgrep -P "$SUP" || true)
[ -n "$PROG" ] || fail "the program is not waiting under its supervisor"
kill -9 "$PROG"
for i in $(seq 1 50); do
	kill -0 "$SUP" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$SUP" 2>/dev/null; then
	fail "the supervisor still waits for a reader after its program died"
fi
wait "$SUP" 2>/dev/null || true
say "ok: the supervisor left once the program was gone"
say "PASS"
