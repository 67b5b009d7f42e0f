#!/usr/bin/env bash
# CVA6 through the project's driver (needs the counterid_mask format of
# PMU "cpu"): perf stat -e ariane_load opens and counts; the 14 pinned
# ariane_* events count together, each on its own counter, 100 % each;
# ariane_load's encoding, as perf resolves it, lands on hpmcounter7 (the
# counter the paper's CVA6 wires loads to: the driver's counter shows in
# the event's mmap page); perf stat -M CVA6 prints the Table VI metrics.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pinned=ariane_ll_icache_miss,ariane_ll_dcache_miss,ariane_itlb_miss,ariane_dtlb_miss
pinned=$pinned,ariane_load,ariane_store,ariane_exception,ariane_exception_ret
pinned=$pinned,ariane_branch_jump,ariane_call,ariane_ret,ariane_mis_predict
pinned=$pinned,ariane_sb_full,ariane_if_empty
out="$tmp/cva6"
if ! guest_run "$out" --profile cva6 -- sh -c "
	echo '== one'; perf stat -x, -o /tmp/s -e ariane_load knownloop 1000; cat /tmp/s
	echo '== all'; perf stat -x, -o /tmp/s -e $pinned knownloop 100000; cat /tmp/s
	echo '== metrics'; perf stat -M CVA6 knownloop 100000 2>&1
	echo '== where'; enc=\$(perf list --details ariane_load | grep -o 'cpu/[^ ]*/')
	echo \"encoding \$enc\"
	ev=\$(echo \$enc | sed -n 's/.*event=\\(0x[0-9a-f]*\\).*/\\1/p')
	mask=\$(echo \$enc | sed -n 's/.*counterid_mask=\\(0x[0-9a-f]*\\).*/\\1/p')
	perfops where \$ev \$mask
	"; then
	not_ok "cva6: ariane_* events under perf stat"
	diag "$(tail -n 30 "$out")"
else
	c=$(section one "$out" | perf_count ariane_load)
	check "cva6: perf stat -e ariane_load opens the event and prints a count ($c)" is_number "$c"
	bad=$(section all "$out" | awk -F, 'NF > 5 && ($1 !~ /^[0-9]+$/ || $5 != "100.00") { print $3 " " $1 " " $5 }')
	got=$(section all "$out" | awk -F, 'NF > 5' | wc -l)
	if [ "$got" = 14 ] && [ -z "$bad" ]; then
		ok "cva6: the 14 pinned ariane_* events count together, 100 % each (one counter each)"
	else
		not_ok "cva6: the 14 pinned ariane_* events count together, 100 % each"
		diag "$got lines; not at 100 %:" "$bad" "$(section all "$out")"
	fi
	w=$(section where "$out")
	if grep -qx 'counter=7 .*' <<<"$w"; then
		ok "cva6: ariane_load ($(sed -n "s/^encoding //p" <<<"$w")) is counted on hpmcounter7"
	else
		not_ok "cva6: ariane_load is counted on hpmcounter7"
		diag "$w"
	fi
	m=$(section metrics "$out")
	if grep -q 'branch_miss_rate\|l1d_miss_rate' <<<"$m" && grep -q ' ipc' <<<"$m"; then
		ok "cva6: perf stat -M CVA6 prints the Table VI metrics"
	else
		not_ok "cva6: perf stat -M CVA6 prints the Table VI metrics"
		diag "$m"
	fi
fi
