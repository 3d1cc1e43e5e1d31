#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The supervisor's own /proc/PID, opened by the supervisor for the program.
# The kernel's ptrace check on /proc/PID/{cwd,fd,mem,environ} passes for the
# caller's own thread group whatever fsuid or capabilities it borrowed, so a
# program can reach, through the supervisor's entries:
#   - a file behind a 0700 directory (the supervisor's cwd is inside it), by
#     pid, by thread id, through "..", from a dirfd of /proc/PID;
#   - a file the supervisor holds open (its audit trail, behind that dir);
#   - the supervisor's memory (as root without capabilities), rewritten so
#     that a deny rule no longer matches, and its environment;
#   - the same against unotifyd, from a registered sandbox.
# And /proc/self from a program in its own pid namespace (host /proc still
# mounted, or a procfs of the host's pid namespace mounted elsewhere) must
# still be the program, not init or the supervisor. Each case asserts the
# secret's token is not in the program's output.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "runs the program as nobody and as root without capabilities"
setup_tmp

# The supervisor's cwd, $T/priv/sub, lies under a directory nobody may not search.
mkdir -p "$T/priv/sub"
chmod 700 "$T/priv"
chmod 755 "$T/priv/sub"
BEHIND=$(secret "$T/priv/sub/secret")
# A file only the policy protects; its name is the needle looked for in memory.
NEEDLE=secret-$(token)
DENIED=$(secret "$T/$NEEDLE")
cat >"$T/p.policy" <<EOF
default allow
deny openat open path=$T/$NEEDLE EACCES
EOF
LOGTOKEN=$(token)
printf 'header %s\n' "$LOGTOKEN" >"$T/priv/sub/audit.log"
chmod 644 "$T/priv/sub/audit.log"

export URUN_CWD="$T/priv/sub"
NOBODY="--user 65534"

case_begin control-nobody "nobody cannot read $T/priv/sub/secret by its path (the setup holds)"
urun $NOBODY --policy "$T/p.policy" -- "$ATTACK" --chdir / read "$T/priv/sub/secret"
if expect_blocked "$BEHIND"; then case_pass "EACCES, as the kernel says"; fi

for c in "cwd-by-pid /proc/@SUP/cwd/secret" \
	"cwd-by-tid /proc/@SUP/task/@SUPTID/cwd/secret" \
	"cwd-dotdot /proc/@SUP/task/@SUPTID/../../cwd/secret"; do
	set -- $c
	case_begin "$1" "nobody reads $2 (the supervisor's cwd is behind a 0700 dir)"
	urun $NOBODY --policy "$T/p.policy" -- "$ATTACK" --chdir / read "$2"
	if expect_blocked "$BEHIND"; then case_pass "not read"; fi
done

case_begin cwd-dirfd "nobody opens a dirfd of /proc/SUP, then cwd/secret from it"
urun $NOBODY --policy "$T/p.policy" -- "$ATTACK" --chdir / read-at /proc/@SUP cwd/secret
if expect_blocked "$BEHIND"; then case_pass "not read"; fi

case_begin fd-table "nobody opens the supervisor's fds (its audit trail lies behind the 0700 dir)"
urun $NOBODY --log "$T/priv/sub/audit.log" --policy "$T/p.policy" -- "$ATTACK" --chdir / \
	fd-steal @SUP
if expect_blocked "$LOGTOKEN"; then case_pass "no file of the supervisor's opened"; fi

case_begin mem-open-rw "root without capabilities opens /proc/SUP/mem for writing"
urun --drop-caps --policy "$T/p.policy" -- "$ATTACK" open-rw /proc/@SUP/mem
if expect_blocked; then case_pass "refused"; fi

case_begin mem-rewrite "root without capabilities rewrites the deny rule's path in the supervisor's memory, then opens it"
urun --drop-caps --policy "$T/p.policy" -- "$ATTACK" mem-flip @SUP "$NEEDLE" "$T/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "memory not written, file not read"; fi

case_begin environ "root without capabilities reads the supervisor's environment"
# The variable is the supervisor's alone: env(1) removes it before the attack runs.
ENVTOKEN=$(token)
export ADV_SUPERVISOR_ONLY=$ENVTOKEN
urun --drop-caps --policy "$T/p.policy" -- env -u ADV_SUPERVISOR_ONLY "$ATTACK" \
	--grep "$ENVTOKEN" read /proc/@SUP/environ
unset ADV_SUPERVISOR_ONLY
if expect_blocked; then case_pass "not read"; fi

case_begin self-pidns "root in a new pid namespace (host /proc mounted) opens /proc/self/status"
urun --policy "$T/p.policy" -- "$ATTACK" self-ns
if expect_blocked; then case_pass "/proc/self is the program: $(results | head -1)"; fi

case_begin self-procmount "root mounts a procfs of its own pid namespace, then a child in a new pid namespace opens it/self/status"
mkdir -p "$T/hostproc"
urun --policy "$T/p.policy" -- "$ATTACK" self-procmount "$T/hostproc"
if expect_blocked; then case_pass "self is the program: $(results | head -1)"; fi

case_begin self-pidns-userns "nobody in new user and pid namespaces opens /proc/self/status"
urun $NOBODY --policy "$T/p.policy" -- "$ATTACK" --chdir / self-ns userns
if expect_blocked; then case_pass "/proc/self is the program: $(results | head -1)"; fi

# ---- the same against unotifyd: the daemon's cwd is behind the 0700 dir ----
unset URUN_CWD
policy p "$(cat "$T/p.policy")"
start_daemon "$T/priv/sub"

case_begin daemon-cwd "a nobody sandbox of unotifyd reads /proc/DAEMON/cwd/secret"
drun p openat,open --user 65534 --chdir / read "/proc/$DPID/cwd/secret"
if expect_blocked "$BEHIND"; then case_pass "not read"; fi

case_begin daemon-mem-rewrite "a root sandbox without capabilities rewrites the daemon's policy in its memory"
drun p openat,open --drop-caps mem-flip "$DPID" "$NEEDLE" "$T/$NEEDLE"
if expect_blocked "$DENIED"; then case_pass "memory not written, file not read"; fi

case_begin daemon-alive "the daemon survived the sandboxes above"
if daemon_alive; then case_pass "alive"; else RC=- OUT= ERR=$(cat "$T/d.err"); case_fail "unotifyd died"; fi

finish
