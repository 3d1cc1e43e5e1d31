#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install` of this build, into a scratch DESTDIR, holds what a
# package needs, at the configured paths: the programs, the library with
# its header and a pkg-config file that lists only what the library links,
# the man pages, the example policies under $(datadir) at the path their
# own comments tell users to include, the daemon's policy directory with a
# default policy that unotifyd accepts, and the systemd units made from
# their templates with the configured sbindir and runstatedir. Then `make
# uninstall` leaves no file behind. (contrib/debian-check.sh does the same
# for the Debian packages, whose prefix is /usr.)
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp
need_cmd make
need_cmd pkg-config

D=$T/root
# The configured directories, expanded by make itself.
printf 'print-dirs:\n\t@echo dirs: $(bindir) $(sbindir) $(libdir) $(includedir) $(mandir) ' >"$T/dirs.mk"
printf '$(pkgdatadir) $(sysconfdir) $(runstatedir) $(systemdsystemunitdir)\n' >>"$T/dirs.mk"
capture "the configured directories" make -s --no-print-directory -C "$top_builddir" -f Makefile -f "$T/dirs.mk" print-dirs
expect_status "make prints the configured directories" 0
# Only our line: a make that first remakes its Makefile says so on stdout too.
# shellcheck disable=SC2086 # one word per directory
set -- $(printf '%s\n' "$OUT" | sed -n 's/^dirs: //p')
[ $# -ge 8 ] || fail "make printed no directories: $OUT"
bindir=$1 sbindir=$2 libdir=$3 includedir=$4 mandir=$5 pkgdatadir=$6 sysconfdir=$7
runstatedir=$8 unitdir=${9:-no}
say "configured: sbindir $sbindir, datadir $pkgdatadir, sysconfdir $sysconfdir, units $unitdir"

capture "make install" make -s --no-print-directory -C "$top_builddir" install DESTDIR="$D"
expect_status "make install DESTDIR=..." 0

for f in "$bindir/unotify" "$sbindir/unotifyd"; do
	[ -x "$D$f" ] || fail "$f is not installed"
done
for f in "$libdir/libunotify.so.0" "$libdir/libunotify.so" "$includedir/unotify.h" \
	"$libdir/pkgconfig/unotify.pc" "$mandir/man1/unotify.1" "$mandir/man1/unotify-bench.1" \
	"$mandir/man5/unotify.policy.5" "$mandir/man8/unotifyd.8" "$pkgdatadir/demo/demo.sh"; do
	[ -e "$D$f" ] || fail "$f is not installed"
done
say "ok: programs, library, header, pkg-config file, man pages and demo installed"

# Every example policy, at the path its comments name, and they say where it is.
for p in "$top_srcdir"/contrib/policies/*.policy; do
	f=$pkgdatadir/policies/${p##*/}
	[ -f "$D$f" ] || fail "$f is not installed"
	if grep -q '^#.*include /' "$D$f" && ! grep -q "^#.*include $(re_quote "$f")\$" "$D$f"; then
		fail "$f: its comments tell users to include it from another path: $(grep '^#.*include /' "$D$f")"
	fi
done
grep -rq '/usr/share/unotify/policies' "$D$pkgdatadir/policies" &&
	[ "$pkgdatadir" != /usr/share/unotify ] &&
	fail "an installed example policy still names /usr/share/unotify/policies"
say "ok: every example policy is in $pkgdatadir/policies, as its comments say"

def=$sysconfdir/unotify/policies/default.policy
[ -f "$D$def" ] || fail "$def is not installed"
capture "unotifyd --check" "$D$sbindir/unotifyd" --check --policy-dir "$D$sysconfdir/unotify/policies"
expect_status "unotifyd --check accepts the installed policy directory" 0
expect_grep "the default policy fails closed" "$(cat "$D$def")" '^default deny'

if [ "$unitdir" = no ]; then
	skip_case "the systemd units" "configured --without-systemdsystemunitdir"
else
	for u in unotifyd.service unotifyd.socket; do
		[ -f "$D$unitdir/$u" ] || fail "$unitdir/$u is not installed"
		! grep -n '@[a-zA-Z_]*@' "$D$unitdir/$u" || fail "$u: a template placeholder is left"
	done
	expect_grep "unotifyd.service runs the installed daemon" "$(cat "$D$unitdir/unotifyd.service")" \
		"^ExecStart=$(re_quote "$sbindir/unotifyd")\$"
	expect_grep "unotifyd.socket listens on the configured socket" \
		"$(cat "$D$unitdir/unotifyd.socket")" \
		"^ListenStream=$(re_quote "$runstatedir/unotifyd/unotifyd.sock")\$"
fi

# pkg-config: -lunotify, and for a static link only what the library itself
# links (its NEEDED entries but libc, and a sanitizer build's runtimes),
# nothing the programs need.
PKG_CONFIG_PATH=$D$libdir/pkgconfig
export PKG_CONFIG_PATH
capture "pkg-config --libs" pkg-config --libs unotify
expect_grep "pkg-config --libs unotify: -lunotify only" "$OUT" '^-L[^ ]+ -lunotify *$'
needed=$(readelf -d "$D$libdir/libunotify.so.0" | sed -n 's/.*(NEEDED).*\[lib\([^]]*\)\.so.*/\1/p' |
	grep -vxE 'c|asan|ubsan|tsan|lsan' | sort | tr '\n' ' ')
private=$(pkg-config --static --libs unotify | tr ' ' '\n' | sed -n 's/^-l//p' | grep -vx unotify |
	sort -u | tr '\n' ' ')
[ "$needed" = "$private" ] ||
	fail "pkg-config --static lists '$private', the library links '$needed'"
say "ok: pkg-config --static adds exactly what libunotify links: $needed"

capture "make uninstall" make -s --no-print-directory -C "$top_builddir" uninstall DESTDIR="$D"
expect_status "make uninstall" 0
left=$(find "$D" ! -type d | sed "s|^$D||")
[ -z "$left" ] || fail "make uninstall leaves: $(echo $left)"
say "ok: make uninstall removes every file it installed"
