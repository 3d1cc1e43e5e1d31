# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of tests/adversarial/policy-*.sh: policy-escape (policy-escape.c)
# under a policy, trying what the policy forbids by calls its rules do not
# name. Each test asserts on the forbidden effect (a secret's text never
# printed, a file unchanged, a connection not made), and runs the same
# attempt once with the protection turned off (`implicit NAME off`) or
# outside the sandbox, to show the attempt itself works: a test that
# cannot fail proves nothing.
. "${top_srcdir:-.}/tests/live/lib.sh"

ESCAPE=${ESCAPE:-$top_builddir/tests/adversarial/policy-escape}
RUN_OPTS=${RUN_OPTS:-}
need_unotify
[ -x "$ESCAPE" ] || fail "$ESCAPE is not built"

# attempt POLICY ARGS...: policy-escape ARGS under POLICY; sets RC, OUT, ERR.
attempt() {
	_pol=$1
	shift
	# shellcheck disable=SC2086
	urun $RUN_OPTS --policy "$_pol" -- "$ESCAPE" "$@"
}

# blocked WHAT STEP ERRNO: the last attempt's STEP failed with ERRNO.
blocked() {
	expect_grep "$1: $2 fails with $3" "$OUT" "^$(re_quote "$2") err $3\$"
}

# not_leaked WHAT TEXT: the last attempt never printed TEXT (a secret's content).
not_leaked() {
	expect_no_grep "$1: nothing leaked" "$OUT" "$(re_quote "$2")"
}

# leaked WHAT TEXT: the control run did print TEXT: the attempt works when unprotected.
leaked() {
	expect_grep "$1 (control: the attempt works unprotected)" "$OUT" "$(re_quote "$2")"
}

# policy NAME LINES...: writes $T/NAME.policy, one argument a line; POL is its path.
policy() {
	POL=$T/$1.policy
	shift
	printf '%s\n' "$@" >"$POL"
}
