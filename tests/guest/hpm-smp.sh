#!/usr/bin/env bash
# The HPM extension PMU driver on four harts (virt --smp 4, project
# firmware): perf stat -a counts on every CPU, each CPU programming its
# own counters, and the loop's instructions are among the total.
# Per-task counting follows a task that moves between harts, and a hart
# taken offline and back gets its counters set up again.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=5000000	# 10^7 loop instructions
out="$tmp/out"
if ! guest_run "$out" --profile virt --firmware hpm --smp 4 -- sh -c "
	echo '== all'; perf stat -a -A -x';' -o /tmp/s -e cycles,instructions,r2,dTLB-load-misses -- knownloop $iterations; cat /tmp/s
	echo '== end'
	"; then
	not_ok "virt --smp 4 --firmware hpm: guest runs perf stat -a"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

sec=$(section all "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
for ev in cycles instructions r2 dTLB-load-misses; do
	# -A: "CPUn;count;unit;event[ [cpu]];time;running;..."
	n=$(awk -F';' -v ev="$ev" '$4 == ev || $4 == ev " [cpu]" {
		if ($2 ~ /^[0-9]+$/ && $6 == "100.00") n++ } END { print n + 0 }' <<<"$sec")
	if [ "$n" = 4 ]; then
		ok "perf stat -a: $ev counted on all 4 CPUs at 100 %"
	else
		not_ok "perf stat -a: $ev counted on all 4 CPUs at 100 %"
		diag "$sec"
	fi
done
total=$(awk -F';' '$4 == "instructions" { s += $2 } END { print s + 0 }' <<<"$sec")
if is_number "$expected" && [ "$total" -ge "$expected" ]; then
	ok "perf stat -a: instructions on all CPUs ($total) include the loop's $expected"
else
	not_ok "perf stat -a: instructions on all CPUs include the loop's count"
	diag "expected at least '$expected', total '$total'"
fi

# Per-task counting follows the task across harts: knownloop is moved
# from hart to hart (taskset) while perf stat counts it and its shell
# (inherited events).  Under -icount one instruction is one nanosecond,
# so the counts must match the task clock (nothing lost or counted twice
# at a migration), the programmable counter (r2, programmed anew on each
# hart) must match instret, and the loop must be in the count.
out="$tmp/task"
if ! guest_run "$out" --profile virt --firmware hpm --icount --smp 4 -- sh -c "
	echo '== task'; perf stat -x';' -o /tmp/s -e instructions,r2,cpu-migrations,task-clock -- sh -c '
		knownloop 50000000 & p=\$!
		sleep 0.01; taskset -p 2 \$p >/dev/null; sleep 0.01; taskset -p 4 \$p >/dev/null
		sleep 0.01; taskset -p 8 \$p >/dev/null; wait \$p'; cat /tmp/s
	echo '== end'
	"; then
	not_ok "virt --smp 4 --firmware hpm: guest runs perf stat on a migrating task"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
sec=$(section task "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
insn=$(field 1 instructions <<<"$sec")
r2=$(field 1 r2 <<<"$sec")
migr=$(field 1 cpu-migrations <<<"$sec")
clock_ns=$(field 1 task-clock <<<"$sec" | awk '{ printf "%d", $1 * 1000000 }')
if is_number "$expected" && is_number "$insn" && is_number "$r2" && is_number "$migr" &&
	[ "$migr" -ge 2 ] && [ "$insn" -ge "$expected" ] &&
	within_pct "$r2" "$insn" 0.5 && within_pct "$insn" "$clock_ns" 2 &&
	[ "$(field 5 r2 <<<"$sec")" = 100.00 ]; then
	ok "per-task: across $migr migrations instructions ($insn) match the task clock, r2 matches instret, the loop's $expected included"
else
	not_ok "per-task: across migrations instructions match the task clock, r2 matches instret, the loop included"
	diag "$sec"
fi

# CPU hotplug: a hart taken offline and back while perf stat -a counts
# on it, then three more times; afterwards the hart's counters are set up
# again (all programmable ones stopped until an event needs them, per
# debugfs) and count a loop pinned to it, with no kernel warning.
out="$tmp/hotplug"
cpu1=/sys/devices/system/cpu/cpu1/online
if ! guest_run "$out" --profile virt --firmware hpm --icount --smp 2 -- sh -c "
	echo '== during'; perf stat -a -A -x';' -o /tmp/s -e cycles,r2,r10019 -- sh -c '
		knownloop 1000000; echo 0 >$cpu1; knownloop 1000000
		echo 1 >$cpu1; knownloop 1000000'; cat /tmp/s
	for i in 1 2 3; do echo 0 >$cpu1; echo 1 >$cpu1; done
	echo '== online'; cat /sys/devices/system/cpu/online
	echo '== idle'; grep '^1 ' /sys/kernel/debug/riscv_pmu_hpm/counters
	echo '== after'; perf stat -a -A -x';' -o /tmp/s -e r2 -- taskset 2 knownloop 5000000; cat /tmp/s
	echo '== dmesg'; dmesg | grep -i 'bug\|oops\|warning\|call trace'
	echo '== end'
	"; then
	not_ok "virt --smp 2 --firmware hpm: guest takes hart 1 offline and back"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
sec=$(section during "$out")
n=$(awk -F';' '$1 ~ /^CPU[01]$/ && $2 ~ /^[0-9]+$/ && $6 == "100.00" { n++ } END { print n + 0 }' <<<"$sec")
if [ "$n" = 6 ] && [ "$(section online "$out")" = 0-1 ] && [ -z "$(section dmesg "$out")" ]; then
	ok "hotplug: hart 1 offline and back under perf stat -a: 3 events counted on both CPUs, no kernel warning"
else
	not_ok "hotplug: hart 1 offline and back under perf stat -a: 3 events counted on both CPUs, no kernel warning"
	diag "$sec" "$(section online "$out")" "$(section dmesg "$out")"
fi
idle=$(section idle "$out")
if [ "$(wc -l <<<"$idle")" = 16 ] && ! awk '$4 != 1' <<<"$idle" | grep -q .; then
	ok "hotplug: back online, hart 1's 16 programmable counters are all stopped while no event uses them"
else
	not_ok "hotplug: back online, hart 1's 16 programmable counters are all stopped while no event uses them"
	diag "$idle"
fi
sec=$(section after "$out")
expected=$(sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p' <<<"$sec")
c1=$(awk -F';' '$1 == "CPU1" { print $2 }' <<<"$sec")
if is_number "$c1" && is_number "$expected" && [ "$c1" -ge "$expected" ]; then
	ok "hotplug: after four offline/online cycles hart 1 counts the pinned loop ($c1 for $expected)"
else
	not_ok "hotplug: after four offline/online cycles hart 1 counts the pinned loop"
	diag "$sec"
fi
