#!/usr/bin/env bash
# A task that reads its own event through the mmap page (perf's
# self-monitoring protocol: take the counter's index from the page, read
# that hpmcounter with csrr, retry if the page changed meanwhile) while
# CPU-wide events of another process take its counter, one hart:
# the task's event may take hpmcounter3 or 4 (counterid_mask 0x18), and
# `perf stat -a` with a counterid_mask naming the counter the task's
# event is on (hpmcounter3, then 4, by turns) makes the event come back
# on the other counter each time the task is scheduled in again.  A
# reader preempted between taking the index and reading the counter
# then reads a counter it may no longer read (scounteren withdrawn); the
# page changed meanwhile, so the protocol's retry would take the new
# index, as on x86 and arm64, but the read traps first.  The reader
# spins between the two (perfops moved ... DELAY) so that nearly every
# preemption falls there.  It must not be killed (SIGILL), and its last
# page read must lie between the read(2) counts taken just before and
# after it.  Without --icount: the run lasts seconds of host time.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

seconds=${HPM_MOVE_SECONDS:-10}
# At least this many moves must have happened for the run to show anything.
min_moves=${HPM_MOVE_MIN:-50}

# PROFILE:FIRMWARE:READER-EVENT:CPU-WIDE-EVENT: the HPM driver on the
# U74 profile (one hart, two programmable counters), and upstream's SBI
# PMU driver on the Sscofpmf profile (pristine OpenSBI places each event
# on the first free counter its counterid_mask allows; its raw events
# need a map QEMU's tree lacks, so the generic events there).  The HPM
# driver on a QEMU virt profile with Sscofpmf keeps a selector on one
# counter (QEMU's one counter per selector, 2-hpm), so no event moves
# there.
for run in u74:hpm:r2:event=0x1 virt-sscofpmf:opensbi:instructions:cpu-cycles; do
	IFS=: read -r profile fw reader cpuwide <<<"$run"
	out="$tmp/$profile"
	if ! guest_run "$out" --profile "$profile" --firmware "$fw" --timeout $((seconds * 6 + 240)) -- sh -c "
		echo 1 > /proc/sys/kernel/perf_user_access
		perfops moved $reader 0x18 $seconds 2000 > /tmp/moved 2>&1 &
		reader=\$!
		runs=0
		while kill -0 \$reader 2>/dev/null; do
			perf stat -a -x';' -o /dev/null -e cpu/$cpuwide,counterid_mask=\$((8 << runs % 2))/ true
			runs=\$((runs + 1))
		done
		wait \$reader
		st=\$?
		echo '== moved'; echo status=\$st; echo runs=\$runs; cat /tmp/moved
		echo '== end'
		"; then
		not_ok "$profile ($fw): guest runs a self-monitoring reader beside CPU-wide events"
		diag "$(tail -n 30 "$out")"
		continue
	fi
	sec=$(section moved "$out")
	status=$(sed -n 's/^status=//p' <<<"$sec")
	line=$(grep '^reads=' <<<"$sec")
	moves=$(sed -n 's/.* moves=\([0-9]*\) .*/\1/p' <<<"$line")
	read -r k1 v k2 < <(sed -n 's/.* read=\([0-9]*\) mmap=\(-*[0-9]*\) read=\([0-9]*\)$/\1 \2 \3/p' <<<"$line")
	if [ "$status" = 0 ] && is_number "$moves" && [ "$moves" -ge "$min_moves" ]; then
		ok "$profile ($fw): a reader whose event moved between counters $moves times while it read the mmap page is never killed (no SIGILL)"
	else
		not_ok "$profile ($fw): a reader whose event moved between counters at least $min_moves times while it read the mmap page is never killed (no SIGILL)"
		diag "$sec"
	fi
	if is_number "$k1" && is_number "$v" && is_number "$k2" && [ "$k1" -le "$v" ] && [ "$v" -le "$k2" ]; then
		ok "$profile ($fw): after the moves, the page read lies between the read(2) counts around it ($k1 <= $v <= $k2)"
	else
		not_ok "$profile ($fw): after the moves, the page read lies between the read(2) counts around it"
		diag "$sec"
	fi
done
