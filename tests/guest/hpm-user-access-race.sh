#!/usr/bin/env bash
# User-space counter access (scounteren) under stress, U74 profile, two
# harts: a task counting two raw events is switched in and out on CPU 0
# while a thread of it maps and unmaps the events' user pages from CPU 1
# (guest/workloads/hpmrace).  Afterwards no event is left, so no task
# may read any hpmcounter on either CPU: a read that does not trap means
# a grant outlived its event (the driver's scheduling path and mmap path
# once updated the same event flags word without a lock, and a lost
# update left a counter readable to every task on that hart).
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# HPM_RACE_SECONDS lengthens the stress (default 15 s, about 250 rounds
# on this project's reference machine); the rounds it must reach scale.
seconds=${HPM_RACE_SECONDS:-15}
min_rounds=$((seconds * 5))
out="$tmp/out"
if ! guest_run "$out" --profile u74 --firmware hpm --smp 2 --timeout $((seconds + 260)) -- sh -c "
	echo '== race'; hpmrace $seconds
	echo '== end'
	"; then
	not_ok "u74 --smp 2: guest runs the user-access stress"
	diag "$(tail -n 30 "$out")"
	exit 0
fi
sec=$(section race "$out")
n=$(sed -n 's/^iterations=\([0-9]*\)$/\1/p' <<<"$sec")
if is_number "$n" && [ "$n" -ge $min_rounds ] &&
	[ "$(grep -c '^cpu=[01] readable=none$' <<<"$sec")" = 2 ]; then
	ok "after $n map/unmap rounds racing context switches, no hpmcounter is readable from user space on either CPU"
else
	not_ok "after map/unmap rounds racing context switches, no hpmcounter is readable from user space on either CPU"
	diag "$sec"
fi
