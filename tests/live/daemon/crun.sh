#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# crun runs busybox containers whose seccomp profile names unotifyd's socket
# as listenerPath: crun's pretty-printed state message is understood and the
# containers' notified calls are decided by the daemon's policy, including
# path rules resolved in the container's own root. crun refuses hybrid
# cgroup setups: it runs in a private mount namespace without the cgroup2
# mount there. Two containers, as in runc.sh: a bundle of our own, and
# `crun spec`'s with its default capability set, Docker's default profile,
# openat and open notified, and a write-path rule.

. "$top_srcdir/tests/live/daemon-lib.sh"
command -v crun >/dev/null 2>&1 || skip "crun is not installed (apt-get install crun)"
need_cmd unshare
setup_tmp

policy box "$BOX_POLICY"
policy dock "$RUNTIME_POLICY"
start_daemon
make_bundle "$T/bundle" "$SOCK" policy=box "$BOX_SCRIPT"

id=unotify-test-$$
run_container crun "$T/bundle" "$id"
expect_container "crun container decided by unotifyd's policy box" "$BOX_EXPECTED"
expect_log "the sandbox is the container" "sandbox $id pid=[0-9]+ registered by .*: policy box"

runtime_spec_case crun "$id-spec"
expect_daemon_alive "after the containers"
stop_daemon
