#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `unotify info [--json]`: the kernel release and every feature, probed.
. "${top_srcdir:-.}/tests/live/lib.sh"
setup_tmp

FEATURES='user-notification sync-wake-up addfd addfd-send wait-killable-recv tsync-esrch pidfd-open pidfd-getfd process-vm-readv openat2 landlock'

say "== text"
ucmd info
expect_status "unotify info" 0
first=$(printf '%s\n' "$OUT" | head -1)
[ "$first" = "kernel: $(uname -r)" ] || fail "first line '$first', expected 'kernel: $(uname -r)'"
say "ok: $first"
for f in $FEATURES; do
	n=$(printf '%s\n' "$OUT" | grep -Ec "^$f: (available|not available)\$" || true)
	[ "$n" = 1 ] || { show_run; fail "'$f: available|not available' appears $n times"; }
done
say "ok: each of the 11 features appears once"
expect_grep "user notification available (this test suite runs on it)" "$OUT" \
	'^user-notification: available$'

# Independent evidence for some features, from the probe (no filter).
feature() {
	printf '%s\n' "$OUT" | sed -n "s/^$1: //p"
}
info_text=$OUT
if "$PROBE" openat2 / directory | grep -q '^ok'; then
	OUT=$info_text
	[ "$(feature openat2)" = available ] || fail "openat2 works here but info says '$(feature openat2)'"
	say "ok: openat2 available, as the probe finds"
fi
if "$PROBE" syscall 434 $$ 0 | grep -q '^ret='; then
	OUT=$info_text
	[ "$(feature pidfd-open)" = available ] ||
		fail "pidfd_open works here but info says '$(feature pidfd-open)'"
	say "ok: pidfd-open available, as the probe finds"
fi
# landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION): the ABI, or an error.
OUT=$info_text
abi=$("$PROBE" syscall 444 0 0 1 | sed -n 's/^ret=//p')
[ "$(feature landlock-abi)" = "${abi:-0}" ] ||
	fail "landlock_create_ruleset says ABI '${abi:-0}', info says '$(feature landlock-abi)'"
[ "$(feature landlock)" = "$([ "${abi:-0}" -gt 0 ] && echo available || echo 'not available')" ] ||
	fail "landlock '$(feature landlock)' with ABI ${abi:-0}"
say "ok: landlock-abi: ${abi:-0}, as the probe finds"
OUT=$info_text
if [ "$(kernel_version)" -ge 606 ]; then
	for f in user-notification sync-wake-up addfd addfd-send wait-killable-recv tsync-esrch; do
		[ "$(feature "$f")" = available ] ||
			fail "$f is in every kernel >= 6.6 with seccomp user notification, info says '$(feature "$f")'"
	done
	say "ok: every seccomp feature available on Linux $(uname -r)"
fi

say "== JSON"
printf '%s\n' "$info_text" >"$T/info.txt"
ucmd info --json
expect_status "unotify info --json" 0
printf '%s\n' "$OUT" >"$T/info.json"
# shellcheck disable=SC2086 # one argument per feature
if ! python3 - "$T/info.json" "$T/info.txt" "$(uname -r)" $FEATURES <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
text = {}
for line in open(sys.argv[2]):
    k, _, v = line.strip().partition(": ")
    text[k] = v
release, features = sys.argv[3], sys.argv[4:]

def strings(o):
    if isinstance(o, dict):
        for k, v in o.items():
            yield k
            yield from strings(v)
    elif isinstance(o, list):
        for v in o:
            yield from strings(v)
    elif isinstance(o, str):
        yield o

def find(o, name):
    """The availability of feature name, in any reasonable layout."""
    if isinstance(o, dict):
        if name in o and isinstance(o[name], (bool, str)):
            return o[name]
        if o.get("name") == name:
            return o.get("available")
        for v in o.values():
            r = find(v, name)
            if r is not None:
                return r
    elif isinstance(o, list):
        for v in o:
            r = find(v, name)
            if r is not None:
                return r
    return None

assert release in set(strings(doc)), "kernel release %s not in the JSON" % release
for f in features:
    v = find(doc, f)
    assert v is not None, "feature %s not in the JSON" % f
    if isinstance(v, str):
        v = v == "available"
    want = text[f] == "available"
    assert v == want, "%s: JSON says %r, text says %r" % (f, v, text[f])
assert doc.get("landlock_abi") == int(text["landlock-abi"]), \
    "landlock_abi: JSON says %r, text says %r" % (doc.get("landlock_abi"), text["landlock-abi"])
EOF
then
	show_run
	fail "unotify info --json"
fi
say "ok: JSON parses, has the release, all 11 features and the Landlock ABI, agreeing with the text"

say "PASS: info"
