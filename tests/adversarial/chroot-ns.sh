#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Names that can be changed under the policy. A path rule is matched against
# the name the supervisor reads back for the resolved file, relative to the
# program's root and in the program's mounts. A program that changes its
# root or its mounts gives a denied file an allowed name:
#   chroot("/etc") then "/shadow" under contrib/policies/demo.policy (which
#   denies /etc/shadow); chroot of a private dir; as nobody, a new user
#   namespace and chroot, or a private bind mount of the denied file over
#   an allowed one; as root: a bind mount, pivot_root, open_tree (detached,
#   and moved with move_mount), fsopen/fsmount of the file system that holds
#   the file, setns into a mount namespace where an allowed name is the
#   denied file. Each case asserts the denied content is not returned.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "chroot, mounts and namespaces"
setup_tmp

DEMO=$top_srcdir/contrib/policies/demo.policy
[ -r "$DEMO" ] || fail "$DEMO is missing"
NEEDLE=secret-$(token)
DENIED=$(secret "$T/$NEEDLE")
echo harmless >"$T/allowed"
chmod 644 "$T/allowed"
IMG_NAME=img-secret-$(token)
cat >"$T/p.policy" <<EOF
default allow
deny openat open path=$T/$NEEDLE path=$T/img/$IMG_NAME EACCES
EOF
chmod 644 "$T/p.policy"

# Whether nobody may create user namespaces here (kernel.unprivileged_userns_clone...).
userns_ok() {
	setpriv --reuid=65534 --regid=65534 --clear-groups -- unshare -U true 2>/dev/null
}

case_begin chroot-etc-demo "(root, demo.policy) chroot(\"/etc\"), then open \"/shadow\""
urun --policy "$DEMO" -- "$ATTACK" --hide chroot-read /etc /shadow
if expect_blocked; then case_pass "$(results | head -1)"; fi

case_begin chroot-private "(root) chroot($T), then open /$NEEDLE"
urun --policy "$T/p.policy" -- "$ATTACK" chroot-read "$T" "/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

if userns_ok; then
	case_begin userns-chroot "(nobody) unshare(CLONE_NEWUSER), chroot($T), open /$NEEDLE"
	urun --user 65534 --policy "$T/p.policy" -- "$ATTACK" userns-chroot-read "$T" "/$NEEDLE"
	if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

	case_begin userns-bind "(nobody) new user+mount namespaces, the denied file bound over $T/allowed"
	urun --user 65534 --policy "$T/p.policy" -- "$ATTACK" bind-read "$T/$NEEDLE" "$T/allowed" userns
	if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi
else
	case_begin userns "(nobody) user namespaces"
	case_skip "nobody may not create user namespaces here"
fi

case_begin bind "(root) a private mount namespace, the denied file bound over $T/allowed"
urun --policy "$T/p.policy" -- "$ATTACK" bind-read "$T/$NEEDLE" "$T/allowed"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin bind-demo "(root, demo.policy) /etc/shadow bound over $T/allowed"
urun --policy "$DEMO" -- "$ATTACK" --hide bind-read /etc/shadow "$T/allowed"
if expect_blocked; then case_pass "$(results | head -1)"; fi

case_begin pivot-root "(root) pivot_root into $T, then open /$NEEDLE"
urun --policy "$T/p.policy" -- "$ATTACK" pivot-read "$T" "/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin open-tree "(root) open_tree(OPEN_TREE_CLONE) of $T, $NEEDLE opened in the detached copy"
urun --policy "$T/p.policy" -- "$ATTACK" tree-read "$T" "$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin open-tree-move "(root) open_tree of the denied file, move_mount onto $T/allowed"
urun --policy "$T/p.policy" -- "$ATTACK" tree-move-read "$T/$NEEDLE" "$T/allowed"
if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi

case_begin fsmount "(root) fsopen+fsmount of the ext4 image holding $T/img/$IMG_NAME, opened in the new mount"
if setup_image "$T/img"; then
	IMG_DENIED=$(secret "$T/img/$IMG_NAME")
	urun --policy "$T/p.policy" -- "$ATTACK" fsmount-read ext4 "$IMG_DEV" "$IMG_NAME"
	if expect_blocked "$IMG_DENIED"; then case_pass "$(results | head -1)"; fi
else
	case_skip "no loop device or mkfs.ext4 here"
fi

case_begin setns "(root) setns into a mount namespace where $T/allowed is the denied file"
unshare -m --propagation private sh -c \
	"mount --bind '$T/$NEEDLE' '$T/allowed' && touch '$T/ns.ready' && exec sleep 60" &
NS_PID=$!
track_pid "$NS_PID"
if wait_until 10 test -e "$T/ns.ready"; then
	urun --policy "$T/p.policy" -- "$ATTACK" setns-read "/proc/$NS_PID/ns/mnt" "$T/allowed"
	if expect_blocked "$DENIED"; then case_pass "$(results | head -1)"; fi
else
	case_skip "unshare -m could not prepare the namespace"
fi

finish
