#!/usr/bin/env bash
# perf's own jevents.py (from the pristine tree with the series' perf
# patches applied) accepts the tables: every event and metric compiles,
# CounterIDMask turns into the counterid_mask term and bad masks are
# refused, the QEMU profiles' CPU ids select their tables, and the tables
# hold the paper's events (U74 Table II, CVA6 Table III).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$("$TOP/scripts/prepare-linux" 2>"$tmp/log" | tail -n 1)
tree="$tmp/tree"
mkdir -p "$tree"
if ! git -C "$src" archive pristine tools/perf/pmu-events MAINTAINERS | tar -x -C "$tree"; then
	not_ok "pristine tools/perf/pmu-events from $src"
	diag "$(cat "$tmp/log")"
	exit 0
fi
applied=yes
for p in "$TOP"/linux-patches/001[0-9]-*.patch; do
	[ -e "$p" ] || continue
	if ! git -C "$tree" apply --include='tools/perf/*' --include=MAINTAINERS "$p" 2>"$tmp/apply"; then
		applied=no
		diag "$(basename "$p"):" "$(cat "$tmp/apply")"
	fi
done
check "the perf patches (0010-0019) apply to pristine tools/perf/pmu-events" [ $applied = yes ]

pe="$tree/tools/perf/pmu-events"
if (cd "$pe" && python3 jevents.py riscv all arch "$tmp/pmu-events.c") 2>"$tmp/jevents"; then
	ok "jevents.py builds the riscv tables"
else
	not_ok "jevents.py builds the riscv tables"
	diag "$(tail -n 20 "$tmp/jevents")"
	exit 0
fi
if (cd "$pe" && python3 metric_test.py) >"$tmp/mt" 2>&1; then
	ok "perf's metric.py self-test passes"
else
	not_ok "perf's metric.py self-test passes"
	diag "$(tail -n 20 "$tmp/mt")"
fi

# A CVA6 event pinned to its counter compiles to counterid_mask=.
if grep -q 'ariane_load\\000[a-z]*\\000[^\\]*\\000event=5,counterid_mask=0x80\\000' "$tmp/pmu-events.c"; then
	ok "ariane_load compiles to event=5,counterid_mask=0x80 (hpmcounter7)"
else
	not_ok "ariane_load compiles to event=5,counterid_mask=0x80 (hpmcounter7)"
	diag "$(grep -o 'ariane_load\\000[^"]*' "$tmp/pmu-events.c" | head -n 2)"
fi

# Bad masks are refused when the tables are built; good ones accepted.
mkdir -p "$tmp/bad/riscv/x/y"
cp "$pe/arch/riscv/riscv-sbi-firmware.json" "$tmp/bad/riscv/"
printf '0x1-0x1-0x1,v1,x/y,core\n' >"$tmp/bad/riscv/mapfile.csv"
mkdir -p "$tmp/bad/test"
for mask in 0x2 0x100000000 nonsense 0x80 0; do
	printf '[{"EventName": "E", "EventCode": "0x5", "CounterIDMask": "%s"}]\n' "$mask" \
		>"$tmp/bad/riscv/x/y/e.json"
	if (cd "$pe" && python3 jevents.py riscv all "$tmp/bad" "$tmp/bad.c") >/dev/null 2>&1; then
		echo "$mask accepted"
	else
		echo "$mask refused"
	fi
