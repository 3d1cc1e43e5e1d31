/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the OCI seccomp profile importer. The input is a JSON
 * profile, read as policy_parse_text reads a ".json" file; the target's
 * capabilities and kernel version (policy_set_env), which decide the
 * profile's includes/excludes and minKernel, are picked from a hash of the
 * input, so that seed profiles work as they are. An accepted profile must
 * pass fuzz_compiled()'s checks like any policy.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct policy_env fuzz_envs[] = {
	{ .caps = 0, .kernel_major = 0, .kernel_minor = 0 },
	{ .caps = ~0ULL, .kernel_major = 6, .kernel_minor = 18 },
	{ .caps = 1ULL << 21 /* CAP_SYS_ADMIN */, .kernel_major = 4, .kernel_minor = 8 },
	{ .caps = (1ULL << 19) | (1ULL << 22) /* SYS_PTRACE, SYS_RESOURCE */, .kernel_major = 5,
	  .kernel_minor = 10 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	uint32_t h = 2166136261u;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	fuzz_policy_text("fuzz.json", text, &fuzz_envs[h % (sizeof(fuzz_envs) / sizeof(fuzz_envs[0]))]);
	free(text);
	return 0;
}
