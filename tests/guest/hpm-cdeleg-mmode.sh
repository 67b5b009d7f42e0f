#!/usr/bin/env bash
# M-mode is never counted in :u (or :k) on delegated counters: the
# virt-cdeleg hart without Sstc, so that the kernel's timer goes through
# SBI calls and M-mode runs at every tick, as on harts without Sstc.  The
# HPM driver takes the delegated counters there (pristine OpenSBI).  S-mode
# cannot set MINH through sireg2 (Ssccfg keeps it M-mode's), so an event
# that leaves out the other modes must either be placed where M-mode is
# not counted, or be refused at open; never over-count.
#
# r2:u is QEMU's instructions event on a programmable counter.  OpenSBI
# sets MINH in every mhpmevent when a hart starts, and clears it when it
# releases a counter (COUNTER_STOP with RESET zeroes mhpmevent): the
# driver's own probe of the firmware's event encodings (2-hpm/0022)
# releases the counters it tried, so on the hart it ran on r2:u counted
# M-mode (2N + 7,040 here) until the delegation backend had the firmware
# configure them once more (2-hpm/0023).  The guest has one hart: the
# probe's.
#
# And where the firmware's map gives hpmcounter11..18 no event (the
# overlay events-on-3-10.dtso), OpenSBI answers the driver's probe of
# cycles or instructions on them with cycle or instret: r2:u on
# hpmcounter11 (counterid_mask 0x800), whose MINH the probe never
# touched, was refused as if it counted M-mode, until the probe checked
# which counter the firmware named.
#
# The measure needs no reference: knownloop N and knownloop 2N run the
# same user code but for N more iterations of its 2-instruction loop, so
# their user-mode counts differ by exactly 2N, while M-mode's work grows
# with the run's length (one SBI call per tick).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=${HPM_MMODE_ITERATIONS:-10000000}
events="instructions:u cycles:u r2:u"
cpu=$(. "$TOP/qemu-config/virt-cdeleg.conf" && echo "$QEMU_CPU64"),sstc=false
out="$tmp/out"
if ! HPM_QEMU_EXTRA="-cpu $cpu" guest_run "$out" --profile virt-cdeleg --firmware opensbi --icount -- sh -c "
	echo '== dmesg'; dmesg | grep -i 'riscv-pmu\|perf'
	echo '== isa'; grep -m1 '^isa' /proc/cpuinfo
	for e in $events; do
		for i in $n $((2 * n)); do
			echo \"== \$e \$i\"; perf stat -x';' -o /tmp/s -e \$e knownloop \$i >/dev/null; echo status=\$?; cat /tmp/s
		done
	done
	echo '== end'"; then
	not_ok "virt-cdeleg without Sstc: guest runs the :u checks"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
if ! section dmesg "$out" | grep -q 'through the delegated counters' ||
	section isa "$out" | grep -q '_sstc'; then
	not_ok "virt-cdeleg without Sstc: the HPM driver has the delegated counters and the hart has no Sstc"
	diag "$(section dmesg "$out")" "$(section isa "$out")"
	exit 0
fi
for e in $events; do
	a=$(section "$e $n" "$out")
	b=$(section "$e $((2 * n))" "$out")
	ca=$(field 1 "$e" <<<"$a")
	cb=$(field 1 "$e" <<<"$b")
	if grep -q 'not supported' <<<"$a$b" && ! is_number "$ca" && ! is_number "$cb"; then
		ok "virt-cdeleg without Sstc: $e is refused where M-mode cannot be left out"
	elif is_number "$ca" && is_number "$cb" && [ $((cb - ca)) = $((2 * n)) ]; then
		ok "virt-cdeleg without Sstc: $e of knownloop 2N less that of knownloop N is exactly 2N ($((cb - ca))): no M-mode work counted"
	else
		not_ok "virt-cdeleg without Sstc: $e of knownloop 2N less that of knownloop N is exactly 2N (want $((2 * n)))"
		diag "N: $ca, 2N: $cb, difference: $((${cb:-0} - ${ca:-0}))" "$a" "$b"
	fi
done

out="$tmp/map"
ev='cpu/event=0x2,counterid_mask=0x800/u'
if ! HPM_QEMU_EXTRA="-cpu $cpu" guest_run "$out" --profile virt-cdeleg --firmware opensbi --icount \
	--overlay "$TOP/tests/overlays/events-on-3-10.dtso" -- sh -c "
	for i in $n $((2 * n)); do
		echo \"== \$i\"; perf stat -x';' -o /tmp/s -e $ev knownloop \$i >/dev/null; echo status=\$?; cat /tmp/s
	done
	echo '== end'"; then
	not_ok "virt-cdeleg without Sstc, events on hpmcounter3..10 alone: guest runs perf stat"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
a=$(section "$n" "$out")
b=$(section "$((2 * n))" "$out")
ca=$(field 1 "$ev" <<<"$a")
cb=$(field 1 "$ev" <<<"$b")
if is_number "$ca" && is_number "$cb" && [ $((cb - ca)) = $((2 * n)) ]; then
	ok "virt-cdeleg without Sstc, events on hpmcounter3..10 alone: r2:u on hpmcounter11 counts, knownloop 2N less knownloop N exactly 2N ($((cb - ca)))"
else
	not_ok "virt-cdeleg without Sstc, events on hpmcounter3..10 alone: r2:u on hpmcounter11 counts, knownloop 2N less knownloop N exactly 2N"
	diag "N: $ca, 2N: $cb" "$a" "$b"
fi
