#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, exec allow-lists against the dynamic loader. An allow-list of
# programs (`allow @file-exec path=/usr/** path=X/**`, then a refusal)
# decides which files the kernel runs: the program, a script's `#!`
# interpreter, the ELF interpreter. The dynamic loader is one of those
# files (in /usr, it must run for every dynamic program), and run as a
# program it loads any file it may READ and runs it:
#   - directly: `ld-linux-x86-64.so.2 DENIED/sh -c ...`;
#   - as a script's interpreter with the refused program as its argument
#     (`#!LOADER DENIED/sh`): the kernel runs the loader, which runs
#     DENIED/sh on the script (the script is in X, which may run);
#   - the same against the obvious workaround, a refusal of the loader by
#     path before the allow (the direct run is refused; the `#!` run is
#     not: interpreters are checked only against `kernel` rules);
#   - last, the advice of SECURITY.md: refusing to read the program too
#     stops both (these two cases pass).
# Each with the supervisor deciding the execs and with the Landlock layer
# (its execute right is checked on the loader, which holds it; the
# program the loader maps is only read). The forbidden effect: DENIED/sh
# (a copy of dash outside the allow-list) runs and prints its word.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root: private pid namespace, vm.memfd_noexec for the layer"
setup_tmp

LOADER=$(readlink -f /lib64/ld-linux-x86-64.so.2 2>/dev/null || true)
[ -n "$LOADER" ] && [ -x "$LOADER" ] || skip "no x86-64 dynamic loader at /lib64/ld-linux-x86-64.so.2"
SH=$(readlink -f /bin/sh)
A=$T/a
X=$T/x
D=$T/denied
mkdir -p "$A" "$X" "$D"
cp "$SH" "$D/sh"
chmod 755 "$D/sh"
WORD=RAN-OUTSIDE-THE-LIST
printf '#!%s %s\necho %s\n' "$LOADER" "$D/sh" "$WORD" >"$X/via-loader"
chmod 755 "$X/via-loader"

cat >"$T/super.policy" <<EOF
default allow
allow @file-exec path=/usr/** path=$X/**
deny @file-exec EACCES
EOF
cat >"$T/layer.policy" <<EOF
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
allow @file-exec path=/usr/** path=$X/**
deny @file-write @file-create @file-delete @file-exec kernel
EOF
cat >"$T/noread.policy" <<EOF
default allow
deny @file-read path=$D/** EACCES
allow @file-exec path=/usr/** path=$X/**
deny @file-exec EACCES
EOF
cat >"$T/workaround.policy" <<EOF
default allow
deny @file-exec path=$LOADER EACCES
allow @file-exec path=/usr/** path=$X/**
deny @file-exec EACCES
EOF

# ran: the last run printed the word of the refused program.
ran() {
	printf '%s\n' "$OUT" | grep -q "^$WORD\$"
}

# attempt CASE POLICY WHAT CMD...: CMD under POLICY must not print WORD.
attempt() {
	_case=$1
	_pol=$2
	case_begin "$_case" "$3"
	shift 3
	urun --log "$T/$_case.log" --policy "$T/$_pol.policy" -- "$@"
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif ran; then
		case_fail "bypass: $D/sh ran ($WORD printed), status $RC"
	else
		case_pass "not run (status $RC)"
	fi
}

for pol in super layer; do
	if [ $pol = layer ] && ! "$UNOTIFY" policy explain "$T/layer.policy" 2>/dev/null |
		grep -q '^  exec: decided by Landlock'; then
		case_skip "layer-*: explain does not give the execs to Landlock here"
		continue
	fi
	attempt "$pol-control" $pol "($pol) the refused program run itself: refused" \
		"$D/sh" -c "echo $WORD"
	attempt "$pol-loader" $pol "($pol) $LOADER $D/sh -c 'echo ...'" \
		"$LOADER" "$D/sh" -c "echo $WORD"
	attempt "$pol-loader-link" $pol "($pol) the same by /lib64/ld-linux-x86-64.so.2" \
		/lib64/ld-linux-x86-64.so.2 "$D/sh" -c "echo $WORD"
	attempt "$pol-loader-script" $pol "($pol) a script in X: #!LOADER $D/sh" \
		"$X/via-loader"
done

attempt workaround-loader workaround "(the loader refused by path first) the loader run directly" \
	"$LOADER" "$D/sh" -c "echo $WORD"
attempt workaround-script workaround "(the loader refused by path first) a script in X: #!LOADER $D/sh" \
	"$X/via-loader"

# What SECURITY.md advises: what may not run may not be read either.
attempt noread-loader noread "(reading denied/ refused too) the loader run directly" \
	"$LOADER" "$D/sh" -c "echo $WORD"
attempt noread-script noread "(reading denied/ refused too) a script in X: #!LOADER $D/sh" \
	"$X/via-loader"

finish
