#!/usr/bin/env bash
# The HPM extension PMU driver on four harts (virt --smp 4, project
# firmware): perf stat -a counts on every CPU, each CPU programming its
# own counters, and the loop's instructions are among the total.
# Per-task counting follows a task that moves between harts.
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
