#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The library of contrib/policies/: each policy runs a real program and does
# what its comments say. A case whose policy needs a language feature this
# build does not have yet (`unotify policy check` refuses it) is a skipped
# TAP case with the reason, shown in the summary.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

P=$top_srcdir/contrib/policies
OCI=$top_srcdir/tests/data/oci

# usable NAME FILE...: the policy checks with this build, or the case is skipped.
usable() {
	name=$1
	shift
	if ! "$UNOTIFY" policy check "$@" >"$T/.check" 2>&1; then
		skip_case "$name" "this build refuses it: $(grep -m1 'error' "$T/.check" || head -1 "$T/.check")"
		return 1
	fi
	return 0
}

say "== demo.policy: contrib/demo/demo.sh"
if usable demo "$P/demo.policy"; then
	urun --policy "$P/demo.policy" -- "$top_srcdir/contrib/demo/demo.sh"
	expect_status "demo.sh" 0
	expect_grep "demo: /etc/shadow denied" "$OUT" "^demo: denied, as the policy says\$"
	expect_grep "demo: getppid answered by the supervisor" "$OUT" "answered getppid: 42\$"
	expect_grep "demo: the trail names the deny rule" "$(audit_lines)" \
		"verdict=deny errno=EACCES rule=.*demo.policy:[0-9]+ .*path=/etc/shadow"
fi

say "== read-only-system.policy: a shell reads the system, writes only elsewhere"
if usable read-only-system "$P/read-only-system.policy"; then
	ln -s /etc/hostname "$T/link"
	urun --policy "$P/read-only-system.policy" -- sh -c "
		cat /etc/hostname >/dev/null && echo read-etc
		ls /usr/bin >/dev/null && echo list-usr
		echo x >/etc/unotify-contrib-test || echo no-write-etc
		echo x >>/usr/lib/os-release || echo no-append-usr
		echo x >$T/link || echo no-write-through-symlink
		echo x >$T/ok && cat $T/ok"
	expect_status "read-only-system: shell" 0
	expect_out "read-only-system: reads, writes outside only" "read-etc
list-usr
no-write-etc
no-append-usr
no-write-through-symlink
x"
	expect_grep "read-only-system: EROFS, as a read-only mount" "$ERR" "Read-only file system"
	[ ! -e /etc/unotify-contrib-test ] || { rm -f /etc/unotify-contrib-test; fail "/etc written"; }

	# A file of the test's own under /var/lib: nothing the policy fails to stop can harm.
	V=$(mktemp /var/lib/unotify-contrib.XXXXXX)
	trap '_rc=$?; rm -f "$V" "$V.moved"; lib_cleanup "$_rc"' EXIT
	urun --policy "$P/read-only-system.policy" -- sh -c "
		rm -f $V || echo no-unlink
		mv $V $V.moved || echo no-rename
		chmod 600 $V || echo no-chmod
		touch $V || echo no-touch
		mkdir $V.d || echo no-mkdir
		ln -s /tmp $V.l || echo no-symlink
		cp $V $T/copy && echo copy-out"
	expect_out "read-only-system: no unlink, rename, chmod, utimes, mkdir, symlink" "no-unlink
no-rename
no-chmod
no-touch
no-mkdir
no-symlink
copy-out"
	[ -e "$V" ] && [ ! -e "$V.moved" ] && [ ! -e "$V.d" ] || fail "read-only-system: $V changed"
	rm -f "$V"
fi

say "== read-only-etc.policy: the same for /etc alone"
if usable read-only-etc "$P/read-only-etc.policy"; then
	urun --policy "$P/read-only-etc.policy" -- sh -c "
		cat /etc/hostname >/dev/null && echo read-etc
		echo x >/etc/unotify-contrib-test || echo no-write-etc
		echo x >$T/ok2 && echo write-tmp"
	expect_out "read-only-etc: shell" "read-etc
no-write-etc
write-tmp"
	[ ! -e /etc/unotify-contrib-test ] || { rm -f /etc/unotify-contrib-test; fail "/etc written"; }
fi

