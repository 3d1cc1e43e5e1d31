#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A client over its share is answered busy, and `unotify run --daemon`
# asks again. The daemon reads 128 connections at once; past that, a
# client (a uid in a pid namespace) with 8 being read gets "busy" for
# any more, and a burst's registrations retry (pending.c). Here nobody
# (group users) holds 128 connections silent: its next request is
# answered busy; a `unotify run --daemon` of nobody's started meanwhile
# is refused until they close, then runs (its kernel layer's fetch and
# its registration both retry).

. "$top_srcdir/tests/live/daemon-lib.sh"
setup_tmp
need_cmd python3
# The system's, which nobody may run (not a shim under root's home).
PYTHON3=$(command -v /usr/bin/python3 || command -v python3)
need_cmd setpriv

policy default 'default allow
return getppid 42'
start_daemon --socket-mode 0666 --allow-group users --client-timeout 20000

as_nobody() {
	setpriv --reuid nobody --regid nogroup --groups users "$@"
}

# hold.py SOCK HELD RELEASE: 128 silent connections, a status request on
# one more (its answer printed), HELD made, then all closed once RELEASE exists.
cat >"$T/hold.py" <<'PY'
import os, socket, sys, time
sock, held, release = sys.argv[1:4]
conns = []
for _ in range(128):
    c = socket.socket(socket.AF_UNIX)
    c.connect(sock)
    conns.append(c)
extra = socket.socket(socket.AF_UNIX)
extra.connect(sock)
extra.sendall(b'{"request":"status"}')
extra.shutdown(socket.SHUT_WR)
answer = b""
while True:
    try:
        got = extra.recv(65536)
    except ConnectionResetError:
        break  # the daemon closed without reading our request: after its answer
    if not got:
        break
    answer += got
print("ANSWER", answer.decode(errors="replace").strip(), flush=True)
open(held, "w").close()
deadline = time.time() + 30
while not os.path.exists(release) and time.time() < deadline:
    time.sleep(0.05)
for c in conns:
    c.close()
print("RELEASED", flush=True)
PY
# nobody reads the script and makes HELD in a directory of its own.
chmod 755 "$T" && chmod 644 "$T/hold.py" && mkdir -m 1777 "$T/nb"

as_nobody "$PYTHON3" "$T/hold.py" "$SOCK" "$T/nb/held" "$T/nb/release" >"$T/hold.out" 2>&1 &
HOLD=$!
track_pid "$HOLD"
wait_until 15 test -e "$T/nb/held" || fail "the connections were not held: $(cat "$T/hold.out")"
expect_grep "a request past the share is answered busy" "$(cat "$T/hold.out")" \
	'^ANSWER \{"ok":false,"error":"busy: '
expect_grep "the daemon says why, once" "$(cat "$T/d.err")" \
	'uid=65534: refused: (8|32) connections of its (own|uid) being read already'

as_nobody "$UNOTIFY" run --daemon --socket "$SOCK" --policy-name default -- "$PROBE" getppid \
	>"$T/run.out" 2>"$T/run.err" &
RUN=$!
track_pid "$RUN"
sleep 1
ucmd status --socket "$SOCK"
expect_grep "meanwhile the run is refused too" "$OUT" '; ([2-9]|[1-9][0-9]+) clients rejected'
touch "$T/nb/release"
st=0
wait "$RUN" || st=$?
[ "$st" = 0 ] || fail "unotify run --daemon: status $st: $(cat "$T/run.err")"
expect_grep "once they close, the run registers and is answered" "$(cat "$T/run.out")" '^ret=42$'
wait "$HOLD" || true
expect_daemon_alive "after the held connections"
stop_daemon
