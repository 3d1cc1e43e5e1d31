#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, names in a hidden directory told by climbing out of it with
# ".." through two routes round 10's fix did not take (found by an
# adversarial review):
#  - a unix socket's name (connect, sendto): it was read apart from the
#    file paths, never folded, and the climb check had been narrowed to
#    execs; S/hdir/../../work/sock connected, S/hfile/.. failed with
#    ENOTDIR and S/nope/.. with ENOENT (unix-*). Now a socket's name is
#    folded as a file's is, and any text left with a climb is checked;
#  - the #! line of a script of the program's own: the interpreter's name
#    was looked up apart from any rule, and the kernel's answer told what
#    S/name was, climbing or not (interp-*), also as an ELF file's
#    PT_INTERP under an exec allow-list (interp-elf-*). Now the
#    interpreter's climbs are checked, and its name is decided as a
#    program's.
# The policy hides S (every file call, socket names, chdir, statfs and
# inotify refused with ENOENT). The forbidden effect: the three names of
# S (a directory, a file, none) answer differently. Guards: natively they
# do; a climb that leaves no hidden directory works.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

S=$T/secret
W=$T/work
mkdir -p "$S/hdir" "$W"
: >"$S/hfile"
"$ATTACK" r11-unix-bind "$W/sock" >/dev/null || fail "no socket file could be made in $W"
printf '#!/bin/sh\necho INTERP-RAN\n' >"$W/interp"
chmod 755 "$W/interp"
for name in hdir hfile nope; do
	printf '#!%s/%s/../../work/interp\n' "$S" "$name" >"$W/climb-$name"
	printf '#!%s/%s\n' "$S" "$name" >"$W/direct-$name"
	chmod 755 "$W/climb-$name" "$W/direct-$name"
done
for name in hdir hfile nope; do
	"$ATTACK" r11-elf "$W/elf-$name" "$S/$name" 2 >/dev/null || fail "r11-elf could not write its file"
done
# Execs hidden by an allow-list instead of path=S rules.
cat >"$T/hide-list.policy" <<EOF
default allow
deny chdir fchdir statfs inotify_add_watch ENOENT
deny @file-read @file-stat @file-write @file-create @file-delete @file-attr path=$S path=$S/** ENOENT
allow @file-exec path=/usr/** path=$W/** path=$ATTACK
deny @file-exec ENOENT
EOF
cat >"$T/hide.policy" <<EOF
default allow
deny chdir fchdir statfs inotify_add_watch ENOENT
deny @file-read @file-stat @file-write @file-create @file-delete @file-attr @file-exec path=$S path=$S/** ENOENT
deny @net-connect @net-bind unix=$S unix=$S/** ENOENT
EOF

# alike PREFIX: the three lines of the last run starting with PREFIX answer alike.
alike() {
	[ "$(results | grep -c "^$1")" = 3 ] &&
		[ "$(results | grep "^$1" | sed "s/^$1 [^ ]* //" | sort -u | wc -l)" = 1 ]
}

answers() {
	results | grep "^$1" | sed "s/^$1 [^ ]* //" | tr '\n' ';'
}

unix_probes() {
	echo "$S/hdir/../../work/sock" "$S/hfile/../../work/sock" "$S/nope/../../work/sock"
}

# native_apart NAME WHAT PREFIX ARGS...: natively, the attack ARGS tells the
# three names apart (the guard: else the case proves nothing).
native_apart() {
	case_begin "$1" "$2"
	_prefix=$3
	shift 3
	bounded 20 "$ATTACK" "$@"
	if alike "$_prefix"; then
		case_fail "natively the three answer alike: $(answers "$_prefix")"
	else
		case_pass "$(answers "$_prefix")"
	fi
}

# supervised_alike NAME WHAT PREFIX POLICY ARGS...: under POLICY, with the
# supervisor deciding and with the Landlock layer, the three answer alike.
supervised_alike() {
	_name=$1 _what=$2 _prefix=$3 _policy=$4
	shift 4
	for how in supervisor layer; do
		opt=--no-landlock
		[ "$how" = layer ] && opt=
		case_begin "$_name-$how" "$_what ($how)"
		# shellcheck disable=SC2086
		urun $opt --policy "$T/$_policy.policy" -- "$ATTACK" "$@"
		if hung; then
			case_fail "the run did not end within its time limit"
		elif alike "$_prefix"; then
			case_pass "alike: $(results | grep "^$_prefix" | head -1 | sed "s/^$_prefix [^ ]* //")"
		else
			case_fail "the answers tell the names apart: $(answers "$_prefix")"
		fi
	done
}

# shellcheck disable=SC2046
native_apart unix-native "(guard) natively the socket climbs tell a directory, a file and nothing apart" \
	UNIX r11-unix-probe $(unix_probes)
# shellcheck disable=SC2046
supervised_alike unix "unix connect and sendto climbing out of S answer alike" UNIX hide \
	r11-unix-probe $(unix_probes)

for form in climb direct; do
	native_apart "interp-$form-native" "(guard) natively the #! lines ($form) tell the names apart" \
		EXEC r10-exec-errno "$W/$form-hdir" "$W/$form-hfile" "$W/$form-nope"
	supervised_alike "interp-$form" "scripts whose #! line ($form) names S/name answer alike" \
		EXEC hide r10-exec-errno "$W/$form-hdir" "$W/$form-hfile" "$W/$form-nope"
done

native_apart interp-elf-native \
	"(guard) natively ELF files naming S/name as their interpreter tell the names apart" \
	EXEC r10-exec-errno "$W/elf-hdir" "$W/elf-hfile" "$W/elf-nope"
supervised_alike interp-elf \
	"ELF files naming S/name as their interpreter answer alike under an exec allow-list" \
	EXEC hide-list r10-exec-errno "$W/elf-hdir" "$W/elf-hfile" "$W/elf-nope"

case_begin unix-guard "(guard) a socket climb that leaves no hidden directory connects as natively"
bounded 20 "$ATTACK" r11-unix-probe "$W/../work/sock"
native=$(results | sed 's/^UNIX [^ ]* //')
urun --policy "$T/hide.policy" -- "$ATTACK" r11-unix-probe "$W/../work/sock"
if [ "$(results | sed 's/^UNIX [^ ]* //')" = "$native" ]; then
	case_pass "$native"
else
	case_fail "differs: $(results | head -1) (natively: $native)"
fi

finish
