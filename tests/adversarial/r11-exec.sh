#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Round 11, programs an exec rule refuses run as the interpreter of a file
# of the program's own making (found by an adversarial review). The
# supervisor reads every file the kernel runs for an exec, and read them
# otherwise than the kernel:
#  - an ELF whose EI_CLASS byte says 32 bits: the kernel's loader goes by
#    e_machine and ran its PT_INTERP, the supervisor read the header as
#    32-bit and saw no interpreter (eiclass-*);
#  - five #! scripts and then an ELF: the kernel loads that ELF's
#    interpreter at its last depth, the supervisor stopped there (depth);
#  - a 3-byte script "#!p": the supervisor wanted 4 bytes (short);
#  - under a refusal that is not `kernel` (EACCES), interpreters were not
#    decided at all: a script "#!D/prog" or an ELF naming D/prog ran it
#    (errno-*). Now a #! interpreter is decided as a program, by every rule,
#    and so is the ELF interpreter unless it is a loader the program may
#    see: that one only by the refusals that name it (path=) and the
#    `kernel` rules (a first fix spared every ELF interpreter, and an
#    allow-list ran a refused program named by PT_INTERP: list-*).
# The forbidden effect: the refused program prints DENIED-PROGRAM-RAN.
# Guards: natively every file runs it; an allow-list still runs a dynamic
# program whose loader it does not name, and a script whose #! it names.

. "$top_srcdir/tests/adversarial/lib.sh"
need_root "the refused program is made in a directory of its own"
setup_tmp

D=$T/denied
W=$T/ok
mkdir -p "$D" "$W"
need_denied_program "$D/prog"

for class in 0 1 2; do
	"$ATTACK" r11-elf "$W/e$class" "$D/prog" "$class" >/dev/null ||
		fail "r11-elf $class could not write its file"
done
# s0 -> s1 -> s2 -> s3 -> s4 -> e2: five scripts, then the ELF at depth 5.
printf '#!%s\n' "$W/e2" >"$W/s4"
for i in 3 2 1 0; do printf '#!%s\n' "$W/s$((i + 1))" >"$W/s$i"; done
printf '#!p' >"$W/x3"
ln -s "$D/prog" "$W/p"
printf '#!%s\n' "$D/prog" >"$W/sd"
chmod 755 "$W"/s? "$W/x3" "$W/sd"

for kind in kernel EACCES; do
	cat >"$T/$kind.policy" <<EOF
default allow
deny @file-read path=$D/** EACCES
deny execve execveat path=$D/** $kind
EOF
done

# attempt NAME WHAT POLICY OPT FILE: FILE exec'd under POLICY (OPT: --no-landlock or
# nothing) must not run the refused program, which it runs natively.
attempt() {
	case_begin "$1" "$2"
	native=$(cd "$W" && "$ATTACK" r10-exec-errno "$5" 2>&1 || true)
	case $native in
	*DENIED-PROGRAM-RAN*) ;;
	*)
		case_skip "natively $5 does not run the program: $native"
		return
		;;
	esac
	# shellcheck disable=SC2086
	URUN_CWD=$W urun $4 --policy "$T/$3.policy" -- "$ATTACK" r10-exec-errno "$5"
	if hung; then
		case_fail "the run did not end within its time limit"
	elif printf '%s\n' "$OUT" | grep -q DENIED-PROGRAM-RAN; then
		case_fail "bypass: the refused program ran ($(results | grep '^EXEC' | head -1))"
	elif ! results | grep -q "^EXEC $5 E"; then
		case_fail "no refusal: $(results | head -1)"
	else
		case_pass "$(results | grep '^EXEC' | head -1)"
	fi
}

for how in supervisor layer; do
	opt=--no-landlock
	[ "$how" = layer ] && opt=
	for class in 0 1 2; do
		attempt "eiclass-$class-$how" "an ELF with EI_CLASS $class names the refused program ($how)" \
			kernel "$opt" "$W/e$class"
	done
	attempt "depth-$how" "five #! scripts, then an ELF naming the refused program ($how)" \
		kernel "$opt" "$W/s0"
	attempt "short-$how" "a 3-byte script '#!p', p a link to the refused program ($how)" \
		kernel "$opt" "$W/x3"
done
attempt errno-script "a script whose #! names a program an EACCES rule refuses" \
	EACCES --no-landlock "$W/sd"
attempt errno-elf "an ELF whose PT_INTERP names a program an EACCES rule refuses" \
	EACCES --no-landlock "$W/e2"

# An allow-list: programs in /usr, W and the attack's. A dynamic program copied into W runs
# (its loader is no program of the list's), a script in W whose #! is /bin/sh
# runs; one whose #! names a program outside the list does not.
cp /bin/echo "$W/echo"
mkdir -p "$T/other"
cp /bin/echo "$T/other/echo"
printf '#!/bin/sh\necho SCRIPT-RAN\n' >"$W/ok.sh"
printf '#!%s\n' "$T/other/echo" >"$W/out.sh"
chmod 755 "$W/ok.sh" "$W/out.sh"
cat >"$T/list.policy" <<EOF
default allow
allow execve execveat path=/usr/** path=$W/** path=$ATTACK
deny execve execveat EACCES
EOF

case_begin list-guards "(guard) an allow-list runs a dynamic program of its own and a script whose #! it names"
urun --no-landlock --policy "$T/list.policy" -- /bin/sh -c "'$W/echo' COPY-RAN; '$W/ok.sh'"
if printf '%s\n' "$OUT" | grep -q COPY-RAN && printf '%s\n' "$OUT" | grep -q SCRIPT-RAN; then
	case_pass "both ran"
else
	case_fail "refused: $(printf '%s\n' "$OUT$ERR" | head -3)"
fi

for f in out.sh e2; do
	case_begin "list-interpreter-$f" "$f in the allow-list names a program outside it as its interpreter"
	urun --no-landlock --policy "$T/list.policy" -- "$ATTACK" r10-exec-errno "$W/$f"
	if printf '%s\n' "$OUT" | grep -q DENIED-PROGRAM-RAN; then
		case_fail "bypass: the refused program ran"
	elif results | grep -q "^EXEC $W/$f EACCES"; then
		case_pass "$(results | grep '^EXEC')"
	else
		case_fail "not refused: $(results | head -1)"
	fi
done

finish
