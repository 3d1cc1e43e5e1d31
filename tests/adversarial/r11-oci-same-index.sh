#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, an OCI profile's entry with two conditions on one argument
# (socket's arg0 == AF_UNIX and arg0 == AF_INET, refused with EACCES).
# runc adds one libseccomp rule per condition when an argument index
# repeats, so the conditions are ORed, those on other arguments too;
# unotify ANDed them into one rule that no call matches, and the sockets
# the profile refuses were made. Now each condition is a rule of its own,
# as under runc. Guards: one condition alone refuses, a socket no
# condition names is made.

. "$top_srcdir/tests/adversarial/oci-lib.sh"
setup_tmp

profile one '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [
		{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]}]}'
profile twice '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
	{"names": ["socket"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [
		{"index": 0, "value": 1, "op": "SCMP_CMP_EQ"},
		{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"},
		{"index": 1, "value": 2, "op": "SCMP_CMP_EQ"}]}]}'

socket_case one "(guard) one condition, arg0 == AF_INET: socket(AF_INET) refused" \
	one 2 1 'err EACCES'
socket_case inet "arg0 == AF_UNIX or AF_INET: socket(AF_INET, SOCK_STREAM) refused" \
	twice 2 1 'err EACCES'
socket_case unix "arg0 == AF_UNIX or AF_INET: socket(AF_UNIX, SOCK_STREAM) refused" \
	twice 1 1 'err EACCES'
socket_case other-arg "the condition on arg1 (SOCK_DGRAM) ORed too: socket(AF_INET6, SOCK_DGRAM) refused" \
	twice 10 2 'err EACCES'
socket_case unnamed "(guard) no condition holds: socket(AF_INET6, SOCK_STREAM) made" \
	twice 10 1 ret

finish
