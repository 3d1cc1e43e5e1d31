#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kept target state (lib/target-cache.c) against every way the
# credentials of a thread, or the task behind a thread id, change between
# two opens of one file (attack-r7.c). The first open is allowed and its
# state may be kept; the second must be decided with the credentials of
# that moment, as the kernel decides it:
#  - a non-root thread (uid 1000, kept CAP_SETGID) that drops its group
#    (setgroups) or its gid (setresgid, setregid, setgid, setfsgid);
#  - root that drops its uid (setresuid, setuid, setreuid, setfsuid), its
#    DAC capabilities in another thread, or every thread's uid at once
#    (glibc's setuid(), a signal to each thread) while one opens in a loop;
#  - a thread id taken again, after a root thread exited, by a non-root
#    thread or process (ns_last_pid written in the program's pid namespace,
#    and with --share-pid in ours, where the supervisor sees that id);
#  - an exec by a non-leader thread with other ids (it takes the leader's
#    id while the leader opens in a loop), an exec of a program that drops
#    its own ids;
#  - the same calls through int $0x80 and x32: refused, or seen;
#  - a signal handler that drops the ids while an open waits for its answer;
#  - policies that allow, condition or log the credential calls themselves;
#  - guards (the supervisor no stricter than the kernel): no change,
#    PR_SET_KEEPCAPS and SECBIT_NO_SETUID_FIXUP keeping the DAC override
#    across setresuid, a root thread id reused by root, a root exec'ing
#    thread.
# Each case checks its premise natively first (without a supervisor the
# kernel refuses, or for a guard allows, the second open; else it is
# skipped with the reason), then runs under `unotify run` and under
# `unotify run --daemon`.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the program changes its ids, groups and capabilities"
setup_tmp

cp "$ATTACK" "$T/attack"
chmod 755 "$T/attack"
A=$T/attack
RSECRET=$(secret "$T/root-only")
chown 4343:4343 "$T/root-only"
chmod 600 "$T/root-only"
GSECRET=$(secret "$T/group-only")
chown 4343:4242 "$T/group-only"
chmod 040 "$T/group-only"
# pwrite NAME RULES: the policy NAME, for run ($T/NAME.policy) and the daemon.
# Every open is the supervisor's to decide (a path rule), with the kept
# state when it may.
pwrite() {
	printf 'default allow\n%s\ndeny openat open path=%s/nothing/** EACCES\n' "$2" "$T" \
		>"$T/$1.policy"
	policy "$1" "$(cat "$T/$1.policy")"
}
pwrite p ""
# Policies that name the credential calls themselves: allowed by a rule of
# their own before anything else, refused on a condition of their
# arguments, logged.
CREDS="setuid setgid setreuid setregid setresuid setresgid setfsuid setfsgid setgroups capset execve execveat"
pwrite allow-first "allow $CREDS"
pwrite conditional "deny setresuid setuid setgroups arg0==4242 EPERM"
pwrite log "log setresuid setgroups"
UNOTIFYD_ARGS=--allow-shared-pid start_daemon
# The policy of kept_case's runs.
PNAME=p

# MUST: a pattern the output must also match (grep -E), MUST_WHY: what it
# means when it does not. Set for one case, reset by kept_case.
MUST=
MUST_WHY=

# kept_judge refused|allowed SECRET: the last run, as the kernel decided natively.
kept_judge() {
	if printf '%s\n' "$ERR" | grep -Eq 'Sanitizer|runtime error:'; then
		case_fail "the supervisor's sanitizer reported an error"
		return 0
	fi
	if [ "$1" = refused ]; then
		expect_blocked "$2" || return 0
	elif hung; then
		case_fail "the run did not end within its time limit: a hang"
		return 0
	elif ! results | grep -q "^LEAK [0-9]* $2"; then
		case_fail "stricter than the kernel: the kernel lets it read, here $(results | tail -1)"
		return 0
	fi
	if [ -n "$MUST" ] && ! printf '%s\n' "$OUT" | grep -Eq -- "$MUST"; then
		case_fail "$MUST_WHY"
		return 0
	fi
	_how=
	if [ -n "$MUST" ]; then
		_how=$(printf '%s\n' "$OUT" | grep -E -- "$MUST" | grep '^# ' | head -1 | sed 's/^# //')
	fi
	case_pass "$(results | tail -1)${_how:+ ($_how)}"
}

