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
	foreign=$(comm -12 <(comm -23 <(echo "$others") <(echo "$want")) \
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
		grep -q 'Parsing of PMU event table metrics *: Ok$' <<<"$tests"; then
		ok "$prof: perf test PMU event and metric cases pass ($good)"
	else
		not_ok "$prof: perf test PMU event and metric cases pass"
		diag "$tests"
	fi
done
