#!/usr/bin/env bash
# Groups and the mode filters of the fixed counters (virt-sscofpmf:
# Smcntrpmf gives cycle and instret one filter each, mcyclecfg and
# minstretcfg).  Events that share cycle must leave out the same modes,
# so {cycles:u,cycles:k} needs a programmable counter for one of them.
# Where the device tree maps cpu-cycles to cycle alone
# (tests/overlays/cycles-on-cycle-only.dtso) such a group can never be
# scheduled: it must be refused when it is opened (EINVAL), not accepted
# and left "<not counted>" for ever.  With QEMU's own map, where the
# programmable counters count cycles too, the same group counts, and so
# does a group whose events are on different fixed counters.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmds="
	echo '== split'; perf stat -v -x';' -o /tmp/s -e '{cycles:u,cycles:k}' knownloop 100000 2>&1 | grep 'syscall failed'; cat /tmp/s
	echo '== apart'; perf stat -x';' -o /tmp/s -e '{cycles:u,instructions:k}' knownloop 100000; echo status=\$?; cat /tmp/s
	echo '== end'"

out="$tmp/only"
if ! guest_run "$out" --profile virt-sscofpmf --firmware hpm --icount \
	--overlay "$TOP/tests/overlays/cycles-on-cycle-only.dtso" -- sh -c "$cmds"; then
	not_ok "virt-sscofpmf, cycles on cycle alone: guest runs perf stat on groups"
	diag "$(tail -n 30 "$out")"
else
	sec=$(section split "$out")
	if grep -q 'syscall failed for event (cycles:k): Invalid argument' <<<"$sec"; then
		ok "cycles on cycle alone: {cycles:u,cycles:k}, which can never be scheduled, is refused at open (EINVAL for cycles:k)"
	else
		not_ok "cycles on cycle alone: {cycles:u,cycles:k}, which can never be scheduled, is refused at open (EINVAL for cycles:k)"
		diag "$sec"
	fi
	sec=$(section apart "$out")
	miss=$(not_counted_full 'cycles:u,instructions:k' <<<"$sec")
	if grep -qx 'status=0' <<<"$sec" && [ -z "$miss" ]; then
		ok "cycles on cycle alone: {cycles:u,instructions:k} opens and both count all the time"
	else
		not_ok "cycles on cycle alone: {cycles:u,instructions:k} opens and both count all the time"
		diag "$sec"
	fi
fi

out="$tmp/qemu"
if ! guest_run "$out" --profile virt-sscofpmf --firmware hpm --icount -- sh -c "$cmds"; then
	not_ok "virt-sscofpmf: guest runs perf stat on groups"
	diag "$(tail -n 30 "$out")"
else
	sec=$(section split "$out")
	miss=$(not_counted_full 'cycles:u,cycles:k' <<<"$sec")
	if ! grep -q 'syscall failed' <<<"$sec" && [ -z "$miss" ]; then
		ok "QEMU's map: {cycles:u,cycles:k} opens and both count all the time (one on a programmable counter)"
	else
		not_ok "QEMU's map: {cycles:u,cycles:k} opens and both count all the time (one on a programmable counter)"
		diag "$sec"
	fi
fi
