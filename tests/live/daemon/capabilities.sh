#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The capabilities unotifyd keeps are one list (daemon/unotifyd/capabilities.list):
# the systemd unit the build makes grants exactly it, unotifyd(8) and the
# DaemonSet carry it, and the daemon starts and serves under the unit's
# bounding set and under the DaemonSet's capabilities (as a container
# runtime gives them: bounding = permitted = effective), keeping exactly
# that; under a narrower set it starts too and says what it runs without;
# without CAP_SETPCAP it cannot drop from a wider bounding set and says so,
# keeping only the list in its permitted and effective sets.

. "$top_srcdir/tests/live/daemon-lib.sh"
need_cmd setpriv
need_cmd capsh
setup_tmp

LIST=$top_srcdir/daemon/unotifyd/capabilities.list
UNIT=$top_builddir/contrib/systemd/unotifyd.service
YAML=$top_srcdir/contrib/kubernetes/unotifyd-daemonset.yaml

capture "the man page and the DaemonSet carry the list" sh "$top_srcdir/daemon/unotifyd/capabilities.sh" \
	check "$LIST" "$top_srcdir/man/unotifyd.8" "$YAML"
[ "$RC" = 0 ] || { printf '%s\n' "$ERR" | sed 's/^/# /'; fail "unotifyd(8) or the DaemonSet differ from $LIST"; }
say "ok: unotifyd(8) and the DaemonSet carry capabilities.list"

# The list, lower case and sorted, as capsh --decode prints it.
want=$(grep -v -e '^#' -e '^[[:space:]]*$' "$LIST" | cut -f1 | tr 'A-Z' 'a-z' | sort | paste -sd, -)
[ -f "$UNIT" ] || fail "$UNIT was not made by the build"
unit=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT" | tr ' ' '\n' | tr 'A-Z' 'a-z' | sort | paste -sd, -)
[ "$unit" = "$want" ] || fail "the unit's CapabilityBoundingSet is $unit, the list $want"
say "ok: the unit's CapabilityBoundingSet is the list"
yaml=$(sed -n 's/^ *add: \[\(.*\)\]$/\1/p' "$YAML" | tr -d '" ' | tr ',' '\n' | sed 's/^/cap_/' |
	tr 'A-Z' 'a-z' | sort | paste -sd, -)
[ "$yaml" = "$want" ] || fail "the DaemonSet adds $yaml, the list is $want"
say "ok: the DaemonSet adds the list"

# setpriv's form of a set: "-all,+sys_ptrace,+setuid,...".
setpriv_set() {
	printf '%s\n' "$1" | tr ',' '\n' | sed 's/^cap_/+/' | paste -sd, - | sed 's/^/-all,/'
}

# daemon_caps WHICH: the daemon's capability set (CapEff, CapPrm, CapBnd) as names.
daemon_caps() {
	capsh --decode="$(awk -v k="$1:" '$1 == k { print $2 }' "/proc/$DPID/status")" |
		sed 's/.*=//' | tr ',' '\n' | sort | paste -sd, -
}

policy default "default allow
return getppid 42
deny openat path=$T/secret EACCES"
echo secret >"$T/secret"
echo open >"$T/open"

# serves WHAT: a sandbox gets the daemon's answers, an open performed for it included.
serves() {
	register -- "$PROBE" getppid
	expect_out "$1: a sandbox is served" "ret=42"
	register --notify openat -- "$PROBE" read "$T/open"
	expect_out "$1: an open performed for a sandbox" "data=open"
	register --notify openat -- "$PROBE" read "$T/secret"
	expect_out "$1: a path rule" "err EACCES"
}

# under WHAT CAPS [EXTRA]: the daemon started with bounding set CAPS (as root, so
# permitted and effective are CAPS too); EXTRA: more setpriv options.
under() {
	: >"$T/d.err"
	DAEMON_WRAP="setpriv --inh-caps -all --bounding-set $(setpriv_set "$2") ${3:-} --"
	start_daemon
	DAEMON_WRAP=
	serves "$1"
}

under "the unit's bounding set" "$unit"
for set in CapEff CapPrm CapBnd; do
	[ "$(daemon_caps $set)" = "$want" ] || fail "unit: the daemon's $set is $(daemon_caps $set)"
done
say "ok: under the unit's set the daemon keeps exactly the list (effective, permitted, bounding)"
# Capabilities and seccomp filters are per thread: every thread of the daemon
# (the audit trail's writer too) has given up the same, or it would keep all.
# ThreadSanitizer's own thread starts before main: not the daemon's.
main_status=$(grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs|Seccomp|Seccomp_filters):' "/proc/$DPID/status")
for task in /proc/"$DPID"/task/*; do
	[ "$(grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs|Seccomp|Seccomp_filters):' "$task/status")" = \
		"$main_status" ] && continue
	ldd "$UNOTIFYD" 2>/dev/null | grep -q libtsan && continue
	fail "thread ${task##*/} of the daemon ($(cat "$task/comm")) has not given up what the main thread did: $(grep -E '^(CapEff|Seccomp_filters):' "$task/status" | paste -sd' ' -)"
done
[ "$(ls "/proc/$DPID/task" | wc -l)" -ge 2 ] || fail "the daemon runs no audit writer thread"
printf '%s\n' "$main_status" | grep -q '^Seccomp_filters:[[:space:]]*[1-9]' ||
	fail "the daemon has no seccomp filter"
say "ok: every thread of the daemon has its capabilities and its seccomp filter"
expect_no_grep "the unit's set lacks nothing" "$(cat "$T/d.err")" 'running without|failed'
stop_daemon

under "the DaemonSet's capabilities" "$yaml"
[ "$(daemon_caps CapEff)" = "$want" ] || fail "DaemonSet: the daemon's CapEff is $(daemon_caps CapEff)"
say "ok: under the DaemonSet's capabilities the daemon keeps exactly the list"
stop_daemon

narrow=$(printf '%s\n' "$want" | tr ',' '\n' | grep -v -e cap_mknod -e cap_net_raw | paste -sd, -)
under "a set without cap_mknod and cap_net_raw" "$narrow"
expect_log "it says what it runs without" "running without cap_net_raw cap_mknod \(not given"
[ "$(daemon_caps CapEff)" = "$narrow" ] || fail "narrow: the daemon's CapEff is $(daemon_caps CapEff)"
say "ok: under a narrower set it keeps what it was given of the list"
stop_daemon

# Everything but CAP_SETPCAP: the bounding set cannot shrink, the rest can.
all_but=$(capsh --decode="$(awk '$1 == "CapBnd:" { print $2 }' /proc/self/status)" | sed 's/.*=//' |
	tr ',' '\n' | grep -vx cap_setpcap | paste -sd, -)
under "root without cap_setpcap" "$all_but"
expect_log "it says the bounding set stays" "no CAP_SETPCAP to drop from the bounding set: .*cap_sys_admin"
[ "$(daemon_caps CapEff)" = "$want" ] && [ "$(daemon_caps CapPrm)" = "$want" ] ||
	fail "without setpcap: CapEff $(daemon_caps CapEff), CapPrm $(daemon_caps CapPrm)"
say "ok: without cap_setpcap it still keeps only the list in effect"
stop_daemon

# Plain root: everything not on the list is gone from the bounding set too.
under "plain root" "$(capsh --decode="$(awk '$1 == "CapBnd:" { print $2 }' /proc/self/status)" | sed 's/.*=//')"
[ "$(daemon_caps CapBnd)" = "$want" ] || fail "root: the daemon's CapBnd is $(daemon_caps CapBnd)"
say "ok: as root the bounding set is cut to the list"
stop_daemon
