#!/usr/bin/env bash
# What the HPM driver accepts and how it places events, on the U74
# profile (programmable counters 3 and 4), -icount:
#  - raw configs with bits 63-58 set that are not a firmware event
#    (bits 63-62 01, Sscofpmf's OF and mode-inhibit bits) are refused at
#    open with a dmesg line (a debug message: dynamic debug turns the
#    driver's on here): none of them opens and silently counts nothing;
#    perf's firmware events (FW_*, bits 63-62 10) count on the SBI PMU
#    extension's firmware counters (tests/guest/hpm-fw-events.sh);
#  - a group that cannot fit on the counters its masks allow (two events
#    that both need counter 3; three events on two counters) is refused
#    at open with a dmesg line: perf stat shows the member whose open
#    failed as <not supported> (it had stayed <not counted> at open);
#  - events that fit under their masks are all placed whatever the order
#    they come in: {A: counters 3-4, B: counter 3 only} as a group, and
#    as two separate events, count 100 % of the time (first-fit puts A on
#    counter 3 and leaves B nothing);
#  - a raw event without counterid_mask takes the counters of the
#    riscv,raw-event-to-mhpmcounters entry it matches, added here to
#    QEMU's riscv,pmu node (event 0x2: counter 3 only): with another
#    event that needs counter 3 it makes a group that never fits
#    (refused), with one that can take counter 4 a group that counts
#    100 % of the time; a counterid_mask overrides the entry.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=25000000	# 5 * 10^7 loop instructions
a='cpu/event=0x2,counterid_mask=0x18/'
b='cpu/event=0x1,counterid_mask=0x8/'
b2='cpu/event=0x2,counterid_mask=0x8/'
out="$tmp/out"
if ! guest_run "$out" --profile u74 --firmware hpm --icount -- sh -c "
	echo 'module riscv_pmu_hpm +p' >/proc/dynamic_debug/control
	echo '== rawfw'; perf stat -x';' -o /tmp/s -e r4000000000000001 true; cat /tmp/s
	echo '== rawinh'; perf stat -x';' -o /tmp/s -e r0400000000000002 true; cat /tmp/s
	echo '== fwevent'; perf stat -x';' -o /tmp/s -e fw_misaligned_load true; cat /tmp/s
	echo '== rawok'; perf stat -x';' -o /tmp/s -e r03ffffffffff0002 true; cat /tmp/s
	echo '== rawdmesg'; dmesg | grep 'bits 63-58'
	echo '== group'; perf stat -x';' -o /tmp/s -e '{$a,$b}' knownloop $iterations; cat /tmp/s
	echo '== separate'; perf stat -x';' -o /tmp/s -e '$a' -e '$b' knownloop $iterations; cat /tmp/s
	echo '== nofit'; perf stat -x';' -o /tmp/s -e '{$b2,$b}' true; cat /tmp/s
	echo '== nofit3'; perf stat -x';' -o /tmp/s -e '{r2,r3,r10019}' true; cat /tmp/s
	echo '== groupdmesg'; dmesg | grep 'cannot all have a counter'
	echo '== end'
	"; then
	not_ok "u74 --icount: guest runs the validation checks"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

# refused SECTION: perf stat reports the event as not supported (no count).
refused() {
	local sec
	sec=$(section "$1" "$out")
	grep -q '<not supported>' <<<"$sec" && ! grep -Eq '^[0-9]+;' <<<"$sec"
}
dm=$(section rawdmesg "$out")
if refused rawfw && refused rawinh && grep -q 'raw event 0x4000000000000001' <<<"$dm" &&
	grep -q 'raw event 0x400000000000002' <<<"$dm"; then
	ok "raw configs with bits 63-62 01 (not a firmware event) or bit 58 (VUINH) set are refused at open, with a dmesg line"
else
	not_ok "raw configs with bits 63-62 01 (not a firmware event) or bit 58 (VUINH) set are refused at open, with a dmesg line"
	diag "$(section rawfw "$out")" "$(section rawinh "$out")" "$dm"
fi
sec=$(section fwevent "$out")
if grep -Eq '^[0-9]+;[^;]*;fw_misaligned_load;' <<<"$sec"; then
	ok "perf's firmware event fw_misaligned_load counts, on the SBI PMU extension's firmware counters ($(grep fw_misaligned_load <<<"$sec"))"
