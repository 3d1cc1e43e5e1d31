# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of tests/adversarial/r11-oci-*.sh: an OCI seccomp profile included
# in a policy, one call made under `unotify run` with it, and the outcome
# runc 1.1.5 with libseccomp 2.5.4 gives that call under the same profile,
# written in the test (the red team measured it; a test needs no runc).
# The promise under test (unotify.policy(5), OCI PROFILES): an included
# profile refuses at least what runc refuses with it.
. "$top_srcdir/tests/adversarial/lib.sh"

PROBE=${PROBE:-$top_builddir/tests/live/probe}
[ -x "$PROBE" ] || { echo "Bail out! $PROBE is not built (make check builds it)"; exit 1; }

# profile NAME JSON: the profile $T/NAME.json and $T/NAME.policy, a policy
# that includes it and says nothing else.
profile() {
	printf '%s\n' "$2" >"$T/$1.json"
	printf 'include %s\n' "$T/$1.json" >"$T/$1.policy"
}

# outcome: the last run's outcome: `killed` (SIGSYS from the kernel's
# filter, SIGKILL from the supervisor), `ret` (the call ran), or the
# probe's `err ERRNO`.
outcome() {
	if hung; then
		echo hung
	elif [ "$RC" = $((128 + 31)) ] || [ "$RC" = $((128 + 9)) ]; then
		echo killed
	else
		results | head -1 | sed 's/^ret=.*/ret/'
	fi
}

# socket_case NAME WHAT PROFILE DOMAIN TYPE WANT: socket(DOMAIN, TYPE, 0)
# under the policy PROFILE must have runc's outcome WANT.
socket_case() {
	case_begin "$1" "$2"
	urun --policy "$T/$3.policy" -- "$PROBE" syscall 41 "$4" "$5" 0
	if [ "$(outcome)" = "$6" ]; then
		case_pass "$6, as under runc"
	else
		case_fail "runc gives $6, unotify $(outcome)"
	fi
}

# base_names: the names Docker's default profile allows unconditionally
# (its first entry), and arch_prctl: what a program needs to start, for
# profiles whose default refuses. socket is not among them.
base_names() {
	awk '/"names": \[/ { on = 1; next } on && /\]/ { exit } on' \
		"$top_srcdir/tests/data/oci/docker-default.json" | tr -d '\t\n'
	printf ',"arch_prctl"'
}
