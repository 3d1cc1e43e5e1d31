#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The forms of daemon/unotifyd/capabilities.list, the one list of the
# capabilities unotifyd keeps:
#   capabilities.sh c LIST          the daemon's table (a C initializer list)
#   capabilities.sh systemd LIST    "CAP_A CAP_B ..." (CapabilityBoundingSet=)
#   capabilities.sh k8s LIST        "A", "B", ... (securityContext.capabilities.add)
#   capabilities.sh man LIST        .TP entries for unotifyd(8)
#   capabilities.sh update LIST FILE...   rewrites the generated part of each
#                                   FILE (the DaemonSet, unotifyd(8)), between
#                                   its BEGIN/END capabilities markers
#   capabilities.sh check LIST FILE...    exit 1 (with the diff) when one is stale
set -eu

[ $# -ge 2 ] || { echo "usage: $0 c|systemd|k8s|man|update|check LIST [FILE...]" >&2; exit 2; }
mode=$1
list=$2
shift 2

# The entries: "NAME<tab>why", comments and blank lines skipped.
entries() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$list"
}

names() {
	entries | cut -f1
}

k8s_form() {
	names | sed 's/^CAP_//; s/.*/"&"/' | paste -sd, - | sed 's/,/, /g'
}

man_form() {
	entries | awk -F '\t' '{ printf ".TP\n.B %s\n%s\n", $1, $2 }'
}

# The generated lines of FILE's region (INDENT: the marker's), as FILE's kind wants them.
region() {
	case $1 in
	*.yaml) printf '%sadd: [%s]\n' "$2" "$(k8s_form)" ;;
	*.[1-8]) man_form ;;
	*) echo "$0: $1: no generated region for this kind of file" >&2; exit 2 ;;
	esac
}

# FILE with its region between "BEGIN capabilities" and "END capabilities"
# (comment lines of its own syntax) regenerated; the indentation is the marker's.
rewrite() {
	begin=$(grep -n 'BEGIN capabilities' "$1" | head -1 | cut -d: -f1)
	end=$(grep -n 'END capabilities' "$1" | head -1 | cut -d: -f1)
	[ -n "$begin" ] && [ -n "$end" ] && [ "$begin" -lt "$end" ] ||
		{ echo "$0: $1: no BEGIN/END capabilities markers" >&2; exit 2; }
	indent=$(sed -n "${begin}p" "$1" | sed 's/[^[:space:]].*//')
	sed -n "1,${begin}p" "$1"
	region "$1" "$indent"
	sed -n "${end},\$p" "$1"
}

case $mode in
c) names | sed 's/.*/\t&,/' ;;
systemd) names | paste -sd' ' - ;;
k8s) k8s_form ;;
man) man_form ;;
update)
	for f in "$@"; do
		rewrite "$f" >"$f.new"
		if cmp -s "$f" "$f.new"; then rm -f "$f.new"; else mv "$f.new" "$f"; echo "updated $f"; fi
	done
	;;
check)
	stale=0
	for f in "$@"; do
		if ! rewrite "$f" | diff -u "$f" - >&2; then
			echo "$f: its capabilities differ from $list: run make update-capabilities" >&2
			stale=1
		fi
	done
	exit $stale
	;;
*) echo "$0: unknown mode $mode" >&2; exit 2 ;;
esac
