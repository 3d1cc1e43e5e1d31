#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kept target state (lib/target-cache.c) after a credential change in
# the same thread between two opens: its file system uid (setfsuid), its
# effective capabilities (capset dropping the DAC overrides), its groups
# (setgroups by a thread that keeps CAP_SETGID). The first open reads;
# the second must be refused as the kernel refuses it (EACCES).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program changes its ids, capabilities and groups"
setup_tmp

chmod 755 "$T"
SECRET=$(secret "$T/root-only")
chown 4343:4343 "$T/root-only"
chmod 600 "$T/root-only"
secret "$T/group-only" >/dev/null
chown 4343:4242 "$T/group-only"
chmod 040 "$T/group-only"
GSECRET=$(cat "$T/group-only")
printf 'default allow\ndeny openat open path=%s/nothing/** EACCES\n' "$T" >"$T/p.policy"

for what in fsuid capdrop groups; do
	f=$T/root-only s=$SECRET
	[ "$what" = groups ] && f=$T/group-only s=$GSECRET
	case_begin "$what" "open $f, change $what, open it again"
	OUT=$(timeout 20 "$ATTACK" r4-cred-seq "$f" "$what" 4242 2>&1 || true)
	if ! printf '%s\n' "$OUT" | grep -q '^BLOCKED EACCES'; then
		case_skip "natively the second open is not refused: $(printf '%s' "$OUT" | tail -1)"
		continue
	fi
	urun --policy "$T/p.policy" -- "$ATTACK" r4-cred-seq "$f" "$what" 4242
	if expect_blocked "$s"; then case_pass "$(results | tail -1)"; fi
done

finish
