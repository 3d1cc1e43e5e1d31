# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the adversarial tests (tests/adversarial/*.sh), self-contained:
# `make check-adversarial` runs them with UNOTIFY, top_srcdir and top_builddir
# set; ATTACK and UNOTIFYD are found in the build tree.
#
# Output is TAP, as for every test of the suite (tests/live/lib.sh): a script
# runs several CASES, each an attack whose forbidden effect is checked from
# outside, and each is one TAP result: `ok N - name: ...`, `not ok N - name:
# ...` or `ok N - name # SKIP why`. Everything else is a `# ` comment. `fail`
# ends the script with a `not ok`, `skip` skips what is left (the plan says
# why when nothing ran), `finish` prints the plan. Nothing here asserts on
# time: every run is bounded by `timeout`, and a run that hangs is a failure
# that says so.

set -eu

: "${UNOTIFY:?UNOTIFY is not set (run through make check-adversarial)}"
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
ATTACK=${ATTACK:-$top_builddir/tests/adversarial/attack}
UNOTIFYD=${UNOTIFYD:-$top_builddir/daemon/unotifyd/unotifyd}
[ -x "$UNOTIFY" ] || { echo "Bail out! $UNOTIFY is not built"; exit 1; }
[ -x "$ATTACK" ] || { echo "Bail out! $ATTACK is not built (make check builds it)"; exit 1; }

# How long one supervised run may take before it counts as hung.
RUN_TIMEOUT=${ADVERSARIAL_TIMEOUT:-30}

. "$top_srcdir/tests/pids.sh"

TEST_NAME=$(basename "$0" .sh)
T=
CLEANUPS=
PASSED=0
FAILED=0
SKIPPED=0
CASE=

TAP_N=0

# Everything but a result is a comment, so no program output can pass for one.
say() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# tap_result ok|not\ ok TEXT [DIRECTIVE]
tap_result() {
	TAP_N=$((TAP_N + 1))
	_text=$(printf '%s' "$2" | tr '\n' ' ' | sed 's/#/\\#/g')
	printf '%s %d - %s%s\n' "$1" "$TAP_N" "$_text" "${3:+ # $3}"
}

fail() {
	tap_result "not ok" "$TEST_NAME: $*"
	printf '1..%d\n' "$TAP_N"
	exit 1
}

skip() {
	if [ "$TAP_N" = 0 ]; then
		printf '1..0 # SKIP %s\n' "$*"
	else
		tap_result ok "the rest of $TEST_NAME" "SKIP $*"
		printf '1..%d\n' "$TAP_N"
	fi
	exit 77
}

# need_loader: LOADER is the x86-64 dynamic loader (its real path), or the test is skipped.
need_loader() {
	LOADER=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null || true)
	[ -n "$LOADER" ] && [ -x "$LOADER" ] || skip "no x86-64 dynamic loader at /lib64/ld-linux-x86-64.so.2"
}

# need_denied_program OUT: OUT is a static PIE that prints DENIED-PROGRAM-RAN
# (no loader, no library: it runs as a program and as an ELF interpreter),
# or the test is skipped.
need_denied_program() {
	[ "$(uname -m)" = x86_64 ] || skip "the refused program is x86-64 ($(uname -m))"
	cat >"$T/denied.c" <<'CODE'
void _start(void)
{
	static const char msg[] = "DENIED-PROGRAM-RAN\n";
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(1), "D"(1), "S"(msg), "d"(sizeof(msg) - 1)
			 : "rcx", "r11", "memory");
	__asm__ volatile("syscall" : : "a"(60), "D"(0) : "rcx", "r11", "memory");
	for (;;)
		;
}
CODE
	${CC:-cc} -O1 -fPIE -static-pie -nostdlib -o "$1" "$T/denied.c" 2>"$T/cc.err" ||
		skip "no static-pie program could be built: $(head -1 "$T/cc.err")"
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root ($1)"
}

need_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "needs $1 (not installed)"
}

# Kills what the test started, by pid, runs the registered cleanups (umount,
# losetup -d), and removes the temp dir.
lib_cleanup() {
	kill_tracked
	if [ -n "$CLEANUPS" ]; then
		eval "$CLEANUPS" || true
	fi
	if [ -n "$T" ]; then
		rm -rf "$T"
	fi
}

# $T: a private temp dir (world-traversable: some attacks run as nobody).
setup_tmp() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/unotify-adv-$TEST_NAME.XXXXXX")
	chmod 755 "$T"
	trap lib_cleanup EXIT
	trap 'exit 130' INT TERM
}

# on_cleanup 'COMMAND': run at exit, latest first.
on_cleanup() {
	CLEANUPS="$1; $CLEANUPS"
}

# A fresh random word: the secret a file holds, so that a leak shows in the output.
token() {
	printf 'TOKEN%s' "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
}

