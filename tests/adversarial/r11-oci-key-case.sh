#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, the keys of an OCI profile spelt in another case. Go's
# encoding/json (runc, Moby, containerd) matches keys case aside, the
# exact name first; unotify matched them exactly and ignored the others
# silently: "Args" made a conditional allow of socket (AF_UNIX only) an
# unconditional one, "Syscalls" left every entry out (a refusal of
# socket(AF_INET) under a default allow). Now keys are read as Go reads
# them, and 'unotify policy check' warns of a key spelt so and of a key
# that names nothing (which runc ignores), naming it. Guards: the exact
# spellings; the socket the conditional allow names is made.

. "$top_srcdir/tests/adversarial/oci-lib.sh"
setup_tmp

BASE=$(base_names)
profile args "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [
	{\"names\": [$BASE], \"action\": \"SCMP_ACT_ALLOW\"},
	{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", \"Args\": [
		{\"index\": 0, \"value\": 1, \"op\": \"SCMP_CMP_EQ\"}]}]}"
profile args-exact "$(sed 's/"Args"/"args"/' "$T/args.json")"
profile calls '{"defaultAction": "SCMP_ACT_ALLOW", "Syscalls": [
	{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [
		{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]}]}'
profile calls-exact "$(sed 's/"Syscalls"/"syscalls"/' "$T/calls.json")"
profile unknown '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "Argz": [
		{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]}]}'

socket_case args-exact '(guard) "args": socket(AF_INET) gets the default' \
	args-exact 2 1 'err EPERM'
socket_case args '"Args": socket(AF_INET) gets the default' args 2 1 'err EPERM'
socket_case args-unix '(guard) "Args": socket(AF_UNIX) made' args 1 1 ret
socket_case calls-exact '(guard) "syscalls": socket(AF_INET) refused' calls-exact 2 1 'err EACCES'
socket_case calls '"Syscalls": socket(AF_INET) refused' calls 2 1 'err EACCES'

# check_says NAME WHAT TEXT: 'unotify policy check' of NAME.policy prints TEXT.
check_says() {
	case_begin "$1" "$2"
	bounded "$RUN_TIMEOUT" "$UNOTIFY" policy check "$T/$1.policy"
	if printf '%s\n' "$OUT" "$ERR" | grep -qF -- "$3"; then
		case_pass "it says: $3"
	else
		case_fail "no '$3' in what policy check says"
	fi
}
check_says args 'policy check says how "Args" is read' "syscalls[1]: key 'Args' read as args"
check_says unknown 'policy check names a key runc ignores' "syscalls[0]: unknown key 'Argz'"

finish
