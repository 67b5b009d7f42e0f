#!/usr/bin/env bash
# The HPM driver on QEMU's own device tree, without any overlay of the
# project: QEMU's virt machine generates a riscv,pmu node (/pmu) whose
# riscv,event-to-mhpmcounters gives cycles (0x1), instructions (0x2),
# dTLB read and write misses (0x10019, 0x1001b) and iTLB misses
# (0x10021) counters, with no riscv,event-to-mhpmevent: each event is
# selected by its event index (the SBI specification's recommendation,
# which OpenSBI follows), which is what QEMU counts.
#  - OpenSBI v1.9 with the HPM patch leaves the property to Linux, as
#    QEMU wrote it; pristine OpenSBI v1.9 deletes it (fdt_pmu_fixup());
#  - the driver maps the node's 2 generic and 3 cache events;
#  - under -icount, cycles and instructions count the known loop (within
#    1 % of its instructions), dTLB-load-misses and iTLB-load-misses
#    count, all five events 100 % of the time, and a 64 MiB pointer chase
#    has more dTLB load misses than a 64 KiB one;
#  - dTLB-load-misses and iTLB-load-misses reach mhpmevent as their event
#    indices 0x10019 and 0x10021 (debugfs);
#  - a riscv,event-to-mhpmevent entry added to QEMU's node is what the
#    counter gets: dTLB-load-misses mapped to 0x10021 holds 0x10021.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The premise: the virt profile adds nothing to QEMU's tree.
if [ -e "$TOP/qemu-config/virt.dtso" ]; then
	not_ok "the virt profile has no device-tree overlay (qemu-config/virt.dtso)"
	exit 0
fi

iterations=25000000	# 5 * 10^7 loop instructions
steps=200000
dbg=/sys/kernel/debug/riscv_pmu_hpm/counters
evs=cycles,instructions,dTLB-load-misses,dTLB-store-misses,iTLB-load-misses
out="$tmp/out"
if ! guest_run "$out" --profile virt --firmware hpm --icount -- sh -c "
	echo '== prop'; od -An -v -tx1 /proc/device-tree/pmu/riscv,event-to-mhpmcounters
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== loop'; perf stat -x';' -o /tmp/s -e $evs knownloop $iterations; cat /tmp/s
	echo '== small'; perf stat -x';' -o /tmp/s -e dTLB-load-misses ptrchase 64K $steps >/dev/null; cat /tmp/s
	echo '== large'; perf stat -x';' -o /tmp/s -e dTLB-load-misses ptrchase 64M $steps >/dev/null; cat /tmp/s
	echo '== debugfs'; perf stat -a -x, -o /dev/null -e dTLB-load-misses,iTLB-load-misses -- cat $dbg
	echo '== end'
	"; then
	not_ok "virt --icount, QEMU's device tree: guest runs the checks"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

