#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The same-CPU hand-off (SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) on and off, and
# pinned with --cpu: the answers are the same in every mode.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

echo "sync data" >"$T/data"
cat >"$T/sync.policy" <<EOF
return getppid 42
deny  openat path=/etc/shadow EACCES
allow openat path=$T/data $LOADER_PATHS
deny  openat EPERM
default allow
EOF

# check_mode NAME OPTIONS...: the policy's answers under these options.
check_mode() {
	name=$1
	shift
	urun "$@" --policy "$T/sync.policy" -- "$PROBE" getppid
	expect_out "$name: return getppid 42" "ret=42"
	urun "$@" --policy "$T/sync.policy" -- "$PROBE" read "$T/data"
	expect_out "$name: allowed open, injected fd" "data=sync data"
	urun "$@" --policy "$T/sync.policy" -- "$PROBE" open /etc/shadow
	expect_out "$name: denied open" "err EACCES"
	urun "$@" --policy "$T/sync.policy" -- "$PROBE" threads 4 "$T/data" 200 42
	expect_out "$name: 4 threads" "ok 4"
}

say "== sync-wake-up on (the default)"
check_mode "sync"
say "== --no-sync"
check_mode "no-sync" --no-sync
say "== --cpu 0, with and without sync"
check_mode "cpu 0" --cpu 0
check_mode "cpu 0, no-sync" --cpu 0 --no-sync

say "== the kernel feature is reported"
ucmd info
expect_status "unotify info" 0
expect_grep "info lists sync-wake-up" "$OUT" '^sync-wake-up: (available|not available)$'
if [ "$(kernel_version)" -lt 606 ]; then
	skip_case "sync-wake-up available" "Linux $(uname -r) predates SYNC_WAKE_UP (6.6)"
else
	expect_grep "sync-wake-up available on Linux $(uname -r) (>= 6.6)" "$OUT" \
		'^sync-wake-up: available$'
fi

say "PASS: sync"
