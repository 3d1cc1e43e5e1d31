#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, the implicit set borrowed-fds (pidfd_getfd refused in the
# kernel, r5-helper-pidfd.sh) against a policy with no rule: it is added
# to "every policy with a rule", but a policy whose default goes to the
# supervisor (`default log`: contrib/policies/audit-all.policy) has none,
# and every call of the program is still notified to it. Under `run
# --daemon` the program connects to unotifyd's socket, asks SO_PEERPIDFD
# and takes the daemon's listeners with pidfd_getfd: it can then answer
# its own calls (unrecorded) and every other sandbox's. The forbidden
# effect: STOLE. Guard: under `unotify run` the helper holds nothing
# (BLOCKED ENOENT, passes).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root; the program is root with its capabilities"
setup_tmp

AUDIT_ALL=$top_srcdir/contrib/policies/audit-all.policy
[ -f "$AUDIT_ALL" ] || fail "$AUDIT_ALL is missing"
mkdir -p "$T/d"
echo data >"$T/d/f"

case_begin run-helper "(run, audit-all.policy) SCM_PIDFD of the send helper: it holds nothing"
urun --log /dev/null --policy "$AUDIT_ALL" -- "$ATTACK" r5-helper-pidfd "$T/d/f"
if expect_blocked; then case_pass "$(results)"; fi

policy box "$(cat "$AUDIT_ALL")"
policy free "default allow"
start_daemon
case_begin daemon-peer "(run --daemon, audit-all.policy) SO_PEERPIDFD of unotifyd, pidfd_getfd of its listeners"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
	"$ATTACK" r5-peer-pidfd "$SOCK" "$T/d/f"
if expect_blocked; then case_pass "$(results)"; fi
daemon_alive || case_fail "unotifyd died"

# No rule at all: the program is free in its own sandbox, but unotifyd's
# descriptors are the listeners of every other sandbox.
case_begin daemon-peer-norule "(run --daemon, default allow only) SO_PEERPIDFD of unotifyd, pidfd_getfd of its listeners"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name free -- \
	"$ATTACK" r5-peer-pidfd "$SOCK" "$T/d/f"
if expect_blocked; then case_pass "$(results)"; fi
daemon_alive || case_fail "unotifyd died"

finish
