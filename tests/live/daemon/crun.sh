#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# crun runs a busybox container whose seccomp profile names unotifyd's socket
# as listenerPath: crun's pretty-printed state message is understood and the
# container's notified calls are decided by the daemon's policy, including
# path rules resolved in the container's own root. crun refuses
# hybrid cgroup setups: it runs in a private mount namespace without the
# cgroup2 mount there.

. "$top_srcdir/tests/live/daemon-lib.sh"
command -v crun >/dev/null 2>&1 || skip "crun is not installed (apt-get install crun)"
need_cmd unshare
setup_tmp

policy box "$BOX_POLICY"
start_daemon
make_bundle "$T/bundle" "$SOCK" policy=box "$BOX_SCRIPT"

id=unotify-test-$$
set +e
timeout -k 5 60 unshare -m --propagation private sh -c '
	if mountpoint -q /sys/fs/cgroup/unified; then umount /sys/fs/cgroup/unified || exit 99; fi
	crun --root "$1" run --bundle "$2" "$3"' sh "$T/crun" "$T/bundle" "$id" \
	</dev/null >"$T/.out" 2>"$T/.err"
RC=$?
set -e
crun --root "$T/crun" delete -f "$id" >/dev/null 2>&1 || true
OUT=$(cat "$T/.out")
ERR=$(cat "$T/.err")
if [ "$RC" = 99 ] || { [ "$RC" != 0 ] && grep -Eqi 'cgroup' "$T/.err"; }; then
	skip "crun cannot run containers here: $(tail -1 "$T/.err")"
fi
expect_run "crun container decided by unotifyd's policy box" 0 "$BOX_EXPECTED"
expect_log "the sandbox is the container" "sandbox $id pid=[0-9]+ registered by .*: policy box"
expect_daemon_alive "after the container"
stop_daemon
