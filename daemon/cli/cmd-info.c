/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `unotify info`: what this kernel offers, found by probing. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "commands.h"
#include "lib/unotify.h"

static void info_print_text(const struct unotify_features *f)
{
	const char *name;
	bool on;

	printf("kernel: %s\n", f->kernel_release);
	for (size_t i = 0; unotify_features_get(f, i, &name, &on) == 0; i++)
		printf("%s: %s\n", name, on ? "available" : "not available");
	printf("landlock-abi: %d\n", f->landlock_abi);
}

static void info_print_json(const struct unotify_features *f)
{
	struct json_object *o = json_object_new_object(), *feat = json_object_new_object();
	const char *name;
	bool on;

	json_object_object_add(o, "kernel", json_object_new_string(f->kernel_release));
	for (size_t i = 0; unotify_features_get(f, i, &name, &on) == 0; i++)
		json_object_object_add(feat, name, json_object_new_boolean(on));
	json_object_object_add(o, "features", feat);
	json_object_object_add(o, "landlock_abi", json_object_new_int(f->landlock_abi));
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
	json_object_put(o);
}

int cmd_info(int argc, char **argv)
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct unotify_features f;
	bool json = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", options, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			printf("Usage: unotify info [--json]\n");
			return 0;
		default:
			return EXIT_SUPERVISOR;
		}
	}
	r = unotify_features_probe(&f);
	if (r < 0) {
		fprintf(stderr, "unotify: cannot probe kernel features: %s\n", strerror(-r));
		return EXIT_SUPERVISOR;
	}
	if (json)
		info_print_json(&f);
	else
		info_print_text(&f);
	return 0;
}
