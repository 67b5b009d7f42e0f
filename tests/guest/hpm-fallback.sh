#!/usr/bin/env bash
# The SBI PMU driver serves perf whenever the HPM driver has not taken
# the counters, whatever the reason: here the HPM driver's initcall is
# kept from running at all (initcall_blacklist=hpm_pmu_init on the kernel
# command line, which stands for any failure of its init after the
# firmware offered the HPM extension: no usable counter, an allocation,
# CPU hotplug set-up, perf_pmu_register()).  The firmware offers both
# extensions (OpenSBI v1.9 with the HPM patch) on a hart with Sscofpmf.
# The SBI PMU driver must register, as it does without the series, and
# count instructions and a cache event the legacy driver cannot count;
# before, it stood aside as soon as the firmware offered the HPM
# extension, leaving only the legacy driver's cycles and instructions.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out="$tmp/out"
if ! guest_run "$out" --profile virt-sscofpmf --firmware hpm --icount \
	--append initcall_blacklist=hpm_pmu_init -- sh -c "
	echo '== dmesg'; dmesg | grep -i 'riscv-pmu\|blacklist'
	echo '== format'; ls -1 /sys/bus/event_source/devices/cpu/format
	echo '== stat'; perf stat -x';' -o /tmp/s -e instructions,dTLB-load-misses knownloop 1000000; cat /tmp/s
	echo '== end'"; then
	not_ok "virt-sscofpmf, HPM firmware, the HPM driver's init kept from running: guest runs perf stat"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
drv=$(serving_driver "$out")
if [ "$drv" = sbi ] && section dmesg "$out" | grep -q 'blacklisted'; then
	ok "the HPM driver's init kept from running: the SBI PMU driver serves perf"
else
	not_ok "the HPM driver's init kept from running: the SBI PMU driver serves perf (serving: $drv)"
	diag "$(section dmesg "$out")"
fi
sec=$(section stat "$out")
insn=$(field 1 instructions <<<"$sec")
dtlb=$(field 1 dTLB-load-misses <<<"$sec")
if is_number "$insn" && [ "$insn" -ge 2000000 ] && is_number "$dtlb" &&
	[ -z "$(not_counted_full 'instructions,dTLB-load-misses' <<<"$sec")" ]; then
	ok "the HPM driver's init kept from running: instructions ($insn) and dTLB-load-misses ($dtlb) count all the time"
else
	not_ok "the HPM driver's init kept from running: instructions and dTLB-load-misses count all the time"
	diag "$sec"
fi
