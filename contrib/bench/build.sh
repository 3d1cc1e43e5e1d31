#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build.sh: what supervising a real build costs, next to its floors, in one run.
#
# Generates a C project (UNITS compilation units, each including HEADERS
# system headers: ~35k openat with the defaults, ~21k of them ENOENT, as
# gcc searches its include path), then times `make -jN` over it, alternating
# the ways of running it round after round, and prints the median of each
# with its ratio to the unsandboxed build and to the bare safe supervisor,
# for the wall time and for the CPU time of every process (on a shared
# machine the CPU time is the steadier of the two), and the median of the
# ratios of each round's build to that round's floor build ("paired": the
# steadier figure when the machine's speed drifts from round to round):
#   plain     the build, unsandboxed
#   unotify   unotify run --policy POLICY -- make (default policy: default
#             allow + deny openat path=/etc/shadow)
#   floor     unotify bench floor -- make: every open performed by a
#             hand-written safe supervisor (no library): the floor
#   strace    strace -f -e trace=openat -o /dev/null make: tracing only
#   bwrap     bwrap with /etc/shadow hidden: the same file job, in the kernel
#   landlock  unotify bench landlock -- make: the same file job with Landlock
# Machine, kernel and command line head the report. See docs/BENCHMARKS.md.
# UNOTIFY_BENCH_SMOKE set (not empty): 1 round of a 2-unit, 2-header project,
# whatever the options say, so a test can run the documented examples as a
# user types them; the figures then mean nothing (unotify bench honours it too).
set -eu

usage() {
	cat <<EOF
Usage: $0 [OPTIONS]
  --unotify PATH     the unotify program (default: the build tree's, else PATH)
  --modes LIST       plain,unotify,floor,strace,bwrap,landlock (default: all
                     that this machine has)
  --jobs LIST        make -j values (default: 1,2)
  --runs N           rounds; each runs every mode once, in rotating order (default: 5)
  --units N          compilation units (default: 40)
  --headers N        system headers included by each unit (default: 63)
  --policy FILE      the policy of the unotify mode (default: default allow +
                     deny openat path=/etc/shadow)
  --unotify-arg ARG  one more option for unotify run (repeatable), e.g. --log-level=all
  --floor-arg ARG    one more option for unotify bench floor (repeatable), e.g. --walk
  --extra NAME=CMD   one more mode: CMD is a prefix put before make (repeatable)
  --dir DIR          where to generate the project (default: a new directory in TMPDIR)
  --keep             keep that directory
  --count            count the build's openat calls (strace -f), and exit
  -h, --help         this help
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
unotify=
modes=
jobs=1,2
runs=5
units=40
headers=63
policy=
dir=
keep=0
count=0
unotify_args=()
floor_args=()
extra_names=()
extra_cmds=()

while [ $# -gt 0 ]; do
	case $1 in
	--unotify) unotify=$2; shift ;;
	--unotify=*) unotify=${1#*=} ;;
	--modes) modes=$2; shift ;;
	--modes=*) modes=${1#*=} ;;
	--jobs) jobs=$2; shift ;;
	--jobs=*) jobs=${1#*=} ;;
	--runs) runs=$2; shift ;;
	--runs=*) runs=${1#*=} ;;
	--units) units=$2; shift ;;
	--units=*) units=${1#*=} ;;
	--headers) headers=$2; shift ;;
	--headers=*) headers=${1#*=} ;;
	--policy) policy=$2; shift ;;
	--policy=*) policy=${1#*=} ;;
	--unotify-arg) unotify_args+=("$2"); shift ;;
	--unotify-arg=*) unotify_args+=("${1#*=}") ;;
	--floor-arg) floor_args+=("$2"); shift ;;
	--floor-arg=*) floor_args+=("${1#*=}") ;;
	--extra) extra_names+=("${2%%=*}"); extra_cmds+=("${2#*=}"); shift ;;
	--extra=*) e=${1#*=}; extra_names+=("${e%%=*}"); extra_cmds+=("${e#*=}") ;;
	--dir) dir=$2; shift ;;
	--dir=*) dir=${1#*=} ;;
	--keep) keep=1 ;;
	--count) count=1 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "$0: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done

die() { echo "build.sh: $*" >&2; exit 1; }

if [ -n "${UNOTIFY_BENCH_SMOKE:-}" ]; then
	runs=1 units=2 headers=2
	echo "build.sh: UNOTIFY_BENCH_SMOKE is set: 1 round, 2 units x 2 headers; these figures mean nothing" >&2
fi

for n in "$runs" "$units" "$headers"; do
	case $n in ''|*[!0-9]*) die "'$n' is not a number" ;; esac
done
[ "$runs" -ge 1 ] || die "--runs must be at least 1"

if [ -z "$unotify" ]; then
	if [ -x "$here/../../build/daemon/cli/unotify" ]; then
		unotify=$here/../../build/daemon/cli/unotify
	else
		unotify=$(command -v unotify || true)
	fi
fi
unotify=$(readlink -f "$unotify" 2>/dev/null || true)
command -v gcc >/dev/null && command -v make >/dev/null || die "needs gcc and make"

