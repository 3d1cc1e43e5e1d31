#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, exec allow-lists against the dynamic loader. An allow-list of
# programs (`allow @file-exec path=/usr/** path=X/**`, then a refusal)
# decides which files the kernel runs: the program, a script's `#!`
# interpreter, the ELF interpreter. The dynamic loader is one of those
# files (in /usr, it must run for every dynamic program), and run as a
# program it loads any file it may READ and runs it:
#   - directly: `ld-linux-x86-64.so.2 DENIED/sh -c ...`, through env, by
#     descriptor (fexecve, execveat of a dirfd, /proc/self/fd/N);
#   - as a script's interpreter with the refused program as its argument
#     (`#!LOADER DENIED/sh`): the kernel runs the loader, which runs
#     DENIED/sh on the script (the script is in X, which may run);
#   - the same against a refusal of the loader by path before the allow;
#   - refusing to read the program too (SECURITY.md's advice).
# Each with the supervisor deciding the execs and with the Landlock layer
# (its execute right is checked on the loader, which holds it; the
# supervisor sees each exec too and refuses the loader run as a program
# unless a rule names it exactly). The forbidden effect: DENIED/sh (a copy
# of dash outside the allow-list) runs and prints its word.
#
# Guards: every ordinary dynamic program of the list still runs (sh, env,
# a script with #!/bin/sh), and the loader named exactly runs. Routes that
# stay open, each a passing case that says so (SECURITY.md, Known limits):
# the loader named exactly runs what it may read, and LD_PRELOAD maps a
# library the list does not hold (no exec: the loader maps it); refusing
# reads closes both (checked too).

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

