#!/usr/bin/env bash
# perf in the guest picks the event table of the CPU it runs on (perf's
# MVENDORID-MARCHID-MIMPID id): under each profile `perf list` names that
# table's events and metrics, and perf's own JSON/pmu-events and metric
# tests pass.  The expected names come from perf-events-json/ itself.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tables="qemu/virt sifive/u74 openhwgroup/cva6 openhwgroup/cva6-fixed"
# The EventName (lower-case), MetricName and MetricGroup values of every
# table, "TABLE<tab>KEY<tab>VALUE", read once.
# shellcheck disable=SC2086
if ! python3 - "$TOP/perf-events-json" $tables >"$tmp/names" <<'PY'
import glob, json, os, sys
top = sys.argv[1]
for d in sys.argv[2:]:
    for f in sorted(glob.glob(os.path.join(top, d, '*.json'))):
        for e in json.load(open(f)):
            for key in ('EventName', 'MetricName', 'MetricGroup'):
                if key in e:
                    v = e[key].lower() if key == 'EventName' else e[key]
                    print(d, key, v, sep='\t')
PY
then
	not_ok "the tables of perf-events-json/ read"
	exit 0
fi

# names DIR KEY: the values of KEY in table DIR.
names() {
	awk -F'\t' -v d="$1" -v k="$2" '$1 == d && $2 == k { print $3 }' "$tmp/names"
}

# upstream_names CPUID: the events the kernel tree's own table for that
# CPU id has (mainline's sifive/bullet for the U74 on 7.2, which the
# project's table extends): they are that core's too.
src=$("$TOP/scripts/prepare-linux" --pristine 2>/dev/null | tail -n 1)
upstream_names() {
	[ -n "$src" ] || return 0
	python3 - "$src" "$1" <<'PY'
import json, re, subprocess, sys
src, cpuid = sys.argv[1:]
arch = 'tools/perf/pmu-events/arch/riscv'
show = lambda p: subprocess.run(['git', '-C', src, 'show', 'pristine:' + p],
                                capture_output=True, text=True).stdout
for row in show(arch + '/mapfile.csv').splitlines():
    f = row.split(',')
    if row.startswith('#') or len(f) < 3:
        continue
    if re.fullmatch(f[0].replace('[[:xdigit:]]', '[0-9a-fA-F]'), cpuid):
        files = subprocess.run(['git', '-C', src, 'ls-tree', '--name-only', 'pristine',
                                arch + '/' + f[2] + '/'], capture_output=True, text=True).stdout.split()
        for j in files:
            for e in json.loads(show(j) or '[]'):
                if 'EventName' in e:
                    print(e['EventName'].lower())
        break
PY
}
declare -A cpuid=([virt]=0x0-0x0-0x0 [u74]=0x489-0x8000000000000007-0x20181004
	[cva6]=0x602-0x3-0x0 [cva6-fixed]=0x0-0x3-0x0)

for spec in virt:qemu/virt u74:sifive/u74 cva6:openhwgroup/cva6 cva6-fixed:openhwgroup/cva6-fixed; do
	prof=${spec%%:*} table=${spec#*:}
	out="$tmp/$prof"
	if ! guest_run "$out" --profile "$prof" -- sh -c "
		echo '== events'; perf list --raw-dump pmu | tr ' ' '\n'
		echo '== metrics'; perf list --raw-dump metrics | tr ' ' '\n'
		echo '== groups'; perf list --raw-dump metricgroups | tr ' ' '\n'
		echo '== tests'; perf test 'PMU event' 'metric' 2>&1
		"; then
		not_ok "$prof: perf list and perf test run"
		diag "$(tail -n 30 "$out")"
		continue
	fi
	want=$(names "$table" EventName | sort -u)
	missing=$(comm -23 <(echo "$want") <(section events "$out" | sort -u))
	if [ -n "$want" ] && [ -z "$missing" ]; then
		ok "$prof: perf list names all $(wc -l <<<"$want") events of $table"
	else
		not_ok "$prof: perf list names all events of $table"
		diag "missing:" $missing
	fi
	# ... and none that only another core's table has.
	others=$(for t in $tables; do
		[ "$t" = "$table" ] || names "$t" EventName; done | sort -u)
	foreign=$(comm -12 <(comm -23 <(echo "$others") <( { echo "$want"; upstream_names "${cpuid[$prof]}"; } | sort -u)) \
		<(section events "$out" | sort -u))
	check "$prof: perf list names no event of the other cores' tables" [ -z "$foreign" ]
	want=$(names "$table" MetricName | sort -u)
	missing=$(comm -23 <(echo "$want") <(section metrics "$out" | sort -u))
	if [ -n "$want" ] && [ -z "$missing" ]; then
		ok "$prof: perf list names all $(wc -l <<<"$want") metrics of $table"
	else
		not_ok "$prof: perf list names all metrics of $table"
		diag "missing:" $missing
	fi
	groups=$(names "$table" MetricGroup | tr ';' '\n' | sort -u)
	missing=$(comm -23 <(echo "$groups") <(section groups "$out" | sort -u))
	check "$prof: perf list names the metric groups ($(echo $groups))" [ -z "$missing" ]
	tests=$(section tests "$out")
	good=$(grep -Ec ': Ok$' <<<"$tests")
	bad=$(grep -Eic ': (failed|skip)' <<<"$tests")
	if [ "$bad" = 0 ] && [ "$good" -ge 5 ] &&
		grep -q 'PMU event table sanity *: Ok$' <<<"$tests" &&
		grep -Eq '(Parsing of PMU event table metrics|PMU metric parsing: common) *: Ok$' <<<"$tests"; then
		ok "$prof: perf test PMU event and metric cases pass ($good)"
	else
		not_ok "$prof: perf test PMU event and metric cases pass"
		diag "$tests"
	fi
done
