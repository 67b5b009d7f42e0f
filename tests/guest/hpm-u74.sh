#!/usr/bin/env bash
# The HPM extension PMU driver on the U74 profile (two programmable
# counters, hpmcounter3 and 4) with the project's firmware, -icount:
#  - it finds counters 0, 2, 3 and 4 (mask 0x1d);
#  - six raw events on two counters multiplex: each runs part of the
#    time and perf's scaled counts of the instruction and cycle events
#    are within 5 % of the full-time count of instructions (the fixed
#    instret, pinned, beside them: 100 %) and of the loop's exact count;
#  - masks that name only counters the U74 lacks (31, 5) are refused;
#  - generic cycles and instructions stay on the fixed counters, which
#    events share: two of each beside two raw events that fill both
#    programmable counters all count 100 % of the time;
#  - after two events of the same code held counters 3 and 4 at once
#    (QEMU counts such an event on the counter set first only), the
#    same event on counter 4 alone counts the loop: the driver's QEMU
#    path clears counter 3, which still selects it, instead of taking
#    counter 4 as already programmed.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=50000000	# 10^8 loop instructions
out="$tmp/out"
if ! guest_run "$out" --profile u74 --firmware hpm --icount -- sh -c "
	echo 'module riscv_pmu_hpm +p' >/proc/dynamic_debug/control
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== mux'; perf stat -x';' -o /tmp/s -e instructions:D,r1,r2,r10019,r1001b,r10021,r3 knownloop $iterations; cat /tmp/s
	echo '== nocounter'; perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x80000000/ -e cpu/event=0x1,counterid_mask=0x20/ true; cat /tmp/s; dmesg | grep 'names no implemented counter'
	echo '== shared'; perf stat -x';' -o /tmp/s -e cycles,cycles,instructions,instructions,r10019,r10021 knownloop $iterations; cat /tmp/s
	echo '== samecode'; perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x8/ -e cpu/event=0x2,counterid_mask=0x10/ true
	perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x10/ knownloop $iterations; cat /tmp/s
	echo '== end'
	"; then
	not_ok "u74 --firmware hpm --icount: guest runs the HPM checks"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

if section dmesg "$out" | grep -Eq 'riscv-pmu-hpm: 4 counters \(mask 0x1d\)'; then
	ok "u74: driver registers with counters 0, 2, 3, 4 (mask 0x1d)"
else
	not_ok "u74: driver registers with counters 0, 2, 3, 4 (mask 0x1d)"
	diag "$(section dmesg "$out")"
fi

sec=$(section mux "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
all=1
for ev in r1 r2 r10019 r1001b r10021 r3; do
	c=$(field 1 "$ev" <<<"$sec") p=$(field 5 "$ev" <<<"$sec")
	if ! is_number "$c" || ! pct_between "$p" 10 90; then
		all=0
		diag "$ev: count '$c', running '$p' %"
	fi
done
if [ $all = 1 ]; then
	ok "six raw events on two counters multiplex (each counted, running 10-90 %)"
else
	not_ok "six raw events on two counters multiplex (each counted, running 10-90 %)"
	diag "$sec"
fi
full=$(field 1 instructions:D <<<"$sec")
if is_number "$full" && [ "$(field 5 instructions:D <<<"$sec")" = 100.00 ] &&
	is_number "$expected" && within_pct "$full" "$expected" 1; then
	ok "pinned instructions beside them count all the time, within 1 % of the loop's $expected ($full)"
else
	not_ok "pinned instructions beside them count all the time, within 1 % of the loop"
	diag "$sec"
fi
for ev in r1 r2; do
	c=$(field 1 "$ev" <<<"$sec")
	if is_number "$c" && is_number "$full" && is_number "$expected" &&
		within_pct "$c" "$full" 5 && within_pct "$c" "$expected" 5; then
		ok "multiplexed $ev, scaled, within 5 % of the full-time count $full and of the loop's $expected ($c)"
	else
		not_ok "multiplexed $ev, scaled, within 5 % of the full-time instructions count and of the loop's"
		diag "full-time '$full', loop '$expected', got '$c'"
	fi
done

sec=$(section nocounter "$out")
if [ "$(grep -c 'not supported' <<<"$sec")" = 2 ] &&
	grep -q 'counterid_mask 0x80000000 names no implemented counter' <<<"$sec" &&
	grep -q 'counterid_mask 0x20 names no implemented counter' <<<"$sec"; then
	ok "u74: masks naming only counter 31 or 5 are refused at open, with a message"
else
	not_ok "u74: masks naming only counter 31 or 5 are refused at open, with a message"
	diag "$sec"
fi

sec=$(section shared "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
n100=$(awk -F';' '$5 == "100.00" && $1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' <<<"$sec")
insn=$(awk -F';' '$3 == "instructions" { print $1 }' <<<"$sec")
all=1
for c in $insn; do
	is_number "$c" && is_number "$expected" && within_pct "$c" "$expected" 1 || all=0
done
if [ "$n100" = 6 ] && [ $all = 1 ] && [ "$(wc -w <<<"$insn")" = 2 ]; then
	ok "two cycles and two instructions events share the fixed counters beside r10019 and r10021: all six at 100 %, instructions within 1 % of $expected"
else
	not_ok "two cycles and two instructions events share the fixed counters beside r10019 and r10021: all six at 100 %"
	diag "$sec"
fi

sec=$(section samecode "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
c=$(awk -F';' '$3 ~ /counterid_mask=0x10/ { print $1 }' <<<"$sec")
if is_number "$c" && is_number "$expected" && within_pct "$c" "$expected" 1; then
	ok "event 0x2 on counter 4, after it held counters 3 and 4 at once, counts the loop's $expected ($c)"
else
	not_ok "event 0x2 on counter 4, after it held counters 3 and 4 at once, counts the loop"
	diag "$sec"
fi
