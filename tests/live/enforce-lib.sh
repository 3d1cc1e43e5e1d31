# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers of the enforce-*.sh and race-*.sh tests: the calls a policy decides
# on a pointer argument are performed by the supervisor, and must give the
# target exactly what the kernel would have given it.
. "${top_srcdir:-.}/tests/live/lib.sh"

# Options for every run (e.g. "--user nobody"), and the policy file.
RUN_OPTS=${RUN_OPTS:-}
POL=

# native PROBE_ARGS...: the probe under `unotify run` with no user-space rule
# (the same user, cwd and umask as the supervised run): NATIVE is its output.
native() {
	# shellcheck disable=SC2086
	urun $RUN_OPTS --rule 'default allow' -- "$PROBE" "$@"
	[ "$RC" = 0 ] || {
		show_run
		fail "native run of probe $* failed"
	}
	NATIVE=$OUT
}

# supervised PROBE_ARGS...: the probe under $POL; every decision in the
# trail (--log-level all), so that `audited` sees what an allowed call read.
supervised() {
	# shellcheck disable=SC2086
	urun $RUN_OPTS --log-level all --policy "$POL" -- "$PROBE" "$@"
}

# same WHAT PREFIX PROBE_ARGS...: supervised, the output is the native one,
# and it starts with PREFIX ("ok", "err EACCES"...): the kernel's answer,
# out-parameters included.
same() {
	what=$1
	prefix=$2
	shift 2
	native "$@"
	supervised "$@"
	if [ "$RC" != 0 ] || [ "$OUT" != "$NATIVE" ]; then
		show_run
		fail "$what: supervised output differs from the native '$NATIVE'"
	fi
	case $OUT in
	"$prefix"*) ;;
	*)
		show_run
		fail "$what: expected '$prefix...'"
		;;
	esac
	say "ok: $what -> $(printf '%s' "$OUT" | cut -c1-60)"
}

# expect WHAT OUTPUT PROBE_ARGS...: supervised, the output is exactly OUTPUT.
expect() {
	what=$1
	want=$2
	shift 2
	supervised "$@"
	expect_out "$what" "$want"
}

# audited WHAT ERE: a line of the last run's audit trail matches ERE.
audited() {
	expect_grep "$1 (audit)" "$(audit_lines)" "$2"
}

# race_check NAME ITER: the last run printed "leaked=0 allowed=N denied=M other=K"
# with both outcomes seen (the race really ran).
race_check() {
	line=$(printf '%s\n' "$OUT" | grep '^leaked=' || true)
	if [ "$RC" != 0 ] || [ -z "$line" ]; then
		show_run
		fail "$1: the race probe did not complete"
	fi
	leaked=$(printf ' %s\n' "$line" | sed -n 's/.* leaked=\([0-9]*\).*/\1/p')
	allowed=$(printf ' %s\n' "$line" | sed -n 's/.* allowed=\([0-9]*\).*/\1/p')
	denied=$(printf ' %s\n' "$line" | sed -n 's/.* denied=\([0-9]*\).*/\1/p')
	say "$1: $line"
	[ "$leaked" -eq 0 ] || fail "$1: the denied value was acted on $leaked times out of $2"
	[ "$allowed" -gt 0 ] || fail "$1: no allowed call succeeded: the race did not run"
	[ "$denied" -gt 0 ] || fail "$1: no call was denied: the race did not run"
	say "ok: $1: never acted on the denied value ($allowed allowed, $denied denied)"
}

# race_sanity NAME PROBE_ARGS...: unsupervised, the probe does see leaks
# (else it could not see them under supervision either).
race_sanity() {
	name=$1
	shift
	out=$("$PROBE" "$@")
	case $out in
	"leaked=0 "*) fail "$name: unsupervised, the probe never met the denied value: $out" ;;
	"leaked="*) say "ok: $name unsupervised: $out" ;;
	*) fail "$name: probe $*: $out" ;;
	esac
}

# The number of race iterations (UNOTIFY_RACE_ITERATIONS to change it).
race_iterations() {
	ITER=${UNOTIFY_RACE_ITERATIONS:-100000}
	[ "$ITER" -ge 100000 ] || say "note: $ITER iterations (fewer than the required 100000)"
}

# free_ports N: sets P to a base port such that P..P+N-1 are free on
# 127.0.0.1 for TCP and UDP, below the ephemeral range (32768-60999), where
# the clients of other tests running at the same time take their ports.
free_ports() {
	P=$((10000 + ($$ % 5000) * 4))
	tries=0
	while :; do
		ok=1
		for q in $(seq "$P" $((P + $1 - 1))); do
			"$PROBE" bind stream inet 127.0.0.1 "$q" | grep -q '^ok' &&
				"$PROBE" bind dgram inet 127.0.0.1 "$q" | grep -q '^ok' || ok=0
		done
		[ "$ok" = 1 ] && return 0
		tries=$((tries + 1))
		[ $tries -lt 50 ] || fail "no $1 free ports on 127.0.0.1"
		P=$((P + $1))
		[ "$P" -lt 32000 ] || P=10000
	done
}
