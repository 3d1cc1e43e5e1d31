#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, an OCI profile entry without args dropped as "the default's
# action": socket refused for every call by an action that differs from
# the default's in libseccomp (KILL under KILL_PROCESS, TRAP under KILL,
# KILL_THREAD under KILL_PROCESS, TRACE under ERRNO(ENOSYS)), and a
# conditional entry allowing socket(AF_INET). runc keeps the entry, whose
# rule shadows the conditional allow: socket(AF_INET) is refused. unotify
# compared the policy actions they map to (one kill; TRACE denies
# ENOSYS), dropped the entry, and the socket was made. Now the entry is
# dropped only when libseccomp's action and errno are the default's.
# Guards: KILL under KILL_THREAD and ERRNO(38) under ERRNO(38) are the
# same to runc, which drops them: the conditional allow applies.

. "$top_srcdir/tests/adversarial/oci-lib.sh"
setup_tmp

BASE=$(base_names)
# shadowed NAME DEFAULT ACTION: default DEFAULT (the JSON after
# "defaultAction": ), socket refused by ACTION, allowed when arg0 == AF_INET.
shadowed() {
	profile "$1" "{\"defaultAction\": $2, \"syscalls\": [
		{\"names\": [$BASE], \"action\": \"SCMP_ACT_ALLOW\"},
		{\"names\": [\"socket\"], \"action\": $3},
		{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ALLOW\", \"args\": [
			{\"index\": 0, \"value\": 2, \"op\": \"SCMP_CMP_EQ\"}]}]}"
}
shadowed kill '"SCMP_ACT_KILL_PROCESS"' '"SCMP_ACT_KILL"'
shadowed trap '"SCMP_ACT_KILL"' '"SCMP_ACT_TRAP"'
shadowed thread '"SCMP_ACT_KILL_PROCESS"' '"SCMP_ACT_KILL_THREAD"'
shadowed trace '"SCMP_ACT_ERRNO", "defaultErrnoRet": 38' '"SCMP_ACT_TRACE"'
shadowed same-kill '"SCMP_ACT_KILL_THREAD"' '"SCMP_ACT_KILL"'
shadowed same-errno '"SCMP_ACT_ERRNO", "defaultErrnoRet": 38' '"SCMP_ACT_ERRNO", "errnoRet": 38'

socket_case kill "default KILL_PROCESS, socket KILL: socket(AF_INET) kills" kill 2 2 killed
socket_case trap "default KILL, socket TRAP: socket(AF_INET) kills (SIGSYS, no handler)" \
	trap 2 2 killed
socket_case thread "default KILL_PROCESS, socket KILL_THREAD: socket(AF_INET) kills" \
	thread 2 2 killed
socket_case trace "default ERRNO(ENOSYS), socket TRACE: socket(AF_INET) refused (no tracer)" \
	trace 2 2 'err ENOSYS'
socket_case same-kill "(guard) default KILL_THREAD, socket KILL, dropped: socket(AF_INET) made" \
	same-kill 2 2 ret
socket_case same-errno "(guard) default and socket ERRNO(38), dropped: socket(AF_INET) made" \
	same-errno 2 2 ret
socket_case inet6 "(guard) default ERRNO(ENOSYS), socket TRACE: socket(AF_INET6) refused" \
	trace 10 2 'err ENOSYS'

finish