# secret FILE: writes a new token into FILE (0644: only the policy stands in the way).
secret() {
	token >"$1"
	chmod 644 "$1"
	cat "$1"
}

checksum() {
	sha256sum "$1" | cut -d' ' -f1
}

# wait_until SECONDS CMD...: polls CMD every 0.05 s; 1 if it never held.
wait_until() {
	_limit=$(( $1 * 20 ))
	shift
	_i=0
	while ! "$@" >/dev/null 2>&1; do
		_i=$((_i + 1))
		[ "$_i" -lt "$_limit" ] || return 1
		sleep 0.05
	done
}

show_run() {
	printf -- '--- status: %s\n--- stdout:\n%s\n--- stderr (last lines):\n%s\n---\n' \
		"$RC" "$OUT" "$(printf '%s\n' "$ERR" | tail -n 8 | cut -c1-400)"
}

# bounded LIMIT CMD...: runs CMD (stdin /dev/null) for at most LIMIT seconds,
# then SIGKILL 3 s later: a supervisor spinning with SIGTERM forwarded away
# still ends. Sets RC, OUT, ERR, and HUNG=yes when the limit was reached (a
# status of 137 alone may be a supervisor that an attack killed).
bounded() {
	_limit=$1
	shift
	set +e
	timeout --verbose -k 3 "$_limit" "$@" >"$T/.out" 2>"$T/.err" </dev/null
	RC=$?
	set -e
	OUT=$(cat "$T/.out")
	HUNG=no
	if grep -q '^timeout: sending signal' "$T/.err"; then
		HUNG=yes
	fi
	ERR=$(grep -v '^timeout: sending signal' "$T/.err" || true)
}

# urun ARGS...: `unotify run -q ARGS...` bounded by RUN_TIMEOUT (URUN_TIMEOUT
# for one call); URUN_CWD is the supervisor's (and the program's) cwd.
# SUP_PID is the supervisor's pid; the attack gets it as ATTACK_SUP (@SUP):
# the program's parent is the sandbox's init, not the supervisor.
urun() {
	rm -f "$T/.sup"
	bounded "${URUN_TIMEOUT:-$RUN_TIMEOUT}" sh -c '
		echo $$ >"$0"
		ATTACK_SUP=$$
		export ATTACK_SUP
		if [ -n "${URUN_CWD:-}" ]; then cd "$URUN_CWD" || exit 125; fi
		exec "$@"' "$T/.sup" "$UNOTIFY" run -q "$@"
	SUP_PID=$(cat "$T/.sup" 2>/dev/null || echo unknown)
}

hung() {
	[ "$HUNG" = yes ]
}

# ---- cases ----

# case_begin NAME WHAT: starts a case; WHAT says which attack and what must not happen.
case_begin() {
	CASE=$1
	say ""
	say "== $CASE: $2"
}

case_pass() {
	PASSED=$((PASSED + 1))
	tap_result ok "$CASE: $*"
}

case_fail() {
	show_run | sed 's/^/# /'
	FAILED=$((FAILED + 1))
	tap_result "not ok" "$CASE: $*"
}

case_skip() {
	SKIPPED=$((SKIPPED + 1))
	tap_result ok "$CASE" "SKIP $*"
}

# The lines of the last run that say what an attack achieved (not "# ..." notes).
results() {
	printf '%s\n' "$OUT" | grep -v '^# ' || true
}

# expect_ioctl_refused POLICY NR: ioctl NR on $T (attack r10-ioctl) gets the
# filter's EPERM under POLICY. Skipped where the kernel says EPERM itself:
# elsewhere it answers ENOTTY (a number its file system does not know) or
# does it, so EPERM is the filter's.
expect_ioctl_refused() {
	_native=$( (cd "$T" && timeout 20 "$ATTACK" r10-ioctl "$2" 2>&1) | grep -Ev '^# ' | tail -1)
	if [ "$_native" = "BLOCKED EPERM" ]; then
		case_skip "natively EPERM here: the filter's refusal would not show"
		return
	fi
	URUN_CWD=$T urun --policy "$1" -- "$ATTACK" r10-ioctl "$2"
	if hung; then
		case_fail "the run did not end within its time limit"
	elif results | grep -qx 'BLOCKED EPERM'; then
		case_pass "BLOCKED EPERM (natively $_native)"
	else
		case_fail "expected BLOCKED EPERM: $(results | head -1)"
	fi
}

