#!/usr/bin/env bash
# Harts that differ in counter delegation, on the virt-cdeleg profile with
# two harts: the HPM driver takes delegated counters only where every
# hart can use them, else a way to the counters every hart has (the HPM
# extension) or none, and then the SBI PMU driver serves perf.  Either
# way perf stat -a counts on both harts.
#  a) the firmware delegates on the first hart only (test-only firmware
#     cdeleg-faultinj, tests/fault-injection/: the HPM firmware with
#     menvcfg.CDE clear on the second hart, whose ISA string still has
#     Smcdeleg): the HPM driver names the CPU that delegates nothing and
#     goes through the HPM extension, counting on both CPUs.  Before,
#     the driver probed the boot hart alone and took delegated counters,
#     and the second CPU trapped at its first sireg access (a kernel
#     panic at boot): QEMU 10 lets scountinhibit be read with CDE clear,
#     so that a delegated counter is now read through sireg too;
#  b) the second hart's device tree has no Smcdeleg (QEMU's tree, the
#     extension taken out of cpu@1's riscv,isa-extensions): the HPM
#     driver goes through the HPM extension on the HPM firmware, and on
#     pristine OpenSBI the SBI PMU driver serves.  That driver, on these
#     harts, multiplexes instructions and never counts r2 (so it does on
#     the unchanged virt-cdeleg profile with riscv_pmu_hpm.enable=0: a
#     matter of OpenSBI's SBI PMU on harts with Smcdeleg, not of the
#     series), so there each CPU is only checked to count instructions.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

workload="
	echo '== dmesg'; dmesg | grep -i 'riscv-pmu'
	echo '== format'; ls -1 /sys/bus/event_source/devices/cpu/format
	echo '== all'; perf stat -a -A -x';' -o /tmp/s -e instructions,r2 -- sh -c 'knownloop 200000 & taskset 2 knownloop 200000; wait'; cat /tmp/s
	echo '== end'"

# counted_on_both SECTION-TEXT EVENT [all]: both CPUs counted EVENT (with
# "all": all the time).
counted_on_both() {
	awk -F';' -v ev="$2" -v all="${3:-}" '$4 == ev || $4 == ev " [cpu]" {
		if ($2 ~ /^[0-9]+$/ && $2 > 0 && $5 > 0 && (all == "" || $6 == "100.00")) n++ }
		END { exit n != 2 }' <<<"$1"
}

# check_run NAME OUT WANT-DRIVER DMESG-PATTERN EVENTS: the driver serving
# perf, a line of its dmesg, and each event counted on both CPUs (all the
# time on the HPM driver).
check_run() {
	local name=$1 out=$2 want=$3 pattern=$4 events=$5 drv sec ev all='' how=''
	drv=$(serving_driver "$out")
	if [ "$drv" = "$want" ] && section dmesg "$out" | grep -q "$pattern"; then
		ok "$name: the $want driver serves perf (dmesg: $pattern)"
	else
		not_ok "$name: the $want driver serves perf (dmesg: $pattern; serving: $drv)"
		diag "$(section dmesg "$out")"
	fi
	[ "$want" != hpm ] || all=all how=" all the time"
	sec=$(section all "$out")
	for ev in $events; do
		if counted_on_both "$sec" "$ev" $all; then
			ok "$name: perf stat -a counts $ev on both CPUs$how"
		else
			not_ok "$name: perf stat -a counts $ev on both CPUs$how"
			diag "$sec"
		fi
	done
}

# a) delegation on hart 0 only.  OpenSBI boots Linux on whichever hart
# wins its cold-boot lottery, so Linux's CPU0 is hart 0 or hart 1: the
# CPU named is the other one, either way.
out="$tmp/a"
if guest_run "$out" --profile virt-cdeleg --firmware cdeleg-faultinj --smp 2 -- sh -c "$workload"; then
	check_run "counters delegated on hart 0 only (cdeleg-faultinj)" "$out" hpm \
		'delegates no counter on CPU[01] ' "instructions r2"
	if section dmesg "$out" | grep -q 'through the HPM SBI extension'; then
		ok "counters delegated on hart 0 only (cdeleg-faultinj): the HPM driver goes through the HPM extension"
	else
		not_ok "counters delegated on hart 0 only (cdeleg-faultinj): the HPM driver goes through the HPM extension"
		diag "$(section dmesg "$out")"
	fi
else
	not_ok "virt-cdeleg --smp 2 --firmware cdeleg-faultinj: guest runs perf stat -a"
	diag "$(tail -n 30 "$out")"
fi

# b) no Smcdeleg on cpu@1 in the device tree
if ! "$RUN_QEMU" --profile virt-cdeleg --smp 2 --dump-dtb "$tmp/base.dtb" ||
	! exts=$(fdtget "$tmp/base.dtb" /cpus/cpu@1 riscv,isa-extensions) ||
	! grep -qw smcdeleg <<<"$exts"; then
	not_ok "virt-cdeleg --smp 2: QEMU's device tree gives cpu@1 Smcdeleg"
	diag "${exts:-no riscv,isa-extensions}"
	exit 0
fi
cp "$tmp/base.dtb" "$tmp/differ.dtb"
# shellcheck disable=SC2046 # one argument per extension
fdtput -t s "$tmp/differ.dtb" /cpus/cpu@1 riscv,isa-extensions $(tr ' ' '\n' <<<"$exts" | grep -vx smcdeleg)
if fdtget "$tmp/differ.dtb" /cpus/cpu@1 riscv,isa-extensions | grep -qw smcdeleg ||
	! fdtget "$tmp/differ.dtb" /cpus/cpu@0 riscv,isa-extensions | grep -qw smcdeleg; then
	not_ok "the device tree without Smcdeleg on cpu@1 only is made"
	exit 0
fi
for run in "hpm hpm through-the-HPM-SBI-extension instructions r2" \
	"opensbi sbi SBI-PMU-extension-is-available instructions"; do
	read -r fw want pattern events <<<"$run"
	out="$tmp/b-$fw"
	name="cpu@1 without Smcdeleg in the device tree, firmware $fw"
	if guest_run "$out" --profile virt-cdeleg --firmware "$fw" --smp 2 \
		--dtb "$tmp/differ.dtb" -- sh -c "$workload"; then
		check_run "$name" "$out" "$want" "${pattern//-/ }" "$events"
	else
		not_ok "$name: guest runs perf stat -a"
		diag "$(tail -n 30 "$out")"
	fi
done