# QEMU's property, as QEMU wrote it (pmu-mask 0x7fff8: counters 3-18,
# with cycle for cycles and instret for instructions).
want="0x1 0x1 0x7fff9 0x2 0x2 0x7fffc 0x10019 0x10019 0x7fff8 0x1001b 0x1001b 0x7fff8 0x10021 0x10021 0x7fff8"
read -r -a b <<<"$(section prop "$out" | tr '\n' ' ')"
got=
for ((k = 0; k + 3 < ${#b[@]}; k += 4)); do
	got+="${got:+ }$(printf '0x%x' $((16#${b[k]}${b[k + 1]}${b[k + 2]}${b[k + 3]})))"
done
if [ "$got" = "$want" ]; then
	ok "OpenSBI (HPM) leaves QEMU's riscv,event-to-mhpmcounters to Linux, unchanged"
else
	not_ok "OpenSBI (HPM) leaves QEMU's riscv,event-to-mhpmcounters to Linux, unchanged"
	diag "got: '$got'" "want: '$want'" "$(section prop "$out" | head -n 5)"
fi

if section dmesg "$out" | grep -q 'riscv-pmu-hpm: .* 2 generic and 3 cache events from DT'; then
	ok "the driver maps QEMU's node: 2 generic and 3 cache events"
else
	not_ok "the driver maps QEMU's node: 2 generic and 3 cache events"
	diag "$(section dmesg "$out")"
fi

sec=$(section loop "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
all=1
for ev in ${evs//,/ }; do
	c=$(field 1 "$ev" <<<"$sec") p=$(field 5 "$ev" <<<"$sec")
	is_number "$c" && [ "$p" = 100.00 ] || all=0
done
if [ $all = 1 ]; then
	ok "cycles, instructions, dTLB-load/store-misses, iTLB-load-misses all counted at 100 %"
else
	not_ok "cycles, instructions, dTLB-load/store-misses, iTLB-load-misses all counted at 100 %"
	diag "$sec"
fi
ins=$(field 1 instructions <<<"$sec") cyc=$(field 1 cycles <<<"$sec")
# Both count every mode here (no Sscofpmf): the loop and the kernel's
# share while it runs, about 1 % on Linux 7.2, whose kernel preempts
# (PREEMPT_LAZY; 6.12's guest kernel does not: 0.5 %).
if is_number "$expected" && is_number "$ins" && is_number "$cyc" &&
	within_pct "$ins" "$expected" 2 && within_pct "$cyc" "$expected" 2; then
	ok "instructions ($ins) and cycles ($cyc) within 2 % of the loop's $expected (-icount)"
else
	not_ok "instructions and cycles within 2 % of the loop's instructions (-icount)"
	diag "expected '$expected'" "$sec"
fi
itlb=$(field 1 iTLB-load-misses <<<"$sec") dtlb=$(field 1 dTLB-load-misses <<<"$sec")
if is_number "$itlb" && [ "$itlb" -gt 0 ] && is_number "$dtlb" && [ "$dtlb" -gt 0 ]; then
	ok "dTLB-load-misses ($dtlb) and iTLB-load-misses ($itlb) count"
else
	not_ok "dTLB-load-misses and iTLB-load-misses count"
	diag "$sec"
fi
small=$(section small "$out" | field 1 dTLB-load-misses)
large=$(section large "$out" | field 1 dTLB-load-misses)
if is_number "$small" && is_number "$large" && [ "$large" -gt $((small * 2)) ] &&
	[ "$large" -ge $((steps / 2)) ]; then
	ok "dTLB-load-misses: a 64 MiB chase of $steps steps ($large) misses more than a 64 KiB one ($small)"
else
	not_ok "dTLB-load-misses: a 64 MiB chase misses more than a 64 KiB one, at least one step in two"
	diag "small '$small' large '$large'"
fi

# debugfs lines: "cpu counter mhpmevent inhibited event-config".
# dTLB-load-misses is config 0x10003, iTLB-load-misses 0x10004.
held() { section "$1" "$out" | awk -v c="$2" 'NF == 5 && $5 == c { print $3 }' | head -n 1; }
d=$(held debugfs 0x10003) i=$(held debugfs 0x10004)
if [ "$d" = 0x10019 ] && [ "$i" = 0x10021 ]; then
	ok "dTLB-load-misses and iTLB-load-misses reach mhpmevent as their event indices 0x10019, 0x10021"
else
	not_ok "dTLB-load-misses and iTLB-load-misses reach mhpmevent as their event indices 0x10019, 0x10021"
	diag "dTLB '$d' iTLB '$i'" "$(section debugfs "$out")"
fi

# riscv,event-to-mhpmevent added to QEMU's node: dTLB-load-misses is
# selected by 0x10021 (QEMU's iTLB miss event) instead of its index.
cat >"$tmp/value.dtso" <<'EOF'
/dts-v1/;
/plugin/;
&{/pmu} {
	riscv,event-to-mhpmevent = <0x10019 0x0 0x10021>;
};
EOF
out="$tmp/value"
if guest_run "$out" --profile virt --firmware hpm --icount --overlay "$tmp/value.dtso" -- sh -c "
	echo '== debugfs'; perf stat -a -x, -o /dev/null -e dTLB-load-misses -- cat $dbg
	echo '== end'
	"; then
	d=$(held debugfs 0x10003)
	if [ "$d" = 0x10021 ]; then
		ok "riscv,event-to-mhpmevent <0x10019 0x0 0x10021>: dTLB-load-misses' counter holds 0x10021"
	else
		not_ok "riscv,event-to-mhpmevent <0x10019 0x0 0x10021>: dTLB-load-misses' counter holds 0x10021"
		diag "held '$d'" "$(section debugfs "$out")"
	fi
else
	not_ok "virt with riscv,event-to-mhpmevent added: guest runs the checks"
	diag "$(tail -n 30 "$out")"
fi

# Pristine OpenSBI v1.9 removes the property (and the SBI PMU driver
# serves perf): the patch is what leaves it.
out="$tmp/pristine"
if guest_run "$out" --profile virt --firmware opensbi -- sh -c "
	echo '== props'; ls -1 /proc/device-tree/pmu
	echo '== end'
	" && section props "$out" | grep -qx compatible; then
	if section props "$out" | grep -q 'riscv,event-to-mhpmcounters'; then
		not_ok "pristine OpenSBI v1.9 deletes riscv,event-to-mhpmcounters"
		diag "$(section props "$out")"
	else
		ok "pristine OpenSBI v1.9 deletes riscv,event-to-mhpmcounters (the HPM patch keeps it)"
	fi
else
	not_ok "pristine OpenSBI v1.9: guest lists /proc/device-tree/pmu"
	diag "$(tail -n 20 "$out")"
fi
