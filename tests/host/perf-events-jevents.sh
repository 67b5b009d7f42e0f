#!/usr/bin/env bash
# perf's own jevents.py accepts the project's tables on both trees the
# project has a series for, each with its perf tool series
# (linux-patches/<VER>/*-perf-tools: the perf pmu and jevents patches, then the table
# patches scripts/gen-perf-events-patch makes for that tree): Linux 7.2
# (mainline, which has openhwgroup/cva6 and sifive/bullet for the U74) and
# Linux 6.12 (Debian stable's).
# On each: the patches apply, jevents.py builds every table, no upstream
# file is deleted, each core's CPU id selects a table (the first mapfile
# match, as perf takes it) in which every project event resolves with its
# code and counter mask and every metric names only events of that table.
# On 6.12 also: CounterIDMask compiles and bad masks are refused, and the
# tables hold the paper's events (U74 Table II, CVA6 Table III, Table VI)
# and upstream's 22 CVA6 names and codes.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tree NAME SRC PATCH...: SRC's pristine tools/perf/pmu-events (and
# MAINTAINERS, and the other files the patches change) in $tmp/NAME with
# the patches applied; runs jevents.py.
tree() {
	local name=$1 src=$2 p applied=yes changed
	shift 2
	mkdir -p "$tmp/$name"
	changed=$(sed -n 's|^--- a/\(tools/perf/.*\)$|\1|p' "$@" | grep -v '^tools/perf/pmu-events/' | sort -u)
	# shellcheck disable=SC2086 # one path per word
	if ! git -C "$src" archive pristine tools/perf/pmu-events MAINTAINERS $changed | tar -x -C "$tmp/$name"; then
		not_ok "$name: pristine tools/perf/pmu-events from $src"
		return 1
	fi
	for p in "$@"; do
		if ! git -C "$tmp/$name" apply --include='tools/perf/*' --include=MAINTAINERS "$p" 2>"$tmp/apply"; then
			applied=no
			diag "$(basename "$p"):" "$(cat "$tmp/apply")"
		fi
	done
	check "$name: the perf patches apply ($(for p in "$@"; do basename "$p" | cut -c1-4; done | tr '\n' ' '))" \
		[ $applied = yes ]
	local pe="$tmp/$name/tools/perf/pmu-events"
	if (cd "$pe" && python3 jevents.py riscv all arch "$tmp/$name.c") 2>"$tmp/jevents"; then
		ok "$name: jevents.py builds the riscv tables"
	else
		not_ok "$name: jevents.py builds the riscv tables"
		diag "$(tail -n 20 "$tmp/jevents")"
		return 1
	fi
	if (cd "$pe" && python3 metric_test.py) >"$tmp/mt" 2>&1; then
		ok "$name: perf's metric.py self-test passes"
	else
		not_ok "$name: perf's metric.py self-test passes"
		diag "$(tail -n 20 "$tmp/mt")"
	fi
	# No upstream file deleted.
	gone=$(git -C "$src" ls-tree -r --name-only pristine -- tools/perf/pmu-events |
		while read -r f; do [ -e "$tmp/$name/$f" ] || echo "$f"; done)
	check "$name: no file of the tree's tools/perf/pmu-events is deleted" [ -z "$gone" ]
	[ -z "$gone" ] || diag $gone
	resolves "$name" "$pe/arch/riscv"
}

