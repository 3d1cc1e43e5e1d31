#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify run --daemon` gets the Landlock layer of the daemon's policy: the
# daemon builds the filter with the layer for the client's kernel and sends
# the ruleset, which the program binds (docs/LANDLOCK.md). The answers are
# the same with the layer, without it (--no-landlock: the daemon decides
# every rule, kernel answers included) and under `unotify run` in-process.
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
start_daemon

# d WHAT WANT PROBE_ARGS...: --daemon with and without the layer, and in-process.
d() {
	what=$1
	want=$2
	shift 2
	for mode in layer off inproc; do
		case $mode in
		layer) urun -q --daemon --socket "$SOCK" --policy-name build -- "$PROBE" "$@" ;;
		off) urun -q --no-landlock --daemon --socket "$SOCK" --policy-name build -- \
			"$PROBE" "$@" ;;
		inproc) urun -q --log /dev/null --policy "$T/policies/build.policy" -- "$PROBE" "$@" ;;
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
expect_daemon_alive "after the Landlock cases"
