#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 5, descriptors the program did not open under the policy, used as
# the start of a lookup. Policy: reading, writing, creating and deleting
# under denied/ refused. The descriptors:
#   - inherited across `unotify run`'s exec (3<denied): openat(3, x),
#     /proc/self/fd/3/x, /proc/thread-self/fd/3/x, /dev/fd/3/x;
#   - received over SCM_RIGHTS from a process outside the sandbox, in our
#     mount namespace (a dirfd of denied/), and in a mount namespace of its
#     own where denied/ is bind-mounted on pub/ (the fd's mount is not in
#     the sandbox's view; its text says pub/, an allowed name), O_RDONLY
#     and O_PATH: openat, /proc/self/fd/N/x, linkat and renameat of x into
#     allowed/.
# Then the paths at the edge: a path whose NUL would be in an unmapped or
# PROT_NONE page (the kernel says EFAULT), 4095 and 4096 bytes long; a
# descriptor with no path at all (utimensat(fd, NULL), futimesat) under a
# refusal of attribute changes.
# The forbidden effect: the secret read (or moved, or linked out).

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "mount namespaces, linkat of another's file"
need_cmd unshare
setup_tmp

mkdir -p "$T/denied" "$T/allowed" "$T/pub"
SECRET=$(secret "$T/denied/x")
SUM=$(checksum "$T/denied/x")
echo ok >"$T/allowed/f"
cat >"$T/deny.policy" <<EOF
default allow
deny @file-read @file-write @file-create @file-delete path=$T/denied/** EACCES
EOF

intact() {
	[ -f "$T/denied/x" ] && [ "$(checksum "$T/denied/x")" = "$SUM" ] &&
		[ ! -e "$T/allowed/copy" ]
}

# blocked_intact: expect_blocked, and denied/x still there, nothing linked out.
blocked_intact() {
	if expect_blocked "$SECRET"; then
		if intact; then
			case_pass "$(results | tail -1)"
		else
			case_fail "denied/x was moved or linked out: $(ls -l "$T/denied" "$T/allowed")"
		fi
	fi
	rm -f "$T/allowed/copy"
	[ -f "$T/denied/x" ] || { printf '%s' "$SECRET" >"$T/denied/x"; chmod 644 "$T/denied/x"; }
}

for how in "3 x" "-100 /proc/self/fd/3/x" "-100 /proc/thread-self/fd/3/x" "-100 /dev/fd/3/x"; do
	# shellcheck disable=SC2086
	set -- $how
	case_begin "inherited-$(echo "$2" | tr '/' '-' | sed 's/^-//')" "3<denied inherited across run's exec, open of $2 from fd $1"
	urun --policy "$T/deny.policy" -- "$ATTACK" r5-fd-open "$1" "$2" 3<"$T/denied"
	blocked_intact
done

# serve NAME [unshare] [opath]: the sender, ready for one client on $T/NAME.sock.
serve() {
	_name=$1
	_dir=$T/denied
	_flag=
	[ "${3:-}" = opath ] && _flag=opath
	rm -f "$T/$_name.sock" "$T/$_name.out"
	if [ "${2:-}" = unshare ]; then
		_dir=$T/pub
		unshare -m --propagation private sh -c \
			"mount --bind '$T/denied' '$T/pub' && exec '$ATTACK' r5-send-fd '$T/$_name.sock' '$_dir' $_flag" \
			>"$T/$_name.out" 2>&1 </dev/null &
	else
		"$ATTACK" r5-send-fd "$T/$_name.sock" "$_dir" $_flag >"$T/$_name.out" 2>&1 </dev/null &
	fi
	track_pid $!
	wait_until 10 grep -q '^# ready' "$T/$_name.out" || fail "no sender: $(cat "$T/$_name.out")"
	[ ! -e "$T/pub/x" ] || fail "the bind mount leaked into our own namespace"
}

n=0
for where in here unshare; do
	for kind in rdonly opath; do
		for how in openat procfd linkat renameat; do
			n=$((n + 1))
			serve "s$n" "$where" "$kind"
			case_begin "scm-$where-$kind-$how" "a dirfd ($kind) of denied/ from a process outside ($where), $how x"
			urun --policy "$T/deny.policy" -- "$ATTACK" r5-recv-fd "$T/s$n.sock" "$how" x \
				"$T/allowed/copy"
			blocked_intact
		done
	done
done

for second in unmapped protnone; do
	case_begin "page-$second" "denied/x's text against a page end, the next page $second: EFAULT as natively"
	urun --policy "$T/deny.policy" -- "$ATTACK" r5-page-path "$T/denied/x" "$second"
	if expect_blocked "$SECRET"; then
		if [ "$(results)" = "BLOCKED EFAULT" ]; then
			case_pass "BLOCKED EFAULT"
		else
			case_fail "not the kernel's EFAULT: $(results)"
		fi
	fi
	case_begin "page-$second-allowed" "(guard) allowed/f's text the same way: EFAULT, not opened"
	urun --policy "$T/deny.policy" -- "$ATTACK" r5-page-path "$T/allowed/f" "$second"
	if [ "$(results)" = "BLOCKED EFAULT" ]; then
		case_pass "BLOCKED EFAULT"
	else
		case_fail "the supervisor opened what the kernel could not read: $(results)"
	fi
done

mkdir -p "$T/prot"
echo keep >"$T/prot/f"
touch -d 2001-01-01 "$T/prot/f"
printf 'default allow\ndeny @file-attr path=%s/prot/** EPERM\n' "$T" >"$T/attr.policy"
case_begin fd-times "prot/f opened for reading, its times set by the fd with a NULL or empty path"
urun --policy "$T/attr.policy" -- "$ATTACK" r5-fd-times "$T/prot/f"
if expect_blocked; then
	if [ "$(stat -c %Y "$T/prot/f")" = "$(date -d 2001-01-01 +%s)" ]; then
		case_pass "$(results)"
	else
		case_fail "prot/f's times changed"
	fi
fi

# long TOTAL TAIL: $T/allowed/ then ./ repeated, then TAIL, TOTAL bytes in all.
long() {
	_b=$T/allowed/
	_n=$(($1 - ${#_b} - ${#2}))
	_p=$_b
	while [ "$_n" -ge 2 ]; do _p="$_p./"; _n=$((_n - 2)); done
	[ "$_n" = 1 ] && _p="$_p/"
	printf '%s%s' "$_p" "$2"
}

case_begin long-4095 "a 4095-byte path climbing into denied/x"
urun --policy "$T/deny.policy" -- "$ATTACK" r5-fd-open -100 "$(long 4095 ../denied/x)"
blocked_intact
case_begin long-4096 "(guard) a 4096-byte path to allowed/f: ENAMETOOLONG as natively"
urun --policy "$T/deny.policy" -- "$ATTACK" r5-fd-open -100 "$(long 4096 f)"
if [ "$(results)" = "BLOCKED ENAMETOOLONG" ]; then
	case_pass "BLOCKED ENAMETOOLONG"
else
	case_fail "not ENAMETOOLONG: $(results)"
fi

finish