# expect_blocked [TOKEN]: the last run ended, printed no forbidden effect (its
# result line is BLOCKED or SETUP), and TOKEN (when given) is not in its
# output. Returns 1 (after case_fail) otherwise; then the case is over.
expect_blocked() {
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
		return 1
	fi
	if [ -n "${1:-}" ] && printf '%s\n' "$OUT" | grep -q -- "$1"; then
		case_fail "the secret $1 is in the program's output"
		return 1
	fi
	_bad=$(results | grep -Ev '^(BLOCKED|SETUP)' | head -1)
	if [ -n "$_bad" ]; then
		case_fail "bypass: $_bad"
		return 1
	fi
	if ! results | grep -Eq '^(BLOCKED|SETUP)'; then
		case_fail "the attack printed no result line"
		return 1
	fi
	return 0
}

# native_result ARGS...: the attack's result line outside the sandbox, run in $T.
native_result() {
	(cd "$T" && timeout 20 "$ATTACK" "$@" 2>&1) | grep -Ev '^# ' | tail -1
}

# expect_unwritten POLICY CMD WANT: natively CMD writes PWNED over a file
# (its result WANT); under POLICY the file must still hold 'original'.
expect_unwritten() {
	echo original >"$T/victim"
	_native=$(native_result "$2" "$T/victim" PWNED)
	if [ "$_native" != "$3" ]; then
		case_skip "natively nothing was written here: $_native"
		return
	fi
	echo original >"$T/victim"
	URUN_CWD=$T urun --policy "$1" -- "$ATTACK" "$2" "$T/victim" PWNED
	if [ "$(cat "$T/victim")" != original ]; then
		case_fail "the file was written: $(cat "$T/victim")"
	else
		expect_blocked && case_pass "unchanged: $(results | head -1)"
	fi
}

# expect_answered: the last run printed ANSWERED getppid=42 (the policy's
# answer to another thread's call while one was held); a supervisor held
# by that call never answers, and the run hangs.
expect_answered() {
	if hung; then
		case_fail "no answer: the run was still waiting when its time limit ran out"
	elif results | grep -q '^ANSWERED getppid=42$'; then
		case_pass "answered"
	else
		case_fail "no (right) answer: $(results | head -1)"
	fi
}

# ---- listeners outside the sandbox, counting what reaches them ----

# listener NAME tcp|udp ADDR: `attack listen-count` on ADDR, an ephemeral
# port: its count in $T/NAME, flushes in $T/NAME.flush, the port in
# $T/NAME.port (also returned by `port NAME`).
listener() {
	"$ATTACK" listen-count "$2" "$3" 0 150 "$T/$1" >"$T/$1.log" 2>&1 </dev/null &
	track_pid $!
	echo "$2 $3" >"$T/$1.kind"
	wait_until 10 test -s "$T/$1.port" ||
		fail "listener $1 ($2 $3) did not start: $(cat "$T/$1.log")"
}

count() {
	cat "$T/$1"
}

port() {
	cat "$T/$1.port"
}

# flushed NAME N: the listener has counted more than N flushes (read at each try).
flushed() {
	[ "$(cat "$T/$1.flush")" -gt "$2" ]
}

# flush NAME: a connection (or datagram) of our own from outside the sandbox,
# marked FLUSH, and a wait until the listener counted it. A listener takes
# connections in order: once ours is counted, an earlier one from the attack
# is too. Datagrams get two flushes: one may overtake across CPUs. A
# listener on a wildcard address is reached on the loopback.
flush() {
	read -r _proto _addr <"$T/$1.kind"
	case $_addr in
	::) _addr=::1 ;;
	0.0.0.0) _addr=127.0.0.1 ;;
	esac
	for _k in 1 2; do
		_f=$(cat "$T/$1.flush")
		if [ "$_proto" = udp ]; then
			"$ATTACK" udp-send "$_addr" "$(port "$1")" FLUSH >/dev/null
		else
			"$ATTACK" connect "$_addr" "$(port "$1")" FLUSH >/dev/null
		fi
		wait_until 10 flushed "$1" "$_f" || fail "the $1 listener stopped counting"
	done
}

# expect_count NAME BEFORE: the listener NAME saw nothing since BEFORE.
expect_count() {
	flush "$1"
	_got=$(( $(count "$1") - $2 ))
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif [ "$_got" != 0 ]; then
		case_fail "the $1 listener got $_got connection(s) or datagram(s): $(results | head -1)"
	else
		case_pass "nothing reached the $1 listener ($(results | head -1))"
	fi
}

# finish: the summary line, and the exit status of the whole script.
finish() {
	say "$TEST_NAME: $PASSED passed, $FAILED failed, $SKIPPED skipped"
	printf '1..%d\n' "$TAP_N"
	[ "$FAILED" = 0 ] || exit 1
	exit 0
}

# ---- a loop-mounted ext4 image (for block devices and new mounts) ----

