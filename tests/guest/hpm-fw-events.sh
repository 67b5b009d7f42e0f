#!/usr/bin/env bash
# Firmware events (issue 23): perf's FW_* events (riscv-sbi-firmware.json,
# raw config bits 63-62 = 10) count what the firmware does for S-mode,
# on the SBI PMU extension's firmware counters.  The SBI PMU driver has
# always counted them; the HPM driver must too, on both its ways to the
# hardware counters, or taking the counters from the SBI PMU driver
# would lose them:
#  - sbi: pristine OpenSBI v1.9 on virt, the SBI PMU driver (reference);
#  - hpm: OpenSBI v1.9+HPM on virt, the HPM driver through the HPM
#    extension;
#  - cdeleg: pristine OpenSBI v1.9 on virt-cdeleg, the HPM driver
#    programming delegated counters.
# Two harts, without Sstc (sstc=false on the profile's CPU), so that the
# kernel sets its timer and sends IPIs through SBI calls the firmware
# counts.  Checked on each: perf list offers the same firmware events,
# perf stat -a of FW_SET_TIMER, FW_IPI_SENT and FW_IPI_RECEIVED counts
# each of them 100 % of the time, timer and IPI sends above zero; a group
# of cycles and FW_SET_TIMER counts both.  On the HPM driver, what a
# firmware counter cannot do is refused rather than counted wrong: a
# mode filter (:u) and sampling (perf record).  And where the PMU has no
# firmware format field, perf list hides the firmware events (below).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

confs=(sbi hpm cdeleg)
declare -A profile=([sbi]=virt [hpm]=virt [cdeleg]=virt-cdeleg)
declare -A firmware=([sbi]=opensbi [hpm]=hpm [cdeleg]=opensbi)
declare -A want=([sbi]=sbi [hpm]=hpm [cdeleg]=hpm)
declare -A title=(
	[sbi]="SBI PMU driver (virt, pristine OpenSBI v1.9)"
	[hpm]="HPM driver, HPM extension (virt, OpenSBI v1.9+HPM)"
	[cdeleg]="HPM driver, delegated counters (virt-cdeleg, pristine OpenSBI v1.9)"
)
fw_events=fw_set_timer,fw_ipi_sent,fw_ipi_received
# Work on both harts for a while: timer reprogramming and IPIs.
work="sh -c 'for i in 1 2 3 4; do ls -R /usr >/dev/null & done; sleep 0.1; wait'"

for c in "${confs[@]}"; do
	# shellcheck disable=SC1090 # the profile's QEMU_CPU64
	. "$TOP/qemu-config/${profile[$c]}.conf"
	HPM_QEMU_EXTRA="-cpu $QEMU_CPU64,sstc=false" guest_run "$tmp/$c" \
		--profile "${profile[$c]}" --firmware "${firmware[$c]}" --smp 2 -- sh -c "
		echo '== dmesg'; dmesg | grep riscv-pmu
		echo '== format'; ls -1 /sys/bus/event_source/devices/cpu/format
		echo '== list'; perf list 2>/dev/null | grep -o 'fw_[a-z_]*' | sort -u
		s=/sys/bus/event_source/devices/cpu f=/tmp/fakesys/bus/event_source/devices/cpu
		mkdir -p \$f && cp \$s/type \$f/ && cp -r \$s/format \$f/
		echo '== fake-others'; SYSFS_PATH=/tmp/fakesys perf list 2>/dev/null | grep -o '^  [a-z0-9_.-]*' | grep -v '^  fw_' | sort -u
		rm -f \$f/format/firmware
		echo '== nofw-list'; SYSFS_PATH=/tmp/fakesys perf list 2>/dev/null | grep -o 'fw_[a-z_]*' | sort -u
		echo '== nofw-others'; SYSFS_PATH=/tmp/fakesys perf list 2>/dev/null | grep -o '^  [a-z0-9_.-]*' | grep -v '^  fw_' | sort -u
		echo '== nofw-deprecated'; SYSFS_PATH=/tmp/fakesys perf list --deprecated 2>/dev/null | grep -o 'fw_[a-z_]*' | sort -u
		echo '== perf-test'; perf test 'Sysfs PMU' 2>&1 | grep -E '^ *[0-9]+\.[0-9]+: '
		echo '== stat'; perf stat -x';' -o /tmp/s -a -e $fw_events -- $work; grep -v '^#' /tmp/s
		echo '== group'; perf stat -x';' -o /tmp/s -a -e '{cycles,fw_set_timer}' -- $work; grep -v '^#' /tmp/s
		echo '== user'; perf stat -x';' -o /tmp/s -a -e fw_set_timer:u -- sleep 0.05 2>&1; grep -v '^#' /tmp/s
		echo '== record'; perf record -a -o /tmp/p.data -e fw_set_timer -c 1 -- sleep 0.05 >/dev/null 2>&1; echo rc=\$?
		echo '== end'" || true
done

