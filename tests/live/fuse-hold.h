/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TESTS_LIVE_FUSE_HOLD_H
#define TESTS_LIVE_FUSE_HOLD_H

/*
 * A file on a FUSE mount of its own (root only), already unmounted
 * (MNT_DETACH): every close(2) of a descriptor of it by another process
 * than ours waits uninterruptibly for seconds (the FLUSH). Its server is
 * a child of ours, killed when we die. The fd, or -errno.
 */
int fuse_hold_open(int seconds);

#endif