done >"$tmp/masks"
if [ "$(cat "$tmp/masks")" = "0x2 refused
0x100000000 refused
nonsense refused
0x80 accepted
0 accepted" ]; then
	ok "jevents.py refuses CounterIDMask 0x2 (time), 0x100000000 and non-numbers"
else
	not_ok "jevents.py refuses CounterIDMask 0x2 (time), 0x100000000 and non-numbers"
	diag "$(cat "$tmp/masks")"
fi

# The tables' contents: CPU ids of the profiles, the paper's events,
# metric expressions that name only known events.
python3 - "$pe/arch/riscv" "$TOP/qemu-config" >"$tmp/py" 2>&1 <<'PY'
import glob, json, os, re, sys
arch, qconf = sys.argv[1:]
def ok(c, what, *diag):
    print(('ok - ' if c else 'not ok - ') + what)
    for d in diag:
        if not c: print('# ' + str(d))
def table(path):
    ev, me = {}, []
    for f in glob.glob(os.path.join(arch, path, '*.json')):
        for e in json.load(open(f)):
            if 'MetricName' in e: me.append(e)
            elif 'EventName' in e: ev[e['EventName'].lower()] = e
    return ev, me
mapfile = [l.split(',') for l in open(os.path.join(arch, 'mapfile.csv')).read().splitlines()
           if l and not l.startswith('#')]
def lookup(cpuid):
    hits = [f[2] for f in mapfile
            if re.fullmatch(f[0].replace('[[:xdigit:]]', '[0-9a-fA-F]'), cpuid)]
    return hits
want = {'virt': 'qemu/virt', 'u74': 'sifive/u74', 'cva6': 'openhwgroup/cva6'}
for prof, path in want.items():
    conf = dict(re.findall(r'^(EXPECT_\w+)=(\S+)', open(os.path.join(qconf, prof + '.conf')).read(), re.M))
    cpuid = '-'.join(conf['EXPECT_' + k] for k in ('MVENDORID', 'MARCHID', 'MIMPID'))
    hits = lookup(cpuid)
    ok(hits == [path], f'{prof}: cpuid {cpuid} selects {path} (only)', hits)

# U74, paper Table II: class 0 bits 8-25, class 1 bits 8-18, class 2 bits 8-13.
u74, u74m = table('sifive/u74')
codes = {int(e['EventCode'], 0) for e in u74.values() if 'EventCode' in e}
table2 = [(1 << b) | c for c, hi in ((0, 25), (1, 18), (2, 13)) for b in range(8, hi + 1)]
missing = [hex(c) for c in table2 if c not in codes]
ok(len(table2) == 35 and not missing, 'u74: all 35 Table II events have an event', missing)
for n, c in (('integer_load_retired', 0x200), ('data_tlb_miss', 0x1002), ('icache_retired', 0x102)):
    ok(n in u74 and int(u74[n]['EventCode'], 0) == c, f'u74: 6.12 name {n} keeps code {hex(c)}')

# CVA6, paper Table III: each event pinned to its fixed counter.
cva6, cva6m = table('openhwgroup/cva6')
table3 = {'ariane_ll_icache_miss': 3, 'ariane_ll_dcache_miss': 4, 'ariane_itlb_miss': 5,
          'ariane_dtlb_miss': 6, 'ariane_load': 7, 'ariane_store': 8, 'ariane_exception': 9,
          'ariane_exception_ret': 10, 'ariane_branch_jump': 11, 'ariane_call': 12,
          'ariane_ret': 13, 'ariane_mis_predict': 14, 'ariane_sb_full': 15,
          'ariane_if_empty': 16, 'riscv_cycles': 0, 'riscv_instret': 2}
wrong = [n for n, c in table3.items()
         if n not in cva6 or int(cva6[n].get('CounterIDMask', '0'), 0) != 1 << c]
ok(not wrong, 'cva6: the 16 events of Listings 1-2 are pinned to their Table III counters', wrong)
# ... with the event selector value of the same event on the selector CVA6.
selector = {'ariane_ll_icache_miss': 1, 'ariane_ll_dcache_miss': 2, 'ariane_itlb_miss': 3,
            'ariane_dtlb_miss': 4, 'ariane_load': 5, 'ariane_store': 6, 'ariane_exception': 7,
            'ariane_exception_ret': 8, 'ariane_branch_jump': 9, 'ariane_mis_predict': 10,
            'ariane_call': 12, 'ariane_ret': 13, 'ariane_sb_full': 14, 'ariane_if_empty': 15}
wrong = [n for n, c in selector.items() if int(cva6[n]['EventCode'], 0) != c]
ok(not wrong, 'cva6: pinned events carry the selector CVA6 code of the same event', wrong)
sel_codes = {int(e['EventCode'], 0) for n, e in cva6.items() if n.startswith('ariane_')}
ok(set(range(1, 23)) <= sel_codes, 'cva6: every selector code 1-22 has an event',
   sorted(set(range(1, 23)) - sel_codes))

virt, virtm = table('qemu/virt')
vcodes = sorted(int(e['EventCode'], 0) for e in virt.values() if 'EventCode' in e)
ok(vcodes == [0x1, 0x2, 0x10019, 0x1001b, 0x10021], 'virt: the five events QEMU counts', vcodes)

generic = {'cycles', 'instructions'}
for name, (ev, me) in (('u74', (u74, u74m)), ('cva6', (cva6, cva6m)), ('virt', (virt, virtm))):
    unknown = set()
    for m in me:
        for ident in re.findall(r'[A-Za-z_][A-Za-z0-9_.]*', m['MetricExpr']):
            if ident.lower() not in ev and ident not in generic:
                unknown.add(f"{m['MetricName']}: {ident}")
    ok(me and not unknown, f'{name}: {len(me)} metrics name only events of the table', *sorted(unknown))
    ok(all(m.get('MetricGroup') for m in me), f'{name}: every metric is in a metric group')
names = {m['MetricName'] for m in cva6m}
t6 = {'branch_miss_rate', 'l1d_miss_rate', 'l1i_miss_rate', 'sb_full_cycles',
      'if_empty_cycles', 'ipc', 'dtlb_miss_rate', 'itlb_miss_rate'}
ok(t6 <= names, 'cva6: the eight Table VI metrics', sorted(t6 - names))
names = {m['MetricName'] for m in u74m}
ok({'cpi', 'dcache_miss_ratio', 'branch_mispredict_ratio', 'dtlb_miss_pti'} <= names,
   'u74: rpistat metrics (CPI, PTI rates, miss ratios)')
PY
cat "$tmp/py"