say "== no-network.policy: no inet sockets, local ones still work"
if usable no-network "$P/no-network.policy"; then
	urun --policy "$P/no-network.policy" -- "$PROBE" socket inet stream
	expect_out "no-network: socket(AF_INET)" "err EAFNOSUPPORT"
	urun --policy "$P/no-network.policy" -- "$PROBE" socket inet6 dgram
	expect_out "no-network: socket(AF_INET6)" "err EAFNOSUPPORT"
	urun --policy "$P/no-network.policy" -- "$PROBE" socket unix stream
	expect_grep "no-network: socket(AF_UNIX) works" "$OUT" "^ok fd="
	if command -v python3 >/dev/null 2>&1; then
		urun --policy "$P/no-network.policy" -- python3 -c '
import socket
try:
    socket.create_connection(("127.0.0.1", 9), timeout=5)
except OSError as e:
    print(e.strerror)
socket.socketpair()
print("socketpair ok")'
		expect_out "no-network: python's connection fails plainly" "Address family not supported by protocol
socketpair ok"
	else
		skip_case "no-network: python's connection fails plainly" "python3 not installed"
	fi
fi

say "== audit-all.policy: everything allowed and in the trail"
if usable audit-all "$P/audit-all.policy"; then
	urun --policy "$P/audit-all.policy" -- sh -c 'echo hello; cat /etc/hostname >/dev/null'
	expect_out "audit-all: shell runs" "hello"
	trail=$(audit_lines)
	expect_grep "audit-all: execve logged, by the default" "$trail" "syscall=execve verdict=log rule=default "
	expect_grep "audit-all: write logged" "$trail" "syscall=write verdict=log"
	expect_no_grep "audit-all: nothing denied" "$trail" "verdict=deny"
fi

say "== build-sandbox.policy: a C build writes only under /tmp/build, no network"
# Its opens are the kernel's, where the kernel has Landlock (and /tmp/build exists).
if [ "$("$UNOTIFY" info | sed -n 's/^landlock-abi: //p')" -ge 1 ] 2>/dev/null; then
	made=
	[ -d /tmp/build ] || { mkdir /tmp/build && made=1; }
	capture "explain build-sandbox" "$UNOTIFY" policy explain "$P/build-sandbox.policy"
	[ -z "$made" ] || rmdir /tmp/build
	expect_grep "build-sandbox: explain puts its opens in Landlock" "$OUT" \
		'^  opens: decided by Landlock'
	expect_grep "build-sandbox: and says what stays with the supervisor" "$OUT" \
		'not Landlock: Landlock does not check chmod'
	rules=$(printf '%s\n' "$OUT" | sed -n '/^the layer of each rule/,$p')
	expect_grep "build-sandbox: by rule, the tree's allow is Landlock's for the opens" \
		"$(printf '%s\n' "$rules" | grep -A1 'path=/tmp/build/\*\* -> allow')" \
		'^      Landlock in the kernel: open openat$'
	expect_grep "build-sandbox: by rule, its chmod refusal is the supervisor's, and why" \
		"$(printf '%s\n' "$rules" | grep -A2 '@file-attr path=/\*\* -> deny EACCES')" \
		'^        not Landlock: Landlock does not check chmod'
	expect_grep "build-sandbox: by rule, the socket refusal is the seccomp filter's" \
		"$(printf '%s\n' "$rules" | grep -A1 'socket socketpair arg0>1')" \
		'^      seccomp filter in the kernel: socket socketpair$'
	capture "explain read-only-system" "$UNOTIFY" policy explain "$P/read-only-system.policy"
	expect_grep "read-only-system: explain says why its rules stay" "$OUT" \
		'^  opens: not Landlock: .*read-only-system.policy:[0-9]+: a denial with its own errno'
else
	skip_case "build-sandbox: explain and Landlock" "this kernel has no Landlock"
fi
if ! command -v cc >/dev/null 2>&1; then
	skip_case build-sandbox "no C compiler (cc) installed"