# kept_case refused|allowed NAME WHAT SECRET [RUNOPT] -- ARGS...: the premise
# natively, then ATTACK ARGS under `unotify run [RUNOPT]` and `unotify run
# --daemon [RUNOPT]`, two cases (NAME, NAME-daemon).
# kept_try CMD...: CMD again (three runs at most) while the attack could not
# set itself up (SETUP): in our pid namespace another task of the machine
# (the suite forks hundreds a second) may take each time the id it needs.
kept_try() {
	for _try in 1 2 3; do
		"$@"
		results | grep -q '^SETUP' || return 0
		say "run $_try did not set up: $(results | grep '^SETUP' | head -1)"
	done
}

kept_case() {
	_expect=$1 _name=$2 _what=$3 _secret=$4
	shift 4
	_opt=
	if [ "$1" != -- ]; then
		_opt=$1
		shift
	fi
	shift
	case_begin "$_name" "$_what"
	_native=$(timeout 20 "$A" "$@" 2>&1 || true)
	say "natively: $(printf '%s\n' "$_native" | tr '\n' '|')"
	_want='^BLOCKED EACCES'
	[ "$_expect" = allowed ] && _want="^LEAK [0-9]* $_secret"
	if ! printf '%s\n' "$_native" | grep -q "$_want"; then
		case_skip "natively the second open is not ${_expect}: $(printf '%s\n' "$_native" | tail -1)"
		MUST='' MUST_WHY=''
		return 0
	fi
	# shellcheck disable=SC2086
	kept_try urun $_opt --policy "$T/$PNAME.policy" -- "$A" "$@"
	kept_judge "$_expect" "$_secret"
	case_begin "$_name-daemon" "(unotify run --daemon) $_what"
	# shellcheck disable=SC2086
	kept_try bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" \
		--policy-name "$PNAME" $_opt -- "$A" "$@"
	kept_judge "$_expect" "$_secret"
	MUST='' MUST_WHY=''
}

G=$T/group-only
R=$T/root-only

# ---- 1: a non-root thread with a group, then without ----
kept_case allowed user-guard "(guard) uid 1000 in group 4242 opens a group-only file twice" \
	"$GSECRET" -- r7-seq "$G" user:1000:4242 none
kept_case refused user-setgroups "uid 1000 in group 4242 opens a group-only file, setgroups([]), opens" \
	"$GSECRET" -- r7-seq "$G" user:1000:4242 setgroups
for how in setresgid setregid setgid setfsgid; do
	kept_case refused "user-$how" "uid 1000 of gid 4242 opens a group-only file, $how(1000), opens" \
		"$GSECRET" -- r7-seq "$G" user:4242:none "$how"
done

# ---- 2: root drops its uid ----
kept_case allowed root-guard "(guard) root opens a 0600 file of uid 4343 twice" \
	"$RSECRET" -- r7-seq "$R" root none
for how in setresuid setuid setreuid setfsuid; do
	kept_case refused "root-$how" "root opens a 0600 file of uid 4343, $how(1000), opens" \
		"$RSECRET" -- r7-seq "$R" root "$how"
done
kept_case refused root-setuid-all "a thread opens in a loop while glibc's setuid(1000) changes every thread" \
	"$RSECRET" -- r7-setuid-all "$R"

# ---- 3: capabilities, in this thread and another ----
MUST='^BLOCKED EACCES leader=opened$'
MUST_WHY="the unchanged leader's second open was refused (stricter than the kernel)"
kept_case refused thread-capdrop "root opens; another thread drops its own DAC capabilities and opens; root opens again" \
	"$RSECRET" -- r7-thread-capdrop "$R"

# ---- 4: a thread id taken again ----
# In the program's own pid namespace the id taken again is the one the
# program sees; the supervisor, in ours, sees another (the new task's id
# there is a fresh one). With --share-pid both are the same: that is the
# case that takes the id a kept state is filed under.
for what in thread process; do
	for ns in own shared; do
		opt=
		where="the program's pid namespace"
		if [ "$ns" = shared ]; then
			opt=--share-pid
			where="our pid namespace (--share-pid: the id the supervisor sees)"
		fi
		MUST='^# reused tid'
		MUST_WHY="the tid was not reused: the case did not test what it claims"
		kept_case refused "tid-reuse-$what-$ns" \
			"a root thread opens and exits; a $what of uid 1000 takes its id in $where and opens" \
			"$RSECRET" $opt -- r7-tid-reuse "$R" 1000 "$what" 200
		MUST='^# reused tid'
		MUST_WHY="the tid was not reused: the case did not test what it claims"
		kept_case allowed "tid-reuse-$what-$ns-guard" "(guard) the same, the new $what root" \
			"$RSECRET" $opt -- r7-tid-reuse "$R" 0 "$what" 200
	done
done