# setup_image DIR: an 8 MiB ext4 image mounted on DIR; IMG_DEV, IMG_MAJ, IMG_MIN.
# Returns 1 (no skip) when the machine cannot: callers skip the cases needing it.
setup_image() {
	command -v mkfs.ext4 >/dev/null 2>&1 && command -v losetup >/dev/null 2>&1 || return 1
	truncate -s 8M "$T/image" && mkfs.ext4 -q -F "$T/image" >/dev/null 2>&1 || return 1
	IMG_DEV=$(losetup -f --show "$T/image" 2>/dev/null) || return 1
	on_cleanup "losetup -d $IMG_DEV"
	mkdir -p "$1"
	mount "$IMG_DEV" "$1" || return 1
	on_cleanup "umount -l $1"
	IMG_MAJ=$(( 0x$(stat -c %t "$IMG_DEV") ))
	IMG_MIN=$(( 0x$(stat -c %T "$IMG_DEV") ))
}

# ---- unotifyd ----

DPID=
SOCK=

# policy NAME TEXT: $T/policies/NAME.policy for the daemon.
policy() {
	mkdir -p "$T/policies"
	printf '%s\n' "$2" >"$T/policies/$1.policy"
}

# start_daemon [DIR]: unotifyd on $SOCK, its cwd DIR (default $T), audit in
# $T/audit.log; UNOTIFYD_ARGS: more options (words).
start_daemon() {
	SOCK=$T/d.sock
	mkdir -p "$T/policies"
	[ -x "$UNOTIFYD" ] || fail "$UNOTIFYD is not built"
	# shellcheck disable=SC2086
	(cd "${1:-$T}" && exec "$UNOTIFYD" --socket "$SOCK" --policy-dir "$T/policies" \
		--log "$T/audit.log" --seccomp-default kill ${UNOTIFYD_ARGS:-} 2>>"$T/d.err") &
	DPID=$!
	track_pid "$DPID"
	wait_until 10 grep -q 'listening on' "$T/d.err" ||
		{ cat "$T/d.err"; fail "unotifyd did not get ready"; }
	say "unotifyd started (pid $DPID)"
}

daemon_alive() {
	kill -0 "$DPID" 2>/dev/null && ! grep -q '^State:.*zombie' "/proc/$DPID/status"
}

daemon_state() {
	awk '/^State:/ { print $2 }' "/proc/$DPID/status" 2>/dev/null || echo gone
}

daemon_fds() {
	ls "/proc/$DPID/fd" | wc -l
}

daemon_fds_are() {
	[ "$(daemon_fds)" = "$1" ]
}

# prints_case NAME WHAT POLICY WANT ARGS...: a case where the attack's ARGS,
# under $T/POLICY.policy (natively when POLICY is empty), print a first
# result that begins with WANT (LISTENING..., BLOCKED E...).
prints_case() {
	case_begin "$1" "$2"
	_pol=$3 _want=$4
	shift 4
	if [ -n "$_pol" ]; then
		urun --policy "$T/$_pol.policy" -- "$ATTACK" "$@"
	else
		bounded 20 "$ATTACK" "$@"
	fi
	if results | grep -q "^$_want"; then
		case_pass "$(results | head -1)"
	else
		case_fail "expected $_want: $(results | head -1) $(printf '%s' "$ERR" | tail -1)"
	fi
}

# flood_verdict POLICY: while a flood of silent connections goes on (pid
# $FLOOD, `attack r10-flood` or alike, its output in $T/flood.out), two
# registrations by `unotify run --daemon` under POLICY, each running the
# attack's getppid loop for a second. The case passes when both ran
# (status 0) and the flood did (it held connections and reopened some).
flood_verdict() {
	_ok=0
	for _v in 1 2; do
		bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name "$1" -- \
			"$ATTACK" getppid-loop 42 1 "$T/v$_v"
		if [ "$RC" = 0 ]; then
			_ok=$((_ok + 1))
		else
			say "registration $_v: status $RC: $(printf '%s' "$ERR" | tail -1)"
		fi
	done
	wait "$FLOOD" || true
	if ! grep -q '^FLOOD [0-9]* open, [1-9][0-9]* reopened' "$T/flood.out"; then
		case_fail "the flood did not run: $(tail -2 "$T/flood.out")"
	elif [ "$_ok" = 2 ]; then
		case_pass "both registered and ran ($(grep -c '^FLOOD' "$T/flood.out") flooding processes)"
	else
		case_fail "$((2 - _ok)) of 2 registrations failed under the flood"
	fi
}

# drun POLICY CALLS ARGS...: the attack, registered with the daemon under
# POLICY, CALLS (getppid,openat,...) sent to it; sets RC, OUT, ERR.
drun() {
	_pol=$1
	_calls=$2
	shift 2
	bounded "$RUN_TIMEOUT" "$ATTACK" daemon-run "$SOCK" "$_pol" "$_calls" "$ATTACK" "$@"
}
