/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the policy parser, checker, compiler and evaluator. The
 * input is a policy text; whatever it holds, nothing may crash, leak or
 * hang, and an accepted policy must pass fuzz_compiled()'s checks.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_policy_text("fuzz.policy", text, NULL);
	free(text);
	return 0;
}