elif usable build-sandbox "$P/build-sandbox.policy"; then
	B=$(mkdir -p /tmp/build && mktemp -d /tmp/build/unotify-contrib.XXXXXX)
	trap '_rc=$?; rm -rf "$B"; rmdir /tmp/build 2>/dev/null || true; lib_cleanup "$_rc"' EXIT
	mkdir "$B/tmp"
	printf '#include <stdio.h>\nint main(void) { puts("built"); return 0; }\n' >"$B/hello.c"
	URUN_CWD=$B urun --policy "$P/build-sandbox.policy" -- \
		env TMPDIR="$B/tmp" cc -o hello hello.c
	expect_status "build-sandbox: cc builds in the build directory" 0
	[ -x "$B/hello" ] || fail "build-sandbox: no $B/hello"
	urun --policy "$P/build-sandbox.policy" -- "$B/hello"
	expect_out "build-sandbox: the program built runs" "built"
	URUN_CWD=$B urun --policy "$P/build-sandbox.policy" -- \
		env TMPDIR="$B/tmp" cc -o "$T/hello-outside" hello.c
	[ "$RC" != 0 ] || { show_run; fail "build-sandbox: cc wrote outside the build directory"; }
	[ ! -e "$T/hello-outside" ] || fail "build-sandbox: $T/hello-outside exists"
	expect_grep "build-sandbox: the linker is refused, as the kernel refuses it" "$ERR" \
		"Permission denied"
	urun --policy "$P/build-sandbox.policy" -- "$PROBE" socket inet stream
	expect_out "build-sandbox: no network" "err EAFNOSUPPORT"
	echo keep >"$T/outside"
	URUN_CWD=$B urun --policy "$P/build-sandbox.policy" -- sh -c "
		echo x >obj.o && mv obj.o lib.o && rm lib.o && echo inside-ok
		mv hello $T/hello-moved || echo no-move-out
		rm -f $T/outside || echo no-rm-outside"
	expect_out "build-sandbox: files move inside only" "inside-ok
no-move-out
no-rm-outside"
	[ -e "$T/outside" ] && [ -e "$B/hello" ] || fail "build-sandbox: a file outside was changed"
fi

say "== docker-default-plus-paths.policy with Docker's profile"
[ -f "$OCI/docker-default.json" ] || fail "$OCI/docker-default.json is missing from the source tree"
{
	# A wrapper as a user would write it, in a directory of its own.
	mkdir "$T/wrap"
	printf 'include %s\ninclude %s\n' "$P/docker-default-plus-paths.policy" \
		"$OCI/docker-default.json" >"$T/wrap/docker-plus.policy"
	if usable docker-default-plus-paths "$T/wrap/docker-plus.policy"; then
		# /etc/shadow is only readable by root: the policy must refuse it even so.
		urun --policy "$T/wrap/docker-plus.policy" -- sh -c "
			head -c0 /etc/passwd && echo read-passwd
			cat /etc/shadow >/dev/null || echo no-shadow
			ln /etc/shadow $T/shadow-link || echo no-link-shadow
			echo x >/etc/unotify-contrib-test || echo no-write-etc
			echo x >$T/ok3 && echo write-tmp"
		expect_out "docker+paths: shell" "read-passwd
no-shadow
no-link-shadow
no-write-etc
write-tmp"
		expect_grep "docker+paths: shadow refused with EACCES" "$ERR" "Permission denied"
		[ ! -e /etc/unotify-contrib-test ] || { rm -f /etc/unotify-contrib-test; fail "/etc written"; }
		urun --policy "$T/wrap/docker-plus.policy" -- "$PROBE" syscall \
			"$("$UNOTIFY" policy explain "$T/wrap/docker-plus.policy" --syscall keyctl |
				sed -n 's/^keyctl (\([0-9]*\)).*/\1/p')"
		expect_out "docker+paths: keyctl refused as Docker refuses it" "err EPERM"
		# The same, given as two policies.
		urun --policy "$P/docker-default-plus-paths.policy" --policy "$OCI/docker-default.json" \
			-- sh -c 'cat /etc/shadow >/dev/null || echo no-shadow'
		expect_out "docker+paths: as two --policy" "no-shadow"
	fi
}

say "PASS: contrib-policies"
