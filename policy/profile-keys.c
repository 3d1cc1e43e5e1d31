/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The keys of an OCI profile's objects, matched as Go's encoding/json
 * matches them for runc, Moby and containerd: the exact name first, else
 * any spelling equal to it case aside ("Syscalls", "ARGS"), where Go's
 * folding also takes U+017F (long s) for s and U+212A (Kelvin sign) for
 * k. A key that names nothing is ignored by Go: 'unotify policy check'
 * warns of it, since a misspelt "args" turns a conditional entry into an
 * unconditional one. json-c keeps two spellings of one key as two keys,
 * where Go takes the last in the text, which json-c cannot tell once a
 * key is repeated: two spellings of one key are an error.
 */
#include "config.h"

#include <json-c/json.h>
#include <string.h>

#include "policy/profile.h"

static int profile_key_ascii_lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* The next character of a key, folded to the ASCII letter Go's folding relates it to. */
static int profile_key_fold_next(const unsigned char **s)
{
	const unsigned char *p = *s;

	if (p[0] == 0xc5 && p[1] == 0xbf) { /* U+017F, LATIN SMALL LETTER LONG S */
		*s += 2;
		return 's';
	}
	if (p[0] == 0xe2 && p[1] == 0x84 && p[2] == 0xaa) { /* U+212A, KELVIN SIGN */
		*s += 3;
		return 'k';
	}
	*s += 1;
	return profile_key_ascii_lower(p[0]);
}

/* Does Go's decoder take key for the field name (an ASCII name)? */
static bool profile_key_names(const char *key, const char *name)
{
	const unsigned char *k = (const unsigned char *)key;

	for (const char *n = name; *n; n++)
		if (!*k || profile_key_fold_next(&k) != profile_key_ascii_lower((unsigned char)*n))
			return false;
	return *k == '\0';
}

bool profile_key_get(json_object *obj, const char *name, json_object **ret)
{
	bool found = false;

	if (!json_object_is_type(obj, json_type_object))
		return false;
	if (json_object_object_get_ex(obj, name, ret))
		return true;
	json_object_object_foreach(obj, key, value)
	{
		if (profile_key_names(key, name)) {
			*ret = value;
			found = true;
		}
	}
	return found;
}

/* The known name key stands for, or NULL. */
static const char *profile_key_known(const char *key, const char *const *known)
{
	for (size_t i = 0; known[i]; i++)
		if (profile_key_names(key, known[i]))
			return known[i];
	return NULL;
}

/* Is key the second spelling in obj of its name (an earlier key names it too)? */
static const char *profile_key_earlier(json_object *obj, const char *key, const char *name)
{
	json_object_object_foreach(obj, other, value)
	{
		(void)value;
		if (strcmp(other, key) == 0)
			return NULL;
		if (profile_key_names(other, name))
			return other;
	}
	return NULL;
}

void profile_keys_check(struct parser *ps, const char *where, json_object *obj,
			const char *const *known)
{
	if (!json_object_is_type(obj, json_type_object))
		return;
	json_object_object_foreach(obj, key, value)
	{
		const char *name = profile_key_known(key, known), *earlier;

		(void)value;
		if (!name) {
			profile_report(ps, POLICY_WARNING, "runc and Docker ignore it",
				       "%s: unknown key '%s'", where, key);
		} else if ((earlier = profile_key_earlier(obj, key, name))) {
			profile_report(ps, POLICY_ERROR, "Go's readers take the last; keep one",
				       "%s: keys '%s' and '%s' both name %s", where, earlier, key,
				       name);
		} else if (strcmp(key, name) != 0) {
			profile_report(ps, POLICY_WARNING, "readers that match keys exactly ignore it",
				       "%s: key '%s' read as %s, as runc and Docker read it", where,
				       key, name);
		}
	}
}
