#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 14, a call refused by name performed by io_uring. The implicit set
# io-uring came only with path, network-condition or file-category rules:
# under `default allow` + `deny connect` (or `deny bind`, `deny socket`, a
# register condition such as `deny openat arg2&0x3==0x1`, a `log` rule, or
# a refusing default with io_uring allowed), the program connected through
# IORING_OP_CONNECT, bound through IORING_OP_BIND and wrote a file through
# IORING_OP_OPENAT, none of which the filter sees; under `deny pwrite64`
# it wrote through Linux AIO (io_submit's IOCB_CMD_PWRITE). Now a refusal,
# `return` or `log` of any call io_uring performs by an opcode of its own
# (and a default that is no `allow`) brings io-uring, and of a call
# io_submit performs brings the new set aio. Forbidden effects:
# CONNECTED (the listener outside counts it), BOUND, the file written.
# Guards: natively each attack works; a refusal of a call io_uring cannot
# make (getppid) leaves io_uring to the program.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

printf 'default allow\ndeny connect\n' >"$T/connect.policy"
printf 'default allow\ndeny bind EACCES\n' >"$T/bind.policy"
printf 'default allow\ndeny openat arg2&0x3==0x1 EROFS\n' >"$T/wronly.policy"
printf 'default allow\ndeny getppid\n' >"$T/other.policy"
printf 'default allow\ndeny pwrite64 pwritev pwritev2 EROFS\n' >"$T/pwrite.policy"
PORT=$((20000 + $$ % 20000))

listener outside tcp 127.0.0.1

case_begin native-connect "(guard) natively IORING_OP_CONNECT reaches the listener"
_n=$(native_result uring-connect 127.0.0.1 "$(port outside)")
case $_n in
CONNECTED*) case_pass "$_n" ;;
SETUP*) case_skip "io_uring is not available here: $_n" ;;
*) case_fail "natively: $_n" ;;
esac

case_begin connect "deny connect: IORING_OP_CONNECT to a listener outside"
flush outside
_before=$(count outside)
urun --policy "$T/connect.policy" -- "$ATTACK" uring-connect 127.0.0.1 "$(port outside)"
expect_blocked && expect_count outside "$_before"

case_begin native-bind "(guard) natively IORING_OP_BIND binds"
_n=$(native_result uring-bind 127.0.0.1 "$PORT")
case $_n in
BOUND*) case_pass "$_n" ;;
SETUP*) case_skip "IORING_OP_BIND is not available here: $_n" ;;
*) case_fail "natively: $_n" ;;
esac

case_begin bind "deny bind: IORING_OP_BIND"
urun --policy "$T/bind.policy" -- "$ATTACK" uring-bind 127.0.0.1 "$PORT"
expect_blocked && case_pass "$(results | head -1)"

case_begin wronly "deny openat arg2&0x3==0x1 (no write opens): IORING_OP_OPENAT(O_WRONLY|O_TRUNC) + WRITE"
expect_unwritten "$T/wronly.policy" r11-uring-write "WROTE 5 bytes through io_uring"

case_begin aio "deny pwrite64: Linux AIO's IOCB_CMD_PWRITE"
expect_unwritten "$T/pwrite.policy" r14-aio-write "WROTE 5 bytes through io_submit"

case_begin other "(guard) deny getppid: io_uring stays the program's"
echo readable >"$T/file"
urun --policy "$T/other.policy" -- "$ATTACK" uring-open "$T/file"
if results | grep -q '^LEAK'; then
	case_pass "$(results | head -1)"
else
	case_fail "io_uring was refused: $(results | head -1)"
fi
finish
