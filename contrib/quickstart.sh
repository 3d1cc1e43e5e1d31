#!/bin/sh
# unotify quick start: installs what is missing (Debian/Ubuntu, as root), builds, then
#   demo   runs a demonstration program under contrib/policies/demo.policy
#   check  runs the whole test suite, again in an ASan/UBSan build, the daemon's
#          tests in a ThreadSanitizer build, and prints one closing line
#          "N passed, N failed, N skipped"
# Usage: contrib/quickstart.sh demo|check
# The build directory is build/ in the source tree, or $UNOTIFY_QUICKSTART_BUILD
# for demo (the test that runs the README's examples points it at its own build).
set -eu

# -P: the tree itself, also when reached through a symbolic link.
top=$(cd -P "$(dirname "$0")/.." && pwd -P)
cd "$top"
mode=${1:-demo}
jobs=$(nproc 2>/dev/null || echo 2)

# Build and test dependencies, as Debian package names.
build_pkgs="build-essential autoconf automake libtool pkg-config libseccomp-dev libcap-dev \
libjson-c-dev libsystemd-dev"
test_pkgs="python3 jq valgrind clang libclang-rt-14-dev bubblewrap systemd runc crun podman busybox-static libcap2-bin gnuplot-nox procps psmisc"

say() { printf 'quickstart: %s\n' "$*" >&2; }

missing_pkgs() {
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			printf '%s ' "$p"
	done
}

install_deps() {
	if ! command -v dpkg-query >/dev/null 2>&1; then
		say "not a Debian system: install autotools, pkg-config and the development files of"
		say "libseccomp, libcap, json-c and libsystemd with your package manager"
		return 0
	fi
	missing=$(missing_pkgs "$@")
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		say "missing packages: $missing"
		say "run this script as root to install them, or: apt-get install $missing"
		exit 1
	fi
	say "installing: $missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

# configure_build DIR [CONFIGURE-ARGS...]: an out-of-tree build in DIR.
configure_build() {
	dir=$1
	shift
	[ -x configure ] || autoreconf -fi
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || "$top"/configure -q "$@"; } && make -s -j"$jobs")
}

run_demo() {
	install_deps $build_pkgs
	build=${UNOTIFY_QUICKSTART_BUILD:-build}
	configure_build "$build" --enable-werror --enable-debug
	audit=$(mktemp)
	trap 'rm -f "$audit"' EXIT
	say "running contrib/demo/demo.sh under contrib/policies/demo.policy"
	# LC_ALL=C: no locale files to open, so the trail shows the demo's own calls.
	LC_ALL=C "$build"/daemon/cli/unotify run --log "$audit" --policy contrib/policies/demo.policy \
		-- contrib/demo/demo.sh
	say "the audit trail: denials, kills and log rules, one line each (--log-level all"
	say "adds the calls the policy allows or answers with a value, here every open and"
	say "the getppid); calls the kernel layer settles never reach the supervisor at all"
	cat "$audit"
}

# Many tests run programs as nobody, from the build tree: every directory
# above it must let others through (a clone into `mktemp -d`, mode 0700,
# does not, and two dozen tests would fail for that alone).
check_reachable() {
	d=$top
	while [ "$d" != / ]; do
		if [ -z "$(find "$d" -maxdepth 0 -perm -o+x)" ]; then
			say "$d is mode $(stat -c %a "$d"): tests that run programs as nobody cannot"
			say "reach the build tree; chmod o+x $d (or clone elsewhere) and run again"
			exit 1
		fi
		d=$(dirname "$d")
	done
}

run_check() {
	check_reachable
	install_deps $build_pkgs $test_pkgs
	autoreconf -fi >/dev/null 2>&1
	status=0
	configure_build build --enable-werror --enable-debug
	(cd build && make -s -j"$jobs" check) || status=1
	builds=build
	if [ "${UNOTIFY_SKIP_SANITIZERS:-0}" != 1 ]; then
		say "the same suite again, built with ASan and UBSan"
		configure_build build-sanitizers --enable-werror --enable-debug --enable-sanitizers
		# The race tests' 100000 attempts are for the first build; here a
		# quarter still races every path under the sanitizers. Three tests
		# run once, in the first build, to keep the whole run within its 15
		# minutes: the fuzz targets build with their own sanitizers whatever
		# the build; the documented examples and the bench's smoke rows check
		# output and docs, and run code the other tests run here too.
		(cd build-sanitizers &&
			UNOTIFY_RACE_ITERATIONS=${UNOTIFY_RACE_ITERATIONS:-25000} \
			UNOTIFY_FUZZ_SKIP="the first build ran the fuzz targets (built with their own ASan and UBSan, the same in every build)" \
			UNOTIFY_EXAMPLES_SKIP="the first build ran the documented examples (a check of the docs)" \
			UNOTIFY_BENCH_SMOKE_SKIP="the first build ran the bench's smoke rows (a check of its output)" \
			make -s -j"$jobs" check) ||
			status=1
		builds="build build-sanitizers"
		# TSan cannot share a process with ASan: a third build, the daemon's tests only.
		say "the daemon's tests again, built with ThreadSanitizer"
		configure_build build-tsan --enable-werror --enable-debug --enable-tsan
		(cd build-tsan && make -s -j"$jobs" check-daemon) || status=1
		builds="$builds build-tsan"
	else
		say "SKIP: sanitizer builds: UNOTIFY_SKIP_SANITIZERS=1"
	fi
	# shellcheck disable=SC2086
	tests/summary.sh $builds || status=1
	return $status
}

case "$mode" in
demo) run_demo ;;
check) run_check ;;
*)
	echo "usage: contrib/quickstart.sh demo|check" >&2
	exit 2
	;;
esac
