#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every example of README.md and the man pages, run: examples.py extracts
# them mechanically (each block must carry an `example:` marker, so a new
# one cannot escape), then policies are written and checked, and commands
# run in order in a scratch directory. A command passes when it exits 0, or
# the status its line names in a comment (`# exit N`). `skip` examples are
# skipped cases with their reason; `text` ones (outputs, grammars) are not
# examples to run.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp
need_root "the examples run programs as nobody"
need_cmd python3

EX=$T/examples
W=$T/work
mkdir -p "$EX" "$W/bin"
# From the source tree, so that each example is named as README.md:LINE.
# shellcheck disable=SC2016 # expanded by that shell
capture "examples.py" sh -c 'cd "$0" && exec python3 tests/live/tools/examples.py "$1" \
	README.md man/*.[0-9]' "$top_srcdir" "$EX"
[ "$RC" = 0 ] || { show_run; fail "examples.py: an example without a marker, or a broken page"; }
total=$OUT
[ "$total" -gt 20 ] || fail "only $total examples found: the extractor is broken"
say "ok: $total examples extracted, every one marked"

# What the examples name: the source tree's contrib/, a program, a server,
# the profile and base policy the includes name, the commands themselves.
ln -s "$top_srcdir/contrib" "$W/contrib"
ln -s /bin/true "$W/program"
ln -s /bin/true "$W/server"
cp "$top_srcdir/tests/data/oci/docker-default.json" "$W/"
printf 'allow getpid gettid\n' >"$W/base.policy"
ln -s "$UNOTIFY" "$W/bin/unotify"
ln -s "$top_builddir/daemon/unotifyd/unotifyd" "$W/bin/unotifyd"
chmod 755 "$W"

# Policies first: the commands use them (web.policy, my.policy).
n=1
while [ -f "$EX/$n.kind" ]; do
	set -- $(cat "$EX/$n.kind")
	where=$(cat "$EX/$n.where")
	if [ "$1" = policy ]; then
		name=${2:-example-$n.policy}
		cp "$EX/$n.text" "$W/$name"
		capture "policy check $name" "$UNOTIFY" policy check "$W/$name"
		expect_status "$where: the policy $name checks" 0
	fi
	n=$((n + 1))
done

# run_line WHERE COMMAND: one command of a shell example, run in $W.
run_line() {
	want=$(printf '%s\n' "$2" | sed -n 's/.*# *exit \([0-9]*\).*/\1/p')
	cd "$W"
	capture "$1: $2" sh -c "$2"
	cd "$top_builddir"
	expect_status "$1: $2" "${want:-0}"
}
PATH=$W/bin:$PATH

n=1
while [ -f "$EX/$n.kind" ]; do
	set -- $(cat "$EX/$n.kind")
	kind=$1
	shift
	where=$(cat "$EX/$n.where")
	case $kind in
	shell)
		# Lines joined at a trailing backslash; blank lines and comments skipped.
		sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta' "$EX/$n.text" |
			grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' >"$T/lines"
		while IFS= read -r line; do
			run_line "$where" "$line" </dev/null
		done <"$T/lines"
		;;
	skip) skip_case "$where: $(head -1 "$EX/$n.text")" "$*" ;;
	text | policy) ;;
	*) fail "$where: unknown example kind '$kind'" ;;
	esac
	n=$((n + 1))
done
