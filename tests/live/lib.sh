# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the live tests. Sourced by each tests/live/*/*.sh, which
# `make check` runs with UNOTIFY, PROBE, top_srcdir and top_builddir set.
#
# Output is TAP (the Test Anything Protocol), read by Automake's
# tap-driver.sh, so every case and every skip shows in the summary:
#   - each check is one case: `ok N - what` (expect_*, or `say "ok: what"`);
#   - a failure prints `not ok N - what` with the evidence and exits 1;
#   - `skip_case what why` skips one case and goes on (`ok N - what # SKIP why`);
#   - `skip why` skips the rest of the test (`1..0 # SKIP why` when no case
#     ran yet) and exits 77;
#   - everything else (say, show_run) is a `# ` comment, so nothing a program
#     printed can pass for a result;
#   - the plan `1..N` is printed at exit. A script that exits non-zero
#     (but 77) without having reported a failure (a command failed under
#     set -e) gets a `not ok` for it, so the driver ignores exit statuses.
set -eu

: "${UNOTIFY:?UNOTIFY is not set (run through make check)}"
: "${PROBE:?PROBE is not set (run through make check)}"
: "${top_srcdir:=.}"
: "${top_builddir:=.}"

# How long one supervised run may take before the test gives up on it.
UNOTIFY_TEST_TIMEOUT=${UNOTIFY_TEST_TIMEOUT:-120}

. "$top_srcdir/tests/pids.sh"

TEST_NAME=$(basename "$0" .sh)
T=
TAP_N=0
TAP_FAILED=
TAP_PLANNED=

# tap_result ok|not\ ok TEXT [DIRECTIVE]: one TAP line. TEXT is flattened to
# one line and its '#' escaped, so that only DIRECTIVE can be read as one.
tap_result() {
	TAP_N=$((TAP_N + 1))
	_text=$(printf '%s' "$2" | tr '\n' ' ' | sed 's/#/\\#/g')
	printf '%s %d - %s%s\n' "$1" "$TAP_N" "$_text" "${3:+ # $3}"
}

# lib_cleanup [STATUS]: kills what the test left running, by pid, removes
# the temp dir and ends the TAP stream. Every EXIT trap of a test must call
# it, last, with the script's exit status when other commands ran before it
# (`trap '_rc=$?; ...; lib_cleanup "$_rc"' EXIT`): under set -e, anything
# like `(exit $_rc)` in a trap ends the script before the plan is printed.
lib_cleanup() {
	_rc=${1:-$?}
	kill_tracked
	if [ -n "$T" ]; then
		rm -rf "$T"
	fi
	if [ "$_rc" != 0 ] && [ "$_rc" != 77 ] && [ -z "$TAP_FAILED" ]; then
		TAP_FAILED=1
		tap_result "not ok" "$TEST_NAME exited with status $_rc outside a check"
	fi
	[ -n "$TAP_PLANNED" ] || printf '1..%d\n' "$TAP_N"
	TAP_PLANNED=1
}
trap lib_cleanup EXIT

# Creates $T, a private temp dir removed on exit (world-traversable so that
# tests with --user can reach what they are meant to reach).
setup_tmp() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/unotify-$TEST_NAME.XXXXXX")
	chmod 755 "$T"
	trap lib_cleanup EXIT
	trap 'exit 130' INT TERM
}

# Remembers a background pid to kill -9 at exit.
# serve NAME ARGS...: `$PROBE serve ARGS` in the background, unsupervised (tracked),
# its output in $T/NAME.out; returns once it printed "ready".
serve() {
	name=$1
	shift
	"$PROBE" serve "$@" >"$T/$name.out" 2>&1 &
	track_pid $!
	i=0
	until grep -q -e '^ready$' -e '^err ' "$T/$name.out" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 500 ] || fail "server $name not ready: $(cat "$T/$name.out")"
		sleep 0.02
	done
	grep -q '^ready$' "$T/$name.out" || fail "server $name: $(cat "$T/$name.out")"
}

# say TEXT: a comment; `say "ok: what"` reports a passed case.
say() {
	case $* in
	"ok: "*) tap_result ok "${*#ok: }" ;;
	*) printf '%s\n' "$*" | sed 's/^/# /' ;;
	esac
}

fail() {
	TAP_FAILED=1
	tap_result "not ok" "$*"
	exit 1
}

# skip WHY: the rest of the test is skipped (exit 77, which the driver ignores).
skip() {
	if [ "$TAP_N" = 0 ]; then
		printf '1..0 # SKIP %s\n' "$(printf '%s' "$*" | tr '\n' ' ')"
		TAP_PLANNED=1
	else
		tap_result ok "$TEST_NAME: the rest" "SKIP $*"
	fi
	exit 77
}

# skip_case WHAT WHY: one case not run, reported as skipped; the test goes on.
# (WHY missing: WHAT says both, rather than an unbound variable ending the test.)
skip_case() {
	tap_result ok "$1" "SKIP ${2-$1}"
}

