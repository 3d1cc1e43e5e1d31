#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 10, the ELF interpreter named by a late program header (found by
# an adversarial review). `deny execve path=D/** kernel` refuses D's
# programs wherever the kernel would run them, the ELF interpreter
# included. The kernel reads a program header table of up to 64 KiB and
# runs the first PT_INTERP it holds; the supervisor read only the first
# 64 headers, so a file of the program's own making with PT_INTERP at
# header 65 ran a refused program as its interpreter. Now the whole table
# is read as the kernel reads it (fail closed when it cannot be). The
# forbidden effect: the refused program prints DENIED-PROGRAM-RAN.
# Guards: each crafted file runs the program natively; PT_INTERP at
# header 2 was refused before too.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the refused program is made in a directory of its own"
setup_tmp

mkdir -p "$T/denied" "$T/ok"
need_denied_program "$T/denied/prog"
printf 'default allow\ndeny @file-read path=%s/denied/** EACCES\ndeny execve execveat path=%s/denied/** kernel\n' \
	"$T" "$T" >"$T/p.policy"

for how in supervisor layer; do
	for n in 2 64 65 200; do
		case_begin "$how-$n" "PT_INTERP at header $n of $n names the refused program ($how)"
		native=$("$ATTACK" r10-elf-interp "$T/denied/prog" "$T/ok/native$n" "$n" 2>&1 || true)
		case $native in
		*DENIED-PROGRAM-RAN*) ;;
		*)
			case_skip "natively the crafted file does not run the program: $native"
			continue
			;;
		esac
		opt=--no-landlock
		[ "$how" = layer ] && opt=
		# shellcheck disable=SC2086
		urun $opt --policy "$T/p.policy" -- "$ATTACK" r10-elf-interp "$T/denied/prog" "$T/ok/x$n" "$n"
		if expect_blocked DENIED-PROGRAM-RAN; then case_pass "$(results | tail -1)"; fi
	done
done

finish
