#!/usr/bin/env bash
# Counters narrower than 64 bits, read by the kernel and through the mmap
# page (u74 profile, -icount).
#
#  - As shipped, the u74 profile gives its hpmcounters the real U74's 40
#    bits (riscv,counter-widths in qemu-config/u74.dtso): the driver
#    reports a 40-bit narrowest counter and the mmap page of an event on
#    hpmcounter3 says pmc_width 40.
#  - With tests/overlays/hpm-24bit.dtso on top, hpmcounter3 and 4 are 24
#    bits wide: 10^8 instructions wrap them about six times.  perf stat
#    must still count a 10^8-instruction loop within 1 %, and a task
#    reading its own event through the mmap page the way perf's readers
#    do (offset + the counter sign-extended at pmc_width, under the
#    page's lock; perfops track) must get the kernel's count at every
#    sample during about 10^8 instructions of work: between the read(2)
#    just before and the one just after, never negative.  perfops keeps
#    its samples in memory and prints them at the end: a task that blocks
#    on output restarts its counter from zero when it runs again, which
#    would keep it from ever reaching half its range.  Meanwhile perf
#    stat counts the same task's cycles on hpmcounter4 (not instructions
#    again: QEMU counts an event on one counter only; under -icount a
#    cycle is an instruction), so that two narrow counters are in use.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# track_checks NAME FILE WIDTH: the checks on perfops track's output.
track_checks() {
	local name=$1 out=$2 width=$3 head bad
	head=$(grep '^counter=' "$out" | head -n1)
	check "$name: the event sits on hpmcounter3, its mmap page says pmc_width $width ($head)" \
		test "$head" = "counter=3 pmc_width=$width"
	# Each sample: read=K1 mmap=M read=K2, K1 <= M <= K2, M not below
	# the previous one.  awk's numbers are doubles: exact below 2^53.
	bad=$(awk -F'[ =]' '/^read=/ {
		n++; k1 = $2; m = $4; k2 = $6
		if (m < 0 || m < k1 || m > k2 || m < last)
			print "sample " n ": " $0 (m < last ? " (previous mmap " last ")" : "")
		last = m
	} END { if (n == 0) print "no samples" }' "$out")
	if [ -z "$bad" ]; then
		ok "$name: every mmap-page read lies between the read(2) counts around it"
	else
		not_ok "$name: every mmap-page read lies between the read(2) counts around it"
		diag "$(head -n 5 <<<"$bad")" "($(wc -l <<<"$bad") of $(grep -c '^read=' "$out") samples wrong)"
	fi
}

# 1: the u74 profile as shipped: 40-bit hpmcounters.
out="$tmp/40.out"
if guest_run "$out" --profile u74 --firmware hpm --icount -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== track'; perfops track 0x2 0x8 5 100000
	echo '== end'
	"; then
	check "u74: the driver reports its narrowest counter as 40 bits" \
		grep -q 'riscv-pmu-hpm: .* narrowest 40 bits' "$out"
	section track "$out" >"$tmp/40.track"
	track_checks "u74 (40 bits)" "$tmp/40.track" 40
else
	not_ok "u74 --icount: guest runs perfops track"
	diag "$(tail -n 20 "$out")"
fi

