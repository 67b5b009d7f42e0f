#!/usr/bin/env bash
# PAPI and libpfm4 (scripts/build-papi, papi/) in the guest, HPM driver.
#
# On profiles u74, cva6 and cva6-fixed (and virt): showevtinfo and
# papi_native_avail list every event of the core's perf-events-json
# table under its JSON name, on the PMU libpfm4 detected from the CPU
# ids; for every one of them check_events' perf_event encoding (type,
# config, config1, config2) is the one perf stat -vv uses; libpfm4's own
# validate passes.  Under --icount with one hart: papi_command_line
# PAPI_TOT_INS PAPI_TOT_CYC counts (on virt and u74, cycles = instructions
# within 1 %), papi-knownloop's PAPI_TOT_INS is within 1 % of the loop's
# exact 2 * N instructions, and a core event by its native name
# (qemu_virt::INST_RETIRED, openhw_cva6_fixed::riscv_instret: config2
# pins it to instret) counts what perf stat counts for it within 1 %.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# perf_attr < perf stat -vv output: the fields of the first
# perf_event_attr block, one "NAME VALUE" line each.  perf prints a
# union's members as one field, "{ bp_len, config2 }  0x80": each name
# of the braces gets the value.
perf_attr() {
	awk '/^perf_event_attr:/ { on = 1; next }
		on && /^-+$/ { exit }
		on && /^ *\{/ {
			names = $0; sub(/^ *\{ */, "", names); sub(/ *\}.*/, "", names)
			val = $0; sub(/^[^}]*\} */, "", val); split(val, v, " ")
			n = split(names, nm, / *, */)
			for (i = 1; i <= n; i++) print nm[i], v[1]
			next
		}
		on && NF >= 2 { print $1, $2 }'
}

# attr_diff CHECK_EVENTS_LINE PERF_FIELDS: every field check_events
# printed ("type=4 config=0x7 ...") against perf's value of the field of
# that name (0 where perf prints none: perf leaves zero fields out), and
# any config field (type, config*) perf sets that check_events did not
# print; one "NAME: check_events A, perf B" line per difference, or a
# line saying what is missing.
attr_diff() {
	local kv name val pv checked=" "
	[ -n "$1" ] || { echo "check_events printed no perf_event line"; return; }
	grep -q . <<<"$2" || { echo "perf stat -vv printed no perf_event_attr"; return; }
	for kv in $1; do
		name=${kv%%=*} val=${kv#*=}
		checked+="$name "
		pv=$(awk -v n="$name" '$1 == n { print $2; exit }' <<<"$2")
		if ! [[ $val =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]] || ! [[ ${pv:-0} =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]]; then
			echo "$name: check_events '$val', perf '${pv:-absent}' (not numbers)"
		elif [ $((val)) != $((${pv:-0})) ]; then
			echo "$name: check_events $val, perf ${pv:-absent (0)}"
		fi
	done
	while read -r name pv; do
		case $name in type | config | config[0-9]) ;; *) continue ;; esac
		[[ $checked == *" $name "* ]] && continue
		[[ $pv =~ ^(0x0*|0+)$ ]] ||
			echo "$name: check_events does not print it, perf $pv"
	done <<<"$2"
}

# counter NAME < "NAME=COUNT" lines
counter() { awk -F= -v n="$1" '$1 == n { print $2; f = 1; exit } END { if (!f) print "missing" }'; }

