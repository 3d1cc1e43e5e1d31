#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 15, a unix socket named by the kernel (found by round 14's review).
# With SO_PASSCRED set, a connect autobinds a unix socket to an abstract
# name of five hex digits, even a connect that fails; a bind of the family
# alone (addrlen 2) does the same. Under `deny bind` and `deny bind
# family=unix`, a program named a stream socket so, listened there and
# accepted a connection: a service no bind rule saw, in run and under
# unotifyd; `deny bind unix=@*` let the bind of the family alone through,
# as its name is none. Now a listen on a socket with an abstract name is
# decided as a bind of that name, and a bind of the family alone as one of
# a name only `*` and `?` match. The forbidden effect: LISTENING (a
# connection to the name was accepted). Guards: natively both work; a bind
# of an abstract name the rules allow still listens. Also: a raw socket
# receives the datagrams of every port; under `deny bind` it was let open.
# Now a refusal of bind brings the raw-sockets set (RECEIVED). And under
# `deny connect unix=DIR/s.sock` the program renamed DIR and connected by
# the socket's new name: a socket path's directories are now protected
# names, as a file path's are (REACHED). Found by this round's review: a
# listen raced by a thread that autobinds the socket listened at a name
# no one decided (now an unbound unix socket gets EINVAL with no listen);
# a policy whose default alone refused bind left raw sockets; and a listen
# the kernel refuses got EPERM where the kernel says otherwise.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

printf 'default allow\ndeny bind\n' >"$T/nobind.policy"
printf 'default allow\ndeny bind family=unix EACCES\n' >"$T/nounix.policy"
printf 'default allow\ndeny bind unix=@* EACCES\n' >"$T/noabstract.policy"
printf 'default allow\nallow bind unix=@app*\ndeny bind family=unix EACCES\n' >"$T/onlyapp.policy"


prints_case native-connect "(guard) natively: named by a failed connect with SO_PASSCRED, it serves" "" \
	"LISTENING @" r15-unix-autobind connect
prints_case native-bind "(guard) natively: named by a bind of the family alone, it serves" "" \
	"LISTENING @" r15-unix-autobind bind
prints_case nobind-connect "deny bind: named by a failed connect with SO_PASSCRED, then listen" nobind \
	"BLOCKED EPERM" r15-unix-autobind connect
prints_case nounix-connect "deny bind family=unix: named by a failed connect, then listen" nounix \
	"BLOCKED EACCES" r15-unix-autobind connect
prints_case nounix-bind "deny bind family=unix: a bind of the family alone" nounix \
	"BLOCKED EACCES" r15-unix-autobind bind
prints_case noabstract-bind "deny bind unix=@*: a bind of the family alone (an abstract name)" \
	noabstract "BLOCKED EACCES" r15-unix-autobind bind
prints_case noabstract-connect "deny bind unix=@*: named by a failed connect, then listen" \
	noabstract "BLOCKED EACCES" r15-unix-autobind connect
prints_case onlyapp-bind "allow bind unix=@app*, deny the rest: a bind of the family alone" \
	onlyapp "BLOCKED EACCES" r15-unix-autobind bind

prints_case onlyapp-name "(guard) allow bind unix=@app*: a bind of @app-NAME listens and serves" \
	onlyapp "LISTENING @app-$$ accepted" r15-unix-autobind name "app-$$"
prints_case onlyapp-other "allow bind unix=@app*: a bind of another abstract name" \
	onlyapp "BLOCKED EACCES" r15-unix-autobind name "other-$$"

PORT=$((20000 + $$ % 20000))
prints_case native-raw "(guard) natively: a raw socket of UDP reads a datagram for port $PORT" "" \
	"RECEIVED port $PORT" r15-raw-recv "$PORT"
prints_case nobind-raw "deny bind: a raw socket of UDP reads a datagram for port $PORT" nobind \
	"BLOCKED EPERM" r15-raw-recv "$PORT"

# A socket file nobody listens on: a connect that reaches it is refused by
# the socket itself (ECONNREFUSED), one the policy stops by the rule.
mk_socket() {
	rm -rf "$T/$1" "$T/$1.aside"
	mkdir -p "$T/$1"
	bounded 20 "$ATTACK" r11-unix-bind "$T/$1/s.sock"
	[ "$(results | head -1)" = "BOUND $T/$1/s.sock" ] || fail "no socket: $(results)"
}
printf 'default allow\ndeny connect unix=%s/app/s.sock EACCES\n' "$T" >"$T/sock.policy"
mk_socket app
prints_case native-move "(guard) natively: the socket reached by its directory's new name" "" \
	"REACHED $T/app.aside/s.sock" r15-unix-move "$T/app" "$T/app.aside" s.sock
mk_socket app
prints_case sock-direct "(guard) deny connect unix=DIR/s.sock: a connect to it" sock \
	"BLOCKED EACCES" r15-unix-move - "$T/app" s.sock
prints_case sock-move "deny connect unix=DIR/s.sock: DIR renamed, then a connect by the new name" \
	sock "BLOCKED EXDEV" r15-unix-move "$T/app" "$T/app.aside" s.sock

prints_case race-nounix "deny bind family=unix: a listen while another thread autobinds the socket" \
	nounix "BLOCKED E" r15-listen-race 2000
prints_case race-nobind "deny bind: a listen while another thread autobinds the socket" \
	nobind "BLOCKED E" r15-listen-race 2000

# A client's allow-list: binds refused by the default alone.
printf '%s\n' 'allow @default @basic-io @file-system @signal @io-event @ipc' \
	'allow socket connect sendto recvfrom recvmsg sendmsg getsockname setsockopt getsockopt' \
	'allow uname ioctl prctl' 'default deny EPERM' >"$T/client.policy"
prints_case client-raw "an allow-list without bind: a raw socket of UDP reads a datagram" client \
	"BLOCKED EPERM" r15-raw-recv "$PORT"

# A listen the kernel refuses gets the kernel's errno where listen is decided.
for kind in udp:EOPNOTSUPP opath:EBADF unix:EINVAL netlink:EOPNOTSUPP; do
	prints_case "errno-${kind%%:*}" "deny bind: a listen on ${kind%%:*}: the kernel's ${kind#*:}" \
		nobind "ERRNO ${kind#*:}" r15-listen-errno "${kind%%:*}"
done

case_begin relisten "(guard) deny bind unix=@*: a socket handed over listening listens again"
bounded 20 "$ATTACK" r15-hand-over "handed-$$" "$UNOTIFY" run -q --policy "$T/noabstract.policy" -- \
	"$ATTACK" r15-relisten 3
if [ "$(results | head -1)" = RELISTENED ]; then
	case_pass RELISTENED
else
	case_fail "$(results | head -1) $(printf '%s' "$ERR" | tail -1)"
fi

case_begin daemon "unotifyd, deny bind family=unix: named by a failed connect, then listen"
mkdir -p "$T/policies"
cp "$T/nounix.policy" "$T/policies/nounix.policy"
start_daemon
bounded 20 "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name nounix -- \
	"$ATTACK" r15-unix-autobind connect
if [ "$(results | head -1)" = "BLOCKED EACCES" ]; then
	case_pass "BLOCKED EACCES"
else
	case_fail "$(results | head -1) ($(tail -3 "$T/d.err" | tr '\n' ' '))"
fi
finish
