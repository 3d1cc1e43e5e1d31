#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 17, the supervisor's own uid lent to a performed open (found by
# round 17's review of the kept state). Acting as the program, the
# supervising thread took its file-system ids, groups and capabilities but
# kept real, effective and saved uid 0, and some checks ask for those:
#  - a sysctl's owner is checked against the effective uid at open and
#    access: a 0600 root sysctl opened and access(W_OK) said yes to nobody;
#  - cgroup v1 checks a write to cgroup.procs against the euid of whoever
#    opened the file: nobody, given a delegated subtree, moved a root
#    process into it (and froze it);
#  - FUSE lets only its mounter's uid (real, effective and saved) in
#    without allow_other: nobody read a root-mounted FUSE file (not
#    repeated here: it needs libfuse, tested by hand).
# Now the thread takes the program's gids and its effective and
# file-system uids. Not its real and saved uids (the review of that fix):
# the kernel lets any process of a thread's real or saved uid signal it
# and lower its process's limits, so a process of the program's uid,
# outside the sandbox, killed unotifyd while a thread acted as the program.
# The forbidden effects: an fd of the sysctl, access(2) saying 0, the root
# process in the delegated cgroup, a supervisor thread taking signal 0
# from the program's uid while it waits in an open performed as it.
# Guards: natively each is refused; root's own sysctl open still works.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "--user nobody and a cgroup delegated to nobody"
setup_tmp
PROBE=${PROBE:-$top_builddir/tests/live/probe}
SYSCTL=/proc/sys/kernel/cad_pid
printf 'default allow\ndeny @file-read @file-write @file-create path=%s/nothing/** EACCES\n' "$T" \
	>"$T/files.policy"
printf 'deny access faccessat faccessat2 path=%s/nothing/** EACCES\n' "$T" >>"$T/files.policy"

# sysctl_case NAME WANT PROBE-ARGS...: as nobody, PROBE-ARGS on the 0600 sysctl give WANT.
sysctl_case() {
	_name=$1
	_want=$2
	shift 2
	case_begin "$_name" "as nobody, $* on $SYSCTL (0600 root): $_want, as natively"
	bounded 20 setpriv --reuid=65534 --regid=65534 --clear-groups "$PROBE" "$@"
	_native=$OUT
	urun --policy "$T/files.policy" --user nobody -- "$PROBE" "$@"
	if [ "$_native" != "$_want" ]; then
		case_fail "the guard: natively $_native"
	elif [ "$OUT" = "$_want" ]; then
		case_pass "$OUT"
	else
		case_fail "expected $_want (the supervisor's euid lent): $OUT"
	fi
}

if [ -f "$SYSCTL" ]; then
	sysctl_case sysctl-read "err EACCES" open "$SYSCTL" rdonly
	sysctl_case sysctl-write "err EACCES" open "$SYSCTL" wronly
	sysctl_case sysctl-access "err EACCES" access "$SYSCTL" w
	case_begin sysctl-root "(guard) as root, open of $SYSCTL read-only"
	urun --policy "$T/files.policy" -- "$PROBE" open "$SYSCTL" rdonly
	case "$OUT" in
	"ok fd="*) case_pass "$OUT" ;;
	*) case_fail "expected ok fd=N: $OUT" ;;
	esac
else
	case_begin sysctl "a 0600 root sysctl"
	case_skip "no $SYSCTL here"
fi

# A cgroup v1 subtree delegated to nobody; a root sleep the program starts;
# nobody writes its pid to the subtree's cgroup.procs.
case_begin cgroup1 "as nobody, a root process moved into a cgroup v1 subtree delegated to nobody"
V1=
for h in freezer pids cpu memory; do
	if grep -q " /sys/fs/cgroup/$h cgroup " /proc/mounts; then
		V1=/sys/fs/cgroup/$h
		break
	fi
done
if [ -z "$V1" ]; then
	case_skip "no cgroup v1 hierarchy mounted here"
else
	CG=$V1/unotify-r17-$$
	mkdir "$CG"
	chown -R 65534:65534 "$CG"
	on_cleanup "rmdir '$CG' 2>/dev/null"
	cat >"$T/move.sh" <<EOF
sleep 30 & v=\$!
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo \$1 >$CG/cgroup.procs' sh \$v 2>/dev/null
if grep -q ':$h:/unotify-r17' /proc/\$v/cgroup; then echo MOVED; else echo STAYED; fi
kill \$v
EOF
	bounded 40 sh "$T/move.sh"
	native=$OUT
	urun --policy "$T/files.policy" -- sh "$T/move.sh"
	if [ "$native" != STAYED ]; then
		case_fail "the guard: natively $native"
	elif [ "$OUT" = STAYED ]; then
		case_pass "STAYED (natively $native)"
	else
		case_fail "the root process was moved: $OUT"
	fi
fi
# The supervisor waits in an open of a FIFO as nobody (no reader yet): a
# process of nobody's, outside the sandbox, sweeps its threads with signal 0.
case_begin signal "as nobody, outside: signal 0 to the supervisor's threads while one opens a FIFO as nobody"
mkfifo -m 666 "$T/fifo"
sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$T/sup.pid" timeout 60 "$UNOTIFY" run -q \
	--policy "$T/files.policy" --user nobody -- "$PROBE" open "$T/fifo" wronly \
	>"$T/fifo.out" 2>&1 &
track_pid $!
if wait_until 10 test -s "$T/sup.pid"; then
	sleep 1 # the open reaches the supervisor, which waits in it
	# timeout's pid: the supervisor is its child
	sup=$(pgrep -P "$(cat "$T/sup.pid")" | head -1)
	bounded 60 "$ATTACK" --user 65534 r17-signal-threads "${sup:-0}" 2000
	probe_out=$OUT
	bounded 10 sh -c 'cat "$1" >/dev/null' sh "$T/fifo"
	wait_until 20 sh -c '! kill -0 "$1"' sh "$(cat "$T/sup.pid")" || true
	case "$probe_out" in
	"REFUSED "*) case_pass "$probe_out; the program: $(tail -1 "$T/fifo.out")" ;;
	*) case_fail "a thread of the supervisor took the signal: $probe_out" ;;
	esac
else
	case_fail "unotify run did not start"
fi
finish
