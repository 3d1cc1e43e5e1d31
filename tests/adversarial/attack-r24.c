/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Round 24: descriptors whose last close waits. A TCP socket with
 * SO_LINGER and data its peer never reads makes the close that releases
 * it wait up to its linger time (an hour here). Sent to unotifyd with
 * SCM_RIGHTS, or left queued on a connection it refuses, it once stopped
 * the daemon's main thread in close(): no one was accepted, SIGTERM was
 * not heard (r24-daemon-linger.sh).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "attack.h"
#include "tests/live/fuse-hold.h"

#define R24_LINGER_S 3600
#define R24_MANY 12 /* past the 8 fds a message may bring */
#define R24_FUSE_HOLD_S 600 /* a FUSE file's close by another process waits this long */

/*
 * A TCP connection over loopback whose sending end holds unsent data and
 * lingers: its last close waits for the data to go, which the receiving
 * end (*ret_peer, kept open, never read) never lets happen.
 */
static int r24_lingering(int *ret_peer)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct linger lg = { .l_onoff = 1, .l_linger = R24_LINGER_S };
	socklen_t len = sizeof(sa);
	int small = 4096, l, c, p;
	char buf[4096] = { 0 };

	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) < 0)
		return -1;
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0)
		return -1;
	setsockopt(c, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	p = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	close(l);
	if (p < 0)
		return -1;
	setsockopt(p, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	for (int i = 0; i < 256; i++)
		if (send(c, buf, sizeof(buf), MSG_DONTWAIT) < 0)
			break;
	setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	*ret_peer = p;
	return c;
}

/* text with fds[0..n) attached. */
static int r24_send(int s, const char *text, const int *fds, size_t n)
{
	char control[CMSG_SPACE(sizeof(int) * R24_MANY)] = { 0 };
	struct iovec iov = { .iov_base = (void *)text, .iov_len = strlen(text) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (n) {
		mh.msg_control = control;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * n);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * n);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * n);
	}
	return sendmsg(s, &mh, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

static int r24_connect(const char *path)
{
	struct sockaddr_un su = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(su.sun_path, sizeof(su.sun_path), "%s", path);
	if (s < 0 || connect(s, (struct sockaddr *)&su, sizeof(su)) < 0)
		return -1;
	return s;
}

static void *r24_close_thread(void *arg)
{
	close((int)(intptr_t)arg);
	return NULL;
}

/*
 * Our copies of the sockets sent: closed at once where the daemon cannot
 * have closed its own yet (it waits for the rest of the message), else
 * each by a thread of its own, which waits when ours is the last.
 */
static void r24_close_ours(const int *fds, int n, bool racing)
{
	pthread_t t;

	for (int i = 0; i < n; i++)
		if (!racing || pthread_create(&t, NULL, r24_close_thread, (void *)(intptr_t)fds[i]))
			close(fds[i]);
		else
			pthread_detach(t);
}

/*
 * One connection of MODE. The sockets go with the message's first byte,
 * so the daemon holds them, and has the whole message only once ours are
 * closed: its close is the last, the one that waits.
 */
static int r24_one(const char *sock, const char *mode)
{
	char oci[512];
	int fds[R24_MANY], n = strcmp(mode, "many") ? 1 : R24_MANY, s, r;
	bool racing;
	const char *text = "{\"x\":1}";

	for (int i = 0; i < n; i++) {
		int peer;

		if (!strcmp(mode, "fuse")) {
			fds[i] = fuse_hold_open(R24_FUSE_HOLD_S);
			if (fds[i] < 0)
				return -1;
			continue;
		}
		fds[i] = r24_lingering(&peer);
		if (fds[i] < 0)
			return -1;
		(void)peer; /* kept open, never read: the data stays unsent */
	}
	if (!strcmp(mode, "bad"))
		text = "{\"x\":";
	else if (!strcmp(mode, "oci")) {
		snprintf(oci, sizeof(oci),
			 "{\"ociVersion\":\"1.0.2\",\"fds\":[\"seccompFd\"],\"pid\":%d,"
			 "\"metadata\":\"\",\"state\":{\"ociVersion\":\"1.0.2\",\"id\":\"r24-%d\","
			 "\"status\":\"creating\",\"pid\":%d,\"bundle\":\"/b\"}}",
			 (int)getpid(), (int)getpid(), (int)getpid());
		text = oci;
	}
	s = r24_connect(sock);
	if (s < 0)
		return -1;
	r = r24_send(s, "{", fds, (size_t)n);
	if (r == -EPIPE && !strcmp(mode, "refused"))
		r = 1; /* refused and closed before we sent */
	/*
	 * Refused, the connection is closed unread; with too many sockets the
	 * message fails at its first byte: either close may come before ours.
	 */
	racing = !strcmp(mode, "refused") || !strcmp(mode, "many");
	r24_close_ours(fds, n, racing);
	if (r == 0 && r24_send(s, text + 1, NULL, 0) < 0 && !racing)
		r = -1;
	if (strcmp(mode, "bad"))
		shutdown(s, SHUT_WR);
	close(s);
	return r < 0 ? -1 : r;
}

/*
 * SOCK N MODE READY: N connections to SOCK, each with a lingering socket:
 * MODE ctl (a message of no kind), bad (no whole JSON), oci (an OCI state
 * naming it as the listener), many (12 of them with a message of no kind),
 * refused (as ctl, from a client the daemon refuses), fuse (a message of
 * no kind with a file whose close by the daemon waits uninterruptibly, on
 * a FUSE mount of ours: root only; our own closes are answered at once).
 * READY is created
 * once all are sent; then it waits to be killed, keeping the sockets'
 * peers. Result: LINGER n sent, f failed, c closed before (refused and
 * closed by the daemon before they could be sent).
 */
static int cmd_r24_linger(int argc, char **argv)
{
	long n, sent = 0, failed = 0, first = 0;
	int fd, r;

	if (argc != 4 || (n = parse_long(argv[1])) < 1 || n > 500)
		return 2;
	for (long i = 0; i < n; i++) {
		r = r24_one(argv[0], argv[2]);
		if (r == 0)
			sent++;
		else if (r > 0)
			first++;
		else
			failed++;
	}
	result("LINGER %ld sent, %ld failed, %ld closed before", sent, failed, first);
	fd = open(argv[3], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	for (;;)
		pause();
}

const struct attack_cmd attack_r24_cmds[] = {
	{ "r24-linger", "SOCK N MODE READY  connections to unotifyd carrying lingering sockets",
	  cmd_r24_linger },
	{ NULL, NULL, NULL },
};
