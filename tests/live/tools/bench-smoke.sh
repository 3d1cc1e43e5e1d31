#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify bench`: a tiny run of every available mode and axis, as JSON. The
# JSON must parse, carry every documented field, and hold sane values
# (counts > 0, min <= p50 <= p90 <= p99 <= p99.9 <= max, histogram = calls).
# No timing is asserted: a benchmark reports figures, it does not judge them.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp
# contrib/quickstart.sh check sets it (a reason) for its second build: this
# test ran in the first, and the sanitizers see the same code in the others.
[ -z "${UNOTIFY_BENCH_SMOKE_SKIP:-}" ] || skip "$UNOTIFY_BENCH_SMOKE_SKIP"
need_root "loads seccomp filters and opens perf counters"
need_cmd jq
ucmd info
printf '%s\n' "$OUT" | grep -q '^user-notification: available' ||
	skip "this kernel has no seccomp user notification"

ITER=50
BATCHES=4
# The daemon mode's private unotifyd keeps its socket, policy and logs here:
# nothing may be left behind.
mkdir "$T/tmp"
export TMPDIR="$T/tmp"
SMALL="--iterations $ITER --batches $BATCHES --warmup 20 --repeat 1"

# check_json WHAT FILE JQ-EXPRESSION: the expression is true for FILE.
check_json() {
	if ! jq -e "$3" "$2" >/dev/null 2>"$T/.jq"; then
		say "$(printf -- '--- %s:\n' "$2"; head -c 4000 "$2"
			printf -- '\n--- jq: %s\n' "$(cat "$T/.jq")")"
		fail "$1: $3 does not hold"
	fi
	say "ok: $1"
}

# Every field of one "ok" run, and the order of its percentiles.
RUN_OK='
	(.label | type == "string") and (.mode | type == "string") and
	(.pin | IN("free", "same", "different")) and (.threads >= 1) and
	(.runs >= 1) and (.calls > 0) and (.error == null) and
	(.ns.min > 0) and (.ns.min <= .ns.p50) and (.ns.p50 <= .ns.p90) and
	(.ns.p90 <= .ns.p99) and (.ns.p99 <= .ns.p99_9) and (.ns.p99_9 <= .ns.max) and
	(.ns.median >= .ns.min) and (.ns.median <= .ns.max) and
	(.ns.mean >= .ns.min) and (.ns.mean <= .ns.max) and
	(.spread >= 0) and (.noisy | type == "boolean") and (.calls_per_second > 0) and
	(.target.source | IN("perf_event", "proc_sched", "rusage")) and
	(.target.context_switches >= 0) and
	(([.histogram[].count] | add) == .calls) and
	all(.histogram[]; .lo_ns < .hi_ns and .count > 0) and
	has("floor") and has("ratio_to_floor") and has("sync_gain") and has("wait") and has("sync") and
	((.run_medians_ns | length) == .runs) and all(.run_medians_ns[]; . > 0)'

say "== every mode, sync on and off, as JSON"
ucmd bench --mode raw,kernel-allowed,bare,lib,run,daemon,futex --sync both $SMALL --json
J="$T/all.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench exits 0" 0
check_json "the JSON parses and names its schema" "$J" '.schema == "unotify-bench/1"'
check_json "machine: hostname, nproc, CPU model, kernel" "$J" \
	'(.machine.hostname | length > 0) and (.machine.nproc >= 1) and
	 (.machine.cpu_model | length > 0) and (.machine.kernel == "'"$(uname -r)"'") and
	 (.machine.sync_wake_up | type == "boolean")'
check_json "date in ISO 8601 UTC, command recorded" "$J" \
	'(.date | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")) and
	 (.command | startswith("unotify bench"))'
check_json "settings as asked" "$J" \
	".settings.iterations == $ITER and .settings.batches == $BATCHES and
	 .settings.repeat == 1 and .settings.warmup == 20 and .settings.precision > 0"
check_json "eleven rows: raw, kernel-allowed, bare x2, lib x2, run x2, daemon x2, futex" "$J" \
	'[.runs[].label] == ["raw", "kernel-allowed", "bare sync=on", "bare sync=off",
	  "lib sync=on", "lib sync=off", "run sync=on", "run sync=off", "daemon sync=on",
	  "daemon sync=off", "futex"]'
if jq -e '.machine.sync_wake_up' "$J" >/dev/null; then
	check_json "every row measured" "$J" 'all(.runs[]; .status == "ok")'
else
	check_json "sync=on rows say the kernel cannot" "$J" \
		'all(.runs[] | select(.sync == true); .status == "unsupported")'
fi
check_json "every measured row is complete and sane" "$J" \
	"all(.runs[] | select(.status == \"ok\"); $RUN_OK)"
check_json "every row made iterations x batches calls" "$J" \
	"all(.runs[] | select(.status == \"ok\"); .calls == $ITER * $BATCHES)"
