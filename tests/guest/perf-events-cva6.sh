#!/usr/bin/env bash
# The two CVA6 generations through the project's driver.
#
# Profile cva6 (today's core, 0x602-0x3-0x0, hpmcounter3..8): perf list
# shows upstream's 22 event names and the paper's ariane_* names of the
# events both generations have; perf stat -e ariane_load,L1_D_CACHE_MISSES
# counts both; with more events than counters, the driver's debugfs view
# shows events on hpmcounter3..8 and nowhere else; an event restricted to
# hpmcounter9 is refused at open (EINVAL; perf stat shows <not supported>),
# one restricted to hpmcounter8 opens and is counted there.
#
# Profile cva6-fixed (the paper's core, 0x0-0x3-0x0, hpmcounter3..16):
# ariane_load is counted on hpmcounter7 (debugfs names the counter);
# the 16 names of the paper's Listing 2 are listed and count together,
# 100 % each; perf stat -M CVA6 prints the eight Table VI metrics.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Upstream perf's names for today's CVA6 (openhwgroup/cva6), and the
# paper's names for the events both generations count.
upstream="L1_I_CACHE_MISSES L1_D_CACHE_MISSES ITLB_MISSES DTLB_MISSES
LOAD_INSTRUCTIONS_RETIRED STORE_INSTRUCTIONS_RETIRED EXCEPTIONS
EXCEPTION_HANDLER_RETURNS BRANCH_INSTRUCTIONS_RETIRED BRANCH_MISPREDICTS
BRANCH_EXCEPTIONS CALL_INSTRUCTIONS_RETIRED RETURN_INSTRUCTIONS_RETIRED
MSB_FULL INSTRUCTION_FETCH_EMPTY L1_I_CACHE_ACCESSES L1_D_CACHE_ACCESSES
L1_CACHE_LINE_EVICTION ITLB_FLUSH INTEGER_INSTRUCTIONS_RETIRED
FLOATING_POINT_INSTRUCTIONS_RETIRED PIPELINE_STALL"
ariane="ariane_ll_icache_miss ariane_ll_dcache_miss ariane_itlb_miss
ariane_dtlb_miss ariane_load ariane_store ariane_exception
ariane_exception_ret ariane_branch_jump ariane_call ariane_ret
ariane_mis_predict ariane_sb_full ariane_if_empty"
listing2="$ariane riscv_cycles riscv_instret"

# listed SECTION-OUTPUT NAMES...: the names perf list does not show.
unlisted() {
	local list=$1 n
	shift
	for n in "$@"; do
		grep -qix "$n" <<<"$list" || echo "$n"
	done
}

# --- today's CVA6 ---------------------------------------------------------
eight=L1_I_CACHE_MISSES,L1_D_CACHE_MISSES,ITLB_MISSES,DTLB_MISSES
eight=$eight,LOAD_INSTRUCTIONS_RETIRED,STORE_INSTRUCTIONS_RETIRED,EXCEPTIONS,BRANCH_MISPREDICTS
out="$tmp/cva6"
if ! guest_run "$out" --profile cva6 -- sh -c "
	echo '== list'; perf list --raw-dump pmu | tr ' ' '\n'
	echo '== stat'; perf stat -x, -o /tmp/s -e ariane_load,L1_D_CACHE_MISSES knownloop 100000; cat /tmp/s
	echo '== busy'; perf stat -a -x, -o /dev/null -e $eight -- sleep 1 & sleep 0.5
	cat /sys/kernel/debug/riscv_pmu_hpm/counters; wait
	echo '== pin9'; perf stat -x, -o /tmp/p -e cpu/event=5,counterid_mask=0x200/ true; cat /tmp/p
	perfops where 5 0x200 2>&1; echo \"status=\$?\"
	echo '== pin8'; perf stat -x, -o /tmp/p -e cpu/event=5,counterid_mask=0x100/ true; cat /tmp/p
	perfops where 5 0x100 2>&1; echo \"status=\$?\"
	echo '== end'
	"; then
	not_ok "cva6: perf list and perf stat run"
	diag "$(tail -n 30 "$out")"
