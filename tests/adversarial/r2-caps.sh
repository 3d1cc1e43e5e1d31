#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: the capabilities a call performed by the supervisor must not
# lend (regression guards: these attacks fail; r2-lend.sh has what the
# supervisor does lend). The policy decides opens, file changes, binds and
# connects on their paths and addresses (rules that match nothing here), so
# the supervisor performs every one of them for the program. As nobody, as
# root without capabilities (unotify run --drop-caps) and with CAP_CHOWN
# alone (--keep-caps): O_NOATIME on another user's file, chown to another
# user, reading another user's 0600 file, hard-linking it
# (fs.protected_hardlinks), utimensat on its descriptor, bind below 1024,
# an SO_MARK control message: each refused as the kernel refuses it.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "other users' files and dropping to them"
setup_tmp

cat >"$T/caps.policy" <<EOF
default allow
deny @file-read @file-write @file-create @file-delete @file-attr path=/nonexistent/** EACCES
deny @net-bind @net-connect port=1 EACCES
EOF

OTHER=$T/other
echo "other's $(token)" >"$OTHER"
chown 1234:1234 "$OTHER"
chmod 644 "$OTHER"
SECRET_FILE=$T/other-secret
SECRET=$(secret "$SECRET_FILE")
chown 1234:1234 "$SECRET_FILE"
chmod 600 "$SECRET_FILE"
mkdir -p "$T/links"
chmod 1777 "$T/links"
touch -d 2020-01-01 "$OTHER"
MTIME=$(stat -c %Y "$OTHER")

# guards NAME OPTIONS...: every guard, the program made NAME by the unotify run
# OPTIONS (and $AS, the attack's own options; $OWN owns its file).
guards() {
	who=$1
	shift
	case_begin "$who-noatime" "($who) open(O_NOATIME) of uid 1234's file"
	urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS noatime-open "$OTHER"
	if expect_blocked; then case_pass "$(results | head -1)"; fi

	# CAP_CHOWN held: giving the file away is the kernel's answer too.
	if [ "$who" != chown-only ]; then
		case_begin "$who-chown" "($who) chown of its own file to uid 1234"
		rm -f "$T/mine"
		echo mine >"$T/mine"
		chown "$OWN" "$T/mine"
		urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS chown "$T/mine" 1234 1234
		if [ "$(stat -c %u "$T/mine")" != 1234 ]; then
			case_pass "owner $(stat -c %u "$T/mine") ($(results | head -1))"
		else
			case_fail "given away to uid 1234: $(results | head -1)"
		fi
	fi

	case_begin "$who-read" "($who) read uid 1234's 0600 file"
	urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS read "$SECRET_FILE"
	if expect_blocked "$SECRET"; then case_pass "$(results | head -1)"; fi

	case_begin "$who-link" "($who) hard link of uid 1234's 0600 file (protected_hardlinks)"
	rm -f "$T/links/l"
	urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS link "$SECRET_FILE" "$T/links/l"
	if [ -e "$T/links/l" ]; then
		case_fail "linked: $(results | head -1)"
	else
		case_pass "no link ($(results | head -1))"
	fi

	case_begin "$who-utimens" "($who) utimensat(fd, NULL) on uid 1234's file opened read-only"
	urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS utimens-fd "$OTHER"
	if [ "$(stat -c %Y "$OTHER")" = "$MTIME" ]; then
		case_pass "mtime unchanged ($(results | head -1))"
	else
		case_fail "mtime changed: $(results | head -1)"
	fi

	case_begin "$who-bind" "($who) bind 127.0.0.1:81"
	urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS bind-port 127.0.0.1 81
	if expect_blocked; then case_pass "$(results | head -1)"; fi

	case_begin "$who-somark" "($who) sendmsg with an SO_MARK control message"
	urun "$@" --policy "$T/caps.policy" -- "$ATTACK" $AS somark 127.0.0.1 9 x
	if expect_blocked; then case_pass "$(results | head -1)"; fi
}

AS="--user 65534" OWN=65534
guards nobody
AS="" OWN=0
guards nocaps --drop-caps
guards chown-only --keep-caps cap_chown

finish
