# SPDX-License-Identifier: GPL-2.0-or-later
# Background processes a test kills at exit, sourced by tests/live/lib.sh and
# tests/adversarial/lib.sh. A pid is kept with its start time, and killed
# only while both still match: pids wrap (pid_max is 32768 on a default
# Debian kernel), and a suite running two tests at once goes through tens of
# thousands, so a number whose process ended long ago may by the end of a
# test belong to another test's daemon. Killing it by number alone did that.

BG_PIDS=

# pid_start PID: the process's start time (clock ticks since boot), or fails.
pid_start() {
	_stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	# After the last ')' (the name may hold any byte), field 22 is the 20th.
	printf '%s\n' "${_stat##*) }" | cut -d' ' -f20
}

# track_pid PID: killed (SIGKILL) at exit if that very process still runs.
track_pid() {
	_start=$(pid_start "$1") || return 0
	BG_PIDS="$BG_PIDS $1:$_start"
}

kill_tracked() {
	for _entry in $BG_PIDS; do
		_pid=${_entry%%:*}
		if [ "$(pid_start "$_pid" || true)" = "${_entry#*:}" ]; then
			kill -9 "$_pid" 2>/dev/null || true
		fi
	done
	BG_PIDS=
}
