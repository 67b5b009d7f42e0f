#!/usr/bin/env bash
# libpfm4's RISC-V tables are perf-events-json/, once:
# - the committed table patch (papi/libpfm4-patches/0001) is exactly what
#   scripts/gen-libpfm4-tables makes of the JSON now;
# - read back from the patch's C headers on its own (not through the
#   generator), every table has exactly the JSON's events, with their
#   codes and counter masks, and the mapfile's CPU id;
# - a changed JSON makes the check fail, and a malformed one is refused
#   with the file and event named;
# - the libpfm4 series and the PAPI series apply to PAPI 7.2.0's tree,
#   and libpfm4 built for RISC-V (host compiler) detects each core from
#   a /proc/cpuinfo with its ids and lists every JSON event under its
#   name (showevtinfo); other ids select no RISC-V PMU.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib.sh" 2>/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen="$TOP/scripts/gen-libpfm4-tables"
patch0001=$(ls "$TOP"/papi/libpfm4-patches/0001-*.patch)

if "$gen" --check >"$tmp/out" 2>&1; then
	ok "papi/libpfm4-patches/0001 is what scripts/gen-libpfm4-tables makes of perf-events-json/"
else
	not_ok "papi/libpfm4-patches/0001 is what scripts/gen-libpfm4-tables makes of perf-events-json/"
	diag "$(head -n 40 "$tmp/out")"
fi

# The patch's headers against the JSON, read independently.  ArchStdEvent
# entries (perf's SBI firmware events) are checked by name: their codes
# come from perf's riscv-sbi-firmware.json.
if python3 - "$TOP/perf-events-json" "$patch0001" >"$tmp/out" 2>&1 <<'PY'
import json, os, re, sys
top, patch = sys.argv[1:]
text = open(patch).read()
files = {}
for m in re.finditer(r'^\+\+\+ b/lib/events/riscv_(\w+)_events\.h\n@@[^\n]*\n((?:\+[^\n]*\n)*)', text, re.M):
    files[m.group(1)] = '\n'.join(l[1:] for l in m.group(2).splitlines())
stems = {'sifive/u74': 'sifive_u74', 'openhwgroup/cva6': 'openhw_cva6',
         'openhwgroup/cva6-fixed': 'openhw_cva6_fixed', 'qemu/virt': 'qemu_virt'}
ids = {l.split(',')[2]: l.split(',')[0] for l in open(os.path.join(top, 'mapfile.csv'))
       if l.strip() and not l.startswith('#')}
