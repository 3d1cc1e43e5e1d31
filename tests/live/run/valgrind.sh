#!/bin/sh
# The parts of unotify that valgrind can run: the policy unit tests and the
# front end's policy checker, with leak checking. (valgrind 3.19 does not know
# the seccomp syscall, so nothing that loads a filter can run under it.)
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

need_cmd valgrind
if grep -q '^SAN_CFLAGS = -fsanitize' "$top_builddir/Makefile"; then
	skip "valgrind does not run sanitizer builds (ASan owns the address space)"
fi
# valgrind runs the policy cases some 40 times slower than natively: on
# a loaded machine that outlasts the usual bound, which is for hangs.
UNOTIFY_TEST_TIMEOUT=600
# The random Landlock agreement tests are most of that time, and a quarter
# of their policies runs the same code: the whole set runs in the other
# builds' test-policy (tests/unit), which agreement is about.
UNOTIFY_TEST_RANDOM_SHARE=4
export UNOTIFY_TEST_RANDOM_SHARE
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"

# shellcheck disable=SC2086 # $vg is a command line
capture "test-policy under valgrind" $vg "$top_builddir/tests/unit/test-policy"
expect_status "policy unit tests under valgrind" 0

for p in "$top_srcdir"/contrib/policies/*.policy; do
	# shellcheck disable=SC2086
	capture "policy check $p" $vg "$UNOTIFY" policy check "$p"
	expect_status "policy check $(basename "$p") under valgrind" 0
done

printf 'allow opnat\ndeny read EACESS\n' >"$T/bad.policy"
# shellcheck disable=SC2086
capture "policy check bad.policy" $vg "$UNOTIFY" policy check "$T/bad.policy"
expect_status "policy check on a policy with errors: exit 1, no valgrind error (99)" 1
