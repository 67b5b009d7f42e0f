#!/usr/bin/env bash
# The SBI PMU driver's user-space counter access on pristine OpenSBI v1.9
# (--firmware opensbi: no HPM extension, so the SBI PMU driver serves
# perf), end to end, per kernel.perf_user_access:
#  - 1 (the default): no counter but time is readable without an event
#    (rdcycle and rdinstret trap); a task reads its own cycles,
#    instructions and dTLB-load-misses events through their mmap pages;
#    once they are closed rdcycle traps again;
#  - 2 (legacy): rdcycle and rdinstret work without an event; cycles and
#    instructions events are read through their pages on cycle (0) and
#    instret (2); a cache event's page offers no counter;
#  - back to 1: rdcycle and rdinstret trap again;
#  - 0: nothing is readable, no page offers a counter.
# The kernel.perf_user_access code is common to the SBI PMU and HPM
# drivers (drivers/perf/riscv_pmu.c): this is what the SBI PMU driver
# did before it moved there.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out="$tmp/out"
if ! guest_run "$out" --profile virt --firmware opensbi -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu
	echo '== mode1'; cat /proc/sys/kernel/perf_user_access; perfops rdcounters
	for e in cycles instructions dTLB-load-misses; do perfops mapread \$e; done
	perfops rdcounters
	echo '== mode2'; echo 2 >/proc/sys/kernel/perf_user_access
	cat /proc/sys/kernel/perf_user_access; perfops rdcounters
	for e in cycles instructions dTLB-load-misses; do perfops mapread \$e; done
	echo '== back1'; echo 1 >/proc/sys/kernel/perf_user_access; perfops rdcounters
	echo '== mode0'; echo 0 >/proc/sys/kernel/perf_user_access
	cat /proc/sys/kernel/perf_user_access; perfops rdcounters
	for e in cycles instructions dTLB-load-misses; do perfops mapread \$e; done
	echo '== end'
	"; then
	not_ok "virt --firmware opensbi: guest runs the user-access checks"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

if section dmesg "$out" | grep -q 'riscv-pmu-sbi: SBI PMU extension is available' &&
	! grep -q riscv-pmu-hpm "$out"; then
	ok "OpenSBI without the HPM extension: the SBI PMU driver serves perf"
else
	not_ok "OpenSBI without the HPM extension: the SBI PMU driver serves perf"
	diag "$(section dmesg "$out")"
fi

# expect SECTION DESCRIPTION EXPECTED-LINES (a grep -x pattern per line)
expect() {
	local got
	got=$(section "$1" "$out")
	if [ "$(wc -l <<<"$got")" = "$(wc -l <<<"$3")" ] &&
		paste -d '\n' <(echo "$3") <(echo "$got") |
		awk 'NR % 2 { re = "^" $0 "$"; next } $0 !~ re { bad = 1 } END { exit bad }'; then
		ok "$2"
	else
		not_ok "$2"
		diag "expected:" "$3" "got:" "$got"
	fi
}

expect mode1 "perf_user_access 1 (default): rdcycle/rdinstret trap without an event; a task reads its cycles, instructions and dTLB-load-misses events through the mmap page; rdcycle traps after they close" \
'1
rdcycle=trapped rdinstret=trapped
counter=[0-9][0-9]* user_rdpmc=1 read=ok
counter=[0-9][0-9]* user_rdpmc=1 read=ok
counter=[0-9][0-9]* user_rdpmc=1 read=ok
rdcycle=trapped rdinstret=trapped'

expect mode2 "perf_user_access 2 (legacy): rdcycle/rdinstret work; cycles on counter 0 and instructions on 2 are read through the page; a cache event's page offers no counter" \
'2
rdcycle=ok rdinstret=ok
counter=0 user_rdpmc=1 read=ok
counter=2 user_rdpmc=1 read=ok
counter=-1 user_rdpmc=0 read=unavailable'

expect back1 "perf_user_access 2 -> 1: rdcycle/rdinstret trap again" \
'rdcycle=trapped rdinstret=trapped'

expect mode0 "perf_user_access 0: nothing readable, no page offers a counter" \
'0
rdcycle=trapped rdinstret=trapped
counter=-1 user_rdpmc=0 read=unavailable
counter=-1 user_rdpmc=0 read=unavailable
counter=-1 user_rdpmc=0 read=unavailable'
