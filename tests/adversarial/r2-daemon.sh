#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: unotifyd, attacks that fail (regression guards; r2-lend.sh
# has one that works). Its policy `web` decides every open on its path (a
# rule that matches nothing), so the daemon performs each one for the
# sandbox, as root with its capabilities:
#   - nobody in a user namespace of its own (every capability there)
#     reads root's 0600 file through the daemon, or sets an ACL naming a
#     uid of that namespace (it must not name the host's uid of that number);
#   - as a client: the kernel-layer request from a peer that is
#     neither root nor in --allow-group, or naming a policy outside the
#     directory; a registration whose seccompFd is an O_PATH descriptor, or
#     the listener of a filter no task uses any more: the daemon answers,
#     stays up and supervises nothing it should not.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "unotifyd"
setup_tmp

policy web "default allow
deny @file-read path=/nonexistent/** EACCES"
policy attr "default allow
deny @file-attr path=/nonexistent/** EPERM"
start_daemon
chmod 666 "$SOCK"

ROOT_ONLY=$(secret "$T/root-only")
chmod 600 "$T/root-only"

case_begin userns-caps "(daemon) nobody in a user namespace of its own reads root's 0600 file"
drun web openat --user 65534 userns-read "$T/root-only"
if expect_blocked "$ROOT_ONLY"; then case_pass "$(results | head -1)"; fi

# The ids of a call are its user namespace's: an ACL entry for the
# namespace's uid 1000 (unmapped there: the kernel says EINVAL) must not
# grant the host's uid 1000; its uid 0 is the host's 65534. The policy
# `attr` makes the daemon perform setxattr (a rule on @file-attr paths).
for c in "1000 unmapped" "0 mapped"; do
	set -- $c
	echo data >"$T/acl-$2"
	chown 65534:65534 "$T/acl-$2"
	chmod 644 "$T/acl-$2"
	case_begin "userns-acl-$2" "(daemon) nobody in a user namespace of its own sets an ACL for its uid $1 ($2 there)"
	drun attr setxattr --user 65534 userns-do acl-grant "$T/acl-$2" "$1"
	mode=$(stat -c %a "$T/acl-$2")
	if [ "$2" = unmapped ] && [ "$mode" != 644 ]; then
		case_fail "an ACL was set (mode $mode): the host's uid $1 was granted rw ($(results | head -1))"
	elif [ "$2" = unmapped ]; then
		case_pass "mode $mode ($(results | head -1))"
	elif [ "$mode" = 664 ]; then
		case_pass "set, as the kernel sets it ($(results | head -1))"
	else
		case_fail "the ACL for the namespace's own uid was refused (mode $mode): $(results | head -1)"
	fi
done

# answer_has_no_bpf: the last answer carries no program, and the daemon lives.
answer_has_no_bpf() {
	if ! daemon_alive; then
		case_fail "unotifyd is gone ($(tail -3 "$T/d.err" | tr '\n' ' '))"
	elif results | grep -q '"bpf"'; then
		case_fail "the daemon sent its kernel layer: $(results | cut -c1-160)"
	else
		case_pass "$(results | cut -c1-120)"
	fi
}

case_begin kernel-layer-nobody "(client) nobody, not in --allow-group, asks for web's kernel layer"
bounded 20 "$ATTACK" --user 65534 daemon-send "$SOCK" '{"request":"kernel-layer","version":1,"policy":"web"}'
answer_has_no_bpf

case_begin kernel-layer-name "(client) the kernel layer of policy '../policies/web'"
bounded 20 "$ATTACK" daemon-send "$SOCK" '{"request":"kernel-layer","version":1,"policy":"../policies/web"}'
answer_has_no_bpf

# sandboxes_idle: once the daemon has dealt with it, nothing is supervised.
sandboxes_idle() {
	"$UNOTIFY" status --socket "$SOCK" --json 2>/dev/null | grep -q '"sandboxes_active":0'
}

for kind in "opath /" dead; do
	name=register-$(printf '%s' "$kind" | cut -d' ' -f1)
	case_begin "$name" "(client) a registration under web whose seccompFd is: $kind"
	bounded 20 "$ATTACK" daemon-register "$SOCK" web $kind
	if ! daemon_alive; then
		case_fail "unotifyd is gone ($(tail -3 "$T/d.err" | tr '\n' ' '))"
	elif ! wait_until 10 sandboxes_idle; then
		case_fail "a sandbox is still supervised: $("$UNOTIFY" status --socket "$SOCK" --json | grep -o '"sandboxes":[^]]*]')"
	else
		case_pass "$(results | cut -c1-120)"
	fi
done

finish
