#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example of README.md and the man pages, run: examples.py extracts
# them mechanically (each block must carry an `example:` marker, so a new
# one cannot escape), then policies are written and checked, and commands
# run in order in a scratch directory. A command passes when it exits 0, or
# the status its line names in a comment (`# exit N`). `skip` examples are
# skipped cases with their reason; `text` ones (outputs, grammars) are not
# examples to run.
#
# The daemon examples run too: a line that starts unotifyd runs in the
# background until the next such line or the end (the test checks that it
# listens, and that SIGTERM stops it with status 0), on a private socket
# and policy directory given by UNOTIFY_SOCKET and UNOTIFY_POLICY_DIR;
# before the first, a daemon of the test's own serves the clients. The
# benchmarks run with UNOTIFY_BENCH_SMOKE (a few calls per row). The test
# runs in a mount namespace of its own with /etc under an overlay, so the
# examples may name /etc/unotify/policies and the group `unotify` without
# the system's /etc being touched.
if [ -z "${EXAMPLES_NS:-}" ] && [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1; then
	EXAMPLES_NS=1 exec unshare --mount --propagation private sh "$0" "$@"
fi
. "${top_srcdir:-.}/tests/live/daemon-lib.sh"
setup_tmp
# contrib/quickstart.sh check sets it (a reason) for its second build: this
# test ran in the first, and the sanitizers see the same code in the others.
[ -z "${UNOTIFY_EXAMPLES_SKIP:-}" ] || skip "$UNOTIFY_EXAMPLES_SKIP"
need_cmd python3
[ -n "${EXAMPLES_NS:-}" ] || skip "needs unshare(1), for a private view of /etc"

# /etc as the system has it, writes kept in $T: the policy directory the
# examples name, and a group `unotify` for unotifyd --allow-group unotify.
mkdir "$T/etc-upper" "$T/etc-work"
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$T/etc-upper,workdir=$T/etc-work" /etc ||
	fail "cannot put an overlay on /etc in the test's mount namespace"
mkdir -p /etc/unotify/policies
if ! getent group unotify >/dev/null; then
	gid=64000
	while getent group "$gid" >/dev/null; do gid=$((gid + 1)); done
	echo "unotify:x:$gid:" >>/etc/group
fi
export UNOTIFY_SOCKET="$T/unotifyd.sock" UNOTIFY_POLICY_DIR=/etc/unotify/policies
export UNOTIFY_BENCH_SMOKE=1 UNOTIFY_QUICKSTART_BUILD="$top_builddir"

EX=$T/examples
W=$T/work
mkdir -p "$EX" "$W/bin"
# From the source tree, so that each example is named as README.md:LINE.
# shellcheck disable=SC2016 # expanded by that shell
capture "examples.py" sh -c 'cd "$0" && exec python3 tests/live/tools/examples.py "$1" \
	README.md man/*.[0-9]' "$top_srcdir" "$EX"
[ "$RC" = 0 ] || { show_run; fail "examples.py: an example without a marker, or a broken page"; }
total=$OUT
[ "$total" -gt 20 ] || fail "only $total examples found: the extractor is broken"
say "ok: $total examples extracted, every one marked"

# What the examples name: the source tree's contrib/, a program, a server,
# the profile and base policy the includes name, the commands themselves.
ln -s "$top_srcdir/contrib" "$W/contrib"
ln -s /bin/true "$W/program"
ln -s /bin/true "$W/server"
cp "$top_srcdir/tests/data/oci/docker-default.json" "$W/"
printf 'allow getpid gettid\n' >"$W/base.policy"
ln -s "$UNOTIFY" "$W/bin/unotify"
ln -s "$top_builddir/daemon/unotifyd/unotifyd" "$W/bin/unotifyd"
chmod 755 "$W"

# Policies first: the commands use them (web.policy, my.policy).
n=1
while [ -f "$EX/$n.kind" ]; do
	set -- $(cat "$EX/$n.kind")
	where=$(cat "$EX/$n.where")
	if [ "$1" = policy ]; then
		name=${2:-example-$n.policy}
		cp "$EX/$n.text" "$W/$name"
		capture "policy check $name" "$UNOTIFY" policy check "$W/$name"
		expect_status "$where: the policy $name checks" 0
	fi
	n=$((n + 1))
done

# The daemon's policies: web.policy as unotify.policy(5) writes it, and
# the default policy make install puts there.
[ -f "$W/web.policy" ] || fail "no example writes web.policy, which the daemon examples name"
cp "$W/web.policy" /etc/unotify/policies/
cp "$top_srcdir/contrib/etc/default.policy" /etc/unotify/policies/

# example_daemon WHERE COMMAND: starts a daemon example in the background,
# in place of the running daemon, and checks that it listens.
DWHERE=
example_daemon() {
	example_daemon_stop
	rm -f "$T/d.err"
	cd "$W"
	# Never on the test's stdout (the TAP reader would wait for it).
	sh -c "exec $2" </dev/null >"$T/d.err" 2>&1 &
	DPID=$!
	track_pid "$DPID"
	cd "$top_builddir"
	DWHERE="$1: $2"
	wait_until 10 grep -q 'listening on' "$T/d.err" ||
		{ say "$(cat "$T/d.err")"; fail "$DWHERE: not listening on \$UNOTIFY_SOCKET within 10 s"; }
	say "ok: $DWHERE: listening on \$UNOTIFY_SOCKET"
}
example_daemon_stop() {
	[ -n "$DWHERE" ] || return 0
	stop_daemon
	[ "$DRC" = 0 ] || { say "$(cat "$T/d.err")"; fail "$DWHERE: status $DRC after SIGTERM"; }
	say "ok: $DWHERE: SIGTERM stops it with status 0"
	DWHERE=
}
trap 'daemon_exit' EXIT

# run_line WHERE COMMAND: one command of a shell example, run in $W.
run_line() {
	case $2 in
	unotifyd | "unotifyd "*)
		case " $2 " in
		*" --check "* | *" -t "* | *" --help "*) ;;
		*) example_daemon "$1" "$2"; return ;;
		esac
		;;
	esac
	want=$(printf '%s\n' "$2" | sed -n 's/.*# *exit \([0-9]*\).*/\1/p')
	cd "$W"
	capture "$1: $2" sh -c "$2"
	cd "$top_builddir"
	expect_status "$1: $2" "${want:-0}"
}
PATH=$W/bin:$PATH
example_daemon "the test's own daemon" "unotifyd --seccomp-default kill"

n=1
while [ -f "$EX/$n.kind" ]; do
	set -- $(cat "$EX/$n.kind")
	kind=$1
	shift
	where=$(cat "$EX/$n.where")
	case $kind in
	shell)
		# Lines joined at a trailing backslash; blank lines and comments skipped.
		sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' "$EX/$n.text" |
			grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' >"$T/lines"
		while IFS= read -r line; do
			run_line "$where" "$line" </dev/null
		done <"$T/lines"
		;;
	skip) skip_case "$where: $(head -1 "$EX/$n.text")" "$*" ;;
	text | policy) ;;
	*) fail "$where: unknown example kind '$kind'" ;;
	esac
	n=$((n + 1))
done
example_daemon_stop
