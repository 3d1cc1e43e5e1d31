#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, a pidfd of the supervisor's helper, handed over by the kernel.
# connect, bind and sendmsg decided on their address are performed by a
# helper process (lib/emulate-net.c: a CLONE_VM child of the supervisor,
# with a copy of its descriptors, the listener among them, taking the
# program's ids and capabilities). The program's pid namespace hides it,
# but a unix socket tells its receiver who sent: with SO_PASSPIDFD (Linux
# 6.5) a read gets SCM_PIDFD, a pidfd of the sending task, here the helper
# blocked in the program's large sendmsg on a socket pair; SO_PEERPIDFD
# does the same for a connect. A root program (CAP_SYS_PTRACE) then takes
# the listener with pidfd_getfd and answers its own refused open CONTINUE.
# Policy: a refused address (so sendmsg goes to the supervisor) and a
# refused read of denied/x. The forbidden effect: STOLE (a listener of the
# supervisor's in the program's hands) or the secret read. Last, the same
# with no helper: a program of run --daemon connects to unotifyd's socket
# and asks SO_PEERPIDFD: a pidfd of the daemon, every sandbox's listener.
# Guards: --drop-caps, --user 1000, a rootless run and a Landlock layer
# cannot (EPERM).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs unotify as root; the program is root with its capabilities"
setup_tmp

mkdir -p "$T/denied"
SECRET=$(secret "$T/denied/x")
cat >"$T/p.policy" <<POL
default allow
deny @net-connect addr=10.255.255.1 EACCES
deny @file-read path=$T/denied/** EACCES
POL

case_begin run "(run) SCM_PIDFD of the send helper, pidfd_getfd of its descriptors"
urun --policy "$T/p.policy" -- "$ATTACK" r5-helper-pidfd "$T/denied/x"
if expect_blocked "$SECRET"; then case_pass "$(results)"; fi

for who in --drop-caps "--user 1000"; do
	case_begin "guard$(echo "$who" | tr ' ' '-')" "(run, $who) the same: the helper is not dumpable"
	# shellcheck disable=SC2086
	urun --policy "$T/p.policy" -- "$ATTACK" $who r5-helper-pidfd "$T/denied/x"
	if expect_blocked "$SECRET"; then case_pass "$(results)"; fi
done

if command -v setpriv >/dev/null 2>&1; then
	case_begin guard-rootless "(run as uid 1000: its own user namespace) the same: EPERM"
	bounded "$RUN_TIMEOUT" setpriv --reuid 1000 --regid 1000 --clear-groups \
		"$UNOTIFY" run -q --policy "$T/p.policy" -- "$ATTACK" r5-helper-pidfd "$T/denied/x"
	if expect_blocked "$SECRET"; then case_pass "$(results)"; fi
else
	case_skip "guard-rootless: no setpriv"
fi

# The kernel layer refuses the step every route needs (implicit set
# borrowed-fds), and with the set off the helper holds nothing to take.
case_begin getfd-refused "(run) pidfd_getfd is refused in the kernel: EPERM"
urun --policy "$T/p.policy" -- "$ATTACK" r5-getfd-self
if expect_blocked && results | grep -q '^BLOCKED EPERM'; then case_pass "$(results)"; fi

printf 'implicit borrowed-fds off\n' >>"$T/p.policy"
case_begin helper-fds "(run, borrowed-fds off) the helper holds no descriptor of the supervisor's"
urun --policy "$T/p.policy" -- "$ATTACK" r5-helper-pidfd "$T/denied/x"
if expect_blocked "$SECRET" && results | grep -q '^BLOCKED'; then case_pass "$(results)"; fi
sed -i '$d' "$T/p.policy"

# A Landlock domain may not ptrace (nor pidfd_getfd) a process outside it.
mkdir -p "$T/a"
cat >"$T/layer.policy" <<POL
default allow
allow @file-read @file-write @file-create @file-delete path=$T/a/**
deny @file-write @file-create @file-delete kernel
deny @net-connect addr=10.255.255.1 EACCES
POL
if "$UNOTIFY" policy explain "$T/layer.policy" 2>/dev/null | grep -q '^  opens: decided by Landlock'; then
	case_begin guard-layer "(run, the Landlock layer in use) the same: EPERM"
	urun --policy "$T/layer.policy" -- "$ATTACK" r5-helper-pidfd "$T/denied/x"
	if expect_blocked "$SECRET"; then case_pass "$(results)"; fi
else
	case_skip "guard-layer: explain does not give the opens to Landlock here"
fi

policy box "$(cat "$T/p.policy")"
start_daemon
case_begin daemon "(run --daemon) the same against unotifyd's helper, which holds every sandbox's listener"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
	"$ATTACK" r5-helper-pidfd "$T/denied/x"
if expect_blocked "$SECRET"; then case_pass "$(results)"; fi
daemon_alive || case_fail "unotifyd died"

case_begin daemon-peer "(run --daemon) SO_PEERPIDFD of unotifyd, on a connection to its socket"
bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name box -- \
	"$ATTACK" r5-peer-pidfd "$SOCK" "$T/denied/x"
if expect_blocked "$SECRET"; then case_pass "$(results)"; fi
daemon_alive || case_fail "unotifyd died"

finish
