#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/summary.sh BUILDDIR...: the results of the last `make check` in each
# build directory, from Automake's .trs files. Every test speaks TAP, so the
# counts are TAP cases (a test program or script holds many; a script that
# skips as a whole counts as one skipped case), XFAIL counted as passed,
# ERROR (a test that died, broke its plan or exited non-zero after its
# cases) as failed. Prints one line per failure, one line per skipped case
# with its reason (what the TAP driver wrote in the test's log), then
# exactly one line "N passed, N failed, N skipped".
# Exit 1 when a test failed or none ran.
set -eu

if [ $# -eq 0 ]; then
	echo "usage: $0 BUILDDIR..." >&2
	exit 2
fi

passed=0
failed=0
skipped=0
report=$(mktemp)
list=$(mktemp)
trap 'rm -f "$report" "$list"' EXIT

# first_lines COUNT FALLBACK: the first COUNT lines of stdin, FALLBACK for
# each one missing (a log that does not say as many as the .trs counted).
first_lines() {
	{
		cat
		i=0
		while [ "$i" -lt "$1" ]; do
			echo "$2"
			i=$((i + 1))
		done
	} | head -n "$1"
}

# skip_lines LOG NAME COUNT: COUNT lines, one per skipped case of a test,
# from the TAP driver's "SKIP: TEST N - what # SKIP why" lines in its log
# ("SKIP: TEST - why" when the whole test skipped).
skip_lines() {
	{ [ ! -f "$1" ] || grep -E '^SKIP: ' "$1"; } |
		sed -e 's/ # SKIP */: /' -e 's/^SKIP: //' | first_lines "$3" "$2: no reason given"
}

# fail_lines LOG NAME COUNT: COUNT lines, one per failed case, from the TAP
# driver's "FAIL: TEST N - what" (ERROR:, XPASS:) lines in its log, so the
# report names the case and what it saw; "FAIL: NAME" for those not there.
fail_lines() {
	{ [ ! -f "$1" ] || grep -E '^(FAIL|ERROR|XPASS): ' "$1"; } |
		cut -c1-300 | first_lines "$3" "FAIL: $2"
}

for dir in "$@"; do
	if [ ! -d "$dir/tests" ]; then
		echo "$0: $dir: no tests directory (not a build directory?)" >&2
		continue
	fi
	prefix=
	[ $# -eq 1 ] || prefix="$dir: "
	# Sorted, so the report reads the same on every run.
	find "$dir/tests" -name '*.trs' | LC_ALL=C sort >"$list"
	while IFS= read -r trs; do
		name=${trs#"$dir"/}
		name=${name%.trs}
		skips=0
		fails=0
		# shellcheck disable=SC2013 # results are single words
		for result in $(sed -n 's/^:test-result: *//p' "$trs"); do
			case $result in
			PASS | XFAIL)
				passed=$((passed + 1))
				;;
			SKIP)
				skipped=$((skipped + 1))
				skips=$((skips + 1))
				;;
			*) # FAIL, ERROR, XPASS
				failed=$((failed + 1))
				fails=$((fails + 1))
				;;
			esac
		done
		[ "$fails" = 0 ] || fail_lines "${trs%.trs}.log" "$name" "$fails" |
			sed "s|^\([A-Z]*\): |\1: $prefix|; s|\$| (see ${trs%.trs}.log)|" >>"$report"
		[ "$skips" = 0 ] || skip_lines "${trs%.trs}.log" "$name" "$skips" |
			sed "s|^|SKIP: $prefix|" >>"$report"
	done <"$list"
done

cat "$report"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + failed + skipped)) -gt 0 ]
