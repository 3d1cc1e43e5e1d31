#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Guessed names (issue 10 phase 2), the edges guess-names.sh leaves: text
# that folds ("..", ".", "//", a trailing "/") past a file or a symlink,
# relative paths that climb, a directory fd whose directory moved into the
# denied one after its name was learnt (then another directory made under
# the old name), and a cwd deleted. Last, a guard: a relative read the
# kernel allows under a cwd whose ancestors the program may not search. The denied files hold a secret; no run
# may print it.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program reads root-owned files"
setup_tmp

mkdir -p "$T/allowed/sub" "$T/denied/dd"
SECRET=$(secret "$T/denied/x")
secret "$T/denied/dd/x" >/dev/null
echo ok >"$T/allowed/f"
ln -s "$T/denied" "$T/allowed/sd"
printf 'default allow\ndeny openat open newfstatat statx path=%s/denied/** EACCES\n' "$T" \
	>"$T/deny.policy"

# Every text, read with cat (a read of the denied file prints the secret).
i=0
for p in "$T/allowed/f/../../denied/x" "$T/allowed/sd/../denied/x" "$T//denied/./x" \
	"$T/allowed/../denied//x" "$T/allowed/./sub/../../denied/x" "$T/denied/x/" \
	"$T/allowed/sd/./x" "$T/allowed/sd//x" "$T/allowed/sub/../sd/x" "/../$T/denied/x"; do
	i=$((i + 1))
	case_begin "text-$i" "read $p"
	urun --policy "$T/deny.policy" -- sh -c 'cat "$1" 2>/dev/null; echo BLOCKED' \
		sh "$p"
	if expect_blocked "$SECRET"; then case_pass "never read"; fi
done

case_begin relative-climb "relative ../denied/x and sub/../../denied/x from the allowed directory"
URUN_CWD=$T/allowed urun --policy "$T/deny.policy" -- sh -c \
	'cat ../denied/x sub/../../denied/x sd/x 2>/dev/null; echo BLOCKED'
if expect_blocked "$SECRET"; then case_pass "never read"; fi

case_begin cwd-deleted "a deleted cwd, then ../../denied/x"
mkdir -p "$T/allowed/gone"
(while [ ! -e "$T/ready1" ]; do sleep 0.05; done
	rmdir "$T/allowed/gone" && touch "$T/moved1") >/dev/null 2>&1 &
track_pid $!
urun --policy "$T/deny.policy" -- sh -c '
	cd "$1/allowed/gone" || exit 125
	cat ../f >/dev/null
	: >"$1/ready1"
	while [ ! -e "$1/moved1" ]; do :; done
	cat ../../denied/x 2>/dev/null; echo BLOCKED' sh "$T"
if expect_blocked "$SECRET"; then case_pass "never read"; fi

# dirfd_case N RECREATE: DIR allowed/mN opened, moved into denied/, read by the fd.
dirfd_case() {
	mkdir -p "$T/allowed/m$1"
	echo ok >"$T/allowed/m$1/x"
	rm -f "$T/denied/m$1/x"
	(while [ ! -e "$T/ready-$1" ]; do sleep 0.05; done
		mv "$T/allowed/m$1" "$T/denied/m$1" && secret "$T/denied/m$1/x.new" >/dev/null &&
		mv "$T/denied/m$1/x.new" "$T/denied/m$1/x" &&
		{ [ "$2" = no ] || { mkdir "$T/allowed/m$1" && echo ok >"$T/allowed/m$1/x"; }; } &&
		touch "$T/moved-$1") >"$T/mover-$1.log" 2>&1 &
	track_pid $!
	urun --policy "$T/deny.policy" -- "$ATTACK" r4-dirfd-moved "$T/allowed/m$1" x \
		"$T/ready-$1" "$T/moved-$1"
}

case_begin dirfd-moved "openat(dirfd) after the directory moved into the denied one"
dirfd_case 1 no
if expect_blocked "$(cat "$T/denied/m1/x")"; then case_pass "$(results | tail -1)"; fi

case_begin dirfd-moved-recreated "the same, another directory made under the old (learnt) name"
dirfd_case 2 yes
if expect_blocked "$(cat "$T/denied/m2/x")"; then case_pass "$(results | tail -1)"; fi

# Not an attack, the guess's own limit: a relative path's text walks from
# the root through directories the program's own walk never searches.
case_begin relative-unsearchable "(guard) chdir into a directory under a 0700 one, drop to uid 1000, read a relative file"
mkdir -p "$T/priv/work"
chmod 755 "$T"
chmod 700 "$T/priv"
echo content >"$T/priv/work/f"
chmod 644 "$T/priv/work/f"
NATIVE=$("$ATTACK" --chdir "$T/priv/work" --user 1000 r4-read f | grep -v '^# ' || true)
urun --policy "$T/deny.policy" -- "$ATTACK" --chdir "$T/priv/work" --user 1000 r4-read f
if [ "$NATIVE" != "LEAK 8 content" ]; then
	case_skip "natively: $NATIVE"
elif [ "$(results)" = "$NATIVE" ]; then
	case_pass "read as natively"
else
	case_fail "natively '$NATIVE', supervised '$(results)'"
fi

finish