# 2: hpmcounter3 and 4 narrowed to 24 bits.
iterations=50000000	# knownloop: 2 instructions each, 10^8 in all
samples=100		# perfops track: about 10^6 instructions per sample
work=200000
out="$tmp/24.out"
if guest_run "$out" --profile u74 --firmware hpm --icount \
	--overlay "$TOP/tests/overlays/hpm-24bit.dtso" -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== stat'
	perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x8/ knownloop $iterations >/dev/null
	cat /tmp/s
	echo '== track'
	perf stat -x';' -o /tmp/t -e cpu/event=0x1,counterid_mask=0x10/ perfops track 0x2 0x8 $samples $work
	echo '== trackstat'; cat /tmp/t
	echo '== end'
	"; then
	check "u74 + 24-bit overlay: the driver reports its narrowest counter as 24 bits" \
		grep -q 'riscv-pmu-hpm: .* narrowest 24 bits' "$out"
	c=$(section stat "$out" | field 1 cpu/event=0x2,counterid_mask=0x8/)
	if is_number "$c" && within_pct "$c" $((2 * iterations)) 1; then
		ok "24-bit hpmcounter3: perf stat counts the 10^8-instruction loop within 1 % ($c)"
	else
		not_ok "24-bit hpmcounter3: perf stat counts the 10^8-instruction loop within 1 % (got '$c')"
		diag "$(section stat "$out")"
	fi
	section track "$out" >"$tmp/24.track"
	track_checks "24 bits" "$tmp/24.track" 24
	# The run must really have wrapped the counter several times.
	last=$(grep '^read=' "$tmp/24.track" | tail -n1 | sed 's/.* read=//')
	check "24 bits: the tracked event counted over five wraps of 2^24 (${last:-none})" \
		test "${last:-0}" -gt $((5 << 24))
	# The task also starts, prints its samples and exits (2 % of it);
	# one wrap lost would be 17 %.
	t=$(section trackstat "$out" | field 1 cpu/event=0x1,counterid_mask=0x10/)
	if is_number "$t" && is_number "$last" && [ "$t" -ge "$last" ] &&
		within_pct "$t" "$last" 5; then
		ok "24-bit hpmcounter4 beside it: perf stat's cycles of the task ($t) within 5 % of its own final instruction count ($last)"
	else
		not_ok "24-bit hpmcounter4 beside it: perf stat's cycles of the task within 5 % of its own final instruction count (got '$t', '$last')"
		diag "$(section trackstat "$out")"
	fi
else
	not_ok "u74 --icount with 24-bit counters: guest runs perf stat and perfops track"
	diag "$(tail -n 20 "$out")"
fi

# 3: hpmcounter3 described as 16 bits, under the 24 the wrap timer can
# follow: at a U74's speed such a counter wraps every 30 us, unseen
# between two reads of the timer, so the driver must not use it at all
# (neither at 16 bits nor at the 64 the firmware reports).  An event that
# names only counter 3 is refused, one that names counter 4 counts.
out="$tmp/16.out"
if guest_run "$out" --profile u74 --firmware hpm --icount \
	--overlay "$TOP/tests/overlays/hpm-16bit.dtso" -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== stat3'
	perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x8/ knownloop 10000000 >/dev/null; cat /tmp/s
	echo '== stat4'
	perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x10/ knownloop 10000000 >/dev/null; cat /tmp/s
	echo '== end'
	"; then
	check "u74 + 16-bit hpmcounter3: the driver says it does not use the counter" \
		grep -q 'riscv-pmu-hpm: .*counter 3 is 16 bits wide, under the 24 bits the wrap timer can follow; not used' "$out"
	c3=$(section stat3 "$out" | field 1 cpu/event=0x2,counterid_mask=0x8/)
	c4=$(section stat4 "$out" | field 1 cpu/event=0x2,counterid_mask=0x10/)
	if [ "$c3" != missing ] && ! is_number "$c3"; then
		ok "u74 + 16-bit hpmcounter3: an event only counter 3 may take is not counted ($c3)"
	else
		not_ok "u74 + 16-bit hpmcounter3: an event only counter 3 may take is not counted (got '$c3')"
		diag "$(section stat3 "$out")"
	fi
	# The loop's 2 * 10^7 instructions and the process's start and exit.
	if is_number "$c4" && within_pct "$c4" 20000000 2; then
		ok "u74 + 16-bit hpmcounter3: counter 4 still counts the loop ($c4)"
	else
		not_ok "u74 + 16-bit hpmcounter3: counter 4 still counts the loop (got '$c4')"
		diag "$(section stat4 "$out")"
	fi
else
	not_ok "u74 --icount with a 16-bit counter: guest runs perf stat"
	diag "$(tail -n 20 "$out")"
fi
