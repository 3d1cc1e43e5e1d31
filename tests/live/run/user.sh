#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --user, --drop-caps, --keep-caps; and the supervisor's opens honour the
# target's credentials: an allow rule never opens what the target could not
# open itself.
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "--user and capabilities need a root supervisor"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
setup_tmp

NUID=$(id -u nobody)
NGID=$(id -g nobody)
NGROUPS=$(id -G nobody | tr ' ' ',')

say "== --user nobody: identity"
urun --user nobody --rule 'default allow' -- "$PROBE" whoami
expect_grep "uid, gid and groups of nobody" "$OUT" \
	"^uid=$NUID euid=$NUID gid=$NGID egid=$NGID groups=$NGROUPS "
expect_grep "no capabilities left as nobody" "$OUT" ' capeff=0x0 capprm=0x0 '
expect_grep "no_new_privs and a seccomp filter" "$OUT" ' nnp=1 seccomp=2$'
urun --user "$NUID" --rule 'default allow' -- "$PROBE" whoami
expect_grep "--user by uid" "$OUT" "^uid=$NUID euid=$NUID gid=$NGID "
urun --user no-such-user-unotify --rule 'default allow' -- "$PROBE" whoami
expect_status "--user with an unknown user" 125
[ -z "$OUT" ] || fail "the program ran with an unknown --user: $OUT"

say "== an allow rule does not open what the target cannot"
echo rootonly >"$T/rootonly"
chmod 600 "$T/rootonly"
echo public >"$T/public"
chmod 644 "$T/public"
mkdir "$T/nobodydir" "$T/rootdir"
chown "$NUID:$NGID" "$T/nobodydir"
cat >"$T/user.policy" <<EOF
allow openat path=$T/rootonly path=$T/public path=/etc/shadow path=$T/nobodydir/** path=$T/rootdir/** $LOADER_PATHS
deny  openat EPERM
default allow
EOF
POL=$T/user.policy
urun --policy "$POL" -- "$PROBE" read "$T/rootonly"
expect_out "control: root reads the root-only file under the same policy" "data=rootonly"
urun --policy "$POL" --user nobody -- "$PROBE" read "$T/rootonly"
expect_out "nobody, root-only 0600 file allowed by the policy" "err EACCES"
urun --policy "$POL" --user nobody -- "$PROBE" open /etc/shadow
expect_out "nobody, /etc/shadow allowed by the policy" "err EACCES"
urun --policy "$POL" --user nobody -- "$PROBE" read "$T/public"
expect_out "nobody reads a public file through the injected fd" "data=public"
urun --policy "$POL" --user nobody -- "$PROBE" open "$T/secret-elsewhere"
expect_out "nobody, path not allowed" "err EPERM"

say "== O_CREAT as nobody: owned by nobody, or refused where nobody cannot write"
urun --policy "$POL" --user nobody -- "$PROBE" open "$T/nobodydir/new" wronly creat mode=0644
expect_grep "nobody creates in its own dir" "$OUT" '^ok fd=[0-9]+$'
[ -f "$T/nobodydir/new" ] || fail "$T/nobodydir/new was not created"
owner=$(stat -c %u:%g "$T/nobodydir/new")
[ "$owner" = "$NUID:$NGID" ] ||
	fail "file created for nobody is owned by $owner, expected $NUID:$NGID (the supervisor's credentials leaked)"
say "ok: created file owned by $owner"
urun --policy "$POL" --user nobody -- "$PROBE" open "$T/rootdir/new" wronly creat
expect_out "nobody creates in a root-owned 0755 dir" "err EACCES"
[ ! -e "$T/rootdir/new" ] || fail "$T/rootdir/new was created for nobody"
say "ok: nothing created in the root-owned dir"

say "== --drop-caps"
urun --drop-caps --rule 'default allow' -- "$PROBE" whoami
expect_grep "every capability dropped, the bounding set too" "$OUT" \
	'^uid=0 .* capeff=0x0 capprm=0x0 capbnd=0x0 '
echo nomode >"$T/mode0"
chmod 000 "$T/mode0"
cat >"$T/caps.policy" <<EOF
allow openat path=$T/mode0 $LOADER_PATHS
deny  openat EPERM
default allow
EOF
urun --policy "$T/caps.policy" -- "$PROBE" read "$T/mode0"
expect_out "control: root with CAP_DAC_OVERRIDE reads a mode 000 file" "data=nomode"
urun --drop-caps --policy "$T/caps.policy" -- "$PROBE" read "$T/mode0"
expect_out "root without capabilities cannot read the mode 000 file, even when allowed" \
	"err EACCES"

say "== --keep-caps"
urun --keep-caps cap_net_bind_service --rule 'default allow' -- "$PROBE" whoami
expect_grep "only cap_net_bind_service (bit 10)" "$OUT" ' capeff=0x400 capprm=0x400 '
urun --keep-caps cap_net_bind_service,cap_chown --rule 'default allow' -- "$PROBE" whoami
expect_grep "cap_net_bind_service and cap_chown (bits 10, 0)" "$OUT" ' capeff=0x401 capprm=0x401 '
urun --keep-caps cap_no_such_cap --rule 'default allow' -- "$PROBE" whoami
expect_status "--keep-caps with an unknown capability" 125
urun --user nobody --keep-caps cap_net_bind_service --rule 'default allow' -- "$PROBE" whoami
expect_grep "--user nobody --keep-caps cap_net_bind_service" "$OUT" \
	"^uid=$NUID euid=$NUID .* capeff=0x400 "

say "PASS: user"
