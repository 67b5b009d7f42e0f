#!/usr/bin/env bash
# Every event of the U74 table (paper Table II, perf-events-json/sifive/
# u74) reaches the hardware with its Table II encoding: on the u74 profile
# with the HPM driver, each event is opened by name in perf stat -a, two
# at a time (the U74 has two programmable counters), and the driver's
# debugfs view shows the mhpmevent value the firmware holds for it.  The
# view is read by perf stat's own workload: system-wide events are
# counting from their open on, so they are on their counters while it
# runs, however slowly the guest starts perf.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$TOP/perf-events-json/sifive/u74" >"$tmp/events" <<'PY' || exit 1
import glob, json, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    if os.path.basename(f) == "metrics.json":
        continue
    for e in json.load(open(f)):
        if "EventName" in e and "EventCode" in e:
            print(e["EventName"].lower(), e["EventCode"])
PY
n=$(wc -l <"$tmp/events")

script=""
while read -r a _ && { read -r b _ || b=; }; do
	evs=$a${b:+,$b}
	script+="echo '== $evs'; "
	script+="perf stat -a -x, -o /dev/null -e $evs -- cat /sys/kernel/debug/riscv_pmu_hpm/counters; "
done <"$tmp/events"

out="$tmp/out"
if ! guest_run "$out" --profile u74 -- sh -c "$script"; then
	not_ok "u74: the table's events open under perf stat -a"
	diag "$(tail -n 20 "$out")"
	exit 0
fi

# For each event: some counter of its pair's section holds its code in
# mhpmevent and has an event scheduled on it.
missing=$(python3 - "$tmp/events" "$out" <<'PY'
import sys
events = [l.split() for l in open(sys.argv[1]) if l.strip()]
sections, cur = {}, None
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    if line.startswith("== "):
        cur = line[3:].split(",")
        for name in cur:
            sections[name] = []
    elif cur:
        f = line.split()
        if len(f) == 5 and f[1].isdigit() and f[4] != "-":
            for name in cur:
                sections[name].append(int(f[2], 16))
for name, code in events:
    if int(code, 16) not in sections.get(name, []):
        print(f"{name}: no active counter holds mhpmevent {code} "
              f"(held: {[hex(v) for v in sections.get(name, [])]})")
PY
)
if [ -z "$missing" ] && [ "$n" -ge 35 ]; then
	ok "u74: all $n Table II events reach mhpmevent with their encoding"
else
	not_ok "u74: all $n Table II events reach mhpmevent with their encoding"
	diag "$missing"
fi
