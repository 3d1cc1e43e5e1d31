#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify bench floor` and `unotify bench landlock`, the baselines of
# contrib/bench/build.sh: a program tree under them gets the files, errors
# and exit status it would get alone, the floor never lends its own procfs
# entries or identity, and build.sh runs a tiny build with every mode.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp
need_root "loads seccomp filters"
ucmd info
printf '%s\n' "$OUT" | grep -q '^user-notification: available' ||
	skip "this kernel has no seccomp user notification"

echo "secret-of-the-test" >"$T/secret"
mkdir "$T/d"
ln -s ../secret "$T/d/link"

for variant in "" "--walk" "--creds" "--receivers 3" "--workers 2" "--no-sync"; do
	say "== the floor $variant"
	# shellcheck disable=SC2086
	capture "floor $variant" "$UNOTIFY" bench floor -v $variant -- sh -c "
		cat '$T/secret' && cat '$T/d/link' &&
		cd '$T' && cat secret && cat d/link &&
		echo made >'$T/created' && cat '$T/created' &&
		( cat '$T/missing' 2>/dev/null; echo missing=\$? ) &&
		exit 7"
	expect_status "the program's exit status passes through" 7
	[ "$OUT" = "secret-of-the-test
secret-of-the-test
secret-of-the-test
secret-of-the-test
made
missing=1" ] || { show_run; fail "floor $variant: wrong contents"; }
	say "ok: absolute, relative, through a symlink, created, ENOENT"
	expect_grep "opens were served by the floor" "$ERR" '^unotify bench floor: [1-9][0-9]* calls'
	rm -f "$T/created"
done

say "== the floor never opens its own procfs entries for the program"
capture "floor /proc" "$UNOTIFY" bench floor -v -- sh -c 'cat /proc/self/status'
[ "$RC" != 0 ] || { show_run; fail "/proc/self/status was opened by the floor"; }
expect_grep "refused with EACCES" "$ERR" 'Permission denied'
expect_grep "and counted" "$ERR" '1 refused \(procfs\)'

say "== the floor keeps the program's identity its own"
if command -v python3 >/dev/null; then
	capture "floor setresuid" "$UNOTIFY" bench floor -- python3 -c \
		'import os; os.setresuid(-1, os.getuid(), -1); os.setresuid(-1, 65534, -1)'
	expect_status "changing an id fails" 1
	expect_grep "with EPERM" "$ERR" 'PermissionError'
	capture "floor chroot" "$UNOTIFY" bench floor -- python3 -c 'import os; os.chroot("/tmp")'
	expect_status "chroot fails" 1
fi

say "== landlock: everything but /etc/shadow"
capture "landlock" "$UNOTIFY" bench landlock -- sh -c "cat '$T/secret'; cat /etc/shadow >/dev/null"
if printf '%s\n' "$ERR" | grep -q 'has no Landlock'; then
	skip_case "landlock" "this kernel has no Landlock"
else
	[ "$OUT" = "secret-of-the-test" ] || { show_run; fail "landlock: a file was not read"; }
	[ "$RC" != 0 ] || { show_run; fail "landlock: /etc/shadow was read"; }
	expect_grep "/etc/shadow refused" "$ERR" 'Permission denied'
fi

say "== build.sh: a tiny build under every mode"
if command -v gcc >/dev/null && command -v make >/dev/null; then
	capture "build.sh" "${top_srcdir:-.}/contrib/bench/build.sh" --unotify "$UNOTIFY" \
		--units 2 --headers 5 --runs 1 --jobs 2 --dir "$T/build"
	expect_status "build.sh exits 0" 0
	expect_grep "machine and kernel named" "$OUT" "Linux $(uname -r)"
	expect_grep "a row for plain" "$OUT" '^plain +[0-9.]+ .* 1\.00x'
	expect_grep "a row for unotify, against the floor" "$OUT" '^unotify +[0-9.]+ .*x +[0-9.]+x$'
	expect_grep "a row for the floor" "$OUT" '^floor +[0-9.]+ .* 1\.00x$'
else
	skip_case "build.sh" "no gcc or make"
fi

