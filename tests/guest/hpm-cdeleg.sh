#!/usr/bin/env bash
# Counter delegation (issue 23): on virt-cdeleg (Smcdeleg, Ssccfg,
# Smcsrind, Sscsrind, Smstateen, with Sscofpmf and Smcntrpmf), pristine
# OpenSBI v1.9 delegates every counter to S-mode and the HPM driver
# programs them itself, with no HPM extension in the firmware:
#  - the kernel knows the extensions (/proc/cpuinfo lists them);
#  - the HPM driver registers through the delegated counters, and the
#    SBI PMU driver leaves it the counters;
#  - perf stat of cycles, instructions and four raw events (r1, r2,
#    r10019, r1001b) counts each of them 100 % of the time, r2 within
#    1 % of instructions, instructions at least the loop's;
#  - the cache events QEMU's riscv,pmu node maps, which OpenSBI deletes
#    from the tree it passes on, count all the same: the driver asked the
#    firmware for them (dTLB-load-misses, iTLB-load-misses);
#  - riscv_pmu_hpm.enable=0 leaves the counters to the SBI PMU driver on
#    the same hart and firmware, which counts the same cache events;
#  - on virt-cdeleg-nosmstateen (the same hart without Smstateen: no
#    mstateen0 gates siselect, and delegation does not need it) the HPM
#    driver registers through the delegated counters all the same and
#    counts the six events 100 % of the time.
# The SBI calls (none) are tests/guest/hpm-calls.sh's, sampling and mode
# filtering tests/guest/hpm-sampling.sh's, firmware events
# tests/guest/hpm-fw-events.sh's.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=1000000	# 2 * 10^6 loop instructions
six=cycles,instructions,r1,r2,r10019,r1001b
cache=dTLB-load-misses,iTLB-load-misses
cmd="echo '== dmesg'; dmesg | grep riscv-pmu
	echo '== format'; ls -1 /sys/bus/event_source/devices/cpu/format
	echo '== isa'; grep -m1 '^isa' /proc/cpuinfo
	echo '== six'; perf stat -x';' -o /tmp/s -e $six knownloop $iterations; grep -v '^#' /tmp/s
	echo '== cache'; perf stat -x';' -o /tmp/s -e $cache knownloop $iterations; grep -v '^#' /tmp/s
	echo '== end'"
guest_run "$tmp/hpm" --profile virt-cdeleg --firmware opensbi --icount -- sh -c "$cmd" || true
guest_run "$tmp/sbi" --profile virt-cdeleg --firmware opensbi --icount \
	--append riscv_pmu_hpm.enable=0 -- sh -c "$cmd" || true
guest_run "$tmp/ns" --profile virt-cdeleg-nosmstateen --firmware opensbi --icount \
	-- sh -c "$cmd" || true
for r in hpm sbi ns; do
	grep -q '^== end$' "$tmp/$r" && continue
	not_ok "virt-cdeleg ($r): guest runs the checks"
	diag "$(tail -n 20 "$tmp/$r")"
	exit 0
done

isa=$(section isa "$tmp/hpm")
missing=
for e in smcdeleg ssccfg smcsrind sscsrind smcntrpmf; do
	grep -q "_${e}\(_\|\$\)" <<<"$isa" || missing+=" $e"
done
if [ -z "$missing" ]; then
	ok "/proc/cpuinfo lists smcdeleg, ssccfg, smcsrind, sscsrind and smcntrpmf"
else
	not_ok "/proc/cpuinfo lists smcdeleg, ssccfg, smcsrind, sscsrind and smcntrpmf"
	diag "missing:$missing" "$isa"
fi

for r in hpm ns; do
	[ $r = hpm ] && on=virt-cdeleg || on=virt-cdeleg-nosmstateen
	log=$(section dmesg "$tmp/$r")
	if [ "$(serving_driver "$tmp/$r")" = hpm ] &&
		grep -q 'riscv-pmu-hpm: .* through the delegated counters (Smcdeleg, Ssccfg)' <<<"$log" &&
		grep -q 'riscv-pmu-sbi: counters left to the HPM driver' <<<"$log"; then
		ok "$on: the HPM driver registers through the delegated counters, the SBI PMU driver leaves it the counters"
	else
		not_ok "$on: the HPM driver registers through the delegated counters, the SBI PMU driver leaves it the counters"
		diag "$log"
	fi

	sec=$(section six "$tmp/$r")
	bad=$(not_counted_full "$six" <<<"$sec")
	insn=$(field 1 instructions <<<"$sec") r2=$(field 1 r2 <<<"$sec")
	if [ -z "$bad" ] && is_number "$insn" && is_number "$r2" &&
		[ "$insn" -ge $((2 * iterations)) ] && within_pct "$r2" "$insn" 1; then
		ok "$on: perf stat -e $six: each counted 100 % of the time, r2 $r2 within 1 % of instructions $insn"
	else
		not_ok "$on: perf stat -e $six: each counted 100 % of the time, r2 within 1 % of instructions"
		diag "not counted 100 %:${bad:- none}" "$sec"
	fi
done

for r in hpm sbi; do
	sec=$(section cache "$tmp/$r")
	bad=
	for e in ${cache//,/ }; do
		v=$(field 1 "$e" <<<"$sec")
		is_number "$v" && [ "$v" -gt 0 ] || bad+=" $e"
	done
	if [ "$r" = hpm ]; then
		what="HPM driver: the cache events OpenSBI took out of the device tree count (encodings from the firmware)"
	else
		what="riscv_pmu_hpm.enable=0: the SBI PMU driver serves ($(serving_driver "$tmp/sbi")) and counts the same cache events"
	fi
	if [ -z "$bad" ] && { [ "$r" = hpm ] || [ "$(serving_driver "$tmp/sbi")" = sbi ]; }; then
		ok "$what ($(tr '\n' ' ' <<<"$sec"))"
	else
		not_ok "$what"
		diag "not counted:${bad:- none}" "$sec" "$(section dmesg "$tmp/$r")"
	fi
done
