#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, what an exec's answer tells about a file the program may
# neither read nor execute (found by an adversarial review). Under an exec
# allow-list the supervisor reads the file to be run (as itself: the
# kernel runs files the program may not read) to find a dynamic loader,
# which only its exact name lets run. It did so before asking whether the
# program may execute the file at all: a root-only 0600 copy of the
# loader, or a script whose #! names the loader, got the list's EPERM, any
# other such file the kernel's EACCES, so the answer told the program what
# the file holds. Now a file the program may not execute is left to the
# kernel, unread. The forbidden effect: an answer other than the kernel's
# own (EACCES) for these files. Guard: an executable copy of the loader
# still gets the list's refusal.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "root-only files, the program as nobody"
setup_tmp

need_loader
X=$T/x
mkdir -p "$X"
chmod 755 "$T" "$X"
cp "$ATTACK" "$X/attack"
chmod 755 "$X/attack"
cp "$LOADER" "$X/secret-loader"
cp /bin/true "$X/secret-program"
printf '#!%s\n' "$LOADER" >"$X/secret-loader-script"
printf '#!/bin/sh\n' >"$X/secret-script"
chmod 600 "$X"/secret-*
cp "$LOADER" "$X/open-loader"
chmod 755 "$X/open-loader"
cat >"$T/p.policy" <<EOF
default allow
allow @file-exec path=/usr/** path=$X/**
deny @file-exec EPERM
EOF

urun --no-landlock --policy "$T/p.policy" -- "$X/attack" --user 65534 r10-exec-errno \
	"$X/secret-loader" "$X/secret-program" "$X/secret-loader-script" "$X/secret-script" \
	"$X/open-loader"
for f in secret-loader secret-program secret-loader-script secret-script; do
	case_begin "$f" "(nobody) exec of the root-only 0600 $f"
	native=$("$X/attack" --user 65534 r10-exec-errno "$X/$f" 2>&1 | grep '^EXEC' || true)
	got=$(results | grep "^EXEC $X/$f " || true)
	if hung; then
		case_fail "the run did not end within its time limit"
	elif [ -z "$got" ]; then
		case_fail "no answer: $(results | head -1)"
	elif [ "$got" != "$native" ]; then
		case_fail "the answer differs from the kernel's: $got (natively: $native)"
	else
		case_pass "$got, as natively"
	fi
done

case_begin open-loader "(guard) an executable copy of the loader, run as a program: the list's refusal"
if results | grep -qx "EXEC $X/open-loader EPERM"; then
	case_pass "EPERM"
else
	case_fail "expected EPERM: $(results | grep "open-loader" || results | head -1)"
fi

finish
