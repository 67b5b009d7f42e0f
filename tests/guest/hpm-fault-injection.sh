#!/usr/bin/env bash
# A task reading its own event through the mmap page (perf's
# self-monitoring protocol: index, offset, csrr of the counter) while
# the firmware fails the HPM driver's counter loads, starts and zeroings.
# No firmware here fails them: the guests boot the TEST-ONLY firmware
# hpm-faultinj (OpenSBI v1.9 + HPM + tests/fault-injection/*.patch),
# whose HPM extension fails every call of a chosen FID once the guest
# opens the raw event 0xfa1XPPFF (tests/fault-injection/README.md), and
# guest/workloads/hpmfault reads.  A failed call leaves the counter
# holding another event's count (or unstarted, or not zeroed): the
# driver must stop offering it to user space (hpm_count_on_unwritten()),
# or the reader adds what the counter holds to its own count.
#
# Scenarios, one hart, -icount (one instruction per ns of guest time):
#  start       virt: counter 3 holds another event's ~10^7 count; every
#              COUNTER_START fails, so a counting event's start (from
#              zero) fails;
#  load        virt-sscofpmf: a sampling event (period 10^9) whose
#              counter load (SET_MCOUNTER) fails;
#  samplestart virt-sscofpmf: the same event whose start
#              (INHIBIT_CLEAR) fails, so it is never loaded;
#  wrap        u74 with 24-bit counters (tests/overlays/hpm-24bit.dtso):
#              a counting event started normally, then every zeroing of
#              the wrap timer (COUNTER_START that starts nothing) fails.
# For each: the failure reached the driver and the kernel logged it; no
# read through the page traps (SIGILL); each read through the page lies
# between the read(2) counts taken just before and after it; the counts
# never decrease; the count never grows faster than the task can run
# (one instruction per ns of guest time: a count that does includes
# another event's); while the calls fail the page sends the reader to
# read(2); once they no longer fail (the injector disarmed, the event off
# its counter and on again) the page offers the counter again and the
# count grows.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# HPM_FAULT_IMAGE: boot this kernel Image instead of the clone's (to show
# that the checks fail on a kernel without the fix).
image=()
[ -z "${HPM_FAULT_IMAGE:-}" ] || image=(--image "$HPM_FAULT_IMAGE")

# Guest time per instruction is 1 ns; the clock ticks every 100 ns and
# reading it costs instructions of its own: the rate check allows this.
slack_ns=2000

# scenario NAME: the hpmfault arguments and the kernel's message.
declare -A args=(
	[start]="-s 2000000 -f 18 -r 1 0x2 0x8 20 10000"
	[load]="-p 1000000000 -f 3 -r 1 0x2 0x8 20 10000"
	[samplestart]="-p 1000000000 -f 17 -r 1 0x2 0x8 20 10000"
	[wrap]="-A -P -z -f 18 -r 1 0x2 0x8 30 200000"
)
declare -A what=(
	[start]="every COUNTER_START fails (a counting event's start from zero)"
	[load]="every SET_MCOUNTER fails (a sampling event's load)"
	[samplestart]="every INHIBIT_CLEAR fails (a sampling event's start)"
	[wrap]="every zeroing of the wrap timer fails (24-bit counters)"
)
declare -A message=(
	[start]='riscv-pmu-hpm: starting counters from zero \(0x[0-9a-f]+\) failed'
	[load]='riscv-pmu-hpm: loading counter 3 failed'
	[samplestart]='riscv-pmu-hpm: starting counters 0x8 failed'
	[wrap]='riscv-pmu-hpm: zeroing counters 0x8 failed'
)

# guest_cmd NAME...: the guest command running each scenario, with its
# kernel messages (console quiet, so that printing them costs nothing).
guest_cmd() {
	local s c="dmesg -n 1; dmesg -c >/dev/null"
	for s in "$@"; do
		c+="; echo '== $s'; hpmfault ${args[$s]}; echo '== $s-dmesg'; dmesg -c"
	done
	echo "$c"
}

# check_scenario NAME FILE
check_scenario() {
	local name=$1 file=$2 sec log verdict
	local d="$name, ${what[$name]}"
	sec=$(section "$name" "$file") log=$(section "$name-dmesg" "$file")
	if ! grep -q '^sample ' <<<"$sec" || ! grep -q '^recovered ' <<<"$sec"; then
		not_ok "$d: the reader ran"
		diag "$sec"
		return
	fi
	if grep -Eq "${message[$name]}" <<<"$log"; then
		ok "$d: the failure reached the driver and the kernel logged it"
	else
		not_ok "$d: the failure reached the driver and the kernel logged it"
		diag "kernel messages:" "$log"
	fi
	check "$d: no read through the mmap page took SIGILL" \
		grep -qx 'sigill=0' <<<"$sec"
	# One awk over the samples; prints the first violation of each rule.
	verdict=$(awk -v slack="$slack_ns" '
		/^sample / {
			for (i = 2; i <= NF; i++) { split($i, kv, "="); f[i] = kv[2] }
			ns = f[2]; k1 = f[3]; m = f[4]; k2 = f[5]; n++
			if (m != -1 && (m < k1 || m > k2) && !between++)
				print "between: " $0
			if (m == -1)
				fallback++
			if (k1 < last || (m != -1 && m < k1) || k2 < (m == -1 ? k1 : m)) {
				if (!decrease++)
					print "decrease: after " last ": " $0
			}
			last = k2
			if (k2 - lastk2 > ns - lastns + slack && !rate++)
				print "rate: " k2 - lastk2 " counts in " ns - lastns " ns: " $0
			lastk2 = k2; lastns = ns
		}
		/^recovered / {
			split($2, a, "="); split($3, b, "="); split($4, c, "=")
			if (a[2] == -1 || b[2] <= a[2] || c[2] < b[2] || a[2] < last)
				print "recovery: " $0
		}
		END { if (!fallback) print "fallback: none" }' <<<"$sec")
	local rule desc
	for rule in between decrease rate fallback recovery; do
		case $rule in
		between) desc="every read through the mmap page lies between the read(2) counts just before and after it" ;;
		decrease) desc="the count, through the page and read(2), never decreases" ;;
		rate) desc="the count never grows faster than the task runs (1 instruction per ns of guest time): it holds no other event's counts" ;;
		fallback) desc="while the calls fail, the page sends the reader to read(2)" ;;
		recovery) desc="once the calls no longer fail, the page offers the counter again and the count grows" ;;
		esac
		if grep -q "^$rule: " <<<"$verdict"; then
			not_ok "$d: $desc"
			diag "$(grep "^$rule: " <<<"$verdict")"
		else
			ok "$d: $desc"
		fi
	done
}

# run_guest FILE SCENARIOS -- RUN-QEMU-OPTIONS...
run_guest() {
	local file=$1 scenarios=()
	shift
	while [ "$1" != -- ]; do scenarios+=("$1"); shift; done
	shift
	if ! guest_run "$file" "$@" --firmware hpm-faultinj --icount \
		"${image[@]}" -- sh -c "$(guest_cmd "${scenarios[@]}")"; then
		not_ok "guest runs the fault-injection scenarios ${scenarios[*]}"
		diag "$(tail -n 30 "$file")"
		return
	fi
	for s in "${scenarios[@]}"; do
		check_scenario "$s" "$file"
	done
}

run_guest "$tmp/virt" start -- --profile virt
run_guest "$tmp/sscofpmf" load samplestart -- --profile virt-sscofpmf
run_guest "$tmp/u74" wrap -- --profile u74 --overlay "$TOP/tests/overlays/hpm-24bit.dtso"
