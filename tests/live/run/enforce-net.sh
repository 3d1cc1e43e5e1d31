#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# connect, bind, sendto, sendmsg decided on the address (family=, addr=,
# port=, unix=) and performed by the supervisor on the target's own socket
# (pidfd_getfd) with the address it copied: unix paths resolved as the
# target (relative, "..", symlinks), the peer sees the target's uid and gid,
# a unix socket file is created with the target's owner and umask,
# capabilities are the target's, SCM_RIGHTS carries the target's fds.
# Loopback and unix sockets in a temporary directory only.
. "${top_srcdir:-.}/tests/live/enforce-lib.sh"
need_root "--user nobody; sockets only the policy keeps from root"
id nobody >/dev/null 2>&1 || skip "no user 'nobody'"
setup_tmp

NUID=$(id -u nobody)
NGID=$(id -g nobody)
A=$T/allowed
D=$T/denied
mkdir "$A" "$D" "$A/nob"
chown "$NUID:$NGID" "$A/nob"
echo payload >"$A/f"
free_ports 4
ABS=unotify-test-$$

# served NAME ERE: the server's output gets a line matching ERE (within 10 s).
served() {
	i=0
	until grep -Eq -- "$2" "$T/$1.out"; do
		i=$((i + 1))
		[ $i -lt 500 ] || fail "server $1 never printed /$2/: $(cat "$T/$1.out")"
		sleep 0.02
	done
	say "ok: server $1: $(grep -E -- "$2" "$T/$1.out" | tail -1)"
}

# unserved NAME ERE: no line of the server matches ERE.
unserved() {
	! grep -Eq -- "$2" "$T/$1.out" || fail "server $1 got what was denied: $(cat "$T/$1.out")"
	say "ok: server $1 got nothing /$2/"
}