iters=10000000 exact=20000000 big=100000000
while read -r profile table pmu native; do
	extra="$tmp/$profile"
	mkdir -p "$extra"
	json_names "$table" >"$extra/names"
	count=$(wc -l <"$extra/names")
	native_cmd=
	if [ "$native" != - ]; then
		native_cmd="echo '== native'; papi-knownloop $big $native
		perf stat -x, -o /tmp/n -e ${native#*::} knownloop $big >/dev/null; cat /tmp/n"
	fi
	out="$tmp/$profile.out"
	if ! guest_run "$out" --profile "$profile" --icount --timeout 900 --extra "$extra" -- sh -c "
		echo '== showevtinfo'; showevtinfo -L 2>&1
		echo '== detected'; showevtinfo 2>&1 | sed -n '/^Detected PMU models/,/^Total/p'
		echo '== native_avail'; papi_native_avail 2>&1
		echo '== validate'; libpfm4-validate 2>&1; echo \"status=\$?\"
		while read -r ev; do
			echo \"== check \$ev\"; check_events $pmu::\$ev 2>&1 | grep '^perf_event'
			echo \"== perf \$ev\"; perf stat -vv -e \$ev -o /dev/null true 2>&1 | sed -n '/^perf_event_attr:/,/^---/p'
		done < names
		echo '== command_line'; papi_command_line PAPI_TOT_INS PAPI_TOT_CYC 2>&1
		echo '== knownloop'; papi-knownloop $iters PAPI_TOT_INS 2>&1
		$native_cmd
		echo '== end'
		"; then
		not_ok "$profile: PAPI and libpfm4 tools run in the guest"
		diag "$(tail -n 30 "$out")"
		continue
	fi

	det=$(section detected "$out" | grep -o "\[[0-9]*, [a-z0-9_]*," | awk '{ print $2 }' | tr -d , | grep -v '^perf' | tr '\n' ' ')
	listed=$(section showevtinfo "$out" | sed -n "s/^$pmu:://p")
	missing=$(while read -r n; do grep -qx "$n" <<<"$listed" || echo "$n"; done <"$extra/names")
	if [ "$det" = "$pmu " ] && [ -z "$missing" ]; then
		ok "$profile: libpfm4 detects $pmu from the CPU ids; showevtinfo lists all $count events of perf-events-json/$table by name"
	else
		not_ok "$profile: libpfm4 detects $pmu from the CPU ids; showevtinfo lists all $count events of perf-events-json/$table by name"
		diag "detected: $det" "missing:" $missing
	fi

	# The default (core) PMU's events are listed without their PMU prefix.
	avail=$(section native_avail "$out" | sed -n "s/^| \($pmu::\)\{0,1\}\([A-Za-z0-9_.]*\) .*/\2/p")
	missing=$(while read -r n; do grep -qx "$n" <<<"$avail" || echo "$n"; done <"$extra/names")
	check "$profile: papi_native_avail lists all $count events by name (the default PMU, $pmu)" [ -z "$missing" ]
	[ -z "$missing" ] || diag "missing:" $missing

	v=$(section validate "$out")
	if grep -q '^All tests passed' <<<"$v" && grep -q '^status=0' <<<"$v" &&
		grep -q "checking $pmu ($count events): Passed" <<<"$v"; then
		ok "$profile: libpfm4's validate passes (its $pmu table, the RISC-V encodings)"
	else
		not_ok "$profile: libpfm4's validate passes"
		diag "$(tail -n 15 <<<"$v")"
	fi

	# Every field check_events prints (type, config, config1, config2)
	# against perf stat -vv's field of that name, for every event.
	bad= same=0 nonzero=0
	while read -r ev; do
		c=$(section "check $ev" "$out" | sed -n 's/^perf_event *: //p')
		p=$(section "perf $ev" "$out" | perf_attr)
		d=$(attr_diff "$c" "$p")
		if [ -z "$d" ]; then
			same=$((same + 1))
			[[ $c =~ config2=0x0*[1-9a-f] ]] && nonzero=$((nonzero + 1))
		else
			bad+="$ev: $(tr '\n' ';' <<<"$d")"$'\n'
		fi
	done <"$extra/names"
	if [ -z "$bad" ]; then
		ok "$profile: check_events encodes all $count events as perf stat -vv does (type, config, config1, config2; $nonzero with a counter mask in config2)"
	else
		not_ok "$profile: check_events encodes all $count events as perf stat -vv does (type, config, config1, config2)"
		diag "$(head -n 10 <<<"$bad")"
	fi

	if [ "$profile" = virt ] || [ "$profile" = u74 ]; then
		cl=$(section command_line "$out")
		i=$(awk '$1 == "PAPI_TOT_INS" { print $3 }' <<<"$cl")
		c=$(awk '$1 == "PAPI_TOT_CYC" { print $3 }' <<<"$cl")
		if is_number "$i" && is_number "$c" && [ "$i" -gt 100000 ] && within_pct "$c" "$i" 1; then
			ok "$profile: papi_command_line PAPI_TOT_INS PAPI_TOT_CYC counts ($i instructions, $c cycles: one per instruction under --icount)"
		else
			not_ok "$profile: papi_command_line PAPI_TOT_INS PAPI_TOT_CYC counts (cycles = instructions under --icount)"
			diag "$cl"
		fi
	fi

	k=$(section knownloop "$out")
	n=$(counter PAPI_TOT_INS <<<"$k")
	if is_number "$n" && within_pct "$n" "$exact" 1; then
		ok "$profile: papi-knownloop's PAPI_TOT_INS is within 1 % of the loop's exact $exact instructions ($n)"
	else
		not_ok "$profile: papi-knownloop's PAPI_TOT_INS is within 1 % of the loop's exact $exact instructions"
		diag "$k"
	fi

	if [ "$native" != - ]; then
		s=$(section native "$out")
		a=$(counter "$native" <<<"$s")
		b=$(awk -F, -v ev="${native#*::}" '$3 == ev { print $1 }' <<<"$s")
		if is_number "$a" && is_number "$b" && within_pct "$a" "$b" 1 && within_pct "$a" $((2 * big)) 1; then
			ok "$profile: $native counts what perf stat -e ${native#*::} counts within 1 % (PAPI $a, perf $b, loop $((2 * big)))"
		else
			not_ok "$profile: $native counts what perf stat -e ${native#*::} counts within 1 %"
			diag "$s"
		fi
	fi
done <<'EOF'
virt qemu/virt qemu_virt qemu_virt::INST_RETIRED
u74 sifive/u74 sifive_u74 -
cva6 openhwgroup/cva6 openhw_cva6 -
cva6-fixed openhwgroup/cva6-fixed openhw_cva6_fixed openhw_cva6_fixed::riscv_instret
EOF
