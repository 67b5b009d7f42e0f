#!/usr/bin/env bash
# perf-events-json/ is the one home of the perf event tables: the patches
# of the perf tool series that carry them
# (linux-patches/<VER>/*-perf-tools/*-perf-vendor-events-riscv-*, for 7.2
# and for 6.12) must be exactly what scripts/gen-perf-events-patch makes
# of the tables now.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for ver in 7.2 6.12; do
	if "$TOP/scripts/gen-perf-events-patch" --linux "$ver" --check >"$tmp/out" 2>&1; then
		ok "linux-patches/$ver: the table patches are what perf-events-json/ generates"
	else
		not_ok "linux-patches/$ver: the table patches are what perf-events-json/ generates"
		diag "$(head -n 40 "$tmp/out")"
	fi
done

# Every table directory of perf-events-json/ has its mapfile line, and
# every mapfile line names a table that exists.
if python3 - "$TOP/perf-events-json" >"$tmp/out" 2>&1 <<'PY'
import os, sys
top = sys.argv[1]
tables = {os.path.relpath(d, top) for d, _, files in os.walk(top)
          if any(f.endswith('.json') for f in files)}
lines = [l.split(',') for l in open(os.path.join(top, 'mapfile.csv')).read().splitlines()
         if l.strip() and not l.startswith('#')]
mapped = {f[2] for f in lines}
bad = [f for f in lines if len(f) != 4 or f[3] != 'core']
for t in sorted(tables - mapped): print('no mapfile line for', t)
for t in sorted(mapped - tables): print('mapfile line for missing table', t)
for f in bad: print('malformed line', ','.join(f))
sys.exit(bool(tables ^ mapped or bad))
PY
then
	ok "perf-events-json/mapfile.csv maps exactly the tables there are"
else
	not_ok "perf-events-json/mapfile.csv maps exactly the tables there are"
	diag "$(cat "$tmp/out")"
fi