else
	list=$(section list "$out")
	# shellcheck disable=SC2086
	missing=$(unlisted "$list" $upstream)
	check "cva6: perf list shows upstream's 22 CVA6 event names" [ -z "$missing" ]
	[ -z "$missing" ] || diag "missing:" $missing
	# shellcheck disable=SC2086
	missing=$(unlisted "$list" $ariane)
	check "cva6: perf list shows the 14 ariane_* names of the events both generations have" [ -z "$missing" ]
	[ -z "$missing" ] || diag "missing:" $missing
	s=$(section stat "$out")
	a=$(perf_count ariane_load <<<"$s") d=$(perf_count L1_D_CACHE_MISSES <<<"$s")
	pa=$(awk -F, '$3 == "ariane_load" { print $5 }' <<<"$s")
	pd=$(awk -F, '$3 == "L1_D_CACHE_MISSES" { print $5 }' <<<"$s")
	if is_number "$a" && is_number "$d" && [ "$pa" = 100.00 ] && [ "$pd" = 100.00 ]; then
		ok "cva6: perf stat -e ariane_load,L1_D_CACHE_MISSES counts both, 100 % ($a, $d)"
	else
		not_ok "cva6: perf stat -e ariane_load,L1_D_CACHE_MISSES counts both, 100 %"
		diag "$s"
	fi
	# debugfs lines: CPU COUNTER MHPMEVENT INHIBITED CONFIG|-
	busy=$(section busy "$out" | awk 'NF == 5 && $2 ~ /^[0-9]+$/')
	listed=$(awk '$1 == 0 { print $2 }' <<<"$busy" | sort -n | tr '\n' ' ')
	used=$(awk '$5 != "-" { print $2 }' <<<"$busy" | sort -nu | tr '\n' ' ')
	if [ "$listed" = "3 4 5 6 7 8 " ] && [ "$used" = "3 4 5 6 7 8 " ]; then
		ok "cva6: eight events on six counters: only hpmcounter3..8 exist and carry events ($used)"
	else
		not_ok "cva6: eight events on six counters: only hpmcounter3..8 exist and carry events"
		diag "counters listed: $listed" "counters with an event: $used" "$busy"
	fi
	p9=$(section pin9 "$out") p8=$(section pin8 "$out")
	# perf stat reports an event it could not open as <not supported>;
	# perfops shows perf_event_open's own verdict (and the counter).
	if grep -q '^<not supported>,' <<<"$p9" && grep -Eq '(perf_event_open|syscall failed for event .*): Invalid argument' <<<"$p9" &&
		grep -q '^status=[1-9]' <<<"$p9" && grep -q '^[0-9][0-9]*,' <<<"$p8" &&
		grep -q '^counter=8 ' <<<"$p8" && grep -q '^status=0' <<<"$p8"; then
		ok "cva6: an event restricted to hpmcounter9 is refused at open (hpmcounter8 is accepted)"
	else
		not_ok "cva6: an event restricted to hpmcounter9 is refused at open (hpmcounter8 is accepted)"
		diag "counter 9:" "$p9" "counter 8:" "$p8"
	fi
fi

# --- the paper's fixed-counter CVA6 ---------------------------------------
all=$(echo $listing2 | tr ' ' ',')
out="$tmp/cva6-fixed"
if ! guest_run "$out" --profile cva6-fixed -- sh -c "
	echo '== list'; perf list --raw-dump pmu | tr ' ' '\n'
	echo '== one'; perf stat -x, -o /tmp/s -e ariane_load knownloop 1000; cat /tmp/s
	echo '== all'; perf stat -x, -o /tmp/s -e $all knownloop 100000; cat /tmp/s
	echo '== metrics'; perf stat -M CVA6 knownloop 100000 2>&1
	echo '== where'; enc=\$(perf list --details ariane_load | grep -o 'cpu/[^ ]*/')
	echo \"encoding \$enc\"
	perf stat -o /dev/null -e ariane_load cat /sys/kernel/debug/riscv_pmu_hpm/counters
	"; then
	not_ok "cva6-fixed: ariane_* events under perf stat"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
# shellcheck disable=SC2086
missing=$(unlisted "$(section list "$out")" $listing2)
check "cva6-fixed: perf list shows the 16 names of the paper's Listing 2" [ -z "$missing" ]
[ -z "$missing" ] || diag "missing:" $missing
c=$(section one "$out" | perf_count ariane_load)
check "cva6-fixed: perf stat -e ariane_load opens the event and prints a count ($c)" is_number "$c"
bad=$(section all "$out" | awk -F, 'NF > 5 && ($1 !~ /^[0-9]+$/ || $5 != "100.00") { print $3 " " $1 " " $5 }')
got=$(section all "$out" | awk -F, 'NF > 5' | wc -l)
if [ "$got" = 16 ] && [ -z "$bad" ]; then
	ok "cva6-fixed: the 16 Listing 2 events open and count together, 100 % each ($got)"
else
	not_ok "cva6-fixed: the 16 Listing 2 events open and count together, 100 % each"
	diag "$got lines; not at 100 %:" "$bad" "$(section all "$out")"
fi
w=$(section where "$out")
# debugfs, read by the task the event counts: on this profile the
# mmap page names no counter, as user space cannot read them.
if grep -Eq '^0 7 0x7 [-0-9]+ 0x7$' <<<"$w"; then
	ok "cva6-fixed: ariane_load ($(sed -n "s/^encoding //p" <<<"$w")) is counted on hpmcounter7"
else
	not_ok "cva6-fixed: ariane_load is counted on hpmcounter7"
	diag "$w"
fi
m=$(section metrics "$out")
missing=
for name in branch_miss_rate l1d_miss_rate l1i_miss_rate sb_full_cycles if_empty_cycles ipc \
	dtlb_miss_rate itlb_miss_rate; do
	grep -q "#.* $name\b" <<<"$m" || missing="$missing $name"
done
if [ -z "$missing" ] && ! grep -q nan <<<"$m"; then
	ok "cva6-fixed: perf stat -M CVA6 prints the eight Table VI metrics, no nan"
else
	not_ok "cva6-fixed: perf stat -M CVA6 prints the eight Table VI metrics, no nan"
	diag "missing:$missing" "$m"
fi
