#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, conditional entries of one syscall in an OCI profile that
# overlap with different actions: socket allowed when arg0 == AF_INET,
# refused (EACCES, or a kill) when its type is SOCK_DGRAM. libseccomp
# decides socket(AF_INET, SOCK_DGRAM) by its own tree order (here the
# arg1 test first: refused); unotify took the profile's order, the allow
# first, and made the socket. Now the most refusing action applies
# (kill > deny > log > allow), whatever the order. Guards: the same
# entries deny first; calls only one entry matches; the default. The
# documented other side: where libseccomp lets the allow win (the allow
# tests arg1, the refusal arg0), unotify still refuses.

. "$top_srcdir/tests/adversarial/oci-lib.sh"
setup_tmp

BASE=$(base_names)
ALLOW_INET='{"names": ["socket"], "action": "SCMP_ACT_ALLOW", "args": [
	{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]}'
DENY_DGRAM='{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [
	{"index": 1, "value": 15, "valueTwo": 2, "op": "SCMP_CMP_MASKED_EQ"}]}'
KILL_DGRAM='{"names": ["socket"], "action": "SCMP_ACT_KILL_PROCESS", "args": [
	{"index": 1, "value": 15, "valueTwo": 2, "op": "SCMP_CMP_MASKED_EQ"}]}'
ALLOW_DGRAM='{"names": ["socket"], "action": "SCMP_ACT_ALLOW", "args": [
	{"index": 1, "value": 15, "valueTwo": 2, "op": "SCMP_CMP_MASKED_EQ"}]}'
DENY_INET='{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [
	{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]}'
# overlap NAME FIRST SECOND: a profile, default EPERM, BASE allowed, then the two entries.
overlap() {
	profile "$1" "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [
		{\"names\": [$BASE], \"action\": \"SCMP_ACT_ALLOW\"}, $2, $3]}"
}
overlap deny-first "$DENY_DGRAM" "$ALLOW_INET"
overlap allow-first "$ALLOW_INET" "$DENY_DGRAM"
overlap kill "$ALLOW_INET" "$KILL_DGRAM"
overlap swapped "$ALLOW_DGRAM" "$DENY_INET"

socket_case deny-first "(guard) the refusal first: socket(AF_INET, SOCK_DGRAM) refused" \
	deny-first 2 2 'err EACCES'
socket_case allow-first "the allow first: socket(AF_INET, SOCK_DGRAM) refused all the same" \
	allow-first 2 2 'err EACCES'
socket_case kill "the allow first, SOCK_DGRAM killed: socket(AF_INET, SOCK_DGRAM) kills" \
	kill 2 2 killed
socket_case stream "(guard) only the allow matches: socket(AF_INET, SOCK_STREAM) made" \
	allow-first 2 1 ret
socket_case inet6 "(guard) only the refusal matches: socket(AF_INET6, SOCK_DGRAM) refused" \
	allow-first 10 2 'err EACCES'
socket_case default "(guard) neither matches: socket(AF_INET6, SOCK_STREAM) gets the default" \
	allow-first 10 1 'err EPERM'

case_begin stricter "(documented) the allow tests arg1, the refusal arg0: runc makes socket(AF_INET, SOCK_DGRAM), unotify refuses"
urun --policy "$T/swapped.policy" -- "$PROBE" syscall 41 2 2 0
if [ "$(outcome)" = 'err EACCES' ]; then
	case_pass "err EACCES (runc: ret)"
else
	case_fail "expected err EACCES, stricter than runc: $(outcome)"
fi

finish