# Modes this machine can run.
have() {
	case $1 in
	plain) return 0 ;;
	unotify|floor) [ -n "$unotify" ] && [ -x "$unotify" ] ;;
	landlock) [ -n "$unotify" ] && "$unotify" bench landlock -- true 2>/dev/null ;;
	strace) command -v strace >/dev/null ;;
	bwrap) command -v bwrap >/dev/null && bwrap --bind / / true 2>/dev/null ;;
	*) return 1 ;;
	esac
}
if [ -z "$modes" ]; then
	modes=
	for m in plain unotify floor strace bwrap landlock; do
		if have $m; then modes=$modes${modes:+,}$m; else echo "build.sh: no $m here: skipped" >&2; fi
	done
fi
IFS=, read -r -a mode_list <<<"$modes"
for m in "${mode_list[@]}"; do
	have "$m" || die "mode '$m' cannot run here (unotify: ${unotify:-not found})"
done
mode_list+=("${extra_names[@]}")
IFS=, read -r -a job_list <<<"$jobs"

# ---------------------------------------------------------------- the project
if [ -z "$dir" ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/unotify-build.XXXXXX")
else
	mkdir -p "$dir"
fi
cleanup() { [ "$keep" = 1 ] || rm -rf "$dir"; }
trap cleanup EXIT

# System headers that exist here, in a fixed order, so two machines compare.
candidates="stdio.h stdlib.h string.h strings.h errno.h fcntl.h unistd.h signal.h
time.h stdint.h inttypes.h limits.h ctype.h math.h locale.h wchar.h wctype.h
assert.h setjmp.h stdarg.h stddef.h stdbool.h float.h iso646.h complex.h fenv.h
tgmath.h uchar.h threads.h stdatomic.h stdalign.h stdnoreturn.h pthread.h sched.h
semaphore.h dirent.h dlfcn.h fnmatch.h glob.h grp.h pwd.h poll.h regex.h search.h
syslog.h termios.h utime.h utmp.h wordexp.h netdb.h ifaddrs.h libgen.h langinfo.h
iconv.h getopt.h malloc.h memory.h alloca.h spawn.h mntent.h shadow.h err.h
error.h sys/types.h sys/stat.h sys/time.h sys/wait.h sys/socket.h sys/un.h
sys/mman.h sys/ioctl.h sys/select.h sys/resource.h sys/uio.h sys/utsname.h
sys/param.h sys/file.h sys/statvfs.h sys/times.h sys/epoll.h sys/eventfd.h
netinet/in.h netinet/tcp.h arpa/inet.h net/if.h"
inc=()
for h in $candidates; do
	[ ${#inc[@]} -ge "$headers" ] && break
	printf '#include <%s>\n' "$h" | gcc -E -x c - >/dev/null 2>&1 && inc+=("$h")
done
[ ${#inc[@]} -ge "$headers" ] || echo "build.sh: only ${#inc[@]} of $headers headers found here" >&2

mkdir -p "$dir/src"
{
	for h in "${inc[@]}"; do printf '#include <%s>\n' "$h"; done
	echo 'int unit_value(int x);'
} >"$dir/src/common.h"
for i in $(seq 1 "$units"); do
	cat >"$dir/src/u$i.c" <<EOF
#include "common.h"
int unit$i(int x) { return x * $i + (int)strlen("u$i"); }
EOF
done
echo 'int main(void) { return 0; }' >"$dir/src/main.c"
{
	echo 'OBJS = main.o'" $(seq -f 'u%g.o' 1 "$units" | tr '\n' ' ')"
	echo 'all: prog'
	echo 'prog: $(OBJS)'
	printf '\t$(CC) -o $@ $(OBJS)\n'
	echo '%.o: %.c common.h'
	printf '\t$(CC) -O0 -c -o $@ $<\n'
	echo 'clean:'
	printf '\trm -f prog *.o\n'
} >"$dir/src/Makefile"

if [ -z "$policy" ]; then
	policy=$dir/build.policy
	printf 'deny openat path=/etc/shadow\ndefault allow\n' >"$policy"
fi
policy=$(readlink -f "$policy")

# ---------------------------------------------------------------- counting
if [ "$count" = 1 ]; then
	command -v strace >/dev/null || die "--count needs strace"
	make -s -C "$dir/src" clean >/dev/null
	strace -f -qq -e trace=openat,open -o "$dir/trace" make -s -C "$dir/src" -j1 >/dev/null
	total=$(grep -c 'open' "$dir/trace" || true)
	enoent=$(grep -c 'ENOENT' "$dir/trace" || true)
	echo "openat/open calls: $total, of which ENOENT: $enoent (units=$units headers=${#inc[@]})"
	exit 0
fi

# ---------------------------------------------------------------- the runs
prefix() {
	case $1 in
	plain) ;;
	unotify) printf '%s\0' "$unotify" run --policy "$policy" "${unotify_args[@]}" -- ;;
	floor) printf '%s\0' "$unotify" bench floor "${floor_args[@]}" -- ;;
	strace) printf '%s\0' strace -f -qq -e trace=openat,open -o /dev/null ;;
	bwrap) printf '%s\0' bwrap --dev-bind / / --ro-bind /dev/null /etc/shadow ;;
	landlock) printf '%s\0' "$unotify" bench landlock -- ;;
	*)
		for i in "${!extra_names[@]}"; do
			if [ "${extra_names[$i]}" = "$1" ]; then
				# shellcheck disable=SC2086
				printf '%s\0' ${extra_cmds[$i]}
			fi
		done
		;;
	esac
}

