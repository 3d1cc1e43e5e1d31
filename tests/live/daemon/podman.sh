#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# podman 4.3 passes a profile's listenerPath through: `podman run
# --security-opt seccomp=profile.json` with Docker's default profile plus
# openat and open notified to unotifyd, on an image imported from a local
# tarball (no registry), with podman's default capability set (Docker's:
# CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, NET_BIND_SERVICE, SETFCAP,
# SETGID, SETPCAP, SETUID, SYS_CHROOT), once with crun and once with runc.
# Podman's state lives in the test's directory (--root, --runroot, vfs),
# with cgroupfs, no network, file events; nofile and nproc at 1024 (podman's
# defaults exceed this VM's hard limits, which its root, lacking
# CAP_SYS_RESOURCE, cannot raise); crun in a private mount namespace without
# the hybrid cgroup mount, as in crun.sh.

. "$top_srcdir/tests/live/daemon-lib.sh"
command -v podman >/dev/null 2>&1 || skip "podman is not installed (apt-get install podman)"
need_cmd jq
need_cmd unshare
setup_tmp

policy dock "$RUNTIME_POLICY"
start_daemon --log-level all
make_bundle "$T/bundle" "$SOCK" policy=dock "true"
tar -C "$T/bundle/rootfs" -cf "$T/rootfs.tar" .

PODMAN="podman --root $T/storage --runroot $T/run --storage-driver vfs --cgroup-manager cgroupfs --events-backend file"
# shellcheck disable=SC2086
capture "podman import" $PODMAN import "$T/rootfs.tar" localhost/unotify-test:1
[ "$RC" = 0 ] || skip "podman cannot import an image here: $(printf '%s' "$ERR" | tail -1)"
say "ok: the image is imported from a local tarball"

jq --arg sock "$SOCK" --arg meta policy=dock --argjson notify "$RUNTIME_NOTIFIED" '
	.syscalls |= map(.names -= $notify | select(.names | length > 0))
	| .syscalls += [{names: $notify, action: "SCMP_ACT_NOTIFY"}]
	| .listenerPath = $sock | .listenerMetadata = $meta' \
	"$top_srcdir/tests/data/oci/docker-default.json" >"$T/profile.json"

# podman_run RUNTIME: the container, its output in OUT.
podman_run() {
	# shellcheck disable=SC2086
	capture "podman run --runtime $1" unshare -m --propagation private sh -c '
		if [ "$1" = crun ] && mountpoint -q /sys/fs/cgroup/unified; then
			umount /sys/fs/cgroup/unified || exit 99
		fi
		shift
		exec "$@"' sh "$1" $PODMAN --runtime "$1" run --rm --network none \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
		--security-opt seccomp="$T/profile.json" localhost/unotify-test:1 /bin/sh -c "$RUNTIME_SCRIPT"
	[ "$RC" != 99 ] || skip "cannot hide the hybrid cgroup mount from crun"
}

podman_run crun
expect_container "podman, crun, Docker's profile and capabilities, a write-path rule" "$RUNTIME_EXPECTED"
expect_log "podman's container registered with policy dock" "sandbox [0-9a-f]{64} pid=[0-9]+ registered by .*: policy dock"

command -v runc >/dev/null 2>&1 || skip "runc is not installed (apt-get install runc)"
podman_run runc
expect_container "podman, runc, Docker's profile and capabilities, a write-path rule" "$RUNTIME_EXPECTED"
expect_daemon_alive "after podman's containers"
stop_daemon
