#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# unotifyd trusts no client: a silent client is dropped after the timeout and
# blocks no one meanwhile; garbage, a megabyte, wrong or extra fds are each
# dropped with a log line and every received fd is closed; a uid that is
# neither root nor in --allow-group is refused; the daemon serves on.

. "$top_srcdir/tests/live/daemon-lib.sh"
need_cmd setpriv
setup_tmp

policy default 'default allow
return getppid 42'
# World-connectable socket, so that SO_PEERCRED is what refuses strangers.
start_daemon --socket-mode 0666 --allow-group users

fds_before=$(daemon_count fds)

# A silent client: dropped after 2 s, and meanwhile others are served.
"$OCI_CLIENT" silent "$SOCK" 20 >"$T/silent.out" 2>&1 &
silent=$!
track_pid "$silent"
sleep 0.2
status_json
expect_grep "a status request is answered while a silent client waits" "$OUT" '"ok":true'
register -- "$PROBE" getppid
expect_out "a sandbox registers while a silent client waits" "ret=42"
wait "$silent" || { cat "$T/silent.out"; fail "the silent client was not dropped"; }
expect_grep "the silent client was dropped" "$(cat "$T/silent.out")" '^dropped$'
expect_log "its drop is logged" "dropped: no complete message in time"

oci send "$SOCK" --data 'hello, this is not JSON'
expect_grep "garbage: connection closed" "$OUT" '^eof$'
expect_grep "garbage: told why" "$OUT" '"ok":false'
expect_log "garbage is logged" "dropped: not one JSON object"

oci send "$SOCK" --data '[1,2,3]'
expect_log "a JSON array instead of an object is dropped" "dropped: not one JSON object"

{ printf '{"request":"'; head -c 1048576 /dev/zero | tr '\0' x; } >"$T/big.json"
oci send "$SOCK" --data-file "$T/big.json"
expect_grep "1 MB: connection closed" "$OUT" '^eof$'
expect_log "1 MB is logged" "dropped: message too large"

deep=$(printf '%0.s[' $(seq 1 100))
oci send "$SOCK" --data "{\"a\":$deep"
expect_log "nesting 100 deep is dropped" "dropped: not one JSON object"

oci send "$SOCK" --data '{"request":"status"}' --fd /dev/null
expect_log "a control request with an fd is dropped" "dropped: fds sent with a control request"

state='{"ociVersion":"1.0.2","fds":["seccompFd"],"pid":1,"state":{"id":"x","pid":1}}'
oci send "$SOCK" --data "$state" --fd /dev/null
expect_log "a seccompFd that is not a listener is dropped" "dropped: the fd named seccompFd is not a seccomp listener"

oci send "$SOCK" --data "$state" --fd /dev/null --fd /dev/zero
expect_log "two fds for one name is dropped" "dropped: \"fds\" does not name each received fd"

oci send "$SOCK" --data "$state"
expect_log "an OCI state without its fd is dropped" "dropped: \"fds\" does not name each received fd"

many_fds=
for i in $(seq 1 20); do many_fds="$many_fds --fd /dev/null"; done
# shellcheck disable=SC2086
oci send "$SOCK" --data "$state" $many_fds
expect_log "20 fds are dropped" "dropped: fds truncated|dropped: too many fds"

oci send "$SOCK" --data '{"request":"reboot"}'
expect_grep "an unknown request gets an error" "$OUT" '"error":"unknown request'

oci send "$SOCK" --data '{"whatever":1}'
expect_log "an object that is neither is dropped" "dropped: neither an OCI state nor a control request"

# Every fd received was closed.
wait_until 5 daemon_count_is fds "$fds_before" ||
	fail "the daemon holds $(daemon_count fds) fds, $fds_before before the hostile clients"
say "ok: no fd left open by hostile clients ($fds_before)"

# Neither root nor in --allow-group: refused, whatever it sends.
set +e
out=$(setpriv --reuid nobody --regid nogroup --clear-groups \
	"$OCI_CLIENT" request "$SOCK" '{"request":"status"}' 2>&1)
set -e
expect_grep "uid nobody is refused" "$out" '"error":"permission denied"'
expect_log "the refusal is logged" "uid=65534: refused: not root nor in an --allow-group"

set +e
out=$(setpriv --reuid nobody --regid nogroup --clear-groups "$UNOTIFY" status --socket "$SOCK" 2>&1)
rc=$?
set -e
[ "$rc" = 1 ] || fail "unotify status as nobody: status $rc: $out"
expect_grep "unotify status as nobody: refused" "$out" 'unotifyd refused: permission denied'
set +e
out=$(setpriv --reuid nobody --regid nogroup --clear-groups \
	"$OCI_CLIENT" register "$SOCK" --style run --metadata default -- "$PROBE" getppid 2>&1)
set -e
expect_grep "run_daemon_handoff as nobody: refused" "$out" '^handoff: EACCES: unotifyd refused'
expect_grep "and the program's notified call fails closed" "$out" '^err ENOSYS$'

set +e
out=$(setpriv --reuid nobody --regid nogroup --groups users \
	"$OCI_CLIENT" request "$SOCK" '{"request":"status"}' 2>&1)
set -e
expect_grep "nobody with supplementary group users (--allow-group users) may query" "$out" \
	'"ok":true'

register -- "$PROBE" getppid
expect_out "the daemon still supervises after all that" "ret=42"
expect_daemon_alive "after the hostile clients"
stop_daemon
