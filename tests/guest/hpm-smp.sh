#!/usr/bin/env bash
# The HPM extension PMU driver on four harts (virt --smp 4, project
# firmware): perf stat -a counts on every CPU, each CPU programming its
# own counters, and the loop's instructions are among the total.
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
