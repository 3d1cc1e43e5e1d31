# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests of the Landlock layer (tests/live/run/landlock*.sh):
# one case run with the layer, with the layer of an older kernel and
# without it, whose answers must agree. Source it after tests/live/lib.sh.
#
# three WHAT WANT PROBE_ARGS...: the probe under $POL (and $RUN_OPTS) with
# the layer on, with UNOTIFY_LANDLOCK_ABI=$LOW_ABI and with --no-landlock;
# the outputs agree (after the sed expression $NORM, when set: e.g. an
# ephemeral port) and start with WANT. $RESET, when set, is run before each
# mode, so that a call that changes something starts from the same state.
LOW_ABI=${LOW_ABI:-2}
RESET=
NORM=
three() {
	what=$1
	want=$2
	shift 2
	outs=
	for mode in on low off; do
		opt=
		[ $mode = off ] && opt=--no-landlock
		[ -z "$RESET" ] || eval "$RESET"
		if [ $mode = low ]; then export UNOTIFY_LANDLOCK_ABI="$LOW_ABI"; fi
		# shellcheck disable=SC2086
		urun $opt $RUN_OPTS -q --log /dev/null --policy "$POL" -- "$PROBE" "$@"
		unset UNOTIFY_LANDLOCK_ABI
		[ "$RC" = 0 ] || {
			show_run
			fail "$what ($mode): unotify run exited $RC"
		}
		case $OUT in
		"$want"*) ;;
		*)
			show_run
			fail "$what ($mode): expected '$want...'"
			;;
		esac
		norm=$OUT
		[ -z "$NORM" ] || norm=$(printf '%s' "$OUT" | sed "$NORM")
		if [ -n "$outs" ] && [ "$norm" != "$outs" ]; then
			show_run
			fail "$what: '$OUT' ($mode) differs from '$outs' (layer on)"
		fi
		outs=$norm
	done
	say "ok: $what -> $(printf '%s' "$OUT" | head -n1 | cut -c1-50) (on, ABI $LOW_ABI, off)"
}
