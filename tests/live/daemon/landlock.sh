#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run --daemon` gets the Landlock layer of the daemon's policy: the
# daemon builds the filter with the layer for the client's kernel and sends
# the ruleset, which the program binds (docs/LANDLOCK.md). The answers are
# the same with the layer, without it (--no-landlock: the daemon decides
# every rule, kernel answers included) and under `unotify run` in-process,
# for files and for TCP ports.
. "${top_srcdir:-.}/tests/live/daemon-lib.sh"
setup_tmp

ABI=$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')
A=$T/tree
mkdir -p "$A"
echo hello >"$A/file"
echo secret >"$T/secret"
policy build "default allow
allow @file-read @file-write path=$A/**
deny  @file-write @file-create @file-delete kernel"
policy scoped "default allow
scope abstract-unix signal"
# TCP ports (ABI 4): the daemon sends the ports with the ruleset.
# Below the ephemeral range (32768-60999) and apart from other tests' ports.
PORT_OK=$((5000 + ($$ % 2000) * 2))
PORT_NO=$((PORT_OK + 1))
policy ports "default allow
allow connect proto=tcp port=$PORT_OK
deny  connect proto=tcp kernel
allow connect"
start_daemon

# d WHAT WANT PROBE_ARGS...: --daemon with and without the layer, and in-process,
# under the policy $DPOL.
DPOL=build
d() {
	what=$1
	want=$2
	shift 2
	for mode in layer off inproc; do
		case $mode in
		layer) urun -q --daemon --socket "$SOCK" --policy-name "$DPOL" -- "$PROBE" "$@" ;;
		off) urun -q --no-landlock --daemon --socket "$SOCK" --policy-name "$DPOL" -- \
			"$PROBE" "$@" ;;
		inproc) urun -q --log /dev/null --policy "$T/policies/$DPOL.policy" -- "$PROBE" "$@" ;;
		esac
		case $OUT in
		"$want"*) ;;
		*)
			show_run
			fail "$what ($mode): expected '$want...'"
			;;
		esac
	done
	say "ok: $what -> $want (--daemon with the layer, without, in-process)"
}

d "write in the tree" "ok fd=" open "$A/file" wronly
d "write outside: the kernel's answer" "err EACCES" open "$T/secret" wronly
d "a missing file outside: ENOENT" "err ENOENT" open "$T/nothere" wronly
d "create outside" "err EACCES" open "$T/new" wronly creat
d "read outside" "ok fd=" open "$T/secret"
[ "$(cat "$T/secret")" = secret ] || fail "$T/secret was changed"
[ ! -e "$T/new" ] || fail "$T/new was created"

if [ "${ABI:-0}" -ge 1 ]; then
	n=$(grep -c "syscall=openat" "$T/audit.log" || true)
	urun -q --daemon --socket "$SOCK" --policy-name build -- "$PROBE" open "$T/secret" wronly
	m=$(grep -c "syscall=openat" "$T/audit.log" || true)
	[ "$n" = "$m" ] || fail "the daemon was sent the write open the layer decides ($n, $m)"
	say "ok: with the layer, the daemon never saw the write open (the kernel refused it)"
	urun -q --no-landlock --daemon --socket "$SOCK" --policy-name build -- \
		"$PROBE" open "$T/secret" wronly
	wait_until 5 sh -c "[ \$(grep -c 'syscall=openat' '$T/audit.log') -gt $m ]" ||
		fail "without the layer, the daemon did not decide (and record) the refusal"
	say "ok: without the layer, the daemon decided it"
else
	skip_case "the layer is in use" "this kernel has no Landlock"
fi
say "== TCP ports: the same answers through the daemon"
serve ok stream inet6 :: "$PORT_OK" 100
DPOL=ports
d "TCP, the allowed port" "ok got=hello" connect stream inet 127.0.0.1 "$PORT_OK"
d "TCP, another port: the kernel's answer" "err EACCES" connect stream inet 127.0.0.1 "$PORT_NO"
d "TCP, v4-mapped, another port" "err EACCES" connect stream mapped 127.0.0.1 "$PORT_NO"
d "UDP on the TCP-only rule" "ok" connect dgram inet 127.0.0.1 "$PORT_NO"
d "an IPv6 address on an IPv4 socket: EINVAL before the port" "err EINVAL" \
	connect stream inet6 ::1 "$PORT_OK" sock=inet
if [ "${ABI:-0}" -ge 4 ]; then
	n=$(grep -c "syscall=connect" "$T/audit.log" || true)
	urun -q --daemon --socket "$SOCK" --policy-name ports -- "$PROBE" connect stream inet \
		127.0.0.1 "$PORT_NO"
	expect_out "--daemon, the layer: the refused connect" "err EACCES"
	m=$(grep -c "syscall=connect" "$T/audit.log" || true)
	[ "$n" = "$m" ] || fail "the daemon was sent the connect the layer decides ($n, $m)"
	say "ok: with the layer, the daemon never saw the connect (the kernel refused it)"
	urun -q --no-landlock --daemon --socket "$SOCK" --policy-name ports -- "$PROBE" connect \
		stream inet 127.0.0.1 "$PORT_NO"
	wait_until 5 sh -c "[ \$(grep -c 'syscall=connect' '$T/audit.log') -gt $m ]" ||
		fail "without the layer, the daemon did not decide (and record) the refused connect"
	say "ok: without the layer, the daemon decided the connect"
	# A client that does not say it binds ports (an older unotify) gets none: the daemon keeps them.
	oci request "$SOCK" \
		'{"request":"kernel-layer","version":1,"policy":"ports","landlock":{"abi":7,"off":[]}}'
	expect_no_grep "an older client: no ports in the answer" "$OUT" '"handled_net"'
	oci request "$SOCK" '{"request":"kernel-layer","version":1,"policy":"ports","landlock":{"abi":7,"off":[],"ports":true}}'
	expect_grep "a client that binds them: the ports" "$OUT" \
		"\"handled_net\":2,\"ports\":\\[\\{\"port\":$PORT_OK,\"access\":2\\}\\]"
else
	skip_case "the ports are in the layer" "Landlock ABI ${ABI:-0} < 4"
fi
DPOL=build
say "== a policy's scope (Landlock ABI 6): bound by the client, or not started"
rm -f "$T/ran"
urun -q --no-landlock --daemon --socket "$SOCK" --policy-name scoped -- touch "$T/ran"
expect_status "--daemon, scope without the layer: not started" 125
expect_grep "the daemon says why" "$ERR" 'scope abstract-unix signal needs Landlock ABI 6'
[ ! -e "$T/ran" ] || fail "the program ran without the scope"
if [ "${ABI:-0}" -ge 6 ]; then
	serve abstract stream unix "@unotify-dscope-$$" 1
	urun -q --daemon --socket "$SOCK" --policy-name scoped -- \
		"$PROBE" connect stream unix "@unotify-dscope-$$"
	expect_out "--daemon, scope: an abstract socket bound outside" "err EPERM"
	urun -q --daemon --socket "$SOCK" --policy-name scoped -- sh -c \
		'kill -0 $PPID 2>/dev/null && echo sent || echo refused'
	expect_out "--daemon, scope: no signal to the parent outside" refused
else
	skip_case "--daemon, scope bound by the client" "Landlock ABI ${ABI:-0} < 6"
fi
expect_daemon_alive "after the Landlock cases"
