#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 17, descriptors the program inherits (found by round 17's layer
# review). `unotify run` gives the program a mount namespace of its own,
# after the shell has opened its redirections on the parent's mounts. Such
# a descriptor reopened through /proc/self/fd/N (or /dev/fd/N, /dev/stdin)
# was named by that link, since its file's mount was not the sandbox's copy
# of it, and a deny-list's `path=` never matched the link: a file the
# policy refuses to read was read through a descriptor opened for
# appending, written through one opened for reading, and run through a
# descriptor opened for reading. Now the file is named by its path when
# that path reaches the same file in the sandbox (device and inode, through
# the sandbox's own copy of the mount), and the rule applies.
# The forbidden effects: the secret printed, the file emptied, the
# program's token printed.
# Guards: a descriptor of an allowed file is reopened as before.

. "$top_srcdir/tests/adversarial/lib.sh"
setup_tmp
PROBE=${PROBE:-$top_builddir/tests/live/probe}
mkdir -p "$T/A" "$T/B"
tok=$(token)
echo "$tok" >"$T/B/f"
echo allowed >"$T/A/f"
printf '#!/bin/sh\necho RAN-%s\n' "$tok" >"$T/B/prog"
chmod 755 "$T/B/prog"
printf 'default allow\ndeny @file-read path=%s/B path=%s/B/** EACCES\n' "$T" "$T" >"$T/read.policy"
printf 'default allow\ndeny @file-write path=%s/B/** EROFS\n' "$T" >"$T/write.policy"
printf 'default allow\ndeny @file-exec path=%s/B/** EACCES\n' "$T" >"$T/exec.policy"

# expect_refused LEAK WANT: the last run's output holds no LEAK (a grep
# pattern: the forbidden effect) and is WANT.
expect_refused() {
	if printf '%s\n' "$OUT" | grep -q "$1"; then
		case_fail "the forbidden effect ($1): $OUT"
	elif [ "$OUT" = "$2" ]; then
		case_pass "$OUT"
	else
		case_fail "expected $2: $OUT"
	fi
}

# read_case NAME LINK: the secret's file, opened by the shell for appending
# as fd 4, read through LINK under read.policy.
read_case() {
	case_begin "$1" "deny @file-read of B/**: B/f inherited as fd 4 (append), read as $2"
	urun --policy "$T/read.policy" -- "$PROBE" read "$2" 4>>"$T/B/f"
	expect_refused "$tok" "err EACCES"
}

read_case read-procfd /proc/self/fd/4
read_case read-devfd /dev/fd/4

# fd 5, not stdin: the harness gives every run /dev/null as its stdin.
case_begin write-rdonly "deny @file-write of B/**: B/f inherited as fd 5 (read-only), opened O_WRONLY|O_TRUNC as /proc/self/fd/5"
sum=$(checksum "$T/B/f")
urun --policy "$T/write.policy" -- "$PROBE" open /proc/self/fd/5 wronly trunc 5<"$T/B/f"
if [ "$(checksum "$T/B/f")" != "$sum" ]; then
	case_fail "B/f was written: $(wc -c <"$T/B/f") bytes left; $OUT"
elif [ "$OUT" = "err EROFS" ]; then
	case_pass "$OUT"
else
	case_fail "expected err EROFS: $OUT"
fi

case_begin exec-procfd "deny @file-exec of B/**: B/prog inherited as fd 3 (read-only), run as /proc/self/fd/3"
urun --policy "$T/exec.policy" -- "$PROBE" exec /proc/self/fd/3 3<"$T/B/prog"
expect_refused "RAN-$tok" "err EACCES"

case_begin allowed "(guard) A/f inherited as fd 4 (append), read as /proc/self/fd/4 under read.policy"
urun --policy "$T/read.policy" -- "$PROBE" read /proc/self/fd/4 4>>"$T/A/f"
if [ "$OUT" = "data=allowed" ]; then
	case_pass "$OUT"
else
	case_fail "expected data=allowed: $OUT"
fi
finish
