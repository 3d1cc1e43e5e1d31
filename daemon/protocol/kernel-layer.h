/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel layer of a daemon's policy, over the socket: `unotify run
 * --daemon` asks unotifyd for the compiled BPF of the policy it names and
 * loads exactly that, so that the filter in the kernel and the rules the
 * daemon decides by are one policy, compiled once, by the daemon.
 *
 *   request  {"request":"kernel-layer","version":1,"policy":NAME}
 *   answer   {"ok":true,"version":1,"policy":NAME,"serial":S,"insns":N,
 *             "bpf":BASE64 of N struct sock_filter, native byte order}
 *   refusal  {"ok":false,"error":WHY,"policies":[the names it has]}
 *
 * A request may also ask for the Landlock layer, which the answer then
 * carries with a filter built to match (kernel-layer-landlock.h).
 *
 * serial names the loaded version of the policy (a reload makes a new
 * one); the client sends it back with the registration ("policySerial"),
 * and a daemon whose policy changed in between supervises fail closed
 * rather than by rules its filter was not built from. Both directions are
 * bounded: at most BPF_MAXINSNS instructions, KERNEL_LAYER_MAX_ANSWER bytes.
 */
#ifndef UNOTIFY_KERNEL_LAYER_H
#define UNOTIFY_KERNEL_LAYER_H

#include <stdint.h>
#include <linux/filter.h>

struct json_object;

#define KERNEL_LAYER_REQUEST "kernel-layer"
#define KERNEL_LAYER_VERSION 1
/* BPF_MAXINSNS instructions in base64, and room for the rest. */
#define KERNEL_LAYER_MAX_ANSWER (64 * 1024)

/* The client's request; NULL when out of memory. */
struct json_object *kernel_layer_request_new(const char *policy);
/*
 * The daemon's check of a request: the policy name it asks for (pointing
 * into req), or -EINVAL with *ret_why (an unknown version, no valid name).
 */
int kernel_layer_request_parse(struct json_object *req, const char **ret_policy,
			       const char **ret_why);
/* The daemon's answer for bpf (at most BPF_MAXINSNS); NULL: out of memory or too long. */
struct json_object *kernel_layer_answer_new(const char *policy, uint64_t serial,
					    const struct sock_fprog *bpf);
/*
 * The client's check of an ok answer for policy: version, name, a program
 * of 1..BPF_MAXINSNS instructions that decodes to exactly insns of them.
 * ret->filter is the caller's (free()). -EPROTO with *ret_why otherwise.
 */
int kernel_layer_answer_parse(struct json_object *answer, const char *policy,
			      struct sock_fprog *ret, uint64_t *ret_serial, const char **ret_why);

#endif