check_json "a supervisor side only where there is one" "$J" \
	'all(.runs[] | select(.status == "ok");
	     if (.mode | IN("raw", "kernel-allowed")) then .supervisor == null
	     else (.supervisor.context_switches >= 0) end)'
check_json "lib, run and daemon are compared with the bare floor of their sync" "$J" \
	'all(.runs[] | select((.mode | IN("lib", "run", "daemon")) and .status == "ok");
	     .floor == ("bare sync=" + (if .sync then "on" else "off" end)) and
	     .ratio_to_floor > 0)'
check_json "the daemon rows count unotifyd's supervising thread" "$J" \
	'all(.runs[] | select(.mode == "daemon" and .status == "ok");
	     .wait == "block" and (.supervisor.context_switches > 0))'
check_json "sync=on rows carry the hand-off's gain" "$J" \
	'all(.runs[] | select(.sync == true and .status == "ok"); .sync_gain > 0)'

say "== the axes: every wait strategy and pinning, two threads"
ucmd bench --mode bare --sync on --wait all --pin all --threads 1,2 $SMALL --json
J="$T/axes.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench with every axis exits 0" 0
check_json "4 waits x 3 pinnings x 2 thread counts" "$J" '.runs | length == 24'
check_json "each row measured, or unsupported with a reason" "$J" \
	'all(.runs[]; .status == "ok" or (.status == "unsupported" and (.error | length > 0)))'
check_json "every measured row is complete and sane" "$J" \
	"all(.runs[] | select(.status == \"ok\"); $RUN_OK)"
check_json "two threads make twice the calls" "$J" \
	"all(.runs[] | select(.status == \"ok\" and .threads == 2); .calls == 2 * $ITER * $BATCHES)"

say "== the daemon: pinning and two target threads"
ucmd bench --mode daemon --sync on --pin all --threads 1,2 $SMALL --json
J="$T/daemon.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench --mode daemon with every pinning exits 0" 0
check_json "3 pinnings x 2 thread counts" "$J" '.runs | length == 6'
check_json "each row measured, or unsupported with a reason" "$J" \
	'all(.runs[]; .status == "ok" or (.status == "unsupported" and (.error | length > 0)))'
check_json "every measured row is complete and sane" "$J" \
	"all(.runs[] | select(.status == \"ok\"); $RUN_OK)"

say "== decided path calls: the floor, the library with the engine, the daemon"
ucmd bench --call open,stat,access,readlink --path both \
	--mode raw,bare,lib,run,daemon,bare-walk,bare-creds,bare-herd,bare-workers \
	--sync on $SMALL --json
J="$T/paths.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench --call with every path call exits 0" 0
check_json "4 calls x 2 paths x 9 modes" "$J" '.runs | length == 72'
check_json "each row names its call and path" "$J" \
	'all(.runs[]; (.call | IN("open", "stat", "access", "readlink")) and
	     (.path | IN("found", "missing")))'
# check_path_rows WHAT FILE LABEL-SUFFIX: every path row measured, sane and
# compared with the floor of its own call and path ("bare open ENOENT" + suffix).
check_path_rows() {
	check_json "$1: every row measured (each call's result was checked)" "$2" \
		'all(.runs[]; .status == "ok")'
	check_json "$1: every measured row is complete and sane" "$2" \
		"all(.runs[] | select(.status == \"ok\"); $RUN_OK)"
	check_json "$1: each row is compared with the floor of its own call and path" "$2" \
		"all(.runs[] | select(.mode != \"bare\");
		     .floor == (\"bare \" + .call + (if .path == \"missing\" then \" ENOENT\" else \"\" end) +
		                \"$3 sync=on\"))"
}
check_path_rows "absolute" "$J" ""
check_json "getppid rows keep call getppid and path null" "$T/all.json" \
	'all(.runs[]; .call == "getppid" and .path == null and .relative == null)'
check_json "--path both is absolute" "$J" 'all(.runs[]; .relative == false)'

say "== decided path calls named relative to the target's working directory"
ucmd bench --call open,stat,access,readlink --path relative,relative-missing \
	--mode bare,lib,run,daemon --sync on $SMALL --json
J="$T/relative.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench --path relative,relative-missing exits 0" 0
check_json "4 calls x 2 paths x 4 modes, all relative" "$J" \
	'(.runs | length == 32) and all(.runs[]; .relative == true)'
check_path_rows "relative" "$J" " relative"
check_json "every relative row's calls reached its supervisor" "$J" \
	'all(.runs[]; .supervisor.context_switches >= .calls / 2)'
ucmd bench --call open --path all --mode bare --sync on $SMALL --json
printf '%s\n' "$OUT" >"$T/path-all.json"
check_json "--path all is the four kinds" "$T/path-all.json" \
	'[.runs[] | [.path, .relative]] == [["found", false], ["missing", false],
	                                   ["found", true], ["missing", true]]'

