#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/summary.sh BUILDDIR...: the results of the last `make check` in each
# build directory, from Automake's .trs files: one line per failure, one
# line per skip with its reason (the last "SKIP..." line the test printed),
# then exactly one line "N passed, N failed, N skipped".
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

# The reason a test skipped: its last line starting with SKIP/skip, other
# than the harness's own "SKIP: name" / "SKIP name (exit status: 77)".
skip_reason() {
	log=$1
	name=$2
	[ -f "$log" ] || { echo "no log"; return; }
	reason=$(grep -E '^(SKIP|skip)' "$log" |
		grep -v -E '^SKIP [^ ]+ \(exit status: [0-9]+\)$' |
		grep -v -F -e "SKIP: $name" |
		tail -1 | sed -E 's/^(SKIP|skip)[: ]*//')
	echo "${reason:-no reason given}"
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
		# shellcheck disable=SC2013 # results are single words
		for result in $(sed -n 's/^:test-result: *//p' "$trs"); do
			case $result in
			PASS | XFAIL)
				passed=$((passed + 1))
				;;
			SKIP)
				skipped=$((skipped + 1))
				echo "SKIP: $prefix$name: $(skip_reason "${trs%.trs}.log" "$name")" >>"$report"
				;;
			*) # FAIL, ERROR, XPASS
				failed=$((failed + 1))
				echo "$result: $prefix$name (see ${trs%.trs}.log)" >>"$report"
				;;
			esac
		done
	done <"$list"
done

cat "$report"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ $((passed + failed + skipped)) -gt 0 ]
