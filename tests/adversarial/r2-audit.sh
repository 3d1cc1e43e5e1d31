#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 2: records that lie or cannot be read. The program opens paths the
# policy denies (deny @file-read path=$T/deny/**), with names it chooses:
#   - JSON (--log-format json): a name with a byte that is not UTF-8 (\377),
#     and names of two-byte characters longer than the 1 KiB cut, which
#     falls in the middle of one: RFC 8259 JSON is UTF-8, and a consumer
#     decoding the trail as UTF-8 (Python's json, Go's encoding/json
#     strict readers) rejects the line, or the whole file;
#   - text: a name holding " verdict=allow path=/usr/share/doc rule=default":
#     the quoted args keep their blanks, so split on blanks the record has
#     a second verdict= (allow), path= and rule= field;
#   - JSON: a policy file whose path is longer than 300 bytes: the rule
#     field is cut and loses its line number;
#   - guard (text): control characters and a newline in a name stay on the
#     record's one line;
#   - C1 controls (U+009B, CSI) and a raw 0x9b, text and JSON: escaped.

. "$top_srcdir/tests/adversarial/lib.sh"
need_cmd iconv
need_cmd od
setup_tmp

mkdir -p "$T/deny"
cat >"$T/audit.policy" <<EOF
default allow
deny @file-read path=$T/deny/** EACCES
EOF

hex() {
	printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n'
}

# utf8_ok FILE: FILE is well-formed UTF-8.
utf8_ok() {
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1
}

case_begin json-not-utf8 "(json) a denied open of deny/bad\\377name: the record is UTF-8"
rm -f "$T/j1.log"
urun --log "$T/j1.log" --log-format json --policy "$T/audit.policy" -- \
	"$ATTACK" open-hex "$(hex "$T/deny/bad")ff$(hex name)"
if ! grep -a -q '"verdict":"deny"' "$T/j1.log"; then
	case_fail "no deny record: $(head -c 300 "$T/j1.log")"
elif utf8_ok "$T/j1.log"; then
	case_pass "$(grep -a -o '"path":"[^"]*"' "$T/j1.log" | head -1)"
else
	case_fail "the JSON record is not UTF-8: $(grep -a -o '"path":"[^"]*"' "$T/j1.log" | od -c | sed -n 2,3p | tr -s ' ' | tr '\n' ' ')"
fi

# Names of 2-byte characters (é), cut at 1 KiB: two lengths, one of which
# puts the cut inside a character whatever the length of $T.
E100=$(printf '\303\251%.0s' $(seq 1 100))
long_path() {
	_p=$T/deny/$1
	for _i in 1 2 3 4 5 6; do
		_p=$_p$E100/
	done
	printf '%s' "${_p}x"
}
case_begin json-cut-utf8 "(json) denied opens of names of 1,200 bytes of two-byte characters, cut at 1 KiB"
rm -f "$T/j2.log"
urun --log "$T/j2.log" --log-format json --policy "$T/audit.policy" -- \
	"$ATTACK" open-hex "$(hex "$(long_path a)")" "$(hex "$(long_path ab)")"
if [ "$(grep -a -c '"verdict":"deny"' "$T/j2.log")" -lt 2 ]; then
	case_fail "fewer than two deny records: $(head -c 300 "$T/j2.log")"
elif utf8_ok "$T/j2.log"; then
	case_pass "both records are UTF-8 ($(grep -a -o '"truncated":"[^"]*"' "$T/j2.log" | head -1))"
else
	case_fail "a record is not UTF-8: the cut split a character ($(grep -a -o '"truncated":"[^"]*"' "$T/j2.log" | head -1))"
fi

case_begin text-forged-fields "(text) a denied open of 'deny/x verdict=allow path=/usr/share/doc rule=default'"
rm -f "$T/t1.log"
urun --log "$T/t1.log" --policy "$T/audit.policy" -- \
	"$ATTACK" read "$T/deny/x verdict=allow path=/usr/share/doc rule=default"
REC=$(grep 'verdict=deny' "$T/t1.log" | head -1)
extra=
for key in verdict path rule; do
	n=$(printf '%s\n' "$REC" | tr ' ' '\n' | grep -c "^$key=" || true)
	[ "$n" -le 1 ] || extra="$extra $key=($n)"
done
if [ -z "$REC" ]; then
	case_fail "no deny record: $(head -c 300 "$T/t1.log")"
elif [ -n "$extra" ]; then
	case_fail "split on blanks, the record has more than one of:$extra; $(printf '%s\n' "$REC" | tr ' ' '\n' | grep -E '^(verdict|path|rule)=' | tr '\n' ' ')"
else
	case_pass "one verdict, path and rule field each"
fi

case_begin text-control "(text) a denied open of a name with ESC, CR and a newline: one line, escaped"
rm -f "$T/t2.log"
urun --log "$T/t2.log" --policy "$T/audit.policy" -- \
	"$ATTACK" open-hex "$(hex "$T/deny/a")1b5b324b0d0a$(hex "2026-01-01T00:00:00Z pid=1 syscall=openat verdict=allow")"
if [ "$(grep -c 'verdict=deny' "$T/t2.log")" != 1 ]; then
	case_fail "no deny record: $(head -c 300 "$T/t2.log")"
elif grep -q '^2026-01-01T00:00:00Z' "$T/t2.log" || grep -q "$(printf '\033')" "$T/t2.log"; then
	case_fail "the name's newline or ESC reached the trail: $(od -c "$T/t2.log" | head -3 | tr -s ' ')"
else
	case_pass "$(grep -o 'path=[^ ]*' "$T/t2.log" | head -1 | cut -c1-120)"
fi

# C1 controls: U+009B (CSI) is obeyed by terminals as ESC [ is; a raw 0x9b
# is CSI to a terminal of an 8-bit charset.
for fmt in text json; do
	case_begin "$fmt-c1" "($fmt) a denied open of a name with U+009B and a raw 0x9b: escaped"
	rm -f "$T/c1.log"
	urun --log "$T/c1.log" --log-format "$fmt" --policy "$T/audit.policy" -- \
		"$ATTACK" open-hex "$(hex "$T/deny/c")c29b324a9b324a$(hex end)"
	if ! LC_ALL=C grep -a -q 'deny' "$T/c1.log"; then
		case_fail "no deny record: $(head -c 300 "$T/c1.log")"
	elif LC_ALL=C grep -a -q "$(printf '\233')" "$T/c1.log"; then
		case_fail "a CSI byte reached the trail: $(od -c "$T/c1.log" | grep -m1 '233' | tr -s ' ')"
	else
		case_pass "$(LC_ALL=C grep -a -o 'xc2.\{0,24\}' "$T/c1.log" | head -1)"
	fi
done

# A policy file deep enough that its name passes 300 bytes.
DEEP=$T
for d in a b c; do
	DEEP=$DEEP/$(printf "$d%.0s" $(seq 1 110))
done
mkdir -p "$DEEP"
cp "$T/audit.policy" "$DEEP/deep.policy"
case_begin json-long-rule "(json) a denial by a policy file whose name is $(printf '%s' "$DEEP/deep.policy" | wc -c) bytes long"
rm -f "$T/j3.log"
urun --log "$T/j3.log" --log-format json --policy "$DEEP/deep.policy" -- "$ATTACK" read "$T/deny/x"
RULE=$(grep -o '"rule":"[^"]*"' "$T/j3.log" | head -1)
if [ -z "$RULE" ]; then
	case_fail "no record: $(head -c 300 "$T/j3.log")"
elif printf '%s\n' "$RULE" | grep -q 'deep\.policy:2"$'; then
	case_pass "the rule ends in deep.policy:2"
else
	case_fail "the rule field lost its file's end and its line: ...$(printf '%s' "$RULE" | tail -c 50)"
fi

finish