say "== rounds: each row once per round, the ratio taken round by round"
ucmd bench --mode bare,lib,run,daemon --sync on --iterations $ITER --batches $BATCHES \
	--warmup 20 --repeat 3 --json
J="$T/rounds.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench --repeat 3 exits 0" 0
check_json "every row ran three rounds, a median for each" "$J" \
	'all(.runs[]; .status == "ok" and .runs == 3 and (.run_medians_ns | length) == 3)'
# The documented ratio: the median of each round's run median over the floor's
# of the same round (not the ratio of the two rows' medians).
check_json "ratio_to_floor is the median of the per-round ratios" "$J" \
	'(.runs[0].run_medians_ns) as $f |
	 all(.runs[1:][]; ([range(3) as $i | .run_medians_ns[$i] / $f[$i]] | sort | .[1]) as $m |
	     ((.ratio_to_floor - $m) | fabs) < 0.0001)'
check_json "the row median is still the median of every batch median" "$J" \
	'all(.runs[]; .ns.median >= .ns.min and .ns.median <= .ns.max)'
# Every daemon row's unotifyd is up while the other rows run: a row's target
# loads its own filter, not the kernel layer of the last daemon started (that
# one notifies readlink only, and the opens would run unsupervised).
ucmd bench --call open,readlink --path found --mode bare,lib,daemon --sync on \
	--iterations $ITER --batches $BATCHES --warmup 20 --repeat 2 --json
J="$T/rounds-paths.json"
printf '%s\n' "$OUT" >"$J"
expect_status "bench --call open,readlink --repeat 2 exits 0" 0
check_json "every row's calls reached its supervisor (it woke for them)" "$J" \
	'all(.runs[]; .status == "ok" and .supervisor.context_switches >= .calls / 2)'

say "== futex with several threads"
ucmd bench --mode futex --threads 3 $SMALL --json
printf '%s\n' "$OUT" >"$T/futex.json"
expect_status "futex with 3 threads exits 0" 0
check_json "futex row is sane" "$T/futex.json" \
	"(.runs | length == 1) and all(.runs[]; $RUN_OK)"

say "== text output"
ucmd bench --mode bare --sync on --iterations 20 --batches 2 --repeat 1 --compare
expect_status "text bench exits 0" 0
expect_grep "a table" "$OUT" '^run +\(us\)'
expect_grep "a row for bare" "$OUT" '^bare sync=on +[0-9]+\.[0-9]{2} '
expect_grep "a histogram" "$OUT" 'us \|#+ *\| [0-9]+$'
expect_grep "ratios" "$OUT" '^Ratio to the floor'

say "== no unotifyd: the daemon rows say why, the run goes on"
ucmd bench --mode raw,daemon --unotifyd "$T/no-such-unotifyd" $SMALL --json
printf '%s\n' "$OUT" >"$T/nodaemon.json"
expect_status "a missing unotifyd does not fail the run" 0
check_json "daemon rows unsupported, naming the path" "$T/nodaemon.json" \
	'[.runs[] | select(.mode == "daemon") | .status] == ["unsupported", "unsupported"] and
	 all(.runs[] | select(.mode == "daemon"); .error | contains("no-such-unotifyd"))'
check_json "and raw measured" "$T/nodaemon.json" \
	'.runs[0].mode == "raw" and .runs[0].status == "ok"'
ucmd bench --mode daemon --sync on --unotifyd-arg --no-such-option $SMALL
expect_status "a daemon that cannot start: nothing measured" 1
expect_grep "the daemon's own complaint is the reason" "$ERR" \
	"daemon sync=on: unotifyd exited at start \\(status 1\\):.*--no-such-option"

say "== nothing left behind"
if [ -n "$(ls -A "$T/tmp")" ]; then
	ls -la "$T/tmp"
	fail "the daemon mode left files in TMPDIR"
fi
say "ok: no temporary directory left"
if pgrep -f -- "$T/tmp/" >/dev/null; then
	pgrep -af -- "$T/tmp/"
	fail "a private unotifyd is still running"
fi
say "ok: no unotifyd left running"

say "== bad usage"
ucmd bench --mode nosuch
expect_status "an unknown mode is bad usage" 125
expect_grep "named in the message" "$ERR" "unknown value 'nosuch'"
ucmd bench --iterations 0
expect_status "zero iterations is bad usage" 125
ucmd bench --sync maybe
expect_status "--sync maybe is bad usage" 125
ucmd bench --call chmod
expect_status "an unknown --call is bad usage" 125
ucmd bench --call open --path sometimes
expect_status "an unknown --path is bad usage" 125
ucmd bench floor --receivers 0 -- true
expect_status "bench floor --receivers 0 is bad usage" 125
ucmd bench floor
expect_status "bench floor without a program is bad usage" 125
ucmd bench --list
expect_status "--list" 0
expect_grep "lists the floor" "$OUT" '^bare '
