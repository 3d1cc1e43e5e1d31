#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor's own /proc (issue 9, "Privilege lent by the supervisor").
# Acting as the program, the supervising thread would pass the kernel's
# ptrace checks on its own /proc/PID (same thread group): a program allowed
# /proc/** must still never read the supervisor's memory, environment,
# command line or cwd, by pid, by tid, through "..", a cwd or a dirfd, and
# a program's own /proc (runc's non-dumpable init) must stay open to it.
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "a root program is the one the kernel's checks would let through"
setup_tmp
: "${PROC_ESCAPE:?PROC_ESCAPE is not set (run through make check)}"
PE=$PROC_ESCAPE

mkdir -m 700 "$T/private"
echo topsecret >"$T/private/secret"
chmod 644 "$T/private/secret"
echo own-file >"$T/own"
cat >"$T/all.policy" <<EOF
allow openat open path=/**
default allow
EOF

# sup_run OPEN ARGS: `unotify run ARGS` from $T/private (its cwd), its pid in
# $T/.sup, with fd 7 on our /proc when OPEN is "proc-fd".
sup_run() {
	open=$1
	shift
	rm -f "$T/.sup"
	set +e
	timeout -k 5 "$UNOTIFY_TEST_TIMEOUT" sh -c '
		echo $$ >"$0"; cd "$1"; [ "$2" != proc-fd ] || exec 7</proc; shift 2; exec "$@"' \
		"$T/.sup" "$T/private" "$open" "$UNOTIFY" run "$@" >"$T/.out" 2>"$T/.err" </dev/null
	RC=$?
	set -e
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
	[ "$RC" != 124 ] || fail "unotify run $* did not finish"
}

# no_data WHAT: nothing the supervisor owns was read.
no_data() {
	expect_no_grep "$1" "$OUT" '^data='
	expect_no_grep "$1: no supervisor text" "$OUT" 'unotify|topsecret'
}

say "== --share-pid: our /proc is nameable; every way in is refused"
for who in root nobody; do
	user=
	[ "$who" = root ] || user="--user nobody"
	# shellcheck disable=SC2016
	sup_run proc-fd --share-pid $user --policy "$T/all.policy" -- sh -c '
		S=$(cat "$1"); PE=$2
		"$PE" read /proc/$S/cmdline
		"$PE" read /proc/$S/environ
		"$PE" read /proc/$S/mem
		"$PE" read /proc/$S/cwd/secret
		"$PE" read /proc/$S/task/$S/cmdline
		"$PE" read /proc/self/../$S/cmdline
		"$PE" chdir-read /proc/$S cmdline
		"$PE" chdir-read /proc/$S/task/$S environ
		"$PE" readat 7 $S/cmdline
		"$PE" readat 7 $S/cwd/secret
		"$PE" read /proc/$S/root/'"$T"'/private/secret' sh "$T/.sup" "$PE"
	expect_status "$who, --share-pid" 0
	no_data "$who: the supervisor's /proc by pid, tid, .., cwd and dirfd"
	[ "$(printf '%s\n' "$OUT" | grep -c '^err ')" = 11 ] ||
		{ show_run; fail "$who: not every attempt failed"; }
	if [ "$who" = root ]; then
		expect_no_grep "root: every refusal is ours (EACCES)" "$OUT" '^err E[^A]'
	fi
done

say "== default: an inherited fd on our /proc would reach us: refused"
sup_run proc-fd --policy "$T/all.policy" -- "$PE" readat 7 1/status
expect_status "an inherited /proc fd" 125
expect_grep "and said why" "$ERR" 'descriptor the program would inherit .* /proc'
expect_no_grep "the program never ran" "$OUT" '.'

say "== default: the program's own pid namespace and /proc"
sup_run none --policy "$T/all.policy" -- sh -c '
	S=$(cat "$1"); PE=$2
	"$PE" read /proc/$S/cmdline
	"$PE" read /proc/$S/cwd/secret
	"$PE" pids
	"$PE" self' sh "$T/.sup" "$PE"
expect_status "own pid namespace" 0
no_data "the supervisor's pid names nothing of ours"
SUP=$(cat "$T/.sup")
expect_no_grep "the program's /proc lists only its sandbox" "$OUT" "^pids=.* $SUP "
expect_grep "its /proc/self and thread-self are its own (a procfs of another namespace)" \
	"$OUT" '^self=own status=[0-9]+ getpid=[0-9]+ thread-self=own$'

say "== a program that is not dumpable reads its own fd (runc's exec fifo)"
for mode in "" "--share-pid" "--user nobody" "--share-pid --user nobody"; do
	# shellcheck disable=SC2086
	urun $mode --policy "$T/all.policy" -- "$PE" nodump-fd "$T/own"
	expect_out "not dumpable, /proc/self/fd/N, ${mode:-default}" "data=own-file"
done