# The loader named exactly (its resolved path): it may run as a program.
cat >"$T/named.policy" <<EOF
default allow
allow @file-exec path=/usr/** path=$X/** path=$LOADER
deny @file-exec EACCES
EOF
cat >"$T/named-noread.policy" <<EOF
default allow
deny @file-read path=$D/** EACCES
allow @file-exec path=/usr/** path=$X/** path=$LOADER
deny @file-exec EACCES
EOF
cat >"$T/layer-named.policy" <<EOF
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
allow @file-exec path=/usr/** path=$X/** path=$LOADER
deny @file-write @file-create @file-delete @file-exec kernel
EOF
cp "$ATTACK" "$X/attack"
printf '#!/bin/sh\necho SCRIPT-RAN\n' >"$X/script"
chmod 755 "$X/script"
# A library outside the list, for LD_PRELOAD (any will do: the loader says it mapped it).
LIB=
for l in /usr/lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libm.so.6; do
	if [ -r "$l" ]; then LIB=$l; break; fi
done
[ -z "$LIB" ] || cp "$LIB" "$D/libpre.so"

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

# runs CASE POLICY WANT WHAT CMD...: CMD under POLICY must print the line WANT.
runs() {
	_case=$1
	_pol=$2
	_want=$3
	case_begin "$_case" "$4"
	shift 4
	urun --log "$T/$_case.log" --policy "$T/$_pol.policy" -- "$@"
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif printf '%s\n' "$OUT" | grep -q "^$_want\$"; then
		case_pass "ran (status $RC)"
	else
		case_fail "did not run (no $_want), status $RC"
	fi
}

# preloaded: the last run's loader mapped $D/libpre.so (LD_DEBUG=files says so).
preloaded() {
	printf '%s\n' "$OUT$ERR" | grep -q "calling init: $D/libpre.so"
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
	attempt "$pol-loader-env" $pol "($pol) env runs the loader: env LOADER $D/sh -c ..." \
		/usr/bin/env "$LOADER" "$D/sh" -c "echo $WORD"
	# By descriptor: fexecve, execveat of a dirfd, execve of /proc/self/fd/N.
	case_begin "$pol-loader-fd" "($pol) the loader by fexecve, execveat-dirfd, procfd"
	_bad=
	for how in fexecve execveat-dirfd procfd; do
		urun --log /dev/null --policy "$T/$pol.policy" -- "$X/attack" exec-how "$LOADER" $how
		[ "$(results | tail -1)" = "BLOCKED EACCES" ] || _bad="$_bad $how:'$(results | tail -1)'"
	done
	urun --log /dev/null --policy "$T/$pol.policy" -- "$X/attack" exec-how /usr/bin/true fexecve
	results | grep -q '^RAN' || _bad="$_bad guard-true:'$(results | tail -1)'"
	if [ -z "$_bad" ]; then
		case_pass "BLOCKED EACCES each; /usr/bin/true by fexecve runs"
	else
		case_fail "$_bad"
	fi
	runs "$pol-sh" $pol OK "($pol) guard: sh, a dynamic program in the list, runs" \
		/bin/sh -c 'echo OK'
	runs "$pol-env" $pol OK "($pol) guard: env runs sh" /usr/bin/env sh -c 'echo OK'
	runs "$pol-script" $pol SCRIPT-RAN "($pol) guard: a script in X with #!/bin/sh runs" \
		"$X/script"
	_named=named
	[ $pol = super ] || _named=layer-named
	runs "$pol-named-loader" $_named OK "($pol) guard: the loader named exactly runs /bin/sh" \
		"$LOADER" /bin/sh -c 'echo OK'
	# Open, as documented: the named loader runs what it may read (only reads stop it).
	runs "$pol-named-open" $_named $WORD \
		"($pol) documented open (SECURITY.md): the loader named exactly runs $D/sh" \
		"$LOADER" "$D/sh" -c "echo $WORD"
	if [ -z "$LIB" ]; then
		case_skip "$pol-preload-open: no library to copy"
		continue
	fi
	case_begin "$pol-preload-open" \
		"($pol) documented open (SECURITY.md): LD_PRELOAD maps a library outside the list"
	urun --policy "$T/$pol.policy" -- /usr/bin/env LD_DEBUG=files LD_PRELOAD="$D/libpre.so" \
		/bin/sh -c 'echo OK'
	if preloaded; then
		case_pass "mapped, as documented: no exec decides it (refuse reading it)"
	else
		case_fail "the loader did not map $D/libpre.so: update SECURITY.md and this case"
	fi
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

attempt noread-named named-noread "(the loader named, reading denied/ refused) the loader runs $D/sh" \
	"$LOADER" "$D/sh" -c "echo $WORD"
if [ -n "$LIB" ]; then
	case_begin noread-preload "(reading denied/ refused) LD_PRELOAD of $D/libpre.so"
	urun --policy "$T/noread.policy" -- /usr/bin/env LD_DEBUG=files \
		LD_PRELOAD="$D/libpre.so" /bin/sh -c 'echo OK'
	if preloaded; then
		case_fail "bypass: the loader mapped $D/libpre.so"
	elif ! printf '%s\n' "$OUT" | grep -q '^OK$'; then
		case_fail "sh did not run (status $RC)"
	else
		case_pass "not mapped; sh ran"
	fi
else
	case_skip "noread-preload: no library to copy"
fi

# The same decision under unotifyd (run --daemon): the engine is shared.
policy super "$(cat "$T/super.policy")"
start_daemon
for how in loader script sh; do
	case $how in
	loader) set -- "$LOADER" "$D/sh" -c "echo $WORD" ;;
	script) set -- "$X/via-loader" ;;
	sh) set -- /bin/sh -c 'echo OK' ;;
	esac
	case_begin "daemon-$how" "(run --daemon) $*"
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name super -- "$@"
	if hung; then
		case_fail "the run did not end within its time limit: a hang"
	elif ran; then
		case_fail "bypass: $D/sh ran ($WORD printed), status $RC"
	elif [ $how = sh ] && ! printf '%s\n' "$OUT" | grep -q '^OK$'; then
		case_fail "guard: sh did not run, status $RC"
	else
		case_pass "as under run (status $RC)"
	fi
done

# A copy of the loader the supervisor cannot read (root's, execute-only:
# 0111, as some systems install programs), run by nobody under a supervisor
# of its own (nobody: its user namespace maps no root, so no
# CAP_DAC_OVERRIDE over root's files): the kernel runs it all the same, so
# the supervisor must not let through what it cannot inspect: an
# unreadable file is decided as a loader.
if command -v setpriv >/dev/null 2>&1; then
	XO=$T/xo
	mkdir -p "$XO"
	cp "$LOADER" "$XO/ld"
	chmod 0111 "$XO/ld"
	printf 'default allow\nallow @file-exec path=/usr/** path=%s/**\ndeny @file-exec EACCES\n' \
		"$XO" >"$T/nobody.policy"
	chmod 644 "$T/nobody.policy"
	for c in "unreadable-loader $XO/ld $D/sh -c" "unreadable-control /bin/sh -c"; do
		set -- $c
		_case=$1
		shift
		case_begin "$_case" "(nobody supervising nobody) $*"
		bounded "$RUN_TIMEOUT" setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			"$UNOTIFY" run -q --policy "$T/nobody.policy" -- "$@" "echo $WORD; echo OK"
		if hung; then
			case_fail "the run did not end within its time limit: a hang"
		elif [ "$_case" = unreadable-loader ] && ran; then
			case_fail "bypass: $D/sh ran through an execute-only loader, status $RC"
		elif [ "$_case" = unreadable-control ] && ! printf '%s\n' "$OUT" | grep -q '^OK$'; then
			case_fail "guard: /bin/sh did not run under an unprivileged supervisor (status $RC): $ERR"
		else
			case_pass "as expected (status $RC)"
		fi
	done
else
	case_skip "unreadable-loader: no setpriv"
fi

# check warns about the loader named exactly.
case_begin check-named "policy check warns that the named loader runs any file it may read"
if "$UNOTIFY" policy check "$T/named.policy" 2>&1 | grep -q 'names the dynamic loader'; then
	case_pass "warned"
else
	case_fail "no warning from policy check"
fi

finish
