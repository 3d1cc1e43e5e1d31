#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# " (deleted)" names. The supervisor names the file it resolved by reading
# /proc/self/fd/N back; when the file is replaced between the lookup and
# that read (a new file renamed over it, or it is removed and written
# anew, as editors and package managers do), the kernel's name is
# "PATH (deleted)", an exact deny pattern on PATH no longer matches, and the
# supervisor opens the old file, the denied one, for the program.
#
# The system (this script, outside the sandbox) replaces the denied file in
# a loop with fresh copies of the same secret while the program opens it
# up to 200,000 times (4 s at most). Any open that succeeds returns denied
# content: the program's output must not hold the secret.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program opens a root-owned directory's files"
setup_tmp

mkdir -p "$T/d"
SECRET=$(secret "$T/d/secret")

# race NAME MODE POLICY-RULE OPEN-ARGS...: the replacement loop against the opens.
race() {
	_name=$1
	_mode=$2
	printf 'default allow\n%s\n' "$3" >"$T/$_name.policy"
	shift 3
	"$ATTACK" rename-loop "$T/d" secret "$SECRET" 6 "$_mode" >"$T/$_name.loop" 2>&1 &
	_loop=$!
	track_pid "$_loop"
	URUN_CWD=$T/d urun --policy "$T/$_name.policy" -- "$ATTACK" open-loop "$@" 4 200000
	kill "$_loop" 2>/dev/null || true
	wait "$_loop" 2>/dev/null || true
	say "$(results | tail -1); $(printf '%s\n' "$OUT" | grep '^# .* opens')"
	say "audit lines naming a deleted file: $(printf '%s\n' "$ERR" | grep -c 'deleted)' || true)"
}

case_begin rename-over "(exact deny on openat) $T/d/secret replaced by rename while it is opened"
race rename-over rename "deny openat open path=$T/d/secret EACCES" "$T/d/secret"
if expect_blocked "$SECRET"; then case_pass "never opened"; fi

case_begin unlink-recreate "(exact deny on @file-read) $T/d/secret removed and written anew, opened by a relative path"
race unlink-recreate unlink "deny @file-read path=$T/d/secret EACCES" secret
if expect_blocked "$SECRET"; then case_pass "never opened"; fi

finish
