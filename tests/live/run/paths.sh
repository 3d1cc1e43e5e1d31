#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# path= rules match the path the kernel would open for the target: relative
# to its cwd or dirfd, `..` and symlinks resolved, for open, openat, openat2
# and creat. An allowed open is performed by the supervisor and its fd
# injected: the fd works, O_CREAT creates, and the opener the kernel sees is
# the supervisor, not the target (so no racing thread can change the path
# between the decision and the open).
. "${top_srcdir:-.}/tests/live/lib.sh"
need_root "reading /etc/shadow must be stopped by the policy, not by permissions; fanotify"
setup_tmp

A=$T/allowed
mkdir "$A"
echo hello-allowed >"$A/file"
echo secret >"$T/secret"
ln -s "$T/secret" "$A/link-out"     # in the allowed tree, pointing outside
ln -s /etc/shadow "$A/link-shadow"
ln -s "$A/file" "$T/link-in"         # outside, pointing into the allowed tree

# /etc/shadow gets EACCES from its own rule; every other path that is not
# allowed gets EPERM from the catch-all: the errno tells which rule matched.
cat >"$T/paths.policy" <<EOF
deny  openat path=/etc/shadow EACCES
allow openat path=/etc path=$A path=$A/** $LOADER_PATHS
deny  openat EPERM
deny  open path=/etc/shadow EACCES
allow open path=$A/**
deny  open EPERM
deny  creat path=/etc/shadow EACCES
allow creat path=$A/**
deny  creat EPERM
deny  openat2 path=/etc/shadow EACCES
allow openat2 path=$A/**
deny  openat2 EPERM
default allow
EOF
POL=$T/paths.policy

say "== sanity: without the policy root reads everything used below"
[ "$("$PROBE" open /etc/shadow | cut -d' ' -f1)" = ok ] || fail "root cannot open /etc/shadow"
[ "$("$PROBE" read "$T/secret")" = data=secret ] || fail "root cannot read $T/secret"

say "== absolute paths"
urun --policy "$POL" -- "$PROBE" open /etc/shadow
expect_out "/etc/shadow" "err EACCES"
urun --policy "$POL" -- "$PROBE" read "$A/file"
expect_out "allowed file: the injected fd reads the content" "data=hello-allowed"
urun --policy "$POL" -- "$PROBE" open "$T/secret"
expect_out "file outside the allowed tree" "err EPERM"

say "== .. is resolved"
urun --policy "$POL" -- "$PROBE" open /tmp/../etc/shadow
expect_out "/tmp/../etc/shadow" "err EACCES"
urun --policy "$POL" -- "$PROBE" open "$A/../secret"
expect_out "allowed/../secret (matches allowed/** before resolution)" "err EPERM"
urun --policy "$POL" -- "$PROBE" open "$A/../allowed/file"
expect_grep "allowed/../allowed/file" "$OUT" '^ok fd=[0-9]+$'

say "== relative paths, from the target's cwd"
URUN_CWD=/etc urun --policy "$POL" -- "$PROBE" open shadow
expect_out "cd /etc; open shadow" "err EACCES"
URUN_CWD=$A urun --policy "$POL" -- "$PROBE" read file
expect_out "cd allowed; read file" "data=hello-allowed"
URUN_CWD=$A urun --policy "$POL" -- "$PROBE" open ../secret
expect_out "cd allowed; open ../secret" "err EPERM"
URUN_CWD=$T urun --policy "$POL" -- "$PROBE" read allowed/file
expect_out "cd T; read allowed/file" "data=hello-allowed"
URUN_CWD=$T urun --policy "$POL" -- "$PROBE" read secret
expect_out "cd T; read secret" "err EPERM"

say "== symlinks are followed as the kernel would"
urun --policy "$POL" -- "$PROBE" open "$A/link-out"
expect_out "link in the allowed tree to a file outside it" "err EPERM"
urun --policy "$POL" -- "$PROBE" open "$A/link-shadow"
expect_out "link in the allowed tree to /etc/shadow" "err EACCES"
urun --policy "$POL" -- "$PROBE" read "$T/link-in"
expect_out "link outside pointing into the allowed tree" "data=hello-allowed"

say "== dirfd-relative openat"
urun --policy "$POL" -- "$PROBE" openat "$A" file
expect_grep "openat(allowed, file)" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$POL" -- "$PROBE" openat "$A" ../secret
expect_out "openat(allowed, ../secret)" "err EPERM"
urun --policy "$POL" -- "$PROBE" openat /etc shadow
expect_out "openat(/etc, shadow)" "err EACCES"
urun --policy "$POL" -- "$PROBE" openat "$A" link-out
expect_out "openat(allowed, link-out)" "err EPERM"

say "== O_CREAT: the file is created (by the target's credentials and umask), or not at all"
urun --policy "$POL" -- "$PROBE" open "$A/new" wronly creat mode=0640
expect_grep "create allowed/new" "$OUT" '^ok fd=[0-9]+$'
[ -f "$A/new" ] || fail "allowed/new does not exist after an allowed O_CREAT"
[ "$(stat -c %u "$A/new")" = "$(id -u)" ] || fail "allowed/new owned by $(stat -c %u "$A/new")"
say "ok: allowed/new exists, owned by uid $(id -u)"
URUN_UMASK=027 urun --policy "$POL" -- "$PROBE" open "$A/masked" wronly creat mode=0666
expect_grep "create allowed/masked under umask 027" "$OUT" '^ok fd=[0-9]+$'
[ "$(stat -c %a "$A/masked")" = 640 ] ||
	fail "umask 027 + mode 0666 gave mode $(stat -c %a "$A/masked"), expected 640 (the target's umask)"
say "ok: the target's umask applies (mode 640)"
# The file's status flags are the program's: no O_NOFOLLOW of the supervisor's.
native=$("$PROBE" open-getfl "$T/native-created" wronly creat append mode=0600)
urun --policy "$POL" -- "$PROBE" open-getfl "$A/created-flags" wronly creat append mode=0600
expect_out "create allowed/created-flags: F_GETFL as natively ($native)" "$native"
urun --policy "$POL" -- "$PROBE" open "$A/file" wronly creat excl
expect_out "O_EXCL on an existing file" "err EEXIST"
urun --policy "$POL" -- "$PROBE" open "$T/outside-new" wronly creat
expect_out "create outside the allowed tree" "err EPERM"
[ ! -e "$T/outside-new" ] || fail "a denied O_CREAT created $T/outside-new"
say "ok: the denied O_CREAT created nothing"
ln -s "$T/dangling-target" "$A/dangling"
urun --policy "$POL" -- "$PROBE" open "$A/dangling" wronly creat
expect_out "O_CREAT through a dangling link to outside" "err EPERM"
[ ! -e "$T/dangling-target" ] || fail "O_CREAT through a symlink created $T/dangling-target"
say "ok: nothing created through the dangling link"

say "== the legacy open and creat system calls"
urun --policy "$POL" -- "$PROBE" open-raw /etc/shadow
expect_out "open(/etc/shadow)" "err EACCES"
urun --policy "$POL" -- "$PROBE" open-raw "$A/file"
expect_grep "open(allowed/file)" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$POL" -- "$PROBE" open-raw "$A/link-out"
expect_out "open(allowed/link-out)" "err EPERM"
urun --policy "$POL" -- "$PROBE" creat "$A/created" 0600
expect_grep "creat(allowed/created)" "$OUT" '^ok fd=[0-9]+$'
[ -f "$A/created" ] || fail "creat did not create allowed/created"
[ "$(stat -c %a "$A/created")" = 600 ] || fail "creat mode $(stat -c %a "$A/created")"
say "ok: allowed/created exists, mode 600"
urun --policy "$POL" -- "$PROBE" creat "$T/created" 0600
expect_out "creat(outside)" "err EPERM"
[ ! -e "$T/created" ] || fail "a denied creat created $T/created"

say "== openat2"
urun --policy "$POL" -- "$PROBE" openat2 /etc/shadow
expect_out "openat2(/etc/shadow)" "err EACCES"
urun --policy "$POL" -- "$PROBE" openat2 "$A/file"
expect_grep "openat2(allowed/file)" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$POL" -- "$PROBE" openat2 "$A/link-out"
expect_out "openat2(allowed/link-out)" "err EPERM"
urun --policy "$POL" -- "$PROBE" openat2 /tmp/../etc/shadow
expect_out "openat2(/tmp/../etc/shadow)" "err EACCES"
urun --policy "$POL" -- "$PROBE" openat2 "$A/file" resolve-beneath
expect_out "openat2 keeps RESOLVE_BENEATH (absolute path from AT_FDCWD)" "err EXDEV"

say "== the fd is injected, not the call continued: the opener is the supervisor"
"$PROBE" fanotify "$A/file" 1 30 >"$T/fan.out" 2>&1 &
fan=$!
track_pid $fan
i=0
until grep -q -e '^ready$' -e '^err ' "$T/fan.out"; do
	i=$((i + 1))
	[ $i -lt 500 ] || fail "fanotify watcher not ready: $(cat "$T/fan.out")"
	sleep 0.02
done
if grep -q '^err ' "$T/fan.out"; then
	skip_case "the opener is the supervisor" "fanotify unavailable ($(cat "$T/fan.out")); race.sh still checks injection"
else
	urun --policy "$POL" -- "$PROBE" --pid read "$A/file"
	wait $fan || true
	target=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
	opener=$(sed -n 's/^open pid=//p' "$T/fan.out")
	expect_grep "read through the injected fd" "$OUT" '^data=hello-allowed$'
	[ -n "$opener" ] || fail "fanotify saw no open of $A/file: $(cat "$T/fan.out")"
	if [ "$opener" = "$target" ]; then
		fail "the target (pid $target) opened $A/file itself: the supervisor let the call" \
			"continue instead of injecting the fd (TOCTOU)"
	fi
	say "ok: opened by pid $opener (supervisor $SUP_PID), not by the target $target"
fi

say "== /proc/self is the target's, as the kernel would resolve it for the target"
urun --policy "$POL" -- "$PROBE" --pid read /proc/self/stat
target=$(printf '%s\n' "$OUT" | sed -n 's/^pid=//p')
expect_grep "/proc/self/stat names the target (pid $target)" "$OUT" "^data=$target "

say "== O_PATH opens (which ADDFD cannot inject: the kernel's fget refuses O_PATH files)"
urun --policy "$POL" -- "$PROBE" open "$A" path directory
expect_grep "O_PATH open of the allowed dir" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$POL" -- "$PROBE" open "$A/file" path
expect_grep "O_PATH open of the allowed file" "$OUT" '^ok fd=[0-9]+$'
urun --policy "$POL" -- "$PROBE" open /etc/shadow path
expect_out "O_PATH open of /etc/shadow" "err EACCES"

say "PASS: paths"
