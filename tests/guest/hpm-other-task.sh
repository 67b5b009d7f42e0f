#!/usr/bin/env bash
# A task never reads another task's counts on a programmable counter
# (u74 profile, counters 3 and 4, -icount): task A counts 10^8 loop
# instructions with raw event 0x2 on counter 3 (counterid_mask 0x8) and
# exits; task B then opens the same event on the same counter and at once
# reads the counter directly (csrr, the counter its mmap page names) and
# through the mmap page.  Both must be about zero (B's own few
# instructions since the counter started), not A's 10^8: the driver starts
# a programmable counter from zero (COUNTER_START) whenever an event
# starts on it.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

iterations=50000000	# 10^8 loop instructions for task A
limit=1000000		# B's reads: far below A's count
out="$tmp/out"
if ! guest_run "$out" --profile u74 --firmware hpm --icount -- sh -c "
	perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x8/ knownloop $iterations >/dev/null
	echo A=\$(cut -d';' -f1 /tmp/s | grep -E '^[0-9]+\$')
	perfops rawread 0x2 0x8
	perfops rawread 0x2 0x8
	"; then
	not_ok "u74 --icount: guest runs task A and task B"
	diag "$(tail -n 20 "$out")"
	exit 0
fi

a=$(sed -n 's/^A=\([0-9]*\).*/\1/p' "$out" | head -n1)
check "task A counted its loop on counter 3 (got '$a')" \
	test -n "$a" -a "${a:-0}" -ge 100000000
n=0
while read -r line; do
	n=$((n + 1))
	ctr=$(sed -n 's/.*counter=\([-0-9]*\).*/\1/p' <<<"$line")
	raw=$(sed -n 's/.*raw=\([-0-9]*\).*/\1/p' <<<"$line")
	mm=$(sed -n 's/.*mmap=\([-0-9]*\).*/\1/p' <<<"$line")
	check "task B ($n) got counter 3 with user reads ($line)" \
		test "$ctr" = 3 -a "$raw" != -1
	check "task B ($n): direct read of counter 3 is its own count, not A's (raw $raw < $limit)" \
		test "$raw" -ge 0 -a "$raw" -lt $limit
	check "task B ($n): mmap-page read is its own count (mmap $mm < $limit)" \
		test "$mm" -ge 0 -a "$mm" -lt $limit
done < <(grep '^counter=' "$out")
check "two B tasks ran" test "$n" = 2

# cycle and instret are shared by every task and no event writes them
# for counting: a task that reads instret directly must not see what
# other tasks ran.  perfops slices maps an instructions event (instret,
# sysctl 1) and shares CPU 0 with a spinning child under -icount, taking
# turns some 35 to 90 times; it reads instret directly all along.  The
# driver zeroes instret when the task's event makes it readable (at the
# mmap, and each time the task is scheduled in), so no read carries what
# ran before: the first read and the largest one stay below three of the
# child's slices, far below the task's own count (360 million).  Read
# without the zeroing, it holds the hart's total since boot and grows by
# the child's slices.
# QEMU accounts a slice's instructions to instret late, sometimes after
# the next switch, so a read just after a switch can carry up to one of
# the child's slices (4 million); the check bounds what accumulates.
# The scheduler lets the spinning child run long stretches at first:
# 2,000,000 reads saw 5 to 46 switches depending on nothing but the perf
# binary and kernel around them; 4,000,000 saw 35 to 90.
# A CPU-wide instructions event counts at the same time: the resets must
# cost it nothing (every instruction is one ns under -icount and CPU 0
# never idles, so it counts the elapsed time).
out="$tmp/slices"
if guest_run "$out" --profile u74 --firmware hpm --icount -- sh -c "
	perf stat -a -x';' -o /tmp/w -e instructions perfops time perfops slices instructions 4000000
	echo W=\$(cut -d';' -f1 /tmp/w | grep -E '^[0-9]+\$')
	"; then
	line=$(grep -m1 '^switches=' "$out")
	rd=$(grep -m1 '^read=' "$out")
	get() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" <<<"$line"; }
	switches=$(get switches) first=$(get first) max=$(get max)
	k1=$(sed -n 's/^read=\([0-9]*\) .*/\1/p' <<<"$rd")
	m=$(sed -n 's/.* mmap=\([0-9]*\) .*/\1/p' <<<"$rd")
	k2=$(sed -n 's/.* read=\([0-9]*\)$/\1/p' <<<"$rd")
	# A bound that does not grow with the run: three of the child's
	# slices (4 million each), where the task's own count is 360 million.
	bound=12000000
	check "the task was switched out and back in at least 10 times ($line)" \
		test "${switches:-0}" -ge 10
	check "its first direct read of instret is not the hart's earlier count (first $first < $bound; its own ${k2:-?})" \
		test -n "$first" -a "${first:-$bound}" -lt "$bound"
	check "no direct read of instret accumulates other tasks' slices (largest $max < $bound, three of the child's slices; its own ${k2:-?})" \
		test -n "$max" -a "${max:-$bound}" -lt "$bound"
	check "its mmap-page read is the kernel's count ($rd)" \
		test -n "$m" -a "${k1:-1}" -le "${m:-0}" -a "${m:-0}" -le "${k2:-0}"
	w=$(sed -n 's/^W=\([0-9]*\).*/\1/p' "$out" | head -n1)
	ns=$(sed -n 's/^elapsed_ns=\([0-9]*\).*/\1/p' "$out" | head -n1)
	check "a CPU-wide instructions event kept counting across the resets ($w instructions in $ns ns)" \
		test -n "$w" -a -n "$ns" -a "$((${w:-0} * 100))" -ge "$((${ns:-1} * 95))" \
		-a "$((${w:-0} * 100))" -le "$((${ns:-1} * 105))"
else
	not_ok "u74 --icount: a task reading instret shares CPU 0 with another"
	diag "$(tail -n 20 "$out")"
fi

# An inherited event's counter is not left readable to another task.
# perf may swap the cloned contexts of parent and child at a context
# switch between them instead of removing their events, so a counter the
# parent's mapped event made readable would stay readable to the child,
# which would then read the parent's counts: an inherited event gets no
# user access (its page offers no counter) and each child's direct read
# of counter 3 traps.
out="$tmp/inherit"
if guest_run "$out" --profile u74 --firmware hpm -- perfops inherit 0x2 0x8 3 4; then
	page=$(grep -m1 '^counter=' "$out")
	check "an inherited event's mmap page offers no counter ($page)" \
		grep -q '^counter=[-0-9]* user_rdpmc=0$' "$out"
	check "each of 4 children's direct read of counter 3 traps ($(grep -c '^child read=ok' "$out") did not)" \
		test "$(grep -c '^child read=trapped$' "$out")" = 4
else
	not_ok "u74: a parent with an inherited mapped event forks children"
	diag "$(tail -n 20 "$out")"
fi
