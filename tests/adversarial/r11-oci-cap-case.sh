#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, the capability names of an OCI profile's includes.caps and
# excludes.caps in another case. Moby decides them (runc gets the entries
# it keeps) by comparing each name exactly with the bounding set's
# "CAP_..." names: "cap_net_raw" is never held. unotify compared them case
# aside: an entry refusing socket(AF_INET) (EACCES) unless "cap_net_raw"
# is held was dropped for root, and the socket was made. Now names are
# compared exactly. Also, an entry with includes.caps "cap_net_raw" does
# not apply, as under Docker. Guards: the exact names "CAP_NET_RAW".

. "$top_srcdir/tests/adversarial/oci-lib.sh"
need_root "the program must hold CAP_NET_RAW"
setup_tmp

# filtered NAME FILTER: default allow, socket(AF_INET) refused (EACCES) under FILTER.
filtered() {
	profile "$1" "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [
		{\"names\": [\"socket\"], \"action\": \"SCMP_ACT_ERRNO\", \"errnoRet\": 13, $2,
		 \"args\": [{\"index\": 0, \"value\": 2, \"op\": \"SCMP_CMP_EQ\"}]}]}"
}
filtered excludes '"excludes": {"caps": ["cap_net_raw"]}'
filtered excludes-exact '"excludes": {"caps": ["CAP_NET_RAW"]}'
filtered includes '"includes": {"caps": ["cap_net_raw"]}'
filtered includes-exact '"includes": {"caps": ["CAP_NET_RAW"]}'

socket_case excludes 'excludes.caps "cap_net_raw" (never held under Docker): socket(AF_INET) refused' \
	excludes 2 1 'err EACCES'
socket_case excludes-exact '(guard) excludes.caps "CAP_NET_RAW", held: socket(AF_INET) made' \
	excludes-exact 2 1 ret
socket_case includes 'includes.caps "cap_net_raw" (never held under Docker): socket(AF_INET) made' \
	includes 2 1 ret
socket_case includes-exact '(guard) includes.caps "CAP_NET_RAW", held: socket(AF_INET) refused' \
	includes-exact 2 1 'err EACCES'

finish
