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
# DAEMON_WRAP, when set, is a command (words) that execs it (setpriv ...).
start_daemon() {
	SOCK=$T/d.sock
	mkdir -p "$T/policies"
	# Never on the test's stdout: the TAP reader waits for every writer of
	# that pipe, so a daemon left behind would hang the suite.
	# shellcheck disable=SC2086
	${DAEMON_WRAP:-} "$UNOTIFYD" --socket "$SOCK" --policy-dir "$T/policies" --log "$T/audit.log" \
		--seccomp-default kill "$@" </dev/null >>"$T/d.err" 2>&1 &
	DPID=$!
	track_pid "$DPID"
	# A test that fails because the daemon died shows why, when a sanitizer said.
	trap daemon_exit EXIT
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
		say "--- the daemon's sanitizer report:"
		say "$(sed -En "/$SANITIZER_REPORT/,\$p" "$T/d.err" | head -80)"
		return 0
	fi
	return 1
}

# The EXIT trap once a daemon runs: its sanitizer report, then lib.sh's cleanup
# (with the exit status in $?, and without set -e, which would stop it early).
daemon_exit() {
	_rc=$?
	set +e
	daemon_show_report
	lib_cleanup "$_rc"
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
	daemon_alive || { say "$(cat "$T/d.err")"; fail "$1: unotifyd died"; }
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

# Docker's default profile (tests/data/oci/docker-default.json, moby's format)
# as Docker hands it to the runtime for an amd64 container with the given
# capabilities: includes/excludes resolved, archMap expanded; then the
# notified calls taken out of its allow rules and sent to listenerPath.
DOCKER_TO_OCI='
{
	defaultAction: .defaultAction,
	defaultErrnoRet: .defaultErrnoRet,
	architectures: ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
	listenerPath: $sock,
	listenerMetadata: $meta,
	syscalls: ([.syscalls[]
		| select(all(.includes.caps[]?; IN($caps[])))
		| select((.includes.arches // ["amd64"]) | any(. == "amd64"))
		| select(any(.excludes.caps[]?; IN($caps[])) | not)
		| select((.excludes.arches // []) | any(. == "amd64") | not)
		| .names -= $notify
		| select(.names | length > 0)
		| {names, action} + (if .args then {args} else {} end)
			+ (if .errnoRet then {errnoRet} else {} end)]
		+ [{names: $notify, action: "SCMP_ACT_NOTIFY"}])
}'

# make_runtime_bundle RUNTIME DIR SOCKET METADATA 'SHELL COMMAND' NOTIFIED:
# a busybox bundle from `RUNTIME spec` as it is (its default capability set
# and namespaces), writable, running the command, with Docker's default
# profile for those capabilities plus NOTIFIED (a JSON list of names) sent
# to the daemon.
make_runtime_bundle() {
	need_cmd jq
	make_bundle "$2" "$3" "$4" "$5"
	rm -f "$2/config.json"
	(cd "$2" && "$1" spec) || fail "$1 spec failed"
	_caps=$(jq -c '.process.capabilities.bounding' "$2/config.json")
	jq --arg sock "$3" --arg meta "$4" --argjson caps "$_caps" --argjson notify "$6" \
		"$DOCKER_TO_OCI" "$top_srcdir/tests/data/oci/docker-default.json" >"$2/seccomp.json" ||
		fail "converting Docker's default profile"
	jq --arg cmd "$5" --slurpfile sc "$2/seccomp.json" '
		.process.terminal = false | .process.args = ["/bin/sh", "-c", $cmd]
		| .process.env = ["PATH=/bin"] | .root.readonly = false
		| .mounts += [{destination: "/tmp", type: "tmpfs", source: "tmpfs"}]
		| .linux.seccomp = $sc[0]' "$2/config.json" >"$2/config.new" &&
		mv "$2/config.new" "$2/config.json" || fail "writing $2/config.json"
}

# A policy with a write-path rule for containers under Docker's profile: the
# opens are the daemon's to decide (the exec fifo runc's init opens too).
RUNTIME_POLICY='default allow
allow @file-write path=/tmp/**
deny @file-write path=/etc/** EROFS
deny openat path=/etc/secret EACCES
deny open path=/etc/secret EACCES'
# (Not getppid: runc's init checks its parent with it once the filter is loaded.)
RUNTIME_NOTIFIED='["openat", "open"]'
RUNTIME_SCRIPT='echo data >/tmp/w && cat /tmp/w; (echo x >/etc/x) 2>/dev/null && echo etc=written || echo etc=denied; cat /etc/hello; cat /etc/secret 2>/dev/null || echo secret=denied'
RUNTIME_EXPECTED='data
etc=denied
hello
secret=denied'

# run_container RUNTIME BUNDLE ID: runs the bundle with runc or crun (crun in a
# private mount namespace without the hybrid cgroup mount, which it refuses);
# sets RC, OUT, ERR; a runtime that cannot run containers here skips.
run_container() {
	set +e
	case $1 in
	runc) timeout -k 5 60 runc --root "$T/runc" run --bundle "$2" "$3" ;;
	crun) timeout -k 5 60 unshare -m --propagation private sh -c '
		if mountpoint -q /sys/fs/cgroup/unified; then umount /sys/fs/cgroup/unified || exit 99; fi
		crun --root "$1" run --bundle "$2" "$3"' sh "$T/crun" "$2" "$3" ;;
	esac </dev/null >"$T/.out" 2>"$T/.err"
	RC=$?
	set -e
	"$1" --root "$T/$1" delete -f "$3" >/dev/null 2>&1 || true
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
	if [ "$RC" = 99 ] || { [ "$RC" != 0 ] && grep -Eqi 'cgroup' "$T/.err"; }; then
		skip "$1 cannot run containers here: $(tail -1 "$T/.err")"
	fi
}

# expect_container WHAT EXPECTED: the last container printed EXPECTED and exited
# 0. One known failure is named: runc's init opening its exec fifo through its
# own /proc/self/fd (the runtime's stderr says so, or podman hides it and the
# daemon's last record is that open). The kernel follows that magic link only
# for a caller whose effective capabilities cover the target's permitted ones
# (cap_ptrace_access_check); the daemon resolves it acting as the target, with
# the target's capabilities within its own, and does not keep every one a
# container may hold (podman's SETPCAP, SETFCAP). lib/resolve.c is to follow a
# target's own /proc entries with the daemon's privilege (branch proc).
expect_container() {
	if [ "$RC" != 0 ] && { grep -q 'open exec fifo /proc/self/fd/[0-9]*: permission denied' "$T/.err" ||
		tail -1 "$T/audit.log" | grep -q '"/proc/self/fd/[0-9]*", O_WRONLY|O_CLOEXEC'; }; then
		show_run
		fail "$1: runc's init could not open its exec fifo through its own /proc/self/fd: the container holds capabilities unotifyd does not keep, and lib/resolve.c follows the target's own /proc links with the target's capabilities (known; branch proc)"
	fi
	expect_run "$1" 0 "$2"
}

# runtime_spec_case RUNTIME ID: `RUNTIME spec`'s bundle as it is (its default
# capabilities: AUDIT_WRITE, KILL, NET_BIND_SERVICE), Docker's default profile,
# opens notified, decided by policy dock (RUNTIME_POLICY, written by the test).
runtime_spec_case() {
	make_runtime_bundle "$1" "$T/spec" "$SOCK" policy=dock "$RUNTIME_SCRIPT" "$RUNTIME_NOTIFIED"
	jq -e '.process.capabilities.effective == ["CAP_AUDIT_WRITE", "CAP_KILL", "CAP_NET_BIND_SERVICE"]' \
		"$T/spec/config.json" >/dev/null || fail "$1 spec's capabilities are not the ones this test is about"
	run_container "$1" "$T/spec" "$2"
	expect_container "$1 spec's capabilities, Docker's profile, a write-path rule" "$RUNTIME_EXPECTED"
	expect_log "decided by policy dock" "sandbox $2 pid=[0-9]+ registered by .*: policy dock"
}
