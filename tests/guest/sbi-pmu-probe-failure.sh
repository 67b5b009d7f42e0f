#!/usr/bin/env bash
# The SBI PMU driver's probe failing at its last step, on the TEST-ONLY
# firmware opensbi-faultinj (pristine OpenSBI v1.9 whose SBI PMU gives
# snapshot memory to the first hart that asks and refuses it on the
# others, tests/fault-injection/README.md), two harts: the probe enables
# snapshots on the boot hart, registers the "cpu" PMU, and then
# cpuhp_state_add_instance() fails on the second hart.  What a user
# relies on afterwards: the kernel lives on (the probe's error path must
# undo only what it did); no "cpu" PMU is left registered on freed
# memory; kernel.perf_user_access is not offered for it (its handler
# would call into the freed PMU: the driver once registered the sysctl
# before that last step); writing the sysctl (where present) and
# opening an event cause no kernel error.
#
# No firmware or hypervisor here fails that step by itself: OpenSBI
# implements no snapshot memory, and KVM's fails only for guest memory
# that is not writable or a failed host allocation.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# HPM_FAULT_IMAGE: boot this kernel Image instead of the clone's.
image=()
[ -z "${HPM_FAULT_IMAGE:-}" ] || image=(--image "$HPM_FAULT_IMAGE")

out="$tmp/out"
if ! guest_run "$out" --profile virt --firmware opensbi-faultinj --icount \
	--smp 2 "${image[@]}" -- sh -c '
	echo "== dmesg"; dmesg | grep riscv-pmu
	echo "== pmus"; ls /sys/bus/event_source/devices
	echo "== sysctl"
	if [ -e /proc/sys/kernel/perf_user_access ]; then
		echo present
		echo 2 >/proc/sys/kernel/perf_user_access
		echo 1 >/proc/sys/kernel/perf_user_access
	else
		echo absent
	fi
	perf stat -e instructions true >/dev/null 2>&1
	echo "== errors"
	dmesg | grep -E "BUG|Oops|KASAN|Unable to handle|use-after-free"
	echo "== end"'; then
	not_ok "virt --smp 2: the kernel lives on after the SBI PMU probe failed in cpuhp_state_add_instance()"
	diag "$(grep -E -A3 'Oops|BUG|Unable to handle|panic' "$out" | head -n 12)"
	exit 0
fi
ok "virt --smp 2: the kernel lives on after the SBI PMU probe failed in cpuhp_state_add_instance()"

log=$(section dmesg "$out")
if grep -q 'riscv-pmu-sbi: SBI PMU snapshot detected' <<<"$log" &&
	grep -q 'riscv-pmu-sbi: pmu snapshot setup failed' <<<"$log" &&
	grep -q 'probe with driver riscv-pmu-sbi failed' <<<"$log"; then
	ok "the probe failed where the firmware made it: snapshot memory on the boot hart, refused on the second"
else
	not_ok "the probe failed where the firmware made it: snapshot memory on the boot hart, refused on the second"
	diag "$log"
fi
if grep -qx cpu <<<"$(section pmus "$out")"; then
	not_ok "the failed probe leaves no \"cpu\" PMU registered (its memory is freed)"
	diag "$(section pmus "$out")"
else
	ok "the failed probe leaves no \"cpu\" PMU registered (its memory is freed)"
fi
if [ "$(section sysctl "$out")" = absent ]; then
	ok "kernel.perf_user_access is not offered for the PMU whose probe failed"
else
	not_ok "kernel.perf_user_access is not offered for the PMU whose probe failed"
	diag "$(section sysctl "$out")"
fi
errors=$(section errors "$out")
if [ -z "$errors" ]; then
	ok "no kernel error after writing kernel.perf_user_access and opening an event"
else
	not_ok "no kernel error after writing kernel.perf_user_access and opening an event"
	diag "$errors"
fi