bad = 0
for table, stem in stems.items():
    h = files.get(stem)
    if h is None:
        print(f'{table}: no header riscv_{stem}_events.h in the patch'); bad += 1; continue
    got = {}
    for m in re.finditer(r'\.name = "([^"]+)",\n\s*\.desc = "(?:[^"\\]|\\.)*",\n\s*\.code = (0x[0-9a-f]+),\n\s*\.ctrmask = (0x[0-9a-f]+),', h):
        got[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    want, std = {}, set()
    for f in sorted(os.listdir(os.path.join(top, table))):
        if not f.endswith('.json'):
            continue
        for e in json.load(open(os.path.join(top, table, f))):
            if 'ArchStdEvent' in e:
                std.add(e['ArchStdEvent'])
            elif 'EventName' in e:
                want[e['EventName']] = (int(e['EventCode'], 0), int(e.get('CounterIDMask', '0'), 0))
    for n in sorted(set(want) - set(got)):
        print(f'{table}: {n} missing from the libpfm4 table'); bad += 1
    for n in sorted(set(got) - set(want) - std):
        print(f'{table}: {n} in the libpfm4 table but not in the JSON'); bad += 1
    for n in sorted(std - set(got)):
        print(f'{table}: firmware event {n} missing from the libpfm4 table'); bad += 1
    for n in sorted(set(want) & set(got)):
        if want[n] != got[n]:
            print(f'{table}: {n} is code/mask {want[n]} in the JSON, {got[n]} in libpfm4'); bad += 1
    v, a, i = ids[table].split('-')
    for field, val in (('mvendorid', v), ('marchid', a), ('mimpid', i)):
        if val.startswith('0x[[:xdigit:]]'):
            ok_ = f'.{field}_any = 1,' in h
        else:
            ok_ = f'.{field} = {hex(int(val, 16))},' in h
        if not ok_:
            print(f'{table}: {field} of CPU id {ids[table]} not in the header'); bad += 1
    print(f'{table}: {len(got)} events')
sys.exit(bad > 0)
PY
then
	ok "libpfm4's four RISC-V tables hold exactly the JSON's events, codes, counter masks and CPU ids ($(grep -o '[0-9]* events' "$tmp/out" | awk '{ s += $1 } END { print s }') events)"
else
	not_ok "libpfm4's four RISC-V tables hold exactly the JSON's events, codes, counter masks and CPU ids"
	diag "$(head -n 40 "$tmp/out")"
fi

# A JSON that differs from the committed patch fails the check, naming
# the event; a malformed one is refused with its file and event.
cp -r "$TOP/perf-events-json" "$tmp/json"
sed -i 's/"EventCode": "0x7",/"EventCode": "0x17",/' "$tmp/json/openhwgroup/cva6-fixed/cache.json"
if ! "$gen" --json "$tmp/json" --check >"$tmp/out" 2>&1 && grep -q '^+.*\.code = 0x17,' "$tmp/out"; then
	ok "a changed JSON event code (cva6-fixed ariane_load 0x7 -> 0x17) fails the check, with the diff"
else
	not_ok "a changed JSON event code (cva6-fixed ariane_load 0x7 -> 0x17) fails the check, with the diff"
	diag "$(head -n 20 "$tmp/out")"
fi
# refused WHAT FILE SED MESSAGE: the generator, given perf-events-json/
# with FILE edited by SED, fails and names the fault (MESSAGE).
refused() {
	rm -rf "$tmp/json" && cp -r "$TOP/perf-events-json" "$tmp/json"
	sed -i "$3" "$tmp/json/$2"
	"$gen" --json "$tmp/json" --stdout >"$tmp/out" 2>&1
	local rc=$?
	if [ "$rc" != 0 ] && grep -qF "$4" "$tmp/out"; then
		ok "$1 is refused: $(tail -n1 "$tmp/out")"
	else
		not_ok "$1 is refused"
		diag "status $rc" "$(head -n 5 "$tmp/out")"
	fi
}
refused "a CounterIDMask naming counter 1 (time)" openhwgroup/cva6-fixed/cache.json \
	'0,/"CounterIDMask": "0x80"/s//"CounterIDMask": "0x82"/' \
	'cva6-fixed/cache.json: ariane_load: CounterIDMask 0x82 names counter 1'
refused "an EventCode that is not a number" sifive/u74/instructions.json \
	'0,/"EventCode": "0x0000200"/s//"EventCode": "0x2zz"/' \
	'u74/instructions.json: INTEGER_LOAD_RETIRED: EventCode: "0x2zz" is not a number'

# The series on PAPI 7.2.0's tree; libpfm4 built for RISC-V with the host
# compiler (the RISC-V code has no assembly) reads a given cpuinfo.
tarball=${PAPI_TARBALL:-$(cd "$TOP/.." && pwd)/shared/papi/papi-7.2.0.tar.xz}
[ -f "$tarball" ] || tarball="$HPM_CACHE/downloads/papi-7-2-0-t.tar.gz"
if [ ! -f "$tarball" ]; then
	not_ok "PAPI 7.2.0's source is here (PAPI_TARBALL, ../shared/papi or scripts/build-papi's download)"
	exit 0
fi
mkdir -p "$tmp/papi"
tar -xf "$tarball" -C "$tmp/papi" --strip-components=1
applied=1
for p in "$TOP"/papi/libpfm4-patches/[0-9]*.patch; do
	(cd "$tmp/papi/src/libpfm4" && git apply "$p") 2>"$tmp/out" || { applied=; diag "${p##*/}:" "$(cat "$tmp/out")"; }
done
for p in "$TOP"/papi/papi-patches/[0-9]*.patch; do
	(cd "$tmp/papi" && git apply "$p") 2>"$tmp/out" || { applied=; diag "${p##*/}:" "$(cat "$tmp/out")"; }
done
check "papi/libpfm4-patches and papi/papi-patches apply to PAPI 7.2.0 (commit of the tarball checked by build-papi)" [ -n "$applied" ]
[ -n "$applied" ] || exit 0

pfm="$tmp/papi/src/libpfm4"
if ! make -s -j"$(nproc)" -C "$pfm" ARCH=riscv CONFIG_PFMLIB_SHARED=n lib >"$tmp/out" 2>&1 ||
	! make -s -C "$pfm/examples" ARCH=riscv CONFIG_PFMLIB_SHARED=n >>"$tmp/out" 2>&1; then
	not_ok "libpfm4 with the RISC-V series builds (host compiler, ARCH=riscv)"
	diag "$(tail -n 20 "$tmp/out")"
	exit 0
fi
ok "libpfm4 with the RISC-V series builds with -Werror (host compiler, ARCH=riscv)"

# cpuinfo IDS: a two-hart /proc/cpuinfo as Linux 6.12 prints it.
cpuinfo() {
	local h
	for h in 0 1; do
		printf 'processor\t: %s\nhart\t\t: %s\nisa\t\t: rv64imafdc_zicntr_zihpm\nmmu\t\t: sv57\nmvendorid\t: %s\nmarchid\t\t: %s\nmimpid\t\t: %s\n\n' \
			"$h" "$h" "$1" "$2" "$3"
	done
}
# detected IDS...: the RISC-V PMU libpfm4 detects with that cpuinfo.
detected() {
	cpuinfo "$@" >"$tmp/cpuinfo"
	LIBPFM_PROC_CPUINFO="$tmp/cpuinfo" "$pfm/examples/showevtinfo" -L 2>/dev/null |
		sed -n 's/^\([a-z0-9_]*\)::.*/\1/p' | grep -v '^perf' | sort -u | tr '\n' ' '
}
while read -r table pmu ids; do
	# shellcheck disable=SC2086
	got=$(detected $ids)
	cpuinfo $ids >"$tmp/cpuinfo"
	listed=$(LIBPFM_PROC_CPUINFO="$tmp/cpuinfo" "$pfm/examples/showevtinfo" -L 2>/dev/null | sed -n "s/^$pmu:://p")
	missing=$(json_names "$table" | while read -r n; do grep -qx "$n" <<<"$listed" || echo "$n"; done)
	n=$(json_names "$table" | wc -l)
	if [ "$got" = "$pmu " ] && [ -z "$missing" ] && [ "$(wc -l <<<"$listed")" = "$n" ]; then
		ok "cpuinfo ids $ids select $pmu alone; showevtinfo lists its $n JSON events by name"
	else
		not_ok "cpuinfo ids $ids select $pmu alone; showevtinfo lists its $n JSON events by name"
		diag "detected: $got" "missing: $missing" "listed $(wc -l <<<"$listed")"
	fi
done <<'EOF'
sifive/u74 sifive_u74 0x489 0x8000000000000007 0x20181004
sifive/u74 sifive_u74 0x489 0x8000000000000007 0x4210427
openhwgroup/cva6 openhw_cva6 0x602 0x3 0x0
openhwgroup/cva6-fixed openhw_cva6_fixed 0x0 0x3 0x0
qemu/virt qemu_virt 0x0 0x0 0x0
EOF
got=$(detected 0x489 0x8000000000000008 0x0)$(detected 0x602 0x4 0x0)
check "other CPU ids (U74 vendor with marchid 0x...08, 0x602 with marchid 4) select no RISC-V PMU${got:+ (got $got)}" [ -z "$got" ]
