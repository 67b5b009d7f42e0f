#!/usr/bin/env bash
# Many events on one task with the HPM driver (issue 24): N events,
# alternately instructions and cycles, each a group of its own, opened
# disabled and enabled one by one (perf's core puts each on alone while
# every other is on, linux-patches/7.2/5-perf-core), then counted across context
# switches with another task on the same hart (perfops many).  cycle and
# instret are shared by any number of events: all N must be on a counter
# all the time and count, and the instructions events, which all count
# the same stretch, must agree.  Mapped too (-m), where each event is
# read by user space and cycle and instret are zeroed for their first
# reader at each switch in: the events that share them count on through
# the zeroing.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=300
out="$tmp/many"
if ! guest_run "$out" --profile virt --firmware hpm --icount -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu
	echo '== format'; ls -1 /sys/bus/event_source/devices/cpu/format
	echo '== plain'; perfops many $n
	echo '== mapped'; perfops many $n -m
	echo '== end'"; then
	not_ok "OpenSBI v1.9+HPM: $n events on one task"
	diag "$(tail -n 20 "$out")"
	exit 0
fi
if [ "$(serving_driver "$out")" != hpm ]; then
	not_ok "OpenSBI v1.9+HPM: the HPM driver serves perf"
	diag "$(section dmesg "$out")"
	exit 0
fi

for how in plain mapped; do
	sec=$(section "$how" "$out")
	line=$(grep '^grew=' <<<"$sec")
	if [[ $line =~ ^grew=([0-9]+)\ steady=([0-9]+)\ insn_min=([0-9]+)\ insn_max=([0-9]+)$ ]]; then
		grew=${BASH_REMATCH[1]} steady=${BASH_REMATCH[2]}
		lo=${BASH_REMATCH[3]} hi=${BASH_REMATCH[4]}
	else
		not_ok "$n events ($how): perfops many reports what they counted"
		diag "$sec"
		continue
	fi
	if [ "$grew" = "$n" ] && [ "$steady" = "$n" ]; then
		ok "$n events ($how): all on a counter all the time, all counting ($line)"
	else
		not_ok "$n events ($how): all on a counter all the time, all counting"
		diag "$sec"
	fi
	# The same stretch of the task's run, the kernel's part included:
	# perf's own adding and removing of the others at each switch, which
	# each event counts a different share of (the first added counts
	# every other's adding, the last removed every other's removal), so
	# they differ by a share.  An event whose count lost or gained what
	# a zeroed counter held would be off by whole switches' worth, or
	# wrap.
	if [ "$lo" -gt 0 ] && within_pct "$hi" "$lo" 100; then
		ok "$n events ($how): the instructions events agree within a factor of two ($lo to $hi)"
	else
		not_ok "$n events ($how): the instructions events agree within a factor of two"
		diag "$sec"
	fi
done
