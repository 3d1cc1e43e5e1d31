#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# plot.sh: pictures from `unotify bench --json` files (schema unotify-bench/1).
#
#   unotify bench --json >before.json
#   unotify bench --json --pin same >pinned.json
#   contrib/bench/plot.sh -o bench.png before.json pinned.json
#
# writes two PNG files:
#   bench.png      one group of bars per row (mode and axes), one bar per JSON
#                  file: the median of batch medians, with a whisker from the
#                  fastest call to p99; logarithmic axis, in microseconds.
#   bench-cdf.png  the distribution of every row of every file: the fraction
#                  of calls faster than x, from the JSON histograms.
# Needs jq and gnuplot (Debian: apt-get install jq gnuplot-nox).
set -eu

usage() {
	cat <<EOF
Usage: $0 [-o OUT.png] [-t TITLE] FILE.json...
  -o OUT.png   output (default: bench.png; the CDF goes to OUT-cdf.png)
  -t TITLE     picture title (default: the first file's machine and kernel)
EOF
}

OUT=bench.png
TITLE=
while getopts "o:t:h" opt; do
	case $opt in
	o) OUT=$OPTARG ;;
	t) TITLE=$OPTARG ;;
	h) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { usage >&2; exit 2; }

for tool in jq gnuplot; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "$0: needs $tool (Debian: apt-get install jq gnuplot-nox)" >&2
		exit 1
	}
done
for f in "$@"; do
	jq -e '.schema == "unotify-bench/1"' "$f" >/dev/null 2>&1 || {
		echo "$0: $f is not an unotify bench --json file (schema unotify-bench/1)" >&2
		exit 1
	}
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/unotify-plot.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

CDF_OUT=${OUT%.png}-cdf.png
[ -n "$TITLE" ] || TITLE=$(jq -r '"unotify bench: \(.machine.cpu_model), \(.machine.nproc) CPUs, Linux \(.machine.kernel)"' "$1")

# Bars: one line per row label, three columns (median, min, p99 in us) per file.
# Labels come in the order of their first appearance; "-" where a file lacks one.
n=0
for f in "$@"; do
	n=$((n + 1))
	jq -r '.runs[] | select(.status == "ok") |
		[.label, (.ns.median / 1000), (.ns.min / 1000), (.ns.p99 / 1000)] | @tsv' \
		"$f" >"$TMP/bars.$n"
done
awk -F'\t' -v files="$n" '
	{ file = FILENAME; sub(/.*\./, "", file) }
	!($1 in seen) { seen[$1] = 1; order[++rows] = $1 }
	{ v[$1, file] = $2 " " $3 " " $4 }
	END {
		for (r = 1; r <= rows; r++) {
			label = order[r]
			gsub(/ /, "\\n", label)
			line = "\"" label "\""
			for (k = 1; k <= files; k++)
				line = line " " (((order[r], k) in v) ? v[order[r], k] : "- - -")
			print line
		}
	}' $(i=1; while [ $i -le $n ]; do printf '%s ' "$TMP/bars.$i"; i=$((i + 1)); done) \
	>"$TMP/bars.dat"

# CDF: one block per (file, row), a title line first, then "us fraction" steps.
k=0
for f in "$@"; do
	k=$((k + 1))
	jq -r --arg file "$(basename "$f" .json)" '.runs[] | select(.status == "ok") |
		(if $file == "" then .label else "\($file): \(.label)" end) as $t |
		.calls as $n |
		"\"\($t)\" \"\"",
		"\(.histogram[0].lo_ns / 1000) 0",
		(foreach .histogram[] as $b (0; . + $b.count; "\($b.hi_ns / 1000) \(. / $n)")),
		"", ""' "$f"
done >"$TMP/cdf.dat"
blocks=$(grep -c '^"' "$TMP/cdf.dat" || true)

titles=
for f in "$@"; do
	titles="$titles \"$(basename "$f" .json)\""
done

cat >"$TMP/plot.gp" <<EOF
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
	set terminal pngcairo size 1400,700 font "sans,10"
} else {
	set terminal png size 1400,700
}
set output "$OUT"
set title "$TITLE (median, whisker min..p99)"
set ylabel "microseconds per call (log)"
set logscale y
set grid ytics
set style data histogram
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set boxwidth 0.9
set key top left
set xtics rotate by -30 nomirror
set datafile missing "-"
files = '$titles'
plot for [k=1:$n] "$TMP/bars.dat" using (column(3*k-1)):(column(3*k)):(column(3*k+1)):xtic(1) title word(files, k)

set output "$CDF_OUT"
unset logscale y
set style data lines
set logscale x
set title "$TITLE: distribution of call times"
set xlabel "microseconds per call (log)"
set ylabel "fraction of calls faster"
set yrange [0:1.02]
set xtics norotate
set key bottom right
plot for [i=0:$((blocks - 1))] "$TMP/cdf.dat" index i using 1:2 with steps lw 2 title columnheader(1)
EOF
gnuplot "$TMP/plot.gp"
echo "wrote $OUT and $CDF_OUT"
