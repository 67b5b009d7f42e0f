#!/usr/bin/env bash
# What the HPM driver costs in SBI calls (traps to the firmware), the
# point of starting and stopping counters through mcountinhibit in
# batches: QEMU logs every trap (-d int), an ecall from S-mode is cause 9,
# and the difference between 500 repetitions of an operation and none,
# divided by 500, is the calls one operation makes.
#  - enable+disable of one programmable event (r10019): at most 2 (one
#    COUNTER_START, which starts it from zero, one INHIBIT_SET; the event
#    stays programmed);
#  - enable+disable of a group of four (cycles, instructions and two
#    programmable events) through its leader, as perf does: at most 2,
#    one COUNTER_START for both programmable events and one INHIBIT_SET,
#    not calls per event;
#  - enable+disable of instructions (fixed instret, never stopped): none;
#  - a read: none (counters are read from their CSRs).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=500
# calls EVENTS OP: SBI calls per operation, as a decimal, or "error".
calls() {
	local k c0 c1
	for k in 0 $n; do
		if ! HPM_QEMU_EXTRA="-d int -D $tmp/trap.$k" guest_run "$tmp/out.$k" \
			--profile virt --firmware hpm --icount -- \
			perfops ops -n $k -o "$2" -e "$1"; then
			echo error
			return
		fi
	done
	c0=$(grep -c 'cause:0000000000000009' "$tmp/trap.0")
	c1=$(grep -c 'cause:0000000000000009' "$tmp/trap.$n")
	awk -v a="$c0" -v b="$c1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n }'
}

# check_calls EVENTS OP MAX WHAT
check_calls() {
	local c
	c=$(calls "$1" "$2")
	if [ "$c" != error ] && awk -v c="$c" -v m="$3" 'BEGIN { exit !(c <= m) }'; then
		ok "$4: $c SBI calls per $2 (at most $3)"
	else
		not_ok "$4: at most $3 SBI calls per $2"
		diag "got '$c'" "$(tail -n 5 "$tmp/out.$n" 2>/dev/null)"
	fi
}

check_calls r10019 enable+disable 2.05 "one programmable event"
check_calls cycles,instructions,r10019,r10021 enable+disable 2.05 "a group of four"
check_calls instructions enable+disable 0.05 "instructions on the fixed instret"
check_calls r10019 read 0.05 "a programmable event"