POL=$T/net.policy
cat >"$POL" <<EOF
allow connect unix=$A/** unix=@$ABS-a
allow connect addr=127.0.0.1 port=$P port=$((P + 2))
allow connect addr=::1 port=$P
deny  connect EACCES
allow bind unix=$A/** unix=@$ABS-b
allow bind addr=127.0.0.1 port=$((P + 1))
allow bind port=80
deny  bind EACCES
allow sendto sendmsg unix=$A/**
allow sendto sendmsg addr=127.0.0.1 port=$((P + 2))
deny  sendto sendmsg family=inet family=inet6 family=unix EACCES
default allow
EOF

say "== connect to unix path sockets"
serve srv stream unix "$A/srv.sock" 6
serve dsrv stream unix "$D/srv.sock" 1
ln -s "$D/srv.sock" "$A/link-denied"
ln -s "$A/srv.sock" "$T/link-in"
expect "connect allowed/srv.sock" "ok got=hello" connect stream unix "$A/srv.sock"
served srv "^conn uid=0 gid=0 pid=[0-9]+ "
sup=$SUP_PID
grep -q "^conn uid=0 gid=0 pid=$sup " "$T/srv.out" && fail "the peer's pid is the supervisor's"
expect "connect denied/srv.sock" "err EACCES" connect stream unix "$D/srv.sock"
expect "connect allowed/../denied/srv.sock" "err EACCES" connect stream unix "$A/../denied/srv.sock"
expect "connect allowed/link-denied (symlink to denied)" "err EACCES" \
	connect stream unix "$A/link-denied"
expect "connect link-in (outside, symlink into allowed)" "ok got=hello" connect stream unix "$T/link-in"
URUN_CWD=$A expect "cd allowed; connect srv.sock" "ok got=hello" connect stream unix srv.sock
URUN_CWD=$D expect "cd denied; connect srv.sock" "err EACCES" connect stream unix srv.sock
expect "connect allowed/none.sock" "err ENOENT" connect stream unix "$A/none.sock"
expect "connect a file that is no socket" "err ECONNREFUSED" connect stream unix "$A/f"
RUN_OPTS="--user nobody"
expect "nobody: the socket file is root's 0755" "err EACCES" connect stream unix "$A/srv.sock"
chmod 666 "$A/srv.sock"
expect "nobody: connect allowed/srv.sock" "ok got=hello" connect stream unix "$A/srv.sock"
served srv "^conn uid=$NUID gid=$NGID "
say "ok: the peer (SO_PEERCRED) is nobody, not the supervisor's root"
RUN_OPTS=
unserved dsrv "^conn"

say "== connect: abstract, datagram, inet, inet6"
serve abs stream unix "@$ABS-a" 1
serve absd stream unix "@$ABS-d" 1
expect "connect @allowed" "ok got=hello" connect stream unix "@$ABS-a"
expect "connect @denied" "err EACCES" connect stream unix "@$ABS-d"
unserved absd "^conn"
serve dg dgram unix "$A/dg.sock" 5
expect "connect a datagram socket" ok connect dgram unix "$A/dg.sock"
serve tcp stream inet 127.0.0.1 "$P" 2
expect "connect 127.0.0.1:$P" "ok got=hello" connect stream inet 127.0.0.1 "$P"
expect "connect 127.0.0.1:$((P + 3))" "err EACCES" connect stream inet 127.0.0.1 $((P + 3))
expect "connect ::ffff:127.0.0.1:$P (IPv4-mapped)" "ok got=hello" connect stream mapped 127.0.0.1 "$P"
if "$PROBE" bind stream inet6 ::1 0 | grep -q '^ok'; then
	serve tcp6 stream inet6 ::1 "$P" 1
	expect "connect [::1]:$P" "ok got=hello" connect stream inet6 ::1 "$P"
	expect "connect [::1]:$((P + 3))" "err EACCES" connect stream inet6 ::1 $((P + 3))
else
	skip_case "connect [::1]" "no IPv6 loopback here"
fi

say "== bind"
expect "bind allowed/b1.sock" "ok name=b1.sock" bind stream unix "$A/b1.sock"
[ -S "$A/b1.sock" ] || fail "no socket file allowed/b1.sock"
say "ok: created (named by its last component, see unotify_net_bind)"
URUN_CWD=$A URUN_UMASK=077 expect "cd allowed; umask 077; bind b2.sock" "ok name=b2.sock" \
	bind stream unix b2.sock
[ "$(stat -c %a "$A/b2.sock")" = 700 ] || fail "umask 077 gave $(stat -c %a "$A/b2.sock")"
say "ok: mode 700 (the target's umask)"
expect "bind denied/b.sock" "err EACCES" bind stream unix "$D/b.sock"
[ ! -e "$D/b.sock" ] || fail "a denied bind created denied/b.sock"
ln -s "$D" "$A/to-denied"
expect "bind through a symlinked parent into denied" "err EACCES" bind stream unix "$A/to-denied/b.sock"
[ ! -e "$D/b.sock" ] || fail "bind created denied/b.sock through the link"
expect "bind an existing name" "err EADDRINUSE" bind stream unix "$A/b1.sock"
RUN_OPTS="--user nobody"
expect "nobody: bind in its own dir" "ok name=s.sock" bind stream unix "$A/nob/s.sock"
[ "$(stat -c %u:%g "$A/nob/s.sock")" = "$NUID:$NGID" ] ||
	fail "nobody's socket file is $(stat -c %u:%g "$A/nob/s.sock")'s"
say "ok: the socket file is nobody's"
expect "nobody: bind in root's dir" "err EACCES" bind stream unix "$A/s.sock"
expect "nobody: bind port 80 (allowed, but no CAP_NET_BIND_SERVICE)" "err EACCES" \
	bind stream inet 127.0.0.1 80
RUN_OPTS=
expect "bind @allowed" "ok name=@$ABS-b" bind stream unix "@$ABS-b"
expect "bind @other" "err EACCES" bind stream unix "@$ABS-x"
expect "bind 127.0.0.1:$((P + 1))" "ok name=127.0.0.1:$((P + 1))" bind stream inet 127.0.0.1 $((P + 1))
expect "bind 127.0.0.1:$((P + 3))" "err EACCES" bind stream inet 127.0.0.1 $((P + 3))
expect "bind AF_UNSPEC 0.0.0.0:$((P + 3)) (the kernel binds it as IPv4)" "err EACCES" \
	bind stream unspec 0.0.0.0 $((P + 3))

say "== sendto, sendmsg with an address"
serve dgd dgram unix "$D/dg.sock" 1
expect "sendto allowed/dg.sock" "ok n=5" sendto dgram unix "$A/dg.sock" hello
served dg "^msg len=5 data=hello uid=0 gid=0 "
expect "sendto denied/dg.sock" "err EACCES" sendto dgram unix "$D/dg.sock" hello
unserved dgd "^msg"
RUN_OPTS="--user nobody"
chmod 666 "$A/dg.sock"
expect "nobody: sendto allowed/dg.sock" "ok n=6" sendto dgram unix "$A/dg.sock" nobody
served dg "^msg len=6 data=nobody uid=$NUID gid=$NGID "
say "ok: the datagram carries nobody's credentials"
RUN_OPTS=
expect "sendmsg with SCM_RIGHTS" "ok n=6" sendmsg dgram unix "$A/dg.sock" rights "rights=$A/f"
served dg "^msg len=6 data=rights .* fds=$(re_quote "$A/f")\$"
say "ok: the receiver got the target's fd"
expect "sendmsg with SCM_CREDENTIALS" "ok n=5" sendmsg dgram unix "$A/dg.sock" creds creds
served dg "^msg len=5 data=creds uid=0 gid=0 "
expect "sendmsg SCM_RIGHTS of a closed fd" "err EBADF" sendmsg dgram unix "$A/dg.sock" x "rights=$T/none"
expect "sendmsg to denied/dg.sock" "err EACCES" sendmsg dgram unix "$D/dg.sock" hello
serve udp dgram inet 127.0.0.1 $((P + 2)) 1
expect "sendto 127.0.0.1:$((P + 2))" "ok n=3" sendto dgram inet 127.0.0.1 $((P + 2)) udp
served udp "^msg len=3 data=udp "
expect "sendto 127.0.0.1:$((P + 3))" "err EACCES" sendto dgram inet 127.0.0.1 $((P + 3)) udp
expect "sendto AF_UNSPEC 127.0.0.1:$((P + 3)) (UDP sends it as IPv4)" "err EACCES" \
	sendto dgram unspec 127.0.0.1 $((P + 3)) udp
expect "a datagram over every limit" "err EMSGSIZE" sendto dgram unix "$A/dg.sock" x size=300000
serve big stream inet 127.0.0.1 $((P + 2)) 1
expect "300000 bytes on a stream: 262144 sent (a short write)" "ok n=262144" \
	sendto stream inet 127.0.0.1 $((P + 2)) x size=300000 connect
served big "read=262144\$"
expect "sendto without an address: decided on registers" "ok n=5" \
	sendto dgram unix "$A/dg.sock" hello connect noaddr
audited "no address read" "syscall=sendto verdict=allow rule=default "
expect_no_grep "the connected sendto was not decided on memory" "$(audit_lines | grep syscall=sendto)" \
	" addr="

say "== a peer gone: EPIPE, and SIGPIPE unless MSG_NOSIGNAL, as the kernel does"
serve gone stream inet 127.0.0.1 $((P + 2)) 4 close
# Up to 40 sends 50 ms apart, stopping at the first error: the server may be
# slow to accept (and close) on a loaded machine; only then do sends fail.
expect "MSG_NOSIGNAL: EPIPE" "err EPIPE" \
	sendto stream inet 127.0.0.1 $((P + 2)) x connect repeat=40 nosignal
supervised sendto stream inet 127.0.0.1 $((P + 2)) x connect repeat=40
expect_status "without MSG_NOSIGNAL: killed by SIGPIPE (128 + 13)" 141
expect "SIGPIPE caught: EPIPE, then the handler runs once" "$(printf 'err EPIPE\nsigpipes=1')" \
	sendto stream inet 127.0.0.1 $((P + 2)) x connect repeat=40 sigpipe=catch
expect "SIGPIPE ignored: EPIPE" "err EPIPE" \
	sendto stream inet 127.0.0.1 $((P + 2)) x connect repeat=40 sigpipe=ignore

say "PASS: enforce-net"
