#!/usr/bin/env bash
# What the HPM driver costs in SBI calls (traps to the firmware), the
# point of starting and stopping counters through mcountinhibit in
# batches: QEMU logs every trap (-d int), an ecall from S-mode is cause 9,
# and the difference between 500 repetitions of an operation and none,
# divided by 500, is the calls one operation makes (the eight runs share
# one boot, told apart in the log by markers).
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
# The four measurements, "EVENTS OP MAX WHAT".
cases=(
	"r10019 enable+disable 2.05 one programmable event"
	"cycles,instructions,r10019,r10021 enable+disable 2.05 a group of four"
	"instructions enable+disable 0.05 instructions on the fixed instret"
	"r10019 read 0.05 a programmable event"
)
# One boot: each case runs with 0 and with $n repetitions, every run
# between two markers (perfops mark: a breakpoint from user mode, which
# nothing else in the guest causes), so the calls of a run are the
# ecalls between its markers, its start and end (the shell starting it,
# the next marker) the same for 0 and $n.
cmd="perfops mark"
for c in "${cases[@]}"; do
	read -r ev op _ <<<"$c"
	for k in 0 $n; do
		cmd+="; perfops ops -n $k -o $op -e $ev; echo status=\$?; perfops mark"
	done
done
trap_log="$tmp/trap"
if ! HPM_QEMU_EXTRA="-d int -D $trap_log" guest_run "$tmp/out" \
	--profile virt --firmware hpm --icount -- sh -c "$cmd"; then
	not_ok "virt --firmware hpm --icount: guest runs the operations under the trap log"
	diag "$(tail -n 20 "$tmp/out")"
	exit 0
fi
# The ecalls from S-mode (cause 9) between consecutive user-mode
# breakpoints (cause 3 at a user address), one count per run.
mapfile -t counts < <(awk '
	/cause:0000000000000003, epc:0x00000000[0-7]/ { if (on) print c; on = 1; c = 0; next }
	/cause:0000000000000009,/ { c++ }' "$trap_log")
mapfile -t statuses < <(sed -n 's/^status=//p' "$tmp/out")

i=0
for c in "${cases[@]}"; do
	read -r ev op max what <<<"$c"
	c0=${counts[$i]:-} c1=${counts[$((i + 1))]:-}
	s0=${statuses[$i]:-} s1=${statuses[$((i + 1))]:-}
	i=$((i + 2))
	if [ "$s0" = 0 ] && [ "$s1" = 0 ] && is_number "$c0" && is_number "$c1"; then
		calls=$(awk -v a="$c0" -v b="$c1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n }')
	else
		calls=error
	fi
	if [ "$calls" != error ] && awk -v c="$calls" -v m="$max" 'BEGIN { exit !(c <= m) }'; then
		ok "$what: $calls SBI calls per $op (at most $max)"
	else
		not_ok "$what: at most $max SBI calls per $op"
		diag "got '$calls' (ecalls $c0 and $c1, status '$s0' and '$s1')" "$(tail -n 5 "$tmp/out")"
	fi
done
