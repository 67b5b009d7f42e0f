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