# ---- 5, 6: exec ----
kept_case refused exec-thread-drop "root opens in a loop; another thread drops to uid 1000 and execs a reader" \
	"$RSECRET" -- r7-exec-thread "$R" "$A" drop
kept_case allowed exec-thread-guard "(guard) uid 1000 opens in a loop; a root thread execs a reader" \
	"$RSECRET" -- r7-exec-thread "$R" "$A" guard
kept_case refused exec-drop "root opens, execs a program that setresuid(1000)s and opens" \
	"$RSECRET" -- r7-exec-drop "$R" "$A" setresuid
kept_case allowed exec-drop-guard "(guard) root opens, execs a program that opens" \
	"$RSECRET" -- r7-exec-drop "$R" "$A" none

# ---- 7: the other ABIs ----
# Refused (a filter's kill or errno) or done and seen: never done unseen.
# When the kernel itself has no such call (x32 off: ENOSYS natively), the
# ids do not change and the open after is the kernel's to allow.
for how in int80-setuid32 int80-setresuid32 x32-setresuid int80-setgroups32 x32-setgroups; do
	f=$R s=$RSECRET
	case $how in *setgroups*) f=$G s=$GSECRET ;; esac
	case_begin "abi-$how" "open, $how, open: refused, or decided with the new ids"
	_native=$(timeout 20 "$A" r7-abi "$f" "$how" 2>&1 || true)
	say "natively: $(printf '%s\n' "$_native" | tr '\n' '|')"
	if printf '%s\n' "$_native" | grep -q '^SETUP'; then
		case_skip "natively: $(printf '%s\n' "$_native" | tail -1)"
		continue
	fi
	urun --policy "$T/p.policy" -- "$A" r7-abi "$f" "$how"
	kept_judge refused "$s"
	case_begin "abi-$how-daemon" "(unotify run --daemon) the same"
	bounded "$RUN_TIMEOUT" "$UNOTIFY" run -q --daemon --socket "$SOCK" --policy-name p \
		-- "$A" r7-abi "$f" "$how"
	kept_judge refused "$s"
done

# ---- 8: capabilities kept across setresuid (guards) ----
kept_case allowed keepcaps "(guard) root opens, PR_SET_KEEPCAPS, setresuid(1000), raises CAP_DAC_OVERRIDE, opens" \
	"$RSECRET" -- r7-seq "$R" root keepcaps
kept_case allowed securebits "(guard) root opens, SECBIT_NO_SETUID_FIXUP, setresuid(1000), opens" \
	"$RSECRET" -- r7-seq "$R" root securebits
kept_case refused keepcaps-lost "root opens, PR_SET_KEEPCAPS, setresuid(1000) (no effective capability), opens" \
	"$RSECRET" -- r7-seq "$R" root keepcaps-lost

# ---- a change made by a signal handler while an open waits for its answer ----
# The open is interrupted (its notification withdrawn), the handler drops the
# thread's ids, the open restarts: a state read for the withdrawn open, and
# kept after the change was seen, must not decide the opens that follow.
# With SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 5.19) a received
# open is withdrawn only by the supervisor's own ERESTARTSYS answer; the
# signals that come before it is received still withdraw it.
kept_case refused signal-race "(300 rounds) a root thread opens in a loop; a signal handler drops its ids mid-open" \
	"$RSECRET" -- r7-signal-race "$R" 300

# ---- policies that name the credential calls themselves (pwrite above) ----
for pol in allow-first conditional log; do
	PNAME=$pol
	rules=$(sed -n 2p "$T/$pol.policy")
	kept_case refused "$pol-root-setresuid" "(policy: $rules) root opens, setresuid(1000), opens" \
		"$RSECRET" -- r7-seq "$R" root setresuid
	kept_case refused "$pol-user-setgroups" "(policy: $rules) uid 1000 in group 4242 opens, setgroups([]), opens" \
		"$GSECRET" -- r7-seq "$G" user:1000:4242 setgroups
	kept_case refused "$pol-exec-thread-drop" "(policy: $rules) root opens in a loop; another thread drops and execs a reader" \
		"$RSECRET" -- r7-exec-thread "$R" "$A" drop
done
PNAME=p

# ---- a filter the daemon did not write ----
# attack daemon-run registers with a filter of its own, which notifies the
# opens only: the daemon must not take it for one that watches credentials.
for how in setresuid none; do
	expect=refused
	[ "$how" = none ] && expect=allowed
	case_begin "client-filter-$how" "(a root client's own filter, opens only) root opens, ${how}, opens"
	drun p openat,open r7-seq "$R" root "$how"
	kept_judge "$expect" "$RSECRET"
done

daemon_alive || fail "unotifyd died during the test"
finish
