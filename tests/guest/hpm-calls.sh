#!/usr/bin/env bash
# What the HPM driver costs in SBI calls (traps to the firmware), on each
# of its ways to the counters: QEMU logs every trap (-d int), an ecall
# from S-mode is cause 9, and the difference between $n repetitions of
# an operation and none, divided by $n, is the calls one operation makes
# (the runs of a configuration share one boot, told apart in the log by
# markers).
#
# Through the HPM SBI extension (virt, OpenSBI v1.9+HPM), the point of
# starting and stopping counters through mcountinhibit in batches:
#  - enable+disable of one programmable event (r10019): at most 2 (one
#    COUNTER_START, which starts it from zero, one INHIBIT_SET; the event
#    stays programmed);
#  - enable+disable of a group of four (cycles, instructions and two
#    programmable events) through its leader, as perf does: at most 2,
#    one COUNTER_START for both programmable events and one INHIBIT_SET,
#    not calls per event;
#  - enable+disable of instructions (fixed instret, never stopped): none;
#  - a read: none (counters are read from their CSRs).
#
# With counter delegation (virt-cdeleg, pristine OpenSBI v1.9, which
# delegates every counter; issue 23): none for any of them, nor per
# overflow of a sampling event (perf record -c $period of the known loop,
# a short and a long run: the difference in calls over the difference in
# samples).  The driver reaches every register through siselect/sireg*
# and scountinhibit; a call would be a trap QEMU logs whatever the driver
# believes it does.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=500
period=20000
# The measurements, "CONFIGURATION EVENTS OP MAX WHAT": hpm is the HPM
# extension's backend, cdeleg counter delegation.
cases=(
	"hpm r10019 enable+disable 2.05 one programmable event"
	"hpm cycles,instructions,r10019,r10021 enable+disable 2.05 a group of four"
	"hpm instructions enable+disable 0.05 instructions on the fixed instret"
	"hpm r10019 read 0.05 a programmable event"
	"cdeleg r10019 enable+disable 0.00 one programmable event"
	"cdeleg cycles,instructions,r10019,r10021 enable+disable 0.00 a group of four"
	"cdeleg instructions enable+disable 0.00 instructions on the fixed instret"
	"cdeleg r10019 read 0.00 a programmable event"
	"cdeleg r2 overflow 0.00 a sampling event (r2)"
)
# The least calls a case must show, where it makes some: that the trap
# log sees the calls at all, so that the cases with none mean none.
declare -A least=([hpm r10019 enable+disable]=1)
declare -A boot=(
	[hpm]="--profile virt --firmware hpm"
	[cdeleg]="--profile virt-cdeleg --firmware opensbi"
)
declare -A title=(
	[hpm]="HPM extension (virt, OpenSBI v1.9+HPM)"
	[cdeleg]="counter delegation (virt-cdeleg, pristine OpenSBI v1.9)"
)
declare -A backend=(
	[hpm]="through the HPM SBI extension"
	[cdeleg]="through the delegated counters (Smcdeleg, Ssccfg)"
)

# run K EVENTS OP: the command of one run, K repetitions (for overflow,
# a loop of 10^5 * K iterations, 2 * 10^5 * K instructions, sampled).
run() {
	if [ "$3" = overflow ]; then
		echo "perf record -o /tmp/p.data -e $2 -c $period knownloop $((100000 * $1)) >/dev/null 2>&1; echo status=\$?; echo samples=\$(perf script -i /tmp/p.data -F comm 2>/dev/null | grep -c knownloop)"
	else
		echo "perfops ops -n $1 -o $3 -e $2; echo status=\$?"
	fi
}

for conf in hpm cdeleg; do
	# One boot: each case runs with 0 (1 for overflow) and with $n (10)
	# repetitions, every run between two markers (perfops mark: a
	# breakpoint from user mode, which nothing else in the guest
	# causes), so the calls of a run are the ecalls between its markers,
	# its start and end (the shell starting it, the next marker) the
	# same for both.
	cmd="echo '== dmesg'; dmesg | grep riscv-pmu; echo '== runs'; perfops mark"
	for c in "${cases[@]}"; do
		read -r cf ev op _ <<<"$c"
		[ "$cf" = "$conf" ] || continue
		if [ "$op" = overflow ]; then ks="1 10"; else ks="0 $n"; fi
		for k in $ks; do
			cmd+="; $(run "$k" "$ev" "$op"); perfops mark"
		done
	done
	trap_log="$tmp/trap.$conf"
	# shellcheck disable=SC2086 # boot[] holds options
	if ! HPM_QEMU_EXTRA="-d int -D $trap_log" guest_run "$tmp/out.$conf" \
		${boot[$conf]} --icount -- sh -c "$cmd"; then
		not_ok "${title[$conf]}: guest runs the operations under the trap log"
		diag "$(tail -n 20 "$tmp/out.$conf")"
		continue
	fi
	check "${title[$conf]}: the HPM driver serves perf ${backend[$conf]}" \
		grep -q "riscv-pmu-hpm: .* ${backend[$conf]}" "$tmp/out.$conf"
	# The ecalls from S-mode (cause 9) between consecutive user-mode
	# breakpoints (cause 3 at a user address), one count per run.
	mapfile -t counts < <(awk '
		/cause:0000000000000003, epc:0x00000000[0-7]/ { if (on) print c; on = 1; c = 0; next }
		/cause:0000000000000009,/ { c++ }' "$trap_log")
	runs=$(section runs "$tmp/out.$conf")
	mapfile -t statuses < <(sed -n 's/^status=//p' <<<"$runs")
	mapfile -t samples < <(sed -n 's/^samples=//p' <<<"$runs")

	i=0 j=0
	for c in "${cases[@]}"; do
		read -r cf ev op max what <<<"$c"
		[ "$cf" = "$conf" ] || continue
		c0=${counts[$i]:-} c1=${counts[$((i + 1))]:-}
		s0=${statuses[$i]:-} s1=${statuses[$((i + 1))]:-}
		i=$((i + 2))
		per=$op reps=$n
		if [ "$op" = overflow ]; then
			per="overflow ($period instructions)"
			reps=$(( ${samples[$((j + 1))]:-0} - ${samples[$j]:-0} ))
			j=$((j + 2))
		fi
		if [ "$s0" = 0 ] && [ "$s1" = 0 ] && is_number "$c0" && is_number "$c1" &&
			[ "$reps" -gt 0 ]; then
			calls=$(awk -v a="$c0" -v b="$c1" -v n="$reps" 'BEGIN { printf "%.2f", (b - a) / n }')
		else
			calls=error
		fi
		min=${least[$conf $ev $op]:-0}
		if [ "$calls" != error ] &&
			awk -v c="$calls" -v m="$max" -v l="$min" 'BEGIN { exit !(c <= m && c >= l) }'; then
			ok "${title[$conf]}, $what: $calls SBI calls per $per (at least $min, at most $max; ecalls $c0 and $c1 over $reps more)"
		else
			not_ok "${title[$conf]}, $what: at least $min, at most $max SBI calls per $per"
			diag "got '$calls' (ecalls $c0 and $c1, status '$s0' and '$s1', $reps more)" "$(tail -n 5 "$tmp/out.$conf")"
		fi
	done
done
