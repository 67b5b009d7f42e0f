#!/usr/bin/env bash
# KVM guests and the PMU drivers (issue 21): the guest kernel with KVM
# (scripts/build-kvm: build/guest/kvm/Image) on the virt-sscofpmf profile
# (Sscofpmf, Smcntrpmf) with the H extension and Ssaia on top, under
# -icount shift=4, on pristine OpenSBI v1.9 (upstream's SBI PMU driver
# serves perf and KVM) and on OpenSBI v1.9 with the HPM patch (the HPM
# driver; KVM asks it for its counters through riscv_pmu_get_hpm_info()
# -> riscv_pmu_hpm_get_info()):
#  - the driver each firmware should have serves perf, and KVM finds the
#    H extension (/dev/kvm);
#  - upstream's KVM selftest riscv/sbi_pmu_test from the same tree
#    passes all four of its tests (basic, events, snapshot, overflow):
#    exit status 0 and four PASS lines, a SKIP being a failure;
#  - the count check guest/kvm/sbi_pmu_count.c: a KVM guest counts the
#    instructions it runs with the SBI PMU (the guest's loop of
#    2 * $iterations instructions): without overflow, and with an
#    overflow every $period instructions, the guest restarting the
#    counter from each overflow interrupt.  The count must lie between
#    the loop's instructions and that plus the guest's own SBI-call and
#    interrupt paths (500 + 1,000 per overflow: see the program's
#    comment; measured 33 + 136), and every full period of the loop
#    must have raised its overflow interrupt.
#
# What QEMU 10 and KVM need here:
#  - Ssaia (ssaia=true): KVM offers a vCPU Sscofpmf only where the host
#    has Ssaia, whose hvien lets it inject the overflow interrupt
#    (kvm_riscv_vcpu_isa_enable_allowed() in arch/riscv/kvm/
#    vcpu_onereg.c).  Without it sbi_pmu_test skips its overflow test
#    ("Sscofpmf is not available") and exits 4.  The machine keeps its
#    PLIC (aia=none): KVM reports "AIA available with 0 guest external
#    interrupts", enough for the SBI PMU.
#  - -icount shift=4, not 0: with shift=0 most overflow interrupts
#    never reach the KVM guest (measured on both drivers, two builds of
#    the same kernel: 0 or 1 overflow for 2 * 10^6 loop instructions at
#    a period of 10^5, 5 for 2 * 10^7 at 10^5, 4 or 5 for 2 * 10^7 at
#    10^6, where shift=4 gives all 20, 200 and 20; the counts stay
#    exact), and sbi_pmu_test's two 2-second udelay()s busy-wait
#    4 * 10^9 instructions (a 37 s guest run, against 3.5 s with
#    shift=4).  instret counts instructions whatever the shift.
#
# The count check catches the double count the HPM driver had before its
# overflow handler stopped the event ahead of perf_event_overflow()
# (linux-patches/7.2/2-hpm/0014): KVM's callback (kvm_riscv_pmu_overflow)
# stops the event with PERF_EF_UPDATE from inside it, and a running event
# then counted its next period as counted: about twice the loop's count.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The profile's CPU plus H and Ssaia (run-qemu's QEMU takes the last
# -cpu).  "cdeleg": the host's HPM driver on virt-cdeleg with pristine
# OpenSBI, programming delegated counters for the events KVM opens on
# behalf of its guest (issue 23); the guest still sees KVM's SBI PMU.
declare -A profile_of=([opensbi]=virt-sscofpmf [hpm]=virt-sscofpmf [cdeleg]=virt-cdeleg)
declare -A firmware_of=([opensbi]=opensbi [hpm]=hpm [cdeleg]=opensbi)
declare -A cpu_of
for p in virt-sscofpmf virt-cdeleg; do
	# shellcheck disable=SC1090 # the profile's QEMU_CPU64
	. "$TOP/qemu-config/$p.conf"
	cpu_of[$p]="$QEMU_CPU64,h=true,ssaia=true"
done
# virt-cdeleg has Smstateen: OpenSBI then gives S-mode the AIA CSRs
# (stopi, ...) only where the hart has Smaia too.
cpu_of[virt-cdeleg]+=",smaia=true"
kvm="$GUEST_OUT/kvm"
iterations=1000000	# 2 * 10^6 loop instructions
period=100000		# 20 overflows
firmwares=(opensbi hpm cdeleg)
declare -A fwname=([opensbi]="pristine OpenSBI v1.9" [hpm]="OpenSBI v1.9+HPM"
	[cdeleg]="delegated counters (pristine OpenSBI v1.9)")
