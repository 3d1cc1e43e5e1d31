#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/debian-check.sh [--install]: builds the Debian packages of this
# tree in a scratch directory and checks them, as a packager would:
#   1. dpkg-buildpackage -us -uc -b builds unotify, libunotify0 and
#      libunotify-dev (Debian 12: apt-get install debhelper lintian);
#   2. lintian reports no error;
#   3. the packages, unpacked into a scratch root, hold what they should,
#      run the demo (/usr/share/unotify/demo/demo.sh under demo.policy),
#      and a program built with `pkg-config unotify` against them runs;
#   4. with --install, as root: dpkg -i the three packages on this machine,
#      run the demo from /usr, then dpkg --purge them (this changes the
#      system: only on a machine where that is fine).
# Not part of `make check`: a package build is a full build (minutes).
# Exit 0 when everything held; the last line says what failed otherwise.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
install=no
[ "${1:-}" != --install ] || install=yes
for cmd in dpkg-buildpackage lintian dh git; do
	command -v "$cmd" >/dev/null 2>&1 || {
		echo "debian-check: needs $cmd (apt-get install dpkg-dev debhelper lintian git)" >&2
		exit 2
	}
done

say() { printf 'debian-check: %s\n' "$*"; }
die() { say "FAIL: $*"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/unotify-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The tree as committed plus what is staged or changed, without build output.
mkdir "$work/unotify"
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	tar --null -cf - -T -) | tar -xf - -C "$work/unotify"

say "dpkg-buildpackage -us -uc -b in $work (log: build.log)"
(cd "$work/unotify" && nice dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1) ||
	{ tail -30 "$work/build.log"; die "dpkg-buildpackage failed"; }
for p in unotify libunotify0 libunotify-dev; do
	ls "$work"/${p}_*.deb >/dev/null 2>&1 || die "no $p package was built"
done
say "ok: unotify, libunotify0 and libunotify-dev built"

lintian --fail-on error --tag-display-limit 0 "$work"/*.changes >"$work/lintian.log" 2>&1 ||
	{ cat "$work/lintian.log"; die "lintian reports errors"; }
grep -v '^running with root' "$work/lintian.log" || true
say "ok: lintian reports no error"

root=$work/root
for deb in "$work"/unotify_*.deb "$work"/libunotify0_*.deb "$work"/libunotify-dev_*.deb; do
	dpkg-deb -x "$deb" "$root"
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for f in usr/bin/unotify usr/sbin/unotifyd etc/unotify/policies/default.policy \
	usr/share/unotify/policies/demo.policy usr/share/unotify/demo/demo.sh \
	usr/share/man/man1/unotify.1.gz usr/share/man/man5/unotify.policy.5.gz \
	usr/share/man/man8/unotifyd.8.gz "usr/lib/$multiarch/libunotify.so.0" \
	usr/include/unotify.h "usr/lib/$multiarch/libunotify.so" \
	"usr/lib/$multiarch/pkgconfig/unotify.pc"; do
	[ -e "$root/$f" ] || die "/$f is in no package"
done
say "ok: the packages hold the programs, library, header, pkg-config file, policies, demo"
# The units, made from their templates with the package's paths.
for u in unotifyd.service unotifyd.socket; do
	[ -f "$root/lib/systemd/system/$u" ] || die "/lib/systemd/system/$u is in no package"
	! grep -n '@[a-zA-Z_]*@' "$root/lib/systemd/system/$u" || die "$u: a template placeholder is left"
done
grep -qx 'ExecStart=/usr/sbin/unotifyd' "$root/lib/systemd/system/unotifyd.service" ||
	die "unotifyd.service does not run /usr/sbin/unotifyd"
grep -qx 'ListenStream=/run/unotifyd/unotifyd.sock' "$root/lib/systemd/system/unotifyd.socket" ||
	die "unotifyd.socket does not listen on /run/unotifyd/unotifyd.sock"
grep -q 'include /usr/share/unotify/policies/' "$root/usr/share/unotify/policies/build-sandbox.policy" ||
	die "the example policies do not say where they are"
say "ok: the units run /usr/sbin/unotifyd on /run/unotifyd/unotifyd.sock"

# demo ROOT: the README's demonstration with the installed files under ROOT.
demo() {
	out=$("$1/usr/bin/unotify" run --log "$work/audit.log" \
		--policy "$1/usr/share/unotify/policies/demo.policy" \
		-- "$1/usr/share/unotify/demo/demo.sh" 2>&1) || { say "$out"; die "the demo failed"; }
	printf '%s\n' "$out" | grep -q '^demo: denied, as the policy says$' ||
		{ say "$out"; die "the demo read /etc/shadow"; }
	printf '%s\n' "$out" | grep -q 'answered getppid: 42$' || { say "$out"; die "no getppid 42"; }
	grep -q 'syscall=openat verdict=deny errno=EACCES .*path=/etc/shadow$' "$work/audit.log" ||
		die "the audit trail lacks the denial"
}
demo "$root"
"$root/usr/sbin/unotifyd" --check --policy-dir "$root/etc/unotify/policies" >"$work/check.log" 2>&1 ||
	{ cat "$work/check.log"; die "unotifyd --check refuses the default policy"; }
say "ok: the demo runs from the packages; unotifyd --check accepts the default policy"

printf '#include <unotify.h>\n#include <stdio.h>\nint main(void) { struct unotify_features f;\n'\
'return unotify_features_probe(&f) < 0 || !f.user_notif; }\n' >"$work/user.c"
pc="pkg-config --define-variable=prefix=$root/usr"
PKG_CONFIG_PATH=$root/usr/lib/$multiarch/pkgconfig
export PKG_CONFIG_PATH
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -o "$work/user" "$work/user.c" $($pc --cflags unotify) $($pc --libs unotify) ||
	die "a program does not build with pkg-config unotify"
LD_LIBRARY_PATH=$root/usr/lib/$multiarch "$work/user" || die "a program linked with libunotify fails"
# shellcheck disable=SC2046,SC2116 # echo trims pkg-config's trailing blank
libs=$(echo $($pc --libs unotify) $($pc --static --libs unotify))
[ "$libs" = "-L$root/usr/lib/$multiarch -lunotify -L$root/usr/lib/$multiarch -lunotify -lcap" ] ||
	die "pkg-config unotify: '$libs' (-lunotify, and -lcap when static, expected)"
say "ok: a program built with pkg-config unotify runs"

if [ "$install" = yes ]; then
	[ "$(id -u)" = 0 ] || die "--install needs root"
	say "installing the packages on this machine (dpkg -i), then purging them"
	dpkg -i "$work"/unotify_*.deb "$work"/libunotify0_*.deb "$work"/libunotify-dev_*.deb \
		>"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; die "dpkg -i failed"; }
	status=0
	(demo "") || status=1
	dpkg --purge unotify libunotify-dev libunotify0 >>"$work/dpkg.log" 2>&1 || status=1
	[ "$status" = 0 ] || die "the installed packages do not run the demo"
	say "ok: installed with dpkg -i, the demo runs from /usr; purged"
fi
say "PASS"
