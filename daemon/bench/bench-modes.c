/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of benchmark modes and their axes. A mode is a target (what the
 * measured process installs) plus, optionally, a peer in the parent (who
 * answers). A new mode is one more row.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench.h"
#include "floor.h"
#include "lib/unotify.h"
#include "lib/util.h"

const struct bench_mode bench_modes[] = {
	{
		.name = "raw",
		.summary = "getppid with no filter: the call itself",
		.target = BENCH_TARGET_PLAIN,
	},
	{
		.name = "kernel-allowed",
		.summary = "a filter loaded, getppid allowed in the kernel",
		.target = BENCH_TARGET_ALLOWED,
	},
	{
		.name = "bare",
		.summary = "hand-written loop, raw ioctls, no library: the floor (path calls: "
			   "the safe-open floor)",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_WAIT | BENCH_MODE_PEER | BENCH_MODE_LISTENER,
		.prepare = bench_bare_prepare,
		.supervise = bench_bare_supervise,
	},
	{
		.name = "lib",
		.summary = "libunotify in-process: decide returns 42 (path calls: the engine, "
			   "a path rule)",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER,
		.prepare = bench_lib_prepare,
		.supervise = bench_lib_supervise,
		.cleanup = bench_lib_cleanup,
	},
	{
		.name = "run",
		.summary = "libunotify as `unotify run` sets it up: the engine, its policy and "
			   "the pool of supervising threads (default --threads)",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER,
		.prepare = bench_engine_prepare, /* getppid too: the policy returns 42 */
		.supervise = bench_engine_supervise,
		.cleanup = bench_engine_cleanup,
		.lib_threads = UNOTIFY_SUPERVISE_THREADS_DEFAULT,
	},
	{
		.name = "daemon",
		.summary = "through a private unotifyd, policy 'return getppid 42' (path calls: "
			   "a path rule)",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER |
			 BENCH_MODE_COUNTED_OUTSIDE,
		.row_start = bench_daemon_row_start,
		.row_stop = bench_daemon_row_stop,
		.row_layer = bench_daemon_row_layer,
		.prepare = bench_daemon_prepare,
		.supervise = bench_daemon_supervise,
		.cleanup = bench_daemon_cleanup,
	},
	{
		.name = "futex",
		.summary = "futex wake+wait ping-pong between two processes: the RPC baseline",
		.target = BENCH_TARGET_FUTEX,
		.flags = BENCH_MODE_PEER | BENCH_MODE_GETPPID,
		.supervise = bench_futex_supervise,
	},
	{
		.name = "bare-walk",
		.summary = "path calls: the floor resolving with a user-space walk, not openat2",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER | BENCH_MODE_PATH,
		.prepare = bench_bare_prepare,
		.supervise = bench_floor_supervise,
		.floor_flags = FLOOR_WALK,
	},
	{
		.name = "bare-creds",
		.summary = "path calls: the floor entering and leaving credentials per call",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER | BENCH_MODE_PATH,
		.prepare = bench_bare_prepare,
		.supervise = bench_floor_supervise,
		.floor_flags = FLOOR_CREDS,
	},
	{
		.name = "bare-herd",
		.summary = "path calls: the floor with 2 threads blocking in RECV on the listener",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER | BENCH_MODE_PATH,
		.prepare = bench_bare_prepare,
		.supervise = bench_floor_supervise,
		.floor_receivers = 2,
	},
	{
		.name = "bare-workers",
		.summary = "path calls: the floor, one receiver handing each call to 2 workers",
		.target = BENCH_TARGET_NOTIFIED,
		.flags = BENCH_MODE_SYNC | BENCH_MODE_PEER | BENCH_MODE_LISTENER | BENCH_MODE_PATH,
		.prepare = bench_bare_prepare,
		.supervise = bench_floor_supervise,
		.floor_workers = 2,
	},
};

const size_t bench_modes_count = ARRAY_SIZE(bench_modes);

const struct bench_mode *bench_mode_find(const char *name)
{
	for (size_t i = 0; i < bench_modes_count; i++)
		if (strcmp(bench_modes[i].name, name) == 0)
			return &bench_modes[i];
	return NULL;
}

static const struct {
	const char *name;
	const char *syscall; /* in a policy */
	int nr;
} bench_calls[BENCH_CALL_MAX] = {
	[BENCH_CALL_GETPPID] = { "getppid", "getppid", SYS_getppid },
	[BENCH_CALL_OPEN] = { "open", "openat", SYS_openat },
	[BENCH_CALL_STAT] = { "stat", "newfstatat", SYS_newfstatat },
	[BENCH_CALL_ACCESS] = { "access", "faccessat", SYS_faccessat },
	[BENCH_CALL_READLINK] = { "readlink", "readlinkat", SYS_readlinkat },
};

const char *bench_call_name(enum bench_call c)
{
	return c < BENCH_CALL_MAX ? bench_calls[c].name : "?";
}

const char *bench_call_syscall(enum bench_call c)
{
	return c < BENCH_CALL_MAX ? bench_calls[c].syscall : "?";
}

int bench_call_nr(enum bench_call c)
{
	return c < BENCH_CALL_MAX ? bench_calls[c].nr : -1;
}

int bench_call_parse(const char *s, enum bench_call *ret)
{
	for (int i = 0; i < BENCH_CALL_MAX; i++)
		if (strcmp(s, bench_calls[i].name) == 0) {
			*ret = (enum bench_call)i;
			return 0;
		}
	return -EINVAL;
}

void bench_call_path(const struct bench_config *cfg, const struct bench_settings *set, char *buf,
		     size_t size)
{
	const char *name = cfg->missing ? "missing" : cfg->call == BENCH_CALL_READLINK ? "link"
										: "file";

	if (cfg->relative)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%s/%s", set->files, name);
}

