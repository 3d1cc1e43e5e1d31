#!/bin/sh
# The parts of unotify that valgrind can run: the policy unit tests and the
# front end's policy checker, with leak checking. (valgrind 3.19 does not know
# the seccomp syscall, so nothing that loads a filter can run under it.)
set -eu
if ! command -v valgrind >/dev/null 2>&1; then
	echo "SKIP: valgrind is not installed"
	exit 77
fi
if grep -q '^SAN_CFLAGS = -fsanitize' "$top_builddir/Makefile"; then
	echo "SKIP: valgrind does not run sanitizer builds (ASan owns the address space)"
	exit 77
fi
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "valgrind: policy unit tests"
$vg "$top_builddir/tests/unit/test-policy" >"$tmp/unit.out" 2>&1 || {
	cat "$tmp/unit.out"
	echo "FAIL: test-policy under valgrind"
	exit 1
}

echo "valgrind: unotify policy check on every example policy"
for p in "$top_srcdir"/contrib/policies/*.policy; do
	$vg "$UNOTIFY" policy check "$p" >"$tmp/check.out" 2>&1 || {
		cat "$tmp/check.out"
		echo "FAIL: policy check $p under valgrind"
		exit 1
	}
done

echo "valgrind: unotify policy check on a policy with errors (exit 1, no valgrind error)"
printf 'allow opnat\ndeny read EACESS\n' >"$tmp/bad.policy"
set +e
$vg "$UNOTIFY" policy check "$tmp/bad.policy" >"$tmp/bad.out" 2>&1
rc=$?
set -e
if [ "$rc" -ne 1 ]; then
	cat "$tmp/bad.out"
	echo "FAIL: expected exit 1, got $rc"
	exit 1
fi
echo "PASS"