# resolves NAME ARCH: each project table's events and metrics resolve in
# the table perf picks for the core's CPU id.
resolves() {
	python3 - "$1" "$2" "$TOP/perf-events-json" <<'PY'
import glob, json, os, re, sys
name, arch, ours = sys.argv[1:]
def ok(c, what, *diag):
    print(('ok - ' if c else 'not ok - ') + f'{name}: {what}')
    for d in diag:
        if not c: print('# ' + str(d))
def load(d):
    ev, me = {}, {}
    for f in glob.glob(os.path.join(d, '*.json')):
        for e in json.load(open(f)):
            if 'MetricName' in e: me[e['MetricName']] = e
            elif 'EventName' in e: ev[e['EventName'].lower()] = e
    return ev, me
rows = [l.split(',') for l in open(os.path.join(arch, 'mapfile.csv')).read().splitlines()
        if l and not l.startswith('#')]
def pick(cpuid):
    for r in rows:
        if re.fullmatch(r[0].replace('[[:xdigit:]]', '[0-9a-fA-F]'), cpuid):
            return r[2]
# A real id of each core, and the profiles' ids.
cores = {'openhwgroup/cva6': '0x602-0x3-0x0', 'openhwgroup/cva6-fixed': '0x0-0x3-0x0',
         'sifive/u74': '0x489-0x8000000000000007-0x20181004', 'qemu/virt': '0x0-0x0-0x0'}
num = lambda v: int(v, 0) if v is not None else 0
for t, cpuid in cores.items():
    got = pick(cpuid)
    if not got:
        ok(False, f'{cpuid} selects a table for {t}')
        continue
    ev, me = load(os.path.join(arch, got))
    mine, mym = load(os.path.join(ours, t))
    bad = [n for n, e in mine.items() if n not in ev or num(ev[n].get('EventCode')) != num(e.get('EventCode'))
           or num(ev[n].get('CounterIDMask')) != num(e.get('CounterIDMask'))]
    ok(mine and not bad, f'{cpuid} selects {got}: all {len(mine)} events of {t} resolve (code, mask)', bad)
    unknown = [f"{m}: {i}" for m in mym for i in re.findall(r'[A-Za-z_][A-Za-z0-9_.]*', mym[m]['MetricExpr'])
               if i.lower() not in ev and i not in ('cycles', 'instructions', 'd_ratio')]
    missing = [m for m in mym if m not in me]
    ok(mym and not unknown and not missing,
       f'{got}: all {len(mym)} metrics of {t} are there and name only its events', *unknown, *missing)
PY
}

