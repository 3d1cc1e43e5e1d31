#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 3: the Landlock layer (rules the kernel enforces exactly go to a
# ruleset bound before exec; the calls they decide are no longer notified).
# Each case tries to make the layered result differ from the policy as
# written, and runs with the layer and without it (--no-landlock: the
# supervisor decides every call): both must give the answer the policy
# says, and the forbidden effect (a file changed, a program run, a
# connection made) must not happen. Cases:
#   - first match across layers: a refusal inside an allowed tree, a later
#     allow after the refusal; a denial with its own errno (not EACCES);
#   - O_CREAT of an existing file where creating is refused; truncate and
#     O_TRUNC beside write; mkdir, mknod, symlink, rename and link into,
#     out of and within an allowed tree (no EXDEV);
#   - exec allow-lists: execve, execveat with a dirfd, fexecve (O_RDONLY and
#     O_PATH), execve of /proc/self/fd/N, a memfd copy (fexecve and through
#     /proc/self/fd), a script whose interpreter may not run;
#   - address rules next to the layer (ports, v4-mapped), the program's own
#     Landlock domain (self-landlock), the switch and ABI caps;
#   - `scope abstract-unix` next to rules on connect (performed outside the
#     domain: the program must not start); run --daemon.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root: private pid namespace, vm.memfd_noexec for it"
setup_tmp
PROBE=${PROBE:-$top_builddir/tests/live/probe}
[ -x "$PROBE" ] || fail "$PROBE is not built"

A=$T/a   # the tree the policy allows
B=$T/b   # a tree it does not
X=$T/x   # programs that may run
mkdir -p "$A/sub" "$B" "$X"
echo secret >"$T/secret"
chmod 644 "$T/secret"
SUM=$(checksum "$T/secret")
cp /bin/true "$T/prog"
cp /bin/true "$X/prog"
printf '#!%s\n' "$T/prog" >"$X/via-denied"
chmod 755 "$X/via-denied"

# reset: the tree as each case expects it.
reset() {
	rm -rf "$A" "$B"
	mkdir -p "$A/sub" "$B"
	echo data >"$A/file"
	echo keep >"$A/keep"
	echo other >"$B/file"
}

# both WHAT WANT POLICY CMD...: CMD (probe or attack arguments, the program
# first) under POLICY, with the layer and without; both outputs (but for
# "# " lines) must start with WANT and be the same. Sets OUT_ON.
both() {
	_what=$1
	_want=$2
	_pol=$3
	shift 3
	_outs=
	_ok=yes
	for _mode in on off; do
		_opt=
		[ $_mode = off ] && _opt=--no-landlock
		reset
		# shellcheck disable=SC2086
		urun $_opt --log /dev/null --policy "$_pol" -- "$@"
		_res=$(results | head -n 3)
		if hung; then
			case_fail "$_what ($_mode): the run hung"
			_ok=no
			break
		fi
		case $_res in
		"$_want"*) ;;
		*)
			case_fail "$_what ($_mode): '$(printf '%s' "$_res" | head -1)', the policy says '$_want'"
			_ok=no
			break
			;;
		esac
		if [ $_mode = off ] && [ "$_res" != "$_outs" ]; then
			case_fail "$_what: '$_outs' with the layer, '$_res' without"
			_ok=no
			break
		fi
		_outs=$_res
	done
	[ $_ok = yes ]
}

# layer POLICY FAMILY: explain says FAMILY (opens, exec) is decided by Landlock.
layer_is() {
	"$UNOTIFY" policy explain "$1" 2>/dev/null | grep -q "^  $2: decided by Landlock"
}

secret_intact() {
	[ "$(checksum "$T/secret")" = "$SUM" ]
}