declare -A want=([opensbi]=sbi [hpm]=hpm [cdeleg]=hpm)

if [ ! -f "$kvm/Image" ] || [ ! -x "$kvm/bin/sbi_pmu_test" ] ||
	[ ! -x "$kvm/bin/sbi_pmu_count" ]; then
	not_ok "KVM guest kernel and tests built in $kvm (scripts/build-kvm)"
	exit 0
fi

for fw in "${firmwares[@]}"; do
	p=${profile_of[$fw]}
	HPM_QEMU_EXTRA="-cpu ${cpu_of[$p]}" guest_run "$tmp/$fw" --profile "$p" \
		--firmware "${firmware_of[$fw]}" --icount-shift 4 --mem 512M --image "$kvm/Image" \
		--extra "$kvm/bin" -- sh -c "
	echo '== dmesg'; dmesg | grep -E 'riscv-pmu|kvm'
	echo '== format'; ls -1 /sys/bus/event_source/devices/cpu/format
	echo '== dev'; test -c /dev/kvm && echo kvm=yes
	echo '== selftest'; ./sbi_pmu_test 2>&1; echo rc=\$?
	echo '== count0'; ./sbi_pmu_count $iterations 0 2>&1; echo rc=\$?
	echo '== count'; ./sbi_pmu_count $iterations $period 2>&1; echo rc=\$?
	echo '== end'"
	echo "$?" >"$tmp/$fw.rc"
done

# val FW SECTION KEY: KEY=value in that section of FW's output.
val() { section "$2" "$tmp/$1" | grep -o "\<$3=[^ ]*" | head -n1 | cut -d= -f2; }

for fw in "${firmwares[@]}"; do
	name="${fwname[$fw]}, ${profile_of[$fw]} with H and Ssaia"
	out="$tmp/$fw"
	if [ "$(cat "$tmp/$fw.rc")" != 0 ] || ! grep -q '^== end$' "$out"; then
		not_ok "$name: guest with KVM boots and runs the KVM tests"
		diag "$(tail -n 30 "$out")"
		continue
	fi

	drv=$(serving_driver "$out")
	if [ "$drv" = "${want[$fw]}" ] && section dev "$out" | grep -qx kvm=yes &&
		section dmesg "$out" | grep -q 'kvm \[1\]: hypervisor extension available'; then
		ok "$name: $drv driver serves perf, KVM has the H extension (/dev/kvm)"
	else
		not_ok "$name: $drv driver serves perf (want ${want[$fw]}), KVM has the H extension (/dev/kvm)"
		diag "$(section dmesg "$out")" "$(section dev "$out")"
	fi

	st=$(section selftest "$out")
	passes=$(grep -c ': PASS$' <<<"$st")
	if [ "$(val "$fw" selftest rc)" = 0 ] && [ "$passes" = 4 ]; then
		ok "$name: upstream KVM selftest sbi_pmu_test passes its 4 tests (basic, events, snapshot, overflow)"
	else
		not_ok "$name: upstream KVM selftest sbi_pmu_test passes its 4 tests (basic, events, snapshot, overflow): $passes passed, rc=$(val "$fw" selftest rc)"
		diag "$st"
	fi

	for s in count0 count; do
		line=$(section "$s" "$out" | grep '^counter=')
		extra=$(val "$fw" "$s" extra) n=$(val "$fw" "$s" overflows)
		if [ "$s" = count0 ]; then
			desc="$name: KVM guest's SBI PMU instructions count, no overflow: loop $((2 * iterations)) + extra ${extra:-?} (allowed 0-500)"
			enough=1
		else
			# Every full period of the loop overflowed.
			want_n=$((2 * iterations / period - 1))
			desc="$name: KVM guest's SBI PMU instructions count, overflow every $period: loop $((2 * iterations)) + extra ${extra:-?} over ${n:-?} overflows ($(val "$fw" "$s" extra_per_overflow) each; allowed 500 + 1000 each, at least $want_n overflows)"
			is_number "${n:-x}" && [ "$n" -ge "$want_n" ] && enough=1 || enough=0
		fi
		if [ "$(val "$fw" "$s" rc)" = 0 ] && [ "$(val "$fw" "$s" verdict)" = ok ] &&
			[ "$enough" = 1 ]; then
			ok "$desc"
		else
			not_ok "$desc"
			diag "$(section "$s" "$out")"
		fi
	done
done
