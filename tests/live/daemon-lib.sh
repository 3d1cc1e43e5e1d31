# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the unotifyd tests (tests/live/daemon-*.sh), on top of lib.sh.
#
# Each test runs its own daemon on a socket in $T, with its own policy
# directory, audit trail and log. The daemon runs with its own seccomp filter
# set to kill (--seccomp-default kill), so a call missing from its allowlist
# shows up as a dead daemon instead of a silent EPERM.

. "$top_srcdir/tests/live/lib.sh"

UNOTIFYD=${UNOTIFYD:-$top_builddir/daemon/unotifyd/unotifyd}
OCI_CLIENT=${OCI_CLIENT:-$top_builddir/tests/live/oci-client}
[ -x "$UNOTIFYD" ] || fail "$UNOTIFYD is not built"
[ -x "$OCI_CLIENT" ] || fail "$OCI_CLIENT is not built"
need_root "unotifyd supervises processes of any user"

DPID=
SOCK=

# wait_until SECONDS CMD...: polls CMD every 0.05 s; fails after SECONDS.
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

# policy NAME TEXT: writes $T/policies/NAME.policy.
policy() {
	mkdir -p "$T/policies"
	printf '%s\n' "$2" >"$T/policies/$1.policy"
}

daemon_alive() {
	kill -0 "$DPID" 2>/dev/null
}

# start_daemon [ARGS...]: unotifyd on $SOCK=$T/d.sock; log $T/d.err, audit $T/audit.log.
start_daemon() {
	SOCK=$T/d.sock
	mkdir -p "$T/policies"
	# Never on the test's stdout: the TAP reader waits for every writer of
	# that pipe, so a daemon left behind would hang the suite.
	"$UNOTIFYD" --socket "$SOCK" --policy-dir "$T/policies" --log "$T/audit.log" \
		--seccomp-default kill "$@" </dev/null >>"$T/d.err" 2>&1 &
	DPID=$!
	track_pid "$DPID"
	# A test that fails because the daemon died shows why, when a sanitizer said.
	trap '_rc=$?; daemon_show_report || true; (exit $_rc); lib_cleanup' EXIT
	if ! wait_until 10 test -S "$SOCK"; then
		say "$(cat "$T/d.err")"
		fail "unotifyd did not start listening on $SOCK"
	fi
	# Bound and listening is not yet ready: wait for the log line after hardening.
	wait_until 10 grep -q 'listening on' "$T/d.err" || fail "unotifyd never got ready"
	say "unotifyd started (pid $DPID)"
}

SANITIZER_REPORT='WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:'

# daemon_show_report: prints the daemon's sanitizer report, if its log has one.
daemon_show_report() {
	if [ -n "$T" ] && [ -f "$T/d.err" ] && grep -Eq "$SANITIZER_REPORT" "$T/d.err"; then
		printf -- '--- the daemon'"'"'s sanitizer report:\n'
		grep -Eq "$SANITIZER_REPORT" "$T/d.err" && sed -En "/$SANITIZER_REPORT/,\$p" "$T/d.err" |
			head -80
		return 0
	fi
	return 1
}

# daemon_log_clean: no sanitizer report in the daemon's log (ThreadSanitizer
# builds stop at the first one; AddressSanitizer's and UBSan's too).
daemon_log_clean() {
	if daemon_show_report; then
		fail "the daemon's log has a sanitizer report"
	fi
}

# stop_daemon: SIGTERM, then DRC is its exit status; a daemon that does not
# stop within 20 s is killed and fails the test. A sanitizer report fails it too.
stop_daemon() {
	kill -TERM "$DPID"
	if ! wait_until 20 sh -c "! kill -0 $DPID 2>/dev/null || grep -q '^State:.*zombie' /proc/$DPID/status"; then
		kill -9 "$DPID" 2>/dev/null || true
		fail "unotifyd did not stop within 20 s of SIGTERM"
	fi
	set +e
	wait "$DPID"
	DRC=$?
	set -e
	daemon_log_clean
}

# oci ARGS...: runs oci-client ARGS; sets RC, OUT (stdout), ERR (stderr: the daemon's answer).
oci() {
	capture "oci-client $*" "$OCI_CLIENT" "$@"
}

# register ARGS... -- PROGRAM: a sandbox registered with the daemon on $SOCK.
register() {
	oci register "$SOCK" "$@"
}