for ver in 7.2 6.12; do
	src=$("$TOP/scripts/prepare-linux" --linux "$ver" --pristine 2>"$tmp/log" | tail -n 1)
	if [ -z "$src" ]; then
		not_ok "the Linux $ver tree (scripts/prepare-linux --linux $ver)"
		diag "$(tail -n 5 "$tmp/log")"
		continue
	fi
	tree "linux-$ver" "$src" $(ls "$TOP"/linux-patches/"$ver"/*-perf-tools/[0-9]*.patch | grep -v '/0000-cover-letter\.patch$')
done
# On 7.2 the tables extend mainline's rather than adding rows beside them.
added=$(grep -h '^+0x' "$TOP"/linux-patches/7.2/*-perf-tools/*-Add-the-CVA6-*.patch)
check "linux-7.2: the only mapfile row added is the fixed-counter CVA6's ($added)" \
	[ "$added" = "+0x0-0x3-0x0,v1,openhwgroup/cva6-fixed,core" ]

pe="$tmp/linux-6.12/tools/perf/pmu-events"
[ -f "$tmp/linux-6.12.c" ] || exit 0

# A fixed-counter CVA6 event pinned to its counter compiles to counterid_mask=.
if grep -q 'ariane_load\\000[a-z]*\\000[^\\]*\\000event=7,counterid_mask=0x80\\000' "$tmp/linux-6.12.c"; then
	ok "ariane_load (fixed-counter CVA6) compiles to event=7,counterid_mask=0x80 (hpmcounter7)"
else
	not_ok "ariane_load (fixed-counter CVA6) compiles to event=7,counterid_mask=0x80 (hpmcounter7)"
	diag "$(grep -o 'ariane_load\\000[^"]*' "$tmp/linux-6.12.c" | head -n 2)"
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
# upstream's CVA6 names.
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
    return [f[2] for f in mapfile
            if re.fullmatch(f[0].replace('[[:xdigit:]]', '[0-9a-fA-F]'), cpuid)]
want = {'virt': 'qemu/virt', 'u74': 'sifive/u74', 'cva6': 'openhwgroup/cva6',
        'cva6-fixed': 'openhwgroup/cva6-fixed'}
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
m = {x['MetricName']: x for x in u74m}
rpistat = {n for n, x in m.items() if 'rpistat' in x['MetricGroup'].split(';')}
need = {'cpi', 'dcache_miss_ratio', 'branch_mispredict_ratio', 'dtlb_miss_pti', 'utlb_miss_pti',
        'ibuf_stall_cycles'}
ok(need <= rpistat, 'u74: rpistat group has CPI, PTI rates (UTLB too), miss ratios, I-buffer stall share',
   sorted(need - rpistat))
ok('interlock_pti' not in m and 'LONGLAT_INTERLOCK' in m.get('longlat_interlock_cycles', {}).get('MetricExpr', '')
   and 'cycles' in m['longlat_interlock_cycles']['MetricExpr'],
   'u74: long-latency interlock cycles are a share of cycles, not a per-instruction rate')
ok('ICACHE_ITIM_BUSY' in m.get('ibuf_stall_cycles', {}).get('MetricExpr', ''),
   'u74: instruction-buffer stall share is ICACHE_ITIM_BUSY / cycles')

# The fixed-counter CVA6, paper Table III: each event pinned to its counter.
fx, fxm = table('openhwgroup/cva6-fixed')
table3 = {'ariane_ll_icache_miss': 3, 'ariane_ll_dcache_miss': 4, 'ariane_itlb_miss': 5,
          'ariane_dtlb_miss': 6, 'ariane_load': 7, 'ariane_store': 8, 'ariane_exception': 9,
          'ariane_exception_ret': 10, 'ariane_branch_jump': 11, 'ariane_call': 12,
          'ariane_ret': 13, 'ariane_mis_predict': 14, 'ariane_sb_full': 15,
          'ariane_if_empty': 16, 'riscv_cycles': 0, 'riscv_instret': 2}
wrong = [n for n, c in table3.items()
         if n not in fx or int(fx[n].get('CounterIDMask', '0'), 0) != 1 << c]
ok(not wrong and len(fx) == 16,
   f'cva6-fixed: the 16 events of Listings 1-2 ({len(fx)}), pinned to their Table III counters', wrong)

# Today's CVA6: upstream's 22 names and codes, no masks, ariane_* aliases.
cv, cvm = table('openhwgroup/cva6')
upstream = {'l1_i_cache_misses': 1, 'l1_d_cache_misses': 2, 'itlb_misses': 3, 'dtlb_misses': 4,
            'load_instructions_retired': 5, 'store_instructions_retired': 6, 'exceptions': 7,
            'exception_handler_returns': 8, 'branch_instructions_retired': 9,
            'branch_mispredicts': 10, 'branch_exceptions': 11, 'call_instructions_retired': 12,
            'return_instructions_retired': 13, 'msb_full': 14, 'instruction_fetch_empty': 15,
            'l1_i_cache_accesses': 16, 'l1_d_cache_accesses': 17, 'l1_cache_line_eviction': 18,
            'itlb_flush': 19, 'integer_instructions_retired': 20,
            'floating_point_instructions_retired': 21, 'pipeline_stall': 22}
wrong = [n for n, c in upstream.items() if n not in cv or int(cv[n]['EventCode'], 0) != c]
ok(not wrong, "cva6: upstream's 22 event names with their selector codes", wrong)
masked = [n for n, e in cv.items() if 'CounterIDMask' in e]
ok(not masked, 'cva6: no event is restricted to a counter (any of hpmcounter3-8)', masked)
selector = {'ariane_ll_icache_miss': 1, 'ariane_ll_dcache_miss': 2, 'ariane_itlb_miss': 3,
            'ariane_dtlb_miss': 4, 'ariane_load': 5, 'ariane_store': 6, 'ariane_exception': 7,
            'ariane_exception_ret': 8, 'ariane_branch_jump': 9, 'ariane_mis_predict': 10,
            'ariane_call': 12, 'ariane_ret': 13, 'ariane_sb_full': 14, 'ariane_if_empty': 15}
wrong = [n for n, c in selector.items() if n not in cv or int(cv[n]['EventCode'], 0) != c]
ok(not wrong, 'cva6: the 14 ariane_* names of events both generations have, with the selector codes', wrong)
extra = sorted(n for n in cv if n not in upstream and n not in selector)
ok(not extra, 'cva6: no other events', extra)

virt, virtm = table('qemu/virt')
vcodes = sorted(int(e['EventCode'], 0) for e in virt.values() if 'EventCode' in e)
ok(vcodes == [0x1, 0x2, 0x10019, 0x1001b, 0x10021], 'virt: the five events QEMU counts', vcodes)

for name, me in (('u74', u74m), ('cva6', cvm), ('cva6-fixed', fxm), ('virt', virtm)):
    ok(all(x.get('MetricGroup') for x in me), f'{name}: every metric is in a metric group')
    # A ratio whose denominator did not count is 0, not nan.
    bare = [x['MetricName'] for x in me if '/' in x['MetricExpr']]
    ok(not bare, f'{name}: every ratio is a d_ratio()', bare)
t6 = {'branch_miss_rate', 'l1d_miss_rate', 'l1i_miss_rate', 'sb_full_cycles',
      'if_empty_cycles', 'ipc', 'dtlb_miss_rate', 'itlb_miss_rate'}
for name, me in (('cva6-fixed', fxm), ('cva6', cvm)):
    names = {x['MetricName'] for x in me}
    ok(t6 <= names, f'{name}: the eight Table VI metrics', sorted(t6 - names))
PY
cat "$tmp/py"
