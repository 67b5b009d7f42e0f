#!/usr/bin/env bash
# perf stat counts what the workloads do: the known loop's instructions
# exactly (under -icount), more data TLB misses for a large pointer chase
# than for a small one, and both matrix multiplications run under perf
# stat with the checksum the host computes.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=50000000	# 2 instructions each: 10^8 loop instructions
matn=160
steps=1000000
out="$tmp/out"
# dTLB-load-misses needs a PMU driver that maps it: here the SBI PMU
# driver on pristine OpenSBI v1.9, from QEMU's device tree.
if ! guest_run "$out" --profile virt --firmware opensbi --icount -- sh -c "
	echo '== loop'; knownloop $iterations
	echo '== loop-stat'; perf stat -x, -o /tmp/s -e instructions knownloop $iterations >/dev/null; cat /tmp/s
	echo '== small'; perf stat -x, -o /tmp/s -e dTLB-load-misses ptrchase 64K $steps >/dev/null; cat /tmp/s
	echo '== large'; perf stat -x, -o /tmp/s -e dTLB-load-misses ptrchase 64M $steps >/dev/null; cat /tmp/s
	echo '== naive'; perf stat -e instructions,cycles matmul naive $matn
	echo '== interchanged'; perf stat -e instructions,cycles matmul interchanged $matn
	"; then
	not_ok "virt --icount: counting workloads run"
	diag "$(tail -n 30 "$out")"
	exit 0
fi

expected=$(section loop "$out" | sed -n 's/.*loop_instructions=\([0-9]*\).*/\1/p')
count=$(section loop-stat "$out" | perf_count instructions)
if is_number "$expected" && is_number "$count" &&
	within_pct "$count" "$expected" 1; then
	ok "instructions of the known loop within 1 % of $expected (got $count)"
else
	not_ok "instructions of the known loop within 1 % of the loop's count"
	diag "expected '$expected', perf counted '$count'" "$(section loop-stat "$out")"
fi

small=$(section small "$out" | perf_count dTLB-load-misses)
large=$(section large "$out" | perf_count dTLB-load-misses)
if is_number "$small" && is_number "$large" && [ "$large" -gt "$small" ]; then
	ok "dTLB-load-misses: 64 MiB chase ($large) > 64 KiB chase ($small)"
else
	not_ok "dTLB-load-misses: 64 MiB chase counts more than 64 KiB chase"
	diag "64 KiB: '$small'  64 MiB: '$large'" "$(section large "$out")"
fi

for order in naive interchanged; do
	want=$("$GUEST_OUT/host/matmul" "$order" "$matn")
	sec=$(section "$order" "$out")
	if grep -qxF "$want" <<<"$sec" &&
		grep -q 'Performance counter stats' <<<"$sec" &&
		grep -Eq '^ *[0-9,.]+ +instructions' <<<"$sec"; then
		ok "matmul $order under perf stat: host checksum and a count"
	else
		not_ok "matmul $order under perf stat: host checksum and a count"
		diag "want: $want" "$sec"
	fi
done
