#!/usr/bin/env bash
# Today's CVA6 keeps bits 4..0 of mhpmevent (core/perf_counters.sv): a
# selector above 0x1f written there counts another event.  The cva6
# profile's default firmware, the test-only hpm-cva6, keeps those 5 bits
# of every mhpmevent write, and its HPM extension refuses a selector
# the register does not keep (it reads the register back).  On two
# -icount harts:
#  - dmesg says which selector bits the counters hold;
#  - perf stat -e r22 (which 5 bits would hold as 0x02, QEMU's
#    instructions) is refused at open, and so are cpu/event=0x22/
#    confined to one counter and dTLB-load-misses, QEMU's 0x10019 of
#    the device tree; the driver's debug line (dynamic debug, as for
#    its other refusals) says why;
#  - selectors the hart holds still count: r2 (QEMU's instructions on a
#    programmable counter) counts what instructions counts (within
#    0.5 %), at least the loop's 2 * 10^6, and ariane_load (0x5) prints
#    a count;
#  - with the plain HPM firmware on the same harts, whose mhpmevent
#    keeps every bit, nothing is refused: r22 and dTLB-load-misses print
#    counts and dmesg has no such line (the probe restricts only what
#    the hart lacks).
# Before 2-hpm/0028 r22 opened and printed 0 as its count, for 100 % of
# the time, while the counter went on with its previous event (the
# driver logged the refused write once).
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

loop=1000000		# knownloop iterations: 2 * 10^6 loop instructions

cmds="
	echo 'file riscv_pmu_hpm.c +p' >/proc/dynamic_debug/control
	echo '== bits'; dmesg | grep 'riscv-pmu-hpm: CPU[0-9]*: mhpmevent holds'
	echo '== r22'; perf stat -x';' -o /tmp/s -e r22 knownloop $loop >/dev/null 2>&1; echo status=\$?; cat /tmp/s
	echo '== masked'; perf stat -x';' -o /tmp/s -e cpu/event=0x22,counterid_mask=0x8/ knownloop $loop >/dev/null 2>&1; echo status=\$?; cat /tmp/s
	echo '== dtlb'; perf stat -x';' -o /tmp/s -e dTLB-load-misses knownloop $loop >/dev/null 2>&1; echo status=\$?; cat /tmp/s
	echo '== held'; perf stat -x';' -o /tmp/s -e r2,instructions,ariane_load knownloop $loop >/dev/null; cat /tmp/s
	echo '== refusals'; dmesg | grep 'riscv-pmu-hpm: event 0x[0-9a-f]*: no counter that may take it holds'
	echo '== end'
"

out="$tmp/cva6"
if ! guest_run "$out" --profile cva6 --icount --smp 2 -- sh -c "$cmds"; then
	not_ok "cva6 (hpm-cva6): the guest runs the commands"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

check "dmesg: the counters hold selector bits 0x1f only, and events with others are refused" \
	grep -q 'riscv-pmu-hpm: CPU0: mhpmevent holds selector bits 0x1f only: events with others are refused' \
	<<<"$(section bits "$out")"

# refused NAME SECTION: perf stat printed no count for the event.
refused() {
	local s c
	s=$(section "$2" "$out")
	c=$(field 1 "$1" <<<"$s")
	if is_number "$c"; then
		not_ok "$1 is refused at open where mhpmevent keeps 5 bits (it printed $c)"
		diag "$s"
	else
		ok "$1 is refused at open where mhpmevent keeps 5 bits ($(grep -o "^[^;]*;[^;]*;$1" <<<"$s" | head -n 1))"
	fi
}
refused r22 r22
refused cpu/event=0x22,counterid_mask=0x8/ masked
refused dTLB-load-misses dtlb

r=$(section refusals "$out")
check "the debug line says why 0x22 was refused" \
	grep -q 'riscv-pmu-hpm: event 0x22: no counter that may take it holds its selector in mhpmevent, where it would count another event; refused' <<<"$r"
check "the debug line says why dTLB-load-misses' 0x10019 was refused" \
	grep -q 'riscv-pmu-hpm: event 0x10019: no counter that may take it holds its selector in mhpmevent' <<<"$r"

h=$(section held "$out")
r2=$(field 1 r2 <<<"$h")
insn=$(field 1 instructions <<<"$h")
al=$(field 1 ariane_load <<<"$h")
if is_number "$r2" && is_number "$insn" && is_number "$al" &&
	[ "$insn" -ge $((2 * loop)) ] && within_pct "$r2" "$insn" 0.5; then
	ok "held selectors count: r2 $r2 on a programmable counter, as instructions $insn (at least the loop's 2*10^6), ariane_load $al"
else
	not_ok "held selectors count: r2 as instructions (at least the loop's 2*10^6), ariane_load a count"
	diag "$h"
fi

# The plain HPM firmware on the same harts: every bit is held.
out="$tmp/hpm"
if ! guest_run "$out" --profile cva6 --firmware hpm --icount -- sh -c "$cmds"; then
	not_ok "cva6 --firmware hpm: the guest runs the commands"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
c=$(field 1 r22 <<<"$(section r22 "$out")")
d=$(field 1 dTLB-load-misses <<<"$(section dtlb "$out")")
if is_number "$c" && is_number "$d" && [ -z "$(section bits "$out")" ] &&
	[ -z "$(section refusals "$out")" ]; then
	ok "cva6 --firmware hpm (mhpmevent keeps every bit): r22 ($c) and dTLB-load-misses ($d) count, nothing refused"
else
	not_ok "cva6 --firmware hpm (mhpmevent keeps every bit): r22 and dTLB-load-misses count, nothing refused"
	diag "$(section bits "$out")" "$(section r22 "$out")" "$(section dtlb "$out")" "$(section refusals "$out")"
fi