# status_json: the daemon's status as one JSON line in OUT.
status_json() {
	oci request "$SOCK" '{"request":"status"}'
	[ "$RC" = 0 ] || fail "status request: status $RC: $OUT"
}

# expect_log WHAT ERE: the daemon's log has a line matching ERE (waits up to 5 s).
expect_log() {
	if ! wait_until 5 grep -Eq -- "$2" "$T/d.err"; then
		say "$(printf -- '--- daemon log:\n%s\n---\n' "$(cat "$T/d.err")")"
		fail "$1: no daemon log line matches /$2/"
	fi
	say "ok: $1"
}

# daemon_count KIND: number of threads or fds of the daemon.
daemon_count() {
	case $1 in
	threads) awk '/^Threads:/ { print $2 }' "/proc/$DPID/status" ;;
	fds) ls "/proc/$DPID/fd" | wc -l ;;
	esac
}

# daemon_count_is KIND N: for wait_until (evaluated at each try).
daemon_count_is() {
	[ "$(daemon_count "$1")" = "$2" ]
}

# expect_daemon_alive WHAT
expect_daemon_alive() {
	daemon_alive || { cat "$T/d.err"; fail "$1: unotifyd died"; }
	daemon_log_clean
	say "ok: $1: daemon alive"
}

# make_bundle DIR SOCKET METADATA 'SHELL COMMAND' [NOTIFIED]: a busybox OCI
# bundle whose seccomp profile sends the NOTIFIED calls (a JSON list of names;
# default: getppid, mkdir, mkdirat, openat, open) to the daemon.
make_bundle() {
	_bb=$(command -v busybox || true)
	[ -n "$_bb" ] || skip "needs busybox (apt-get install busybox-static)"
	ldd "$_bb" 2>&1 | grep -q 'not a dynamic' || skip "needs a static busybox (busybox-static)"
	mkdir -p "$1/rootfs/bin" "$1/rootfs/proc" "$1/rootfs/tmp" "$1/rootfs/etc" "$1/rootfs/dev"
	cp "$_bb" "$1/rootfs/bin/busybox"
	for _app in sh cat mkdir echo ls; do
		ln -sf busybox "$1/rootfs/bin/$_app"
	done
	echo hello >"$1/rootfs/etc/hello"
	echo secret >"$1/rootfs/etc/secret"
	_cmd=$(printf '%s' "$4" | sed 's/\\/\\\\/g; s/"/\\"/g')
	_notified=${5:-'"getppid", "mkdir", "mkdirat", "openat", "open"'}
	cat >"$1/config.json" <<JSON
{
	"ociVersion": "1.0.2",
	"process": {
		"terminal": false,
		"user": { "uid": 0, "gid": 0 },
		"args": [ "/bin/sh", "-c", "$_cmd" ],
		"env": [ "PATH=/bin" ],
		"cwd": "/",
		"noNewPrivileges": true,
		"capabilities": {
			"bounding": [ "CAP_DAC_OVERRIDE", "CAP_CHOWN" ],
			"effective": [ "CAP_DAC_OVERRIDE", "CAP_CHOWN" ],
			"permitted": [ "CAP_DAC_OVERRIDE", "CAP_CHOWN" ]
		}
	},
	"root": { "path": "rootfs", "readonly": false },
	"hostname": "unotify-test",
	"mounts": [
		{ "destination": "/proc", "type": "proc", "source": "proc" },
		{ "destination": "/tmp", "type": "tmpfs", "source": "tmpfs" }
	],
	"linux": {
		"namespaces": [ { "type": "pid" }, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" } ],
		"seccomp": {
			"defaultAction": "SCMP_ACT_ALLOW",
			"architectures": [ "SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32" ],
			"listenerPath": "$2",
			"listenerMetadata": "$3",
			"syscalls": [
				{ "names": [ $_notified ],
				  "action": "SCMP_ACT_NOTIFY" }
			]
		}
	}
}
JSON
}

# The container's script and the policy the daemon applies to it.
BOX_POLICY='default allow
return getppid 42
deny mkdir EACCES
deny mkdirat EACCES
deny openat path=/etc/secret EACCES
deny open path=/etc/secret EACCES'
BOX_SCRIPT='echo ppid=$PPID; mkdir /tmp/d 2>/dev/null && echo mkdir=ok || echo mkdir=denied; cat /etc/hello; cat /etc/secret 2>/dev/null || echo secret=denied'
BOX_EXPECTED='ppid=42
mkdir=denied
hello
secret=denied'
