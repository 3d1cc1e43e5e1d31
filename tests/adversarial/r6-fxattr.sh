#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# xattr reads by descriptor where the policy refuses the file's reads but
# not its writes (`deny @file-read path=D/**`, default allow: a drop box).
# The path forms (getxattr, listxattr, getxattrat) are decided on their
# path since the xattr branch; fsetxattr and fremovexattr are decided on
# their descriptor's path (POLICY_PATH_FD); but fgetxattr and flistxattr
# are in no category and run in the kernel on any descriptor that is not
# O_PATH, and a write-only one is enough: the value must not be read.
#   - fget, flist: on a descriptor opened O_WRONLY;
#   - at-empty: getxattrat(fd, "", AT_EMPTY_PATH) on it (a guard: decided
#     on the descriptor's path);
#   - readonly-buffer: the value asked into a read-only mapping (EFAULT,
#     the page unchanged: the supervisor writes as the kernel would);
#   - allowed: an allowed file's attribute by its descriptor (the guard);
#   - fget and flist again under run --daemon (unotifyd's engine);
#   - control: getxattr of the path is refused, read() of the descriptor
#     is EBADF (it is not readable).
. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp

mkdir -p "$T/drop"
TOKEN=$(token)
echo data >"$T/drop/x"
"$ATTACK" r5-getxattr set "$T/drop/x" user.secret "$TOKEN" >/dev/null 2>&1 ||
	skip "no user xattrs on $T's file system"

mkdir -p "$T/pub"
echo data >"$T/pub/y"
"$ATTACK" r5-getxattr set "$T/pub/y" user.v OPENVALUE >/dev/null

cat >"$T/drop.policy" <<EOF2
default allow
deny @file-read path=$T/drop/** EACCES
EOF2

for mode in on off; do
	opt=
	[ $mode = off ] && opt=--no-landlock
	case_begin "control-path-$mode" "getxattr of the path (layer $mode) is refused"
	urun $opt --policy "$T/drop.policy" -- "$ATTACK" r5-getxattr getxattr "$T/drop/x" user.secret
	expect_blocked "$TOKEN" && case_pass "refused: $(results | head -1)"

	# The guard: an allowed file's attribute is read by its descriptor (the program works).
	case_begin "allowed-$mode" "fgetxattr of an allowed file (layer $mode) works"
	urun $opt --policy "$T/drop.policy" -- "$ATTACK" r6-fxattr "$T/pub/y" user.v fget
	if results | grep -q '^LEAK 9 OPENVALUE$'; then
		case_pass "read: $(results | head -1)"
	else
		case_fail "the allowed file's attribute was not read: $(results | head -1)"
	fi

	# The supervisor writes the value into the program: never where the kernel would not.
	case_begin "readonly-buffer-$mode" "getxattr into a read-only mapping (layer $mode): EFAULT, unchanged"
	urun $opt --policy "$T/drop.policy" -- "$ATTACK" r6-xattr-ro "$T/pub/y" user.v
	if results | grep -q '^BLOCKED EFAULT$'; then
		case_pass "$(results | head -1)"
	else
		case_fail "not the kernel's EFAULT: $(results | head -1)"
	fi

	for how in fget flist at-empty; do
		case_begin "$how-$mode" "$how on a descriptor opened for writing (layer $mode)"
		urun $opt --policy "$T/drop.policy" -- "$ATTACK" r6-fxattr "$T/drop/x" user.secret $how
		if [ $how = flist ]; then
			# The names only: user.secret listed is the leak.
			if results | grep -q 'user\.secret'; then
				case_fail "bypass: the names of a file whose reads are refused: $(results | head -1)"
			else
				expect_blocked && case_pass "refused: $(results | head -1)"
			fi
			continue
		fi
		expect_blocked "$TOKEN" && case_pass "refused: $(results | head -1)"
	done
done

# The same engine through unotifyd (run --daemon).
policy drop "$(cat "$T/drop.policy")"
start_daemon
case_begin allowed-daemon "fgetxattr of an allowed file (run --daemon) works"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name drop -- \
	"$ATTACK" r6-fxattr "$T/pub/y" user.v fget
if results | grep -q '^LEAK 9 OPENVALUE$'; then
	case_pass "read: $(results | head -1)"
else
	case_fail "the allowed file's attribute was not read: $(results | head -1)"
fi
for how in fget flist; do
	case_begin "$how-daemon" "$how on a descriptor opened for writing (run --daemon)"
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name drop -- \
		"$ATTACK" r6-fxattr "$T/drop/x" user.secret $how
	if results | grep -q 'user\.secret'; then
		case_fail "bypass: the names of a file whose reads are refused: $(results | head -1)"
	else
		expect_blocked "$TOKEN" && case_pass "refused: $(results | head -1)"
	fi
done

finish
