/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel layer of a daemon's policy, both sides of the wire (kernel-layer.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kernel-layer.h"
#include "lib/util.h"
#include "protocol.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Standard base64 with padding; the caller frees. */
static char *kernel_layer_b64_encode(const unsigned char *in, size_t len)
{
	char *out = malloc((len + 2) / 3 * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;

		v |= i + 1 < len ? (uint32_t)in[i + 1] << 8 : 0;
		v |= i + 2 < len ? in[i + 2] : 0;
		*o++ = b64[v >> 18 & 63];
		*o++ = b64[v >> 12 & 63];
		*o++ = i + 1 < len ? b64[v >> 6 & 63] : '=';
		*o++ = i + 2 < len ? b64[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

static int kernel_layer_b64_value(char c)
{
	const char *p = c ? strchr(b64, c) : NULL;

	return p ? (int)(p - b64) : -1;
}

/* Decodes exactly size bytes into out, or -EINVAL (bad characters, length or padding). */
static int kernel_layer_b64_decode(const char *in, unsigned char *out, size_t size)
{
	size_t len = strlen(in), n = 0;

	if (len != (size + 2) / 3 * 4)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 4) {
		bool last = i + 4 == len;
		int a = kernel_layer_b64_value(in[i]), b = kernel_layer_b64_value(in[i + 1]);
		int c = last && in[i + 2] == '=' ? 0 : kernel_layer_b64_value(in[i + 2]);
		int d = last && in[i + 3] == '=' ? 0 : kernel_layer_b64_value(in[i + 3]);
		uint32_t v;

		if (a < 0 || b < 0 || c < 0 || d < 0 || (in[i + 2] == '=' && in[i + 3] != '='))
			return -EINVAL;
		v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
		for (int k = 2; k >= 0 && n < size; k--)
			out[n++] = (unsigned char)(v >> (8 * k));
	}
	return n == size ? 0 : -EINVAL;
}

struct json_object *kernel_layer_request_new(const char *policy)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "request", json_object_new_string(KERNEL_LAYER_REQUEST));
	json_object_object_add(o, "version", json_object_new_int(KERNEL_LAYER_VERSION));
	json_object_object_add(o, "policy", json_object_new_string(policy));
	return o;
}

int kernel_layer_request_parse(struct json_object *req, const char **ret_policy,
			       const char **ret_why)
{
	struct json_object *v, *p;

	if (!json_object_object_get_ex(req, "version", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != KERNEL_LAYER_VERSION) {
		*ret_why = "unsupported kernel-layer version (this daemon speaks version 1)";
		return -EINVAL;
	}
	if (!json_object_object_get_ex(req, "policy", &p) ||
	    !json_object_is_type(p, json_type_string) ||
	    !proto_policy_name_valid(json_object_get_string(p))) {
		*ret_why = "no valid \"policy\" name (letters, digits, '_', '.', '-')";
		return -EINVAL;
	}
	*ret_policy = json_object_get_string(p);
	return 0;
}

struct json_object *kernel_layer_answer_new(const char *policy, uint64_t serial,
					    const struct sock_fprog *bpf)
{
	_cleanup_free_ char *text = NULL;
	struct json_object *o;

	if (bpf->len == 0 || bpf->len > BPF_MAXINSNS)
		return NULL;
	text = kernel_layer_b64_encode((const unsigned char *)bpf->filter,
				       bpf->len * sizeof(struct sock_filter));
	o = text ? json_object_new_object() : NULL;
	if (!o)
		return NULL;
	json_object_object_add(o, "ok", json_object_new_boolean(true));
	json_object_object_add(o, "version", json_object_new_int(KERNEL_LAYER_VERSION));
	json_object_object_add(o, "policy", json_object_new_string(policy));
	json_object_object_add(o, "serial", json_object_new_int64((int64_t)serial));
	json_object_object_add(o, "insns", json_object_new_int(bpf->len));
	json_object_object_add(o, "bpf", json_object_new_string(text));
	return o;
}

static int64_t kernel_layer_int(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

int kernel_layer_answer_parse(struct json_object *answer, const char *policy,
			      struct sock_fprog *ret, uint64_t *ret_serial, const char **ret_why)
{
	struct json_object *name, *bpf;
	int64_t insns = kernel_layer_int(answer, "insns"), serial = kernel_layer_int(answer, "serial");
	struct sock_filter *filter;

	*ret_why = "not a kernel layer answer";
	if (kernel_layer_int(answer, "version") != KERNEL_LAYER_VERSION) {
		*ret_why = "the daemon answered another version of the kernel-layer request";
		return -EPROTO;
	}
	if (!json_object_object_get_ex(answer, "policy", &name) ||
	    !json_object_is_type(name, json_type_string) ||
	    strcmp(json_object_get_string(name), policy) != 0 || serial < 0)
		return -EPROTO;
	if (insns < 1 || insns > BPF_MAXINSNS || !json_object_object_get_ex(answer, "bpf", &bpf) ||
	    !json_object_is_type(bpf, json_type_string)) {
		*ret_why = "no program of 1 to 4096 instructions";
		return -EPROTO;
	}
	filter = calloc((size_t)insns, sizeof(*filter));
	if (!filter)
		return -ENOMEM;
	if (kernel_layer_b64_decode(json_object_get_string(bpf), (unsigned char *)filter,
				    (size_t)insns * sizeof(*filter)) < 0) {
		free(filter);
		*ret_why = "the program is not insns instructions of base64";
		return -EPROTO;
	}
	*ret = (struct sock_fprog){ .len = (unsigned short)insns, .filter = filter };
	*ret_serial = (uint64_t)serial;
	return 0;
}
