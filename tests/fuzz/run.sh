#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The libFuzzer targets of tests/fuzz/, built and run for a bounded time.
#
# Built here with clang directly (not by automake: libFuzzer needs clang and
# its own sanitizer flags, which the normal build must not get), from the
# policy sources Makefile.am lists for policy/libpolicy.la, into
# $top_builddir/tests/fuzz-work (removed unless a target failed). Each target first replays its regression
# inputs (tests/fuzz/regressions/TARGET/: every crash ever found), then runs
# for UNOTIFY_FUZZ_TIME seconds (default 20) from its seed corpus:
#   policy: tests/fuzz/corpus-policy/, contrib/policies/*.policy, and the
#           policy texts of tests/policy/*.table;
#   oci:    tests/fuzz/corpus-oci/ and the real-world profiles of tests/data/oci/.
# A crash fails the test and names the input libFuzzer saved: keep it as
# tests/fuzz/regressions/TARGET/NAME once the bug is fixed.
#
# Every target runs even when an earlier one failed; the test fails at the
# end, naming each failure. UNOTIFY_FUZZ_TARGETS picks targets (default
# "policy oci"). UNOTIFY_FUZZ_SKIP (a reason) skips it. Skips when clang or
# its libFuzzer runtime is missing
# (Debian: apt-get install clang libclang-rt-14-dev). Output is TAP, through
# the live tests' helpers: a case per target's build, replay and run.
. "${top_srcdir:-.}/tests/live/lib.sh"
FUZZ_TIME=${UNOTIFY_FUZZ_TIME:-20}
TARGETS=${UNOTIFY_FUZZ_TARGETS:-policy oci}
FAILED=
CC=${FUZZ_CC:-clang}
SAN="address,undefined"

# contrib/quickstart.sh check sets it for its second build: the targets
# build the same there (their own ASan and UBSan, not the build's flags).
[ -z "${UNOTIFY_FUZZ_SKIP:-}" ] || skip "$UNOTIFY_FUZZ_SKIP"
command -v "$CC" >/dev/null 2>&1 || skip "$CC is not installed (apt-get install clang libclang-rt-14-dev)"
command -v pkg-config >/dev/null 2>&1 || skip "pkg-config is not installed"
[ -f "$top_builddir/config.h" ] || fail "$top_builddir/config.h is missing: run configure first"

work=$top_builddir/tests/fuzz-work
rm -rf "$work"
mkdir -p "$work"

printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' \
	>"$work/probe.c"
"$CC" -fsanitize=fuzzer,$SAN "$work/probe.c" -o "$work/probe" >"$work/probe.log" 2>&1 ||
	{ reason=$(head -c 300 "$work/probe.log"); rm -rf "$work"; skip "$CC cannot link a libFuzzer target (apt-get install libclang-rt-14-dev): $reason"; }

# The policy library's sources, as Makefile.am lists them.
policy_sources=$(sed -n 's|^policy_libpolicy_la_SOURCES += \(policy/[a-z0-9_-]*\.c\)$|\1|p' \
	"$top_srcdir/Makefile.am")
[ -n "$policy_sources" ] || fail "no policy_libpolicy_la_SOURCES in $top_srcdir/Makefile.am"
libs=""
for pkg in libseccomp json-c libcap; do
	if pkg-config --exists "$pkg"; then
		libs="$libs $(pkg-config --libs "$pkg")"
		cflags_pkg="${cflags_pkg:-} $(pkg-config --cflags "$pkg")"
	fi
done
CFLAGS_FUZZ="-std=gnu11 -g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
-DHAVE_CONFIG_H -I$top_builddir -I$top_srcdir -I$top_srcdir/lib ${cflags_pkg:-}"