declare -A lists
for c in "${confs[@]}"; do
	out="$tmp/$c"
	if ! grep -q '^== end$' "$out"; then
		not_ok "${title[$c]}: guest runs the firmware-event checks"
		diag "$(tail -n 20 "$out")"
		continue
	fi
	drv=$(serving_driver "$out")
	if [ "$drv" = "${want[$c]}" ] &&
		{ [ "$c" != cdeleg ] || section dmesg "$out" | grep -q 'through the delegated counters'; }; then
		ok "${title[$c]}: served by the $drv driver"
	else
		not_ok "${title[$c]}: served by the ${want[$c]} driver"
		diag "$(section dmesg "$out")"
	fi
	lists[$c]=$(section list "$out" | tr '\n' ' ')
	check "${title[$c]}: the cpu PMU's format has the firmware field" \
		grep -qx firmware <<<"$(section format "$out")"

	sec=$(section stat "$out")
	bad=$(not_counted_full "$fw_events" <<<"$sec")
	timer=$(field 1 fw_set_timer <<<"$sec") ipi=$(field 1 fw_ipi_sent <<<"$sec")
	if [ -z "$bad" ] && is_number "$timer" && is_number "$ipi" &&
		[ "$timer" -gt 0 ] && [ "$ipi" -gt 0 ]; then
		ok "${title[$c]}: perf stat -a counts $fw_events 100 % of the time ($(tr '\n' ' ' <<<"$sec" | sed 's/  */ /g'))"
	else
		not_ok "${title[$c]}: perf stat -a counts $fw_events 100 % of the time, timer and IPI sends above 0"
		diag "not counted:${bad:- none}" "$sec"
	fi
	sec=$(section group "$out")
	if grep -Eq '^[0-9]+;[^;]*;cycles;' <<<"$sec" &&
		grep -Eq '^[0-9]+;[^;]*;fw_set_timer;' <<<"$sec"; then
		ok "${title[$c]}: a group of cycles and fw_set_timer counts both"
	else
		not_ok "${title[$c]}: a group of cycles and fw_set_timer counts both"
		diag "$sec"
	fi
	[ "${want[$c]}" = hpm ] || continue
	sec=$(section user "$out")
	if ! grep -Eq '^[0-9]+;' <<<"$sec"; then
		ok "${title[$c]}: fw_set_timer:u refused (a firmware counter filters no mode)"
	else
		not_ok "${title[$c]}: fw_set_timer:u refused (a firmware counter filters no mode)"
		diag "$sec"
	fi
	rc=$(section record "$out" | sed -n 's/^rc=//p')
	if [ -n "$rc" ] && [ "$rc" != 0 ]; then
		ok "${title[$c]}: perf record -e fw_set_timer refused (firmware counters do not interrupt; exit $rc)"
	else
		not_ok "${title[$c]}: perf record -e fw_set_timer refused (firmware counters do not interrupt)"
		diag "rc=${rc:-none}"
	fi
done

# Where the cpu PMU has no firmware format field (a driver without
# firmware counters: the HPM driver where the SBI PMU extension has
# none), perf list must not offer the firmware events, which could only
# print <not supported> (3-perf-tools/0001); every other event stays, and
# --deprecated still lists them.  Checked on a copy of the PMU's sysfs
# directory (type and format) without the field, through perf's
# SYSFS_PATH, on each configuration's own event table.
for c in "${confs[@]}"; do
	out="$tmp/$c"
	grep -q '^== end$' "$out" || continue
	nofw=$(section nofw-list "$out" | tr '\n' ' ')
	others=$(section fake-others "$out") nofw_others=$(section nofw-others "$out")
	dep=$(section nofw-deprecated "$out" | tr '\n' ' ')
	if [ -n "${lists[$c]}" ] && [ -z "$nofw" ] && [ -n "$others" ] &&
		[ "$others" = "$nofw_others" ] && [ "$dep" = "${lists[$c]}" ]; then
		ok "${title[$c]}: without the firmware format field perf list offers none of the $(wc -w <<<"${lists[$c]}") firmware events, the same $(wc -l <<<"$others") others, and all of them with --deprecated"
	else
		not_ok "${title[$c]}: without the firmware format field perf list offers no firmware event, the same others, and all of them with --deprecated"
		diag "offered: ${nofw:-none}" "with --deprecated: ${dep:-none}" \
			"others lost: $(comm -23 <(echo "$others") <(echo "$nofw_others") | tr '\n' ' ')"
	fi
done

# perf's own test of the same (tools/perf/tests/pmu.c, in the patch):
# a sysfs event setting bits a format names is listed, one setting bits
# none names is deprecated; the suite's other subtests still pass.
for c in "${confs[@]}"; do
	out="$tmp/$c"
	grep -q '^== end$' "$out" || continue
	sec=$(section perf-test "$out")
	if grep -Eq 'PMU events setting config bits no format names +: Ok' <<<"$sec" &&
		! grep -q 'FAILED' <<<"$sec"; then
		ok "${title[$c]}: perf test 'Sysfs PMU' passes, its subtest of events setting config bits no format names included ($(grep -c ': Ok' <<<"$sec") subtests)"
	else
		not_ok "${title[$c]}: perf test 'Sysfs PMU' passes, its subtest of events setting config bits no format names included"
		diag "$sec"
	fi
done

# The same firmware events on offer whoever serves perf.
if [ -n "${lists[sbi]:-}" ] && [ "${lists[hpm]:-}" = "${lists[sbi]}" ] &&
	[ "${lists[cdeleg]:-}" = "${lists[sbi]}" ]; then
	ok "perf list offers the same $(wc -w <<<"${lists[sbi]}") firmware events on all three"
else
	not_ok "perf list offers the same firmware events on all three"
	diag "sbi: ${lists[sbi]:-}" "hpm: ${lists[hpm]:-}" "cdeleg: ${lists[cdeleg]:-}"
fi