int bench_files_make(struct bench_settings *set)
{
	const char *tmp = getenv("TMPDIR");
	char path[sizeof(set->files) + 16];
	_cleanup_close_ int fd = -1;

	snprintf(set->files, sizeof(set->files), "%s/unotify-bench-files.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(set->files)) {
		set->files[0] = '\0';
		return negative_errno();
	}
	snprintf(path, sizeof(path), "%s/file", set->files);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, BENCH_FILE_TEXT, strlen(BENCH_FILE_TEXT)) < 0)
		return negative_errno();
	snprintf(path, sizeof(path), "%s/link", set->files);
	return symlink(BENCH_LINK_TEXT, path) < 0 ? negative_errno() : 0;
}

void bench_files_remove(struct bench_settings *set)
{
	char path[sizeof(set->files) + 16];

	if (!set->files[0])
		return;
	snprintf(path, sizeof(path), "%s/file", set->files);
	unlink(path);
	snprintf(path, sizeof(path), "%s/link", set->files);
	unlink(path);
	rmdir(set->files);
	set->files[0] = '\0';
}

static const char *const bench_pin_names[BENCH_PIN_MAX] = {
	[BENCH_PIN_FREE] = "free",
	[BENCH_PIN_SAME] = "same",
	[BENCH_PIN_DIFFERENT] = "different",
};

static const char *const bench_wait_names[BENCH_WAIT_MAX] = {
	[BENCH_WAIT_BLOCK] = "block",
	[BENCH_WAIT_POLL] = "poll",
	[BENCH_WAIT_EPOLL] = "epoll",
	[BENCH_WAIT_SPIN] = "spin",
};

const char *bench_pin_name(enum bench_pin p)
{
	return p < BENCH_PIN_MAX ? bench_pin_names[p] : "?";
}

const char *bench_wait_name(enum bench_wait w)
{
	return w < BENCH_WAIT_MAX ? bench_wait_names[w] : "?";
}

int bench_pin_parse(const char *s, enum bench_pin *ret)
{
	for (int i = 0; i < BENCH_PIN_MAX; i++)
		if (strcmp(s, bench_pin_names[i]) == 0) {
			*ret = (enum bench_pin)i;
			return 0;
		}
	return -EINVAL;
}

int bench_wait_parse(const char *s, enum bench_wait *ret)
{
	for (int i = 0; i < BENCH_WAIT_MAX; i++)
		if (strcmp(s, bench_wait_names[i]) == 0) {
			*ret = (enum bench_wait)i;
			return 0;
		}
	return -EINVAL;
}

void bench_config_label(const struct bench_config *c, char *buf, size_t size)
{
	size_t len;

	snprintf(buf, size, "%s", c->mode->name);
	len = strlen(buf);
	if (c->call != BENCH_CALL_GETPPID && len < size)
		len += (size_t)snprintf(buf + len, size - len, " %s%s%s", bench_call_name(c->call),
					c->missing ? " ENOENT" : "", c->relative ? " relative" : "");
	if (c->sync >= 0 && len < size)
		len += (size_t)snprintf(buf + len, size - len, " sync=%s", c->sync ? "on" : "off");
	if ((c->mode->flags & BENCH_MODE_WAIT) && c->wait != BENCH_WAIT_BLOCK && len < size)
		len += (size_t)snprintf(buf + len, size - len, " wait=%s",
					bench_wait_name(c->wait));
	if (c->pin != BENCH_PIN_FREE && len < size)
		len += (size_t)snprintf(buf + len, size - len, " pin=%s", bench_pin_name(c->pin));
	if (c->threads != 1 && len < size)
		snprintf(buf + len, size - len, " threads=%u", c->threads);
}

bool bench_result_noisy(const struct bench_result *res, const struct bench_settings *set)
{
	return res->status == BENCH_OK && res->spread > set->precision;
}

static bool bench_result_is_floor(const struct bench_result *f, const struct bench_result *res,
				  int sync)
{
	return f != res && f->status == BENCH_OK && strcmp(f->cfg.mode->name, "bare") == 0 &&
	       f->cfg.wait == BENCH_WAIT_BLOCK && f->cfg.sync == sync &&
	       f->cfg.pin == res->cfg.pin && f->cfg.threads == res->cfg.threads &&
	       f->cfg.call == res->cfg.call && f->cfg.missing == res->cfg.missing &&
	       f->cfg.relative == res->cfg.relative;
}

/*
 * A mode with a sync setting is compared with the floor of the same setting;
 * one without (raw, futex) with the best floor, sync on, or else sync off.
 */
const struct bench_result *bench_result_floor(const struct bench_result *res,
					      const struct bench_result *all, size_t n)
{
	int want[2] = { res->cfg.sync, res->cfg.sync };

	if (res->cfg.sync < 0) {
		want[0] = 1;
		want[1] = 0;
	}
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < n; i++)
			if (bench_result_is_floor(&all[i], res, want[k]))
				return &all[i];
	return NULL;
}

const struct bench_result *bench_result_sync_off(const struct bench_result *res,
						 const struct bench_result *all, size_t n)
{
	if (res->cfg.sync != 1 || res->status != BENCH_OK)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const struct bench_config *c = &all[i].cfg;

		if (all[i].status == BENCH_OK && c->mode == res->cfg.mode && c->sync == 0 &&
		    c->wait == res->cfg.wait && c->pin == res->cfg.pin &&
		    c->threads == res->cfg.threads && c->call == res->cfg.call &&
		    c->missing == res->cfg.missing && c->relative == res->cfg.relative)
			return &all[i];
	}
	return NULL;
}