# build_target NAME EXTRA-SOURCES...: $work/fuzz-NAME from tests/fuzz/fuzz-NAME.c.
build_target() {
	name=$1
	shift
	objs=""
	mkdir -p "$work/obj-$name"
	for src in $policy_sources "$@"; do
		obj=$work/obj-$name/$(echo "$src" | tr '/' '_').o
		# shellcheck disable=SC2086
		"$CC" $CFLAGS_FUZZ -fsanitize=fuzzer-no-link,$SAN -c "$top_srcdir/$src" -o "$obj" \
			>>"$work/build-$name.log" 2>&1 || {
			say "$(cat "$work/build-$name.log")"
			fail "cannot build $src for fuzz-$name"
		}
		objs="$objs $obj"
	done
	# shellcheck disable=SC2086
	"$CC" $CFLAGS_FUZZ -fsanitize=fuzzer,$SAN "$top_srcdir/tests/fuzz/fuzz-$name.c" $objs \
		$libs -o "$work/fuzz-$name" >>"$work/build-$name.log" 2>&1 || {
		say "$(cat "$work/build-$name.log")"
		fail "cannot link fuzz-$name"
	}
	say "ok: fuzz-$name built"
}

# failed WHAT: remembers a failure; the test fails at the end.
failed() {
	TAP_FAILED=1
	tap_result "not ok" "$*"
	FAILED="$FAILED
  $*"
}

# replay NAME: every saved regression input runs once, and must not crash.
replay() {
	dir=$top_srcdir/tests/fuzz/regressions/$1
	n=0
	bad=0
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		if ! "$work/fuzz-$1" -runs=1 "$f" </dev/null >"$work/replay-$1-$n.log" 2>&1; then
			say "$(grep -E 'check failed|ERROR|runtime error|SUMMARY' "$work/replay-$1-$n.log" | head -5)"
			failed "fuzz-$1: regression input $f crashes (log: $work/replay-$1-$n.log)"
			bad=$((bad + 1))
		fi
	done
	[ "$bad" != 0 ] || say "ok: fuzz-$1 replayed $n regression inputs, none crashing"
}

# fuzz NAME: a bounded run from the corpus in $work/corpus-NAME.
fuzz() {
	log=$work/fuzz-$1.log
	if ! "$work/fuzz-$1" -max_total_time="$FUZZ_TIME" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 -artifact_prefix="$work/crash-$1-" \
		"$work/corpus-$1" </dev/null >"$log" 2>&1; then
		say "$(grep -v -E '^ +#[0-9]+ 0x|^INFO|NEW_FUNC' "$log" | tail -25)"
		failed "fuzz-$1 found a crash: $(ls "$work"/crash-"$1"-* 2>/dev/null | head -1) (fix it, \
then keep the input under tests/fuzz/regressions/$1/)"
		return 0
	fi
	say "ok: fuzz-$1 ran ${FUZZ_TIME}s: $(grep -E '^#[0-9]+.*DONE' "$log" | tail -1)"
}

# The policy texts of the data tables: the indented lines after "policy:".
seed_tables() {
	i=0
	for table in "$top_srcdir"/tests/policy/*.table; do
		[ -f "$table" ] || continue
		awk -v out="$1/table-$(basename "$table" .table)-" '
			/^policy:/ { n++; inside = 1; next }
			inside && /^  / { print substr($0, 3) > (out n); next }
			{ inside = 0 }' "$table"
		i=$((i + 1))
	done
}

say_seeds() {
	say "fuzz-$1: $(ls "$work/corpus-$1" | wc -l) seed inputs"
}

case " $TARGETS " in *" policy "*)
	build_target policy tests/fuzz/fuzz-common.c
	mkdir -p "$work/corpus-policy"
	cp "$top_srcdir"/tests/fuzz/corpus-policy/* "$work/corpus-policy/" 2>/dev/null || true
	cp "$top_srcdir"/contrib/policies/*.policy "$work/corpus-policy/" 2>/dev/null || true
	seed_tables "$work/corpus-policy"
	say_seeds policy
	replay policy
	fuzz policy
esac

# The OCI profile importer, seeded with the real-world profiles of tests/data.
case " $TARGETS " in *" oci "*)
	build_target oci tests/fuzz/fuzz-common.c
	mkdir -p "$work/corpus-oci"
	cp "$top_srcdir"/tests/fuzz/corpus-oci/* "$work/corpus-oci/" 2>/dev/null || true
	cp "$top_srcdir"/tests/data/oci/*.json "$work/corpus-oci/"
	say_seeds oci
	replay oci
	fuzz oci
esac

if [ -n "$FAILED" ]; then
	say "failed:$FAILED"
	exit 1
fi
# Kept only when something failed (distcheck wants a clean build tree).
rm -rf "$work"
say "PASS: fuzz"