# no_second_receiver PROGRAM: why a second supervising thread in RECV (the
# pool's partner) cannot be seen to form here, or nothing. It needs two
# CPUs, and two calls meeting: one found waiting within 2 us of the last
# reply, which a ThreadSanitizer build of PROGRAM is too slow to see.
no_second_receiver() {
	if [ "$(nproc)" -lt 2 ]; then
		echo "one CPU here, and a second receiver needs two"
	elif ldd "$1" 2>/dev/null | grep -q libtsan; then
		echo "a meeting is a call found waiting within 2 us of the last reply," \
			"which a ThreadSanitizer build is too slow to see"
	fi
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root ($1)"
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "needs $1 (not installed)"
}

need_unotify() {
	[ -x "$UNOTIFY" ] || fail "$UNOTIFY is not built"
	[ -x "$PROBE" ] || fail "$PROBE is not built"
}

# Shows the last supervised run: useful evidence in every failure message.
show_run() {
	printf -- '--- status: %s\n--- stdout:\n%s\n--- stderr:\n%s\n---\n' "$RC" "$OUT" "$ERR" |
		sed 's/^/# /'
}

# What getppid really answers a program under `unotify run`: its parent is
# the sandbox's init, pid 1 of the program's own pid namespace.
REAL_PPID=1

# urun ARGS...: runs `unotify run ARGS...`; sets RC, OUT (stdout), ERR (stderr)
# and SUP_PID, the pid of the unotify process (the supervisor, parent of the
# program). stdin is /dev/null. A run that hangs is killed and fails the test.
# URUN_CWD and URUN_UMASK, when set, give the program's cwd and umask.
urun() {
	rm -f "$T/.sup"
	set +e
	timeout -k 5 "$UNOTIFY_TEST_TIMEOUT" sh -c '
		echo $$ >"$0"
		if [ -n "${URUN_CWD:-}" ]; then cd "$URUN_CWD" || exit 125; fi
		if [ -n "${URUN_UMASK:-}" ]; then umask "$URUN_UMASK"; fi
		exec "$@"' "$T/.sup" "$UNOTIFY" run "$@" >"$T/.out" 2>"$T/.err" </dev/null
	RC=$?
	set -e
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
	SUP_PID=$(cat "$T/.sup" 2>/dev/null || echo unknown)
	if [ "$RC" = 124 ]; then
		show_run
		fail "unotify run $* did not finish within ${UNOTIFY_TEST_TIMEOUT}s"
	fi
}

# capture LABEL COMMAND...: runs COMMAND with stdin /dev/null and a time limit;
# sets RC, OUT (stdout), ERR (stderr). A command that hangs fails the test.
capture() {
	_label=$1
	shift
	set +e
	timeout -k 5 "$UNOTIFY_TEST_TIMEOUT" "$@" >"$T/.out" 2>"$T/.err" </dev/null
	RC=$?
	set -e
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
	[ "$RC" != 124 ] || fail "$_label did not finish within ${UNOTIFY_TEST_TIMEOUT}s"
}

# ucmd ARGS...: runs `unotify ARGS...` (info, policy, ...); sets RC, OUT, ERR.
ucmd() {
	capture "unotify $*" "$UNOTIFY" "$@"
}

# expect_run WHAT STATUS STDOUT: the last run exited STATUS and printed exactly STDOUT.
expect_run() {
	if [ "$RC" != "$2" ] || [ "$OUT" != "$3" ]; then
		show_run
		fail "$1: expected status $2 and output '$3'"
	fi
	say "ok: $1 -> $3"
}

# expect_out WHAT STDOUT: the last run exited 0 and printed exactly STDOUT.
expect_out() {
	expect_run "$1" 0 "$2"
}

# expect_status WHAT STATUS
expect_status() {
	if [ "$RC" != "$2" ]; then
		show_run
		fail "$1: expected status $2, got $RC"
	fi
	say "ok: $1 -> status $2"
}

# expect_grep WHAT TEXT ERE: TEXT has a line matching the extended regex ERE.
expect_grep() {
	if ! printf '%s\n' "$2" | grep -Eq -- "$3"; then
		show_run
		fail "$1: no line matches /$3/"
	fi
	say "ok: $1"
}

# expect_no_grep WHAT TEXT ERE: no line of TEXT matches ERE.
expect_no_grep() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		show_run
		fail "$1: unexpected line matching /$3/: $(printf '%s\n' "$2" | grep -E -- "$3" | head -3)"
	fi
	say "ok: $1"
}

# Escapes a string for use inside an extended regular expression.
re_quote() {
	printf '%s' "$1" | sed 's/[][\.*^$+?(){}|]/\\&/g'
}

# The audit lines of the last run (stderr lines with a verdict).
audit_lines() {
	printf '%s\n' "$ERR" | grep -E ' verdict=' || true
}

# Kernel version as a comparable number: 6.18 -> 618.
kernel_version() {
	uname -r | awk -F. '{ printf "%d\n", $1 * 100 + $2 }'
}

# The rules every dynamically linked probe needs when openat goes through
# path rules: the loader, libc, and what sanitizer runtimes read at start.
LOADER_PATHS='path=/etc/ld.so.cache path=/etc/ld.so.preload path=/usr/** path=/lib/**'
LOADER_PATHS="$LOADER_PATHS path=/lib64/** path=/proc/** path=/sys/** path=/dev/**"

need_unotify