else
	not_ok "perf's firmware event fw_misaligned_load counts, on the SBI PMU extension's firmware counters"
	diag "$sec"
fi
sec=$(section rawok "$out")
if grep -Eq '^[0-9]+;' <<<"$sec"; then
	ok "a raw config using bits 57-0 only still opens and counts"
else
	not_ok "a raw config using bits 57-0 only still opens and counts"
	diag "$sec"
fi

for s in group separate; do
	sec=$(section $s "$out")
	expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
	ca=$(field 1 "$a" <<<"$sec") pa=$(field 5 "$a" <<<"$sec")
	cb=$(field 1 "$b" <<<"$sec") pb=$(field 5 "$b" <<<"$sec")
	if is_number "$ca" && is_number "$cb" && [ "$pa" = 100.00 ] && [ "$pb" = 100.00 ] &&
		is_number "$expected" && within_pct "$ca" "$expected" 1; then
		ok "$s: A (counters 3-4) then B (counter 3 only) both count 100 % of the time, A within 1 % of the loop's $expected ($ca)"
	else
		not_ok "$s: A (counters 3-4) then B (counter 3 only) both count 100 % of the time"
		diag "$sec"
	fi
done

gd=$(section groupdmesg "$out")
for s in nofit nofit3; do
	sec=$(section $s "$out")
	if ! grep -Eq '^[0-9]+;' <<<"$sec" && grep -q '^<not supported>;' <<<"$sec"; then
		ok "$s: a group that can never fit its counters fails at open (its last member refused)"
	else
		not_ok "$s: a group that can never fit its counters fails at open (its last member refused)"
		diag "$sec"
	fi
done
if [ "$(grep -c 'cannot all have a counter' <<<"$gd")" -ge 2 ]; then
	ok "each refused group leaves a dmesg line"
else
	not_ok "each refused group leaves a dmesg line"
	diag "$gd"
fi

# riscv,raw-event-to-mhpmcounters: raw event 0x2 (exactly) on counter 3.
cat >"$tmp/raw.dtso" <<'EOF'
/dts-v1/;
/plugin/;
&{/pmu} {
	riscv,raw-event-to-mhpmcounters = <0x0 0x2 0xffffffff 0xffffffff 0x8>;
};
EOF
c4='cpu/event=0x2,counterid_mask=0x10/'
out="$tmp/raw"
if ! guest_run "$out" --profile u74 --firmware hpm --icount --overlay "$tmp/raw.dtso" -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== nofit'; perf stat -x';' -o /tmp/s -e '{r2,$b}' true; cat /tmp/s
	echo '== fit'; perf stat -x';' -o /tmp/s -e '{r2,r10019}' knownloop $iterations; cat /tmp/s
	echo '== override'; perf stat -x';' -o /tmp/s -e '{$c4,$b}' knownloop $iterations; cat /tmp/s
	echo '== end'
	"; then
	not_ok "u74 with a raw-event entry: guest runs the checks"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
if section dmesg "$out" | grep -q ', 1 raw-event entries'; then
	ok "the driver takes QEMU's node with a riscv,raw-event-to-mhpmcounters entry added"
else
	not_ok "the driver takes QEMU's node with a riscv,raw-event-to-mhpmcounters entry added"
	diag "$(section dmesg "$out")"
fi
sec=$(section nofit "$out")
if ! grep -Eq '^[0-9]+;' <<<"$sec" && grep -q '^<not supported>;' <<<"$sec"; then
	ok "r2 (entry: counter 3) and an event on counter 3 only: the group never fits, refused at open"
else
	not_ok "r2 (entry: counter 3) and an event on counter 3 only: the group never fits, refused at open"
	diag "$sec"
fi
for s in fit override; do
	sec=$(section $s "$out")
	all=1
	while IFS=';' read -r c _ ev _ p _; do
		[ -n "$ev" ] || continue
		is_number "$c" && [ "$p" = 100.00 ] || all=0
	done <<<"$(grep -v '^#' <<<"$sec" | grep ';')"
	if [ $all = 1 ] && [ "$(grep -c ';100.00;' <<<"$sec")" = 2 ]; then
		ok "$s: a group that fits under the entry (or a counterid_mask overriding it) counts 100 % of the time"
	else
		not_ok "$s: a group that fits under the entry (or a counterid_mask overriding it) counts 100 % of the time"
		diag "$sec"
	fi
done
