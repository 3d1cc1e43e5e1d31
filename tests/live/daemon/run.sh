#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run --daemon --policy-name NAME [--socket PATH] -- PROGRAM`: the
# daemon owns its policies. The client asks it for the named policy's
# kernel layer (a versioned request the daemon answers only to a peer it
# would take a registration from), starts the program under exactly that,
# and hands the listener over; it never reads the policy directory (here it
# cannot: 0700 root, the client runs as nobody). An unknown name is refused
# before anything runs, with the names the daemon has; a misused --daemon
# gets a sentence, never a misparse; a policy reloaded between the kernel
# layer and the registration is served fail closed, and the client stops
# the program.

. "$top_srcdir/tests/live/daemon-lib.sh"
need_cmd setpriv
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
setup_tmp

# The kernel layer settles mkdir (EACCES); the daemon answers getppid and paths.
policy web 'default allow
deny mkdir mkdirat EACCES
return getppid 7
deny openat path=/etc/shadow EACCES'
policy other 'default allow
return getppid 8'
chmod 0700 "$T/policies"
NGROUP=$(id -gn nobody)
start_daemon --socket-mode 0666 --allow-group "$NGROUP"

# as_nobody ARGS...: unotify run ARGS as nobody, a member of the --allow-group.
as_nobody() {
	capture "unotify run $* (as nobody)" setpriv --reuid nobody --regid "$NGROUP" \
		--clear-groups "$UNOTIFY" run "$@"
}

as_nobody --daemon --socket "$SOCK" --policy-name web -- "$PROBE" getppid
expect_out "run --daemon as nobody, policy directory unreadable: the daemon answers" "ret=7"
expect_log "the daemon registered it" "sandbox unotify-run-[0-9]+ .*: policy web"
expect_log "a client not root: the kept state is proved at each call" \
	"uid=$(id -u nobody): policy web \\(kept target state: proved at each call, a client not root\\)"
urun -q --daemon --socket "$SOCK" --policy-name web -- "$PROBE" read /etc/shadow
expect_out "as root: a path rule decided in the daemon" "err EACCES"
expect_log "a root client: credentials watched" \
	"uid=0: policy web \\(kept target state: credentials watched\\)"
as_nobody --daemon --socket "$SOCK" --policy-name web -- "$PROBE" mkdir "$T/m" 0755
expect_out "the kernel layer is the daemon's policy's (mkdir settled in the kernel)" "err EACCES"
# A program that notifies nothing can be over before the daemon pins its
# root: its own status is still the answer, every time.
n=0
while [ $n -lt 20 ]; do
	urun -q --daemon --socket "$SOCK" --policy-name other -- sh -c 'exit 3'
	[ "$RC" = 3 ] || { show_run; fail "run --daemon of a program that ends at once: status $RC, not 3"; }
	n=$((n + 1))
done
say "ok: run --daemon of a program that ends at once, 20 times: its status 3 each time"
grep -q 'syscall=mkdir' "$T/audit.log" && fail "mkdir reached the daemon: not the daemon's kernel layer"
say "ok: mkdir never reached the daemon: settled by the filter the daemon compiled"
as_nobody --daemon --socket "$SOCK" --policy-name web -- "$PROBE" read /etc/shadow
expect_out "a path rule decided in the daemon" "err EACCES"

# The request itself: versioned, bounded, checked like a registration.
oci request "$SOCK" '{"request":"kernel-layer","version":1,"policy":"web"}'
expect_grep "kernel layer: version 1, the policy, its serial, the program" "$OUT" \
	'^\{"ok":true,"version":1,"policy":"web","serial":[0-9]+,"insns":[0-9]+,"bpf":"[A-Za-z0-9+/=]+"\}$'
oci request "$SOCK" '{"request":"kernel-layer","version":2,"policy":"web"}'
expect_grep "kernel layer: an unknown version is refused" "$OUT" '"ok":false,"error":"unsupported kernel-layer version'
oci request "$SOCK" '{"request":"kernel-layer","version":1,"policy":"../web"}'
expect_grep "kernel layer: a path is not a name" "$OUT" '"ok":false,"error":"no valid \\"policy\\" name'
capture "kernel layer as a stranger" setpriv --reuid 4242 --regid 4242 --clear-groups \
	"$OCI_CLIENT" request "$SOCK" '{"request":"kernel-layer","version":1,"policy":"web"}'
