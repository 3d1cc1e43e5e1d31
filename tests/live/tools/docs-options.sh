#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every option a command's --help lists is defined in its man page, and
# every option the man page defines is in --help: both read mechanically.
# --help lists an option at the start of an indented line (`  --cpu N`,
# `  -q, --quiet`) or in its Usage line; a man page defines one in the
# heading line after a .TP, in the command's section (`.SS run`, or
# `.SH OPTIONS`). -h/--help is every command's and not compared.
# Also: each command's --help exits 0, and bad usage exits 125 everywhere.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

UNOTIFYD=$top_builddir/daemon/unotifyd/unotifyd
MAN=$top_srcdir/man

# help_options: the options of the --help text on stdin, one per line.
help_options() {
	sed -n -e 's/^Usage: .*$/&/p' -e 's/^ \{1,\}\(-[-a-zA-Z].*\)/\1/p' |
		sed -e 's/^Usage: [a-z]* [a-z ]*//' |
		grep -oE '(^|[][ ,|])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[][ ,|]//' |
		grep -vxE -- '-h|--help' | sort -u
}

# man_options FILE SECTION: the options defined (.TP headings) in the
# section whose .SS or .SH line is SECTION, up to the next one of either.
man_options() {
	awk -v sec="$2" '
		/^\.S[HS] / { cur = $0; sub(/^\.S[HS] /, "", cur); gsub(/"/, "", cur); next }
		cur == sec && /^\.TP/ { tp = 1; next }
		cur == sec && tp { print; tp = 0 }' "$1" |
		sed 's/\\-/-/g' | grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[ "]//' |
		grep -vxE -- '-h|--help' | sort -u
}

# compare WHAT HELP-OPTIONS MAN-OPTIONS
compare() {
	only_help=$(printf '%s\n' "$2" | grep -vxF -e "$3" -e '' || true)
	only_man=$(printf '%s\n' "$3" | grep -vxF -e "$2" -e '' || true)
	# Only `policy check` has none: elsewhere, nothing found means a broken parser.
	[ -n "$2$3" ] || [ "$1" = "unotify policy check" ] || fail "$1: no option found on either side"
	[ -z "$only_help" ] || fail "$1: in --help, not in the man page: $(echo $only_help)"
	[ -z "$only_man" ] || fail "$1: in the man page, not in --help: $(echo $only_man)"
	say "ok: $1: --help and the man page list the same options ($(echo $2))"
}

# check_command WHAT MANFILE SECTION COMMAND...
check_command() {
	what=$1 file=$2 sec=$3
	shift 3
	capture "$what --help" "$@" --help
	expect_status "$what --help" 0
	compare "$what" "$(printf '%s\n' "$OUT" | help_options)" "$(man_options "$file" "$sec")"
}

check_command "unotify run" "$MAN/unotify.1" run "$UNOTIFY" run
check_command "unotify policy check" "$MAN/unotify.1" "policy check" "$UNOTIFY" policy check
check_command "unotify policy explain" "$MAN/unotify.1" "policy explain" "$UNOTIFY" policy explain
check_command "unotify policy compile" "$MAN/unotify.1" "policy compile" "$UNOTIFY" policy compile
check_command "unotify info" "$MAN/unotify.1" info "$UNOTIFY" info
check_command "unotify status" "$MAN/unotify.1" status "$UNOTIFY" status
check_command "unotify bench" "$MAN/unotify-bench.1" OPTIONS "$UNOTIFY" bench
check_command "unotify bench floor" "$MAN/unotify-bench.1" "A REAL BUILD" "$UNOTIFY" bench floor
check_command "unotifyd" "$MAN/unotifyd.8" OPTIONS "$UNOTIFYD"

say "== bad usage: 125, the code unotify(1) documents, for every command"
for cmd in "run --no-such-option" "policy check --no-such-option" \
	"policy explain --no-such-option" "policy compile --no-such-option" \
	"info --no-such-option" "status --no-such-option" "bench --no-such-option" \
	"bench floor --no-such-option" "bench landlock --no-such-option" \
	"policy" "no-such-command"; do
	# shellcheck disable=SC2086 # one word per argument
	ucmd $cmd
	expect_status "unotify $cmd" 125
done
grep -q 'bad usage.*125\|125.*bad usage' "$MAN/unotify.1" || fail "unotify(1) does not document 125 for bad usage"
say "ok: unotify(1) documents 125 for bad usage"
