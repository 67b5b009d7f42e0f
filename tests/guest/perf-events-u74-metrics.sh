#!/usr/bin/env bash
# The U74's rpistat metrics (perf-events-json/sifive/u74/metrics.json)
# under perf stat -M rpistat on the u74 profile: every metric of the group
# is printed, including the main-TLB rate and the instruction-buffer stall
# share, and none is nan.  QEMU counts none of the U74's own event codes,
# so most denominators are zero here: the d_ratio() form prints 0 where a
# plain division printed nan.  The workload runs long enough (4*10^8
# instructions) for perf to rotate every group of the two counters in.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

want=$(python3 - "$TOP/perf-events-json/sifive/u74/metrics.json" <<'PY'
import json, sys
for m in json.load(open(sys.argv[1])):
    if 'rpistat' in m['MetricGroup'].split(';'):
        print(m['MetricName'])
PY
)
out="$tmp/out"
if ! guest_run "$out" --profile u74 -- sh -c "perf stat -M rpistat knownloop 200000000 2>&1"; then
	not_ok "u74: perf stat -M rpistat runs"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
missing=
for m in $want; do
	grep -q "#.* $m\b" "$out" || missing="$missing $m"
done
n=$(wc -w <<<"$want")
if [ "$n" -ge 10 ] && [ -z "$missing" ] && grep -qw utlb_miss_pti <<<"$want" &&
	grep -qw ibuf_stall_cycles <<<"$want"; then
	ok "u74: perf stat -M rpistat prints all $n rpistat metrics (utlb_miss_pti, ibuf_stall_cycles among them)"
else
	not_ok "u74: perf stat -M rpistat prints all rpistat metrics"
	diag "missing:$missing" "$(cat "$out")"
fi
if grep -qi nan "$out"; then
	not_ok "u74: no rpistat metric is nan"
	diag "$(grep -i nan "$out")"
else
	ok "u74: no rpistat metric is nan"
fi