expect_grep "kernel layer: a peer that may not register may not ask either" "$OUT" \
	'"ok":false,"error":"permission denied"'

# An unknown name: refused before anything runs, naming the daemon's policies.
as_nobody --daemon --socket "$SOCK" --policy-name nope -- sh -c "echo ran; touch '$T/ran'"
expect_status "run --daemon with a policy the daemon lacks" 125
expect_grep "the refusal names the daemon's policies" "$ERR" \
	"unotifyd refused policy 'nope': unknown policy 'nope'; the daemon's policies: other, web$"
[ ! -e "$T/ran" ] && [ -z "$OUT" ] || fail "the program ran although its policy is unknown"
say "ok: nothing ran"

# Options: --daemon takes no value; --socket and --policy-name go with it.
ucmd run --daemon "$SOCK" --policy-name web -- "$PROBE" getppid
expect_status "--daemon SOCKET (the old optional argument, with a space)" 125
expect_grep "says the socket is not a program" "$ERR" \
	"is a socket, not a program: --daemon takes no argument; name the socket with --socket"
ucmd run --daemon="$SOCK" --policy-name web -- "$PROBE" getppid
expect_status "--daemon=SOCKET" 125
expect_grep "says to use --socket" "$ERR" "--daemon takes no value: name the socket with --daemon --socket"
ucmd run --socket "$SOCK" --rule 'default allow' -- "$PROBE" getppid
expect_status "--socket without --daemon" 125
ucmd run --daemon --socket "$SOCK" --policy-dir "$T/policies" --policy-name web -- "$PROBE" getppid
expect_status "--policy-dir (the daemon's policies are the daemon's)" 125
expect_grep "says why" "$ERR" "--policy-dir is gone"
ucmd run --daemon --socket "$T/none.sock" --policy-name web -- "$PROBE" getppid
expect_status "run --daemon with no daemon" 125
expect_grep "says there is none" "$ERR" "no unotifyd listening"

# A reload between the kernel layer and the registration: fail closed, and said.
oci request "$SOCK" '{"request":"kernel-layer","version":1,"policy":"other"}'
serial=$(printf '%s' "$OUT" | sed -n 's/.*"serial":\([0-9]*\).*/\1/p')
register --style runc --metadata policy=other --serial "$serial" -- "$PROBE" getppid
expect_out "registered with the serial of the version loaded: supervised by it" "ret=8"
policy other 'default allow
return getppid 9'
kill -HUP "$DPID"
wait_until 5 sh -c "[ \$(grep -c 'policies loaded' '$T/d.err') -ge 2 ]" || fail "no reload"
register --style runc --metadata policy=other --serial "$serial" -- "$PROBE" getppid
expect_out "registered with the serial of a version reloaded since: fail closed" "err EPERM"
expect_grep "the acknowledgement says why" "$ERR" "was reloaded after the program's kernel layer was fetched"
expect_daemon_alive "after the run --daemon cases"
stop_daemon

# The trail's level: by default (--log-level deny) no allowed call is in it.
audit=$(cat "$T/audit.log")
expect_grep "the daemon's trail has the denial" "$audit" 'verdict=deny errno=EACCES .*path=/etc/shadow'
expect_no_grep "and, by default (--log-level deny), no allowed call" "$audit" ' verdict=allow '
: >"$T/audit.log"
: >"$T/d.err"
start_daemon --log-level all
echo readable >"$T/readable"
urun --daemon --socket "$SOCK" --policy-name web -- "$PROBE" read "$T/readable"
expect_out "run --daemon --log-level all: the open" "data=readable"
stop_daemon
expect_grep "--log-level all: the allowed open is in the trail" "$(cat "$T/audit.log")" \
	"verdict=allow .*path=$(re_quote "$T/readable")"
