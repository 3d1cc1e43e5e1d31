#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `scope abstract-unix signal` (unotify.policy(5), SCOPE): with Landlock ABI
# 6 the program cannot connect or send to an abstract Unix socket bound
# outside its sandbox, nor signal a process outside it (EPERM), while
# sockets and processes of its own still work. Nothing else enforces it, so
# without it (--no-landlock, UNOTIFY_LANDLOCK=off, an older ABI) the program
# is not started at all (status 125), and says why.
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "makes the sandbox's namespaces"
setup_tmp

ABI=$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')
ABS=unotify-scope-$$

cat >"$T/scoped.policy" <<EOF
default allow
scope abstract-unix signal
EOF
printf 'default allow\n' >"$T/plain.policy"

say "== without Landlock's scope, the program is not started"
for how in --no-landlock env abi5; do
	rm -f "$T/ran"
	case $how in
	--no-landlock) urun --no-landlock --policy "$T/scoped.policy" -- touch "$T/ran" ;;
	env) UNOTIFY_LANDLOCK=off urun --policy "$T/scoped.policy" -- touch "$T/ran" ;;
	abi5) UNOTIFY_LANDLOCK_ABI=5 urun --policy "$T/scoped.policy" -- touch "$T/ran" ;;
	esac
	expect_status "scope without the layer ($how)" 125
	expect_grep "it says why ($how)" "$ERR" \
		'scoped.policy:2: scope abstract-unix signal needs Landlock ABI 6'
	[ ! -e "$T/ran" ] || fail "the program ran without the scope ($how)"
done
UNOTIFY_LANDLOCK=off ucmd policy explain "$T/scoped.policy"
expect_grep "explain says it cannot be enforced" "$OUT" '^  scope: not enforceable here: '

if [ "${ABI:-0}" -lt 6 ]; then
	skip "this kernel's Landlock ABI is ${ABI:-0}: scoping needs 6"
fi

say "== explain and compile"
ucmd policy explain "$T/scoped.policy"
expect_grep "explain: the scope is Landlock's" "$OUT" \
	'^  scope: abstract-unix signal: decided by Landlock in the kernel'
ucmd policy compile "$T/scoped.policy" --landlock
expect_grep "compile --landlock writes the scope" "$OUT" '^scoped abstract-unix-socket signal$'

say "== abstract Unix sockets"
serve stream stream unix "@$ABS-s" 2
urun -q --policy "$T/plain.policy" -- "$PROBE" connect stream unix "@$ABS-s"
expect_grep "without scope: a stream socket bound outside is reached" "$OUT" '^ok got=hello'
i=0
until grep -q '^conn ' "$T/stream.out"; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "the server outside never saw the connection"
	sleep 0.02
done
urun -q --policy "$T/scoped.policy" -- "$PROBE" connect stream unix "@$ABS-s"
expect_out "with scope: connect to one bound outside" "err EPERM"
serve dgram dgram unix "@$ABS-d" 1
urun -q --policy "$T/scoped.policy" -- "$PROBE" sendto dgram unix "@$ABS-d" leak
expect_out "with scope: a datagram to one bound outside" "err EPERM"
urun -q --policy "$T/scoped.policy" -- sh -c \
	"'$PROBE' serve stream unix @$ABS-in 1 >'$T/in.out' 2>&1 &
	 i=0; until grep -q ready '$T/in.out' || [ \$i -ge 200 ]; do i=\$((i+1)); sleep 0.02; done
	 '$PROBE' connect stream unix @$ABS-in; wait"
expect_grep "with scope: a socket the sandbox bound itself is reached" "$OUT" '^ok got=hello'
# A rule that sends connects to the supervisor: it would perform them from
# outside the domain, where the scope does not hold. The program must not start.
printf 'default allow\nscope abstract-unix\ndeny @net-connect port=25 ECONNREFUSED\n' \
	>"$T/scoped-net.policy"
rm -f "$T/ran"
urun -q --policy "$T/scoped-net.policy" -- sh -c \
	"touch '$T/ran'; exec '$PROBE' connect stream unix @$ABS-s"
expect_status "with scope and a port rule on connect: not started" 125
expect_grep "it says why" "$ERR" 'scope abstract-unix cannot be kept next to the rule at .*scoped-net.policy:3'
[ ! -e "$T/ran" ] || fail "the program ran: $OUT"
# The refused ones never got through: one connection only (the unscoped run).
n=$(grep -c '^conn ' "$T/stream.out" || true)
[ "$n" = 1 ] || fail "the server outside saw $n connections, not 1: $(cat "$T/stream.out")"
! grep -q 'data=leak' "$T/dgram.out" || fail "the datagram reached the server outside"
say "ok: the server outside saw only the unscoped connection, no datagram"

say "== signals"
for share in "" --share-pid; do
	what=${share:-"own pid namespace"}
	# The parent: unotify itself with --share-pid, the sandbox's init without.
	# shellcheck disable=SC2086
	urun -q $share --policy "$T/plain.policy" -- sh -c \
		'kill -0 $PPID 2>/dev/null && echo sent || echo refused'
	expect_out "without scope ($what): the parent outside can be signalled" sent
	# shellcheck disable=SC2086
	urun -q $share --policy "$T/scoped.policy" -- sh -c \
		'kill -0 $PPID 2>/dev/null && echo sent || echo refused'
	expect_out "with scope ($what): not the parent outside" refused
	# shellcheck disable=SC2086
	urun -q $share --policy "$T/scoped.policy" -- sh -c \
		'sleep 30 & kill -TERM $!; wait $!; echo status=$?'
	expect_out "with scope ($what): its own child, yes" status=143
done
# The supervisor stays alive and in charge: a SIGSTOP to it is refused.
urun -q --share-pid --policy "$T/scoped.policy" -- sh -c \
	'kill -STOP $PPID 2>/dev/null && echo stopped || echo refused'
expect_out "with scope: SIGSTOP to the supervisor (--share-pid)" refused