# One build: prints its wall time and its CPU time (user + system of every
# process, the supervisor's included) in ms, or fails with the build's log.
build_once() {
	local mode=$1 j=$2 rc=0 real user sys cmd=()
	make -s -C "$dir/src" clean >/dev/null
	while IFS= read -r -d '' w; do cmd+=("$w"); done < <(prefix "$mode")
	TIMEFORMAT='%3R %3U %3S'
	{ time "${cmd[@]}" make -s -C "$dir/src" -j"$j" >"$dir/log.$mode" 2>&1 || rc=$?; } \
		2>"$dir/time.$mode"
	if [ "$rc" != 0 ]; then
		echo "build.sh: the $mode build failed (-j$j):" >&2
		tail -5 "$dir/log.$mode" >&2
		return 1
	fi
	[ -x "$dir/src/prog" ] || { echo "build.sh: the $mode build made no program" >&2; return 1; }
	read -r real user sys <"$dir/time.$mode"
	awk -v r="$real" -v u="$user" -v s="$sys" 'BEGIN { printf "%d %d\n", r * 1000, (u + s) * 1000 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

kernel=$(uname -r)
cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
echo "# unotify build benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "# machine: $(hostname), $(nproc) CPUs, ${cpu:-unknown CPU}, Linux $kernel"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# workload: $units units x ${#inc[@]} system headers; modes: ${mode_list[*]}; $runs rounds"
echo "# unotify: ${unotify:-none}; policy: $policy"

# One warm-up build fills the page cache, so the first measured mode is not penalised.
make -s -C "$dir/src" clean >/dev/null
make -s -C "$dir/src" -j2 >/dev/null

# paired KIND MODE: the median over rounds of MODE's build divided by the
# floor's build of the same round. Both ran within seconds of each other,
# so a drift of the machine's speed between rounds, which moves both
# medians but not always alike, cancels out here.
paired() {
	local -n pt=$1
	local r
	for r in $(seq 1 "$runs"); do
		awk -v a="${pt[$2:$r]}" -v b="${pt[floor:$r]}" 'BEGIN { if (b > 0) printf "%d\n", a * 100000 / b }'
	done | median
}

# table KIND: one row per mode from the times in wall[] or cpu[] (named by
# $1), each round's time in wall[MODE:ROUND] or cpu[MODE:ROUND].
table() {
	local -n t=$1
	local m lo hi pr
	declare -A med=()
	for m in "${mode_list[@]}"; do
		# shellcheck disable=SC2086
		med[$m]=$(printf '%s\n' ${t[$m]} | median)
	done
	printf '%-10s %9s %9s %9s %9s %9s %9s\n' mode median min max /plain /floor paired
	for m in "${mode_list[@]}"; do
		# shellcheck disable=SC2086
		read -r lo hi < <(printf '%s\n' ${t[$m]} | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo, hi }')
		pr=0
		[ -n "${med[floor]:-}" ] && pr=$(paired "$1" "$m")
		awk -v m="$m" -v med="${med[$m]}" -v lo="$lo" -v hi="$hi" -v p="${med[plain]:-0}" \
			-v f="${med[floor]:-0}" -v pr="$pr" 'BEGIN {
			printf "%-10s %9.3f %9.3f %9.3f", m, med / 1e3, lo / 1e3, hi / 1e3
			if (p > 0) printf " %8.2fx", med / p; else printf " %9s", "-"
			if (f > 0) printf " %8.2fx", med / f; else printf " %9s", "-"
			if (pr > 0) printf " %8.2fx", pr / 1e5; else printf " %9s", "-"
			printf "\n" }'
	done
}

for j in "${job_list[@]}"; do
	declare -A wall=() cpu=()
	n=${#mode_list[@]}
	for r in $(seq 1 "$runs"); do
		for k in $(seq 0 $((n - 1))); do
			m=${mode_list[$(((k + r) % n))]}
			t=$(build_once "$m" "$j") || exit 1
			wall[$m]="${wall[$m]:-} ${t% *}"
			cpu[$m]="${cpu[$m]:-} ${t#* }"
			wall[$m:$r]=${t% *}
			cpu[$m:$r]=${t#* }
		done
	done
	echo
	echo "make -j$j: wall time, median of $runs builds (seconds), ratio to plain and to floor;"
	echo "paired: the median of each round's ratio to that round's floor build"
	table wall
	echo
	echo "make -j$j: CPU time (user + system, every process), median of $runs builds (seconds)"
	table cpu
	unset wall cpu
done