# ---- policies ----
cat >"$T/main.policy" <<EOF
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
allow @file-exec path=/usr/** path=$ATTACK path=$PROBE path=$X/**
deny @file-write @file-create @file-delete @file-exec kernel
EOF
cat >"$T/inside.policy" <<EOF
default allow
deny @file-write path=$A/keep kernel
allow @file-read @file-write @file-create @file-delete path=$A/**
deny @file-write @file-create @file-delete kernel
EOF
cat >"$T/later.policy" <<EOF
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
deny @file-write @file-create @file-delete kernel
allow @file-read @file-write @file-create @file-delete path=$B/**
EOF
cat >"$T/errno.policy" <<EOF
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
deny @file-write @file-create @file-delete EROFS
EOF
cat >"$T/nocreate.policy" <<EOF
default allow
allow @file-read @file-write path=$A/**
deny @file-write @file-create kernel
EOF

# ---- which layer ----
case_begin layers "explain: the plain shape moves to Landlock, the others stay with the supervisor"
if ! layer_is "$T/main.policy" opens || ! layer_is "$T/main.policy" exec; then
	case_skip "the layer does not take main.policy here ($("$UNOTIFY" info | grep landlock))"
	NOLAYER=yes
elif layer_is "$T/inside.policy" opens || layer_is "$T/errno.policy" opens; then
	case_fail "a refusal inside a tree or its own errno went to Landlock (which only allows, and answers EACCES)"
else
	case_pass "main: opens and exec in Landlock; inside, errno: supervisor"
fi

# ---- first match, errnos ----
case_begin deny-inside "(a refusal inside the allowed tree, first) write a/keep: EACCES, unchanged"
if both "write a/keep" "err EACCES" "$T/inside.policy" "$PROBE" open "$A/keep" wronly trunc &&
	[ "$(cat "$A/keep")" = keep ]; then
	case_pass "refused in both layers"
fi
case_begin later-allow "(an allow after the refusal) write b/file: the refusal matches first"
if both "write b/file" "err EACCES" "$T/later.policy" "$PROBE" open "$B/file" wronly &&
	[ "$(cat "$B/file")" = other ]; then
	case_pass "refused in both layers"
fi
case_begin own-errno "(deny EROFS) write outside and a missing file: EROFS, not Landlock's EACCES/ENOENT"
if both "write secret" "err EROFS" "$T/errno.policy" "$PROBE" open "$T/secret" wronly &&
	both "missing file" "err EROFS" "$T/errno.policy" "$PROBE" open "$T/nothere" wronly creat &&
	[ ! -e "$T/nothere" ] && secret_intact; then
	case_pass "EROFS in both layers"
fi
case_begin creat-existing "(read and write granted, create refused) O_CREAT of an existing a/file: a create to the policy"
if both "O_WRONLY|O_CREAT a/file" "err EACCES" "$T/nocreate.policy" \
	"$PROBE" open "$A/file" wronly creat &&
	both "O_WRONLY a/file" "ok fd=" "$T/nocreate.policy" "$PROBE" open "$A/file" wronly; then
	case_pass "EACCES with O_CREAT, ok without, in both layers"
fi

# ---- names made, moved, cut ----
case_begin truncate "(main) truncate(2), O_TRUNC read-only, O_RDONLY|O_CREAT of the secret: refused, unchanged"
if both "truncate" "err EACCES" "$T/main.policy" "$PROBE" truncate "$T/secret" 0 &&
	both "O_TRUNC" "err EACCES" "$T/main.policy" "$PROBE" open "$T/secret" rdonly trunc &&
	both "O_RDONLY|O_CREAT" "err EACCES" "$T/main.policy" "$PROBE" open "$T/secret" rdonly creat &&
	both "read" "ok fd=" "$T/main.policy" "$PROBE" open "$T/secret" rdonly &&
	secret_intact; then
	case_pass "refused in both layers, the secret unchanged"
fi
case_begin make-names "(main) mkdir, mknod, symlink in a/: allowed; in b/: EACCES"
if both "mkdir a/d" "ok" "$T/main.policy" "$PROBE" mkdir "$A/d" 0755 &&
	both "mknod a/f" "ok" "$T/main.policy" "$PROBE" mknod "$A/fifo" fifo 0644 &&
	both "symlink a/l" "ok" "$T/main.policy" "$PROBE" symlink "$T/secret" "$A/l" &&
	both "mkdir b/d" "err EACCES" "$T/main.policy" "$PROBE" mkdir "$B/d" 0755 &&
	both "mknod b/f" "err EACCES" "$T/main.policy" "$PROBE" mknod "$B/fifo" fifo 0644 &&
	both "symlink b/l" "err EACCES" "$T/main.policy" "$PROBE" symlink "$T/secret" "$B/l"; then
	case_pass "the same in both layers"
fi
case_begin symlink-out "(main) a symlink made in a/ to the secret, written through: EACCES, unchanged"
if both "write through a/l" "err EACCES" "$T/main.policy" \
	sh -c "ln -s '$T/secret' '$A/l' && exec '$PROBE' open '$A/l' wronly" && secret_intact; then
	case_pass "refused in both layers"
fi
case_begin moves "(main) rename and link within a/ to another directory: done (no EXDEV); in and out: refused"
if both "rename a/file a/sub/" "ok" "$T/main.policy" "$PROBE" rename "$A/file" "$A/sub/file" &&
	both "link a/file a/sub/" "ok" "$T/main.policy" "$PROBE" link "$A/file" "$A/sub/hard" &&
	both "renameat2 exchange" "ok" "$T/main.policy" "$PROBE" renameat2 "$A/file" "$A/keep" exchange &&
	both "rename secret into a/" "err EACCES" "$T/main.policy" "$PROBE" rename "$T/secret" "$A/stolen" &&
	both "rename a/file out to b/" "err EACCES" "$T/main.policy" "$PROBE" rename "$A/file" "$B/moved" &&
	secret_intact; then
	case_pass "the same in both layers"
fi
case_begin link-in "(main) a hard link of the secret into a/, then written: never both"
both "link secret a/" "err E" "$T/main.policy" sh -c \
	"'$PROBE' link '$T/secret' '$A/hl'; exec '$PROBE' open '$A/hl' wronly trunc" || true
if ! secret_intact; then
	case_fail "the secret was cut through a link made in a/"
elif results | grep -q '^ok fd='; then
	case_fail "the link was opened for writing: $(results | head -2 | tr '\n' ' ')"
else
	case_pass "$(results | head -2 | tr '\n' ' ')"
fi

# ---- exec allow-lists ----
for how in execve execveat-dirfd fexecve fexecve-opath procfd memfd memfd-procfd; do
	case_begin "exec-$how" "(main) a program outside the exec rules, by $how: does not run"
	if both "exec $how" "BLOCKED EACCES" "$T/main.policy" "$ATTACK" exec-how "$T/prog" "$how"; then
		case_pass "BLOCKED EACCES in both layers"
	fi
done
case_begin exec-allowed "(main) the same ways for a program the rules allow: it runs (fexecve, memfd aside)"
if both "exec allowed" "RAN" "$T/main.policy" "$ATTACK" exec-how "$X/prog" fexecve &&
	both "execveat allowed" "RAN" "$T/main.policy" "$ATTACK" exec-how "$X/prog" execveat-dirfd; then
	case_pass "runs in both layers"
fi
case_begin exec-interp "(main) a script that may run, whose interpreter may not: does not run"
if both "script" "BLOCKED EACCES" "$T/main.policy" "$ATTACK" exec-how "$X/via-denied" execve; then
	case_pass "BLOCKED EACCES in both layers"
fi
case_begin memfd-sysctl "the machine's vm.memfd_noexec is not changed by the sandbox's"
before=$(cat /proc/sys/vm/memfd_noexec 2>/dev/null || echo none)
urun --log /dev/null --policy "$T/main.policy" -- "$ATTACK" exec-how "$T/prog" memfd
if [ "$(cat /proc/sys/vm/memfd_noexec 2>/dev/null || echo none)" = "$before" ]; then
	case_pass "still $before"
else
	case_fail "vm.memfd_noexec changed from $before to $(cat /proc/sys/vm/memfd_noexec)"
fi
case_begin memfd-share-pid "(main, --share-pid: no pid namespace to raise it in) memfd exec: refused, by the supervisor"
urun --share-pid --log /dev/null --policy "$T/main.policy" -- "$ATTACK" exec-how "$T/prog" memfd
if results | grep -q '^BLOCKED EACCES$'; then
	"$UNOTIFY" run --share-pid --log /dev/null --policy "$T/main.policy" -- /bin/true \
		>"$T/share.out" 2>&1 || true
	if grep -q 'memfd could run.*exec stays with the supervisor' "$T/share.out"; then
		case_pass "BLOCKED EACCES, and run says why exec is not Landlock's"
	else
		case_fail "run did not say why exec stays with the supervisor: $(head -c 300 "$T/share.out")"
	fi
else
	case_fail "$(results | head -1)"
fi

# ---- the program's own Landlock domain ----
case_begin self-landlock "(main) the program's own Landlock domain: EOPNOTSUPP (the layer is bound before)"
urun --log /dev/null --policy "$T/main.policy" -- "$ATTACK" landlock-read "$T/secret"
if results | grep -Eq '^(BLOCKED|SETUP landlock) EOPNOTSUPP'; then
	case_pass "$(results | head -1)"
else
	case_fail "$(results | head -1)"
fi

# ---- the switch, ABI caps ----
case_begin abi-caps "(main) UNOTIFY_LANDLOCK_ABI 2 (no truncate right), 99 (above the kernel's), garbage; UNOTIFY_LANDLOCK=off"
_bad=
for cap in 1 2 99 junk -1; do
	UNOTIFY_LANDLOCK_ABI=$cap urun --log /dev/null --policy "$T/main.policy" -- \
		"$PROBE" open "$T/secret" rdonly trunc
	[ "$(results | head -1)" = "err EACCES" ] || _bad="$_bad abi=$cap:'$(results | head -1)'/$RC"
done
UNOTIFY_LANDLOCK=off urun --log /dev/null --policy "$T/main.policy" -- "$ATTACK" exec-how "$T/prog" memfd
[ "$(results | head -1)" = "BLOCKED EACCES" ] || _bad="$_bad off:'$(results | head -1)'"
if [ -z "$_bad" ] && secret_intact; then
	case_pass "the same answers whatever the cap"
else
	case_fail "$_bad"
fi

# ---- address rules beside the layer ----
PORT=$((20000 + $$ % 20000))
"$PROBE" serve stream inet 127.0.0.1 "$PORT" 5 >"$T/tcp.out" 2>&1 &
track_pid $!
wait_until 10 grep -q '^ready$' "$T/tcp.out" || fail "no TCP server: $(cat "$T/tcp.out")"
cat >"$T/net.policy" <<EOF
default allow
allow @file-read @file-write @file-create @file-delete path=$A/**
deny @file-write @file-create @file-delete kernel
deny @net-connect port=$PORT ECONNREFUSED
EOF
case_begin ports "(files in Landlock, port $PORT refused) connect v4, v4-mapped v6: ECONNREFUSED, nothing reached"
if both "v4" "err ECONNREFUSED" "$T/net.policy" "$PROBE" connect stream inet 127.0.0.1 "$PORT" &&
	both "mapped" "err ECONNREFUSED" "$T/net.policy" "$PROBE" connect stream mapped 127.0.0.1 "$PORT" &&
	both "v4 any" "err ECONNREFUSED" "$T/net.policy" "$PROBE" connect stream inet 0.0.0.0 "$PORT"; then
	if grep -q '^conn ' "$T/tcp.out"; then
		case_fail "the server saw a connection: $(grep '^conn' "$T/tcp.out" | head -1)"
	else
		case_pass "refused in both layers, the server saw nothing"
	fi
fi

# ---- scope abstract-unix with connects the supervisor performs ----
ABS=unotify-r3-$$
"$PROBE" serve stream unix "@$ABS" 5 >"$T/abs.out" 2>&1 &
track_pid $!
wait_until 10 grep -q '^ready$' "$T/abs.out" || fail "no abstract server: $(cat "$T/abs.out")"
printf 'default allow\nscope abstract-unix\n' >"$T/scope.policy"
printf 'default allow\nscope abstract-unix\ndeny @net-connect port=%s ECONNREFUSED\n' "$PORT" >"$T/scope-net.policy"
printf 'default allow\nscope abstract-unix\ndeny @net-connect unix=@elsewhere EACCES\n' >"$T/scope-unix.policy"
ABI=$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')
if [ "${ABI:-0}" -lt 6 ]; then
	case_begin scope "scope abstract-unix"
	case_skip "Landlock ABI ${ABI:-0} here: scoping needs 6"
else
	case_begin scope "(scope abstract-unix) connect to an abstract socket bound outside: EPERM"
	urun --log /dev/null --policy "$T/scope.policy" -- "$PROBE" connect stream unix "@$ABS"
	if [ "$(results | head -1)" = "err EPERM" ]; then
		case_pass "EPERM"
	else
		case_fail "$(results | head -1)"
	fi
	for pol in scope-net scope-unix; do
		case_begin "$pol" "(scope abstract-unix, and a rule sending connects to the supervisor, which performs them outside the domain) the socket outside is never reached"
		urun --log /dev/null --policy "$T/$pol.policy" -- "$PROBE" connect stream unix "@$ABS"
		if results | grep -q '^ok'; then
			case_fail "connected to the abstract socket outside: $(results | head -1)"
		elif [ "$RC" = 125 ] && printf '%s\n' "$ERR" | grep -q 'scope abstract-unix cannot be kept'; then
			case_pass "not started: $(printf '%s\n' "$ERR" | grep -o 'cannot be kept next to the rule at [^:]*:[0-9]*')"
		else
			case_fail "status $RC: $(results | head -1) $(printf '%s\n' "$ERR" | tail -1)"
		fi
	done
	if grep -q '^conn ' "$T/abs.out"; then
		case_begin scope-server "the abstract server outside"
		case_fail "it saw a connection: $(grep '^conn' "$T/abs.out" | head -1)"
	fi
fi

# ---- run --daemon: the layer the daemon sends ----
cp "$T/main.policy" "$T/box.policy"
mkdir -p "$T/policies"
cp "$T/main.policy" "$T/policies/box.policy"
cp "$T/scope-net.policy" "$T/policies/scopenet.policy"
printf 'default allow\ndeny @file-write @file-create kernel\n' >"$T/policies/nogrant.policy"
start_daemon
case_begin daemon-exec "(run --daemon, main) exec by memfd, fexecve, execve of a program outside the rules: does not run"
_bad=
for how in memfd memfd-procfd fexecve execve; do
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
		"$ATTACK" exec-how "$T/prog" "$how"
	[ "$(results | head -1)" = "BLOCKED EACCES" ] || _bad="$_bad $how:'$(results | head -1)'/$RC"
done
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
	"$ATTACK" exec-how "$X/prog" fexecve
results | grep -q '^RAN' || _bad="$_bad allowed:'$(results | head -1)'/$RC"
if [ -z "$_bad" ]; then
	case_pass "BLOCKED EACCES each, the allowed program runs"
else
	case_fail "$_bad ($(printf '%s\n' "$ERR" | tail -1))"
fi
case_begin daemon-nogrant "(run --daemon, a refusal with no grant: a ruleset of no rules) write the secret: refused"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name nogrant -- \
	"$PROBE" open "$T/secret" wronly trunc
if [ "$(results | head -1)" = "err EACCES" ] && secret_intact; then
	urun --log /dev/null --policy "$T/policies/nogrant.policy" -- "$PROBE" open "$T/secret" wronly trunc
	if [ "$(results | head -1)" = "err EACCES" ] && secret_intact; then
		case_pass "err EACCES under run and run --daemon, unchanged"
	else
		case_fail "run: $(results | head -1)"
	fi
else
	case_fail "run --daemon: $(results | head -1), status $RC"
fi
case_begin daemon-write "(run --daemon, main) write and truncate the secret: refused, unchanged"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
	"$PROBE" open "$T/secret" wronly trunc
if [ "$(results | head -1)" = "err EACCES" ] && secret_intact; then
	case_pass "err EACCES, unchanged"
else
	case_fail "$(results | head -1), status $RC"
fi
if [ "${ABI:-0}" -ge 6 ]; then
	case_begin daemon-scope-net "(run --daemon, scope abstract-unix and a port rule) the socket outside is never reached"
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name scopenet -- \
		"$PROBE" connect stream unix "@$ABS"
	if results | grep -q '^ok'; then
		case_fail "connected to the abstract socket outside: $(results | head -1)"
	elif [ "$RC" != 0 ]; then
		case_pass "not started (status $RC): $(printf '%s\n' "$ERR" | tail -1 | cut -c1-120)"
	else
		case_fail "status 0: $(results | head -1)"
	fi
fi

finish
