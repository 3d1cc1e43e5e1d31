/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control requests (control.c): {"request":"status"} and "kernel-layer".
 */
#ifndef UNOTIFYD_CONTROL_H
#define UNOTIFYD_CONTROL_H

#include <stdbool.h>

#include "daemon.h"

struct json_object;

bool control_detect(struct json_object *msg);
int control_handle(struct daemon *d, int conn, uid_t asker, struct json_object *msg);

#endif
