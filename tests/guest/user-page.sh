#!/usr/bin/env bash
# cap_user_rdpmc in the first page of an event mapped before it is
# enabled, as self-monitoring libraries check it (open disabled, mmap,
# look at the page, enable): where kernel.perf_user_access lets user
# space read the counter (1), the page must say so from the start
# (cap_user_rdpmc 1, index 0 until the event runs), and after the
# enable offer the counter and let it be read; where it does not (0),
# cap_user_rdpmc stays 0.  On both RISC-V drivers, whose common code
# writes the page (linux-patches/7.2/1-fixes/0006): pristine OpenSBI v1.9 (SBI PMU
# driver) and OpenSBI v1.9 with HPM (HPM driver); instructions, and a
# cache event on a programmable counter.
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A fwname=([opensbi]="pristine OpenSBI v1.9 (SBI PMU driver)" [hpm]="OpenSBI v1.9+HPM (HPM driver)")
for fw in opensbi hpm; do
	out="$tmp/$fw"
	if ! guest_run "$out" --profile virt --firmware "$fw" -- sh -c "
		for m in 1 0; do
			echo \$m >/proc/sys/kernel/perf_user_access
			for e in instructions dTLB-load-misses; do
				echo \"== m\$m-\$e\"; perfops capfirst \$e
			done
		done
		echo '== end'"; then
		not_ok "${fwname[$fw]}: guest maps events before enabling them"
		diag "$(tail -n 20 "$out")"
		continue
	fi
	for e in instructions dTLB-load-misses; do
		sec=$(section "m1-$e" "$out")
		before=$(grep '^before ' <<<"$sec") after=$(grep '^after ' <<<"$sec")
		if [ "$before" = "before cap_user_rdpmc=1 index=0" ] &&
			[[ $after =~ ^after\ cap_user_rdpmc=1\ index=[1-9][0-9]*\ read=ok$ ]]; then
			ok "${fwname[$fw]}, perf_user_access 1, $e: cap_user_rdpmc 1 before the enable, the counter read after it ($before; $after)"
		else
			not_ok "${fwname[$fw]}, perf_user_access 1, $e: cap_user_rdpmc 1 before the enable, the counter read after it"
			diag "$sec"
		fi
		sec=$(section "m0-$e" "$out")
		before=$(grep '^before ' <<<"$sec") after=$(grep '^after ' <<<"$sec")
		if [ "$before" = "before cap_user_rdpmc=0 index=0" ] &&
			[[ $after =~ ^after\ cap_user_rdpmc=0\ index=0\ read=unavailable$ ]]; then
			ok "${fwname[$fw]}, perf_user_access 0, $e: cap_user_rdpmc 0 before and after the enable"
		else
			not_ok "${fwname[$fw]}, perf_user_access 0, $e: cap_user_rdpmc 0 before and after the enable"
			diag "$sec"
		fi
	done
done
