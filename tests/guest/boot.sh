#!/usr/bin/env bash
# The guest boots on every machine profile with four harts on the
# default firmware, OpenSBI v1.9 with the HPM patch (Linux sees
# implementation 1, version 0x10009, and the HPM driver takes the
# counters while the SBI PMU driver stands aside), shows that profile's
# CPU identity in /proc/cpuinfo (what perf keys its event tables on), and
# perf runs in it.  On Debian's OpenSBI 1.5.1 (no HPM extension) the SBI
# PMU driver serves perf; on virt-sscofpmf (a hart with Sscofpmf and
# Smcntrpmf) the HPM driver samples.  On a profile with another core's
# ids dmesg says QEMU stands in for it (2-hpm/0031, QEMU only).
# Also on Linux 6.12.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for conf in "$TOP"/qemu-config/*.conf; do
	profile=$(basename "$conf" .conf)
	(
		. "$conf"
		out="$tmp/$profile"
		if ! guest_run "$out" --profile "$profile" --smp 4 -- sh -c \
			'echo "== dmesg"; dmesg | grep -E "SBI implementation|riscv-pmu"
			echo "== cpuinfo"; cat /proc/cpuinfo; echo "== perf"; perf list hw'; then
			not_ok "$profile: guest boots with 4 harts and runs a command"
			diag "$(tail -n 20 "$out")"
			exit 0
		fi
		log=$(section dmesg "$out")
		if grep -q 'SBI implementation ID=0x1 Version=0x10009$' <<<"$log" &&
			grep -q 'riscv-pmu-sbi: counters left to the HPM driver' <<<"$log" &&
			grep -Eq 'riscv-pmu-hpm: [0-9]+ counters' <<<"$log"; then
			ok "$profile: firmware is OpenSBI v1.9 with HPM; the HPM driver registers, the SBI PMU driver stands aside"
		else
			not_ok "$profile: firmware is OpenSBI v1.9 with HPM; the HPM driver registers, the SBI PMU driver stands aside"
			diag "$log"
		fi
		# A profile with another core's ids is a stand-in (its
		# STAND_IN line): the kernel says so once, naming the ids.
		stand=$(grep -c 'riscv-pmu-hpm: QEMU stands in for the core of' <<<"$log")
		if [ $((EXPECT_MVENDORID | EXPECT_MARCHID | EXPECT_MIMPID)) = 0 ]; then
			check "$profile: QEMU's own CPU ids, no stand-in line in dmesg" [ "$stand" = 0 ]
		elif [ "$stand" = 1 ] && grep -q "QEMU stands in for the core of mvendorid $(printf '0x%x' $((EXPECT_MVENDORID))) marchid $(printf '0x%x' $((EXPECT_MARCHID))) mimpid $(printf '0x%x' $((EXPECT_MIMPID))): its counters count mhpmevent 0x1 as QEMU's cycles, 0x2 as its instructions" <<<"$log"; then
			ok "$profile: dmesg says once that QEMU stands in for that core and what its counters count"
		else
			not_ok "$profile: dmesg says once that QEMU stands in for that core and what its counters count"
			diag "$log"
		fi
		harts=$(section cpuinfo "$out" | grep -c '^processor')
		check "$profile: guest boots with 4 harts and runs a command ($harts)" [ "$harts" = 4 ]
		for id in mvendorid marchid mimpid; do
			want=$(eval echo "\$EXPECT_${id^^}")
			got=$(section cpuinfo "$out" | awk -v k="$id" '$1 == k { print $3; exit }')
			if [ -n "$got" ] && [ $((got)) = $((want)) ] 2>/dev/null; then
				ok "$profile: /proc/cpuinfo $id is $want"
			else
				not_ok "$profile: /proc/cpuinfo $id is $want"
				diag "got '${got}'"
			fi
		done
		hw=$(section perf "$out")
		if grep -q 'instructions' <<<"$hw" && grep -q 'cpu-cycles' <<<"$hw"; then
			ok "$profile: perf list shows the hardware events"
		else
			not_ok "$profile: perf list shows the hardware events"
			diag "$hw"
		fi
	)
done

# An older firmware without the HPM extension: Debian's OpenSBI 1.5.1.
out="$tmp/debian"
if guest_run "$out" --profile virt --firmware debian -- sh -c \
	'echo "== dmesg"; dmesg | grep -E "SBI implementation|riscv-pmu"
	echo "== stat"; perf stat -x";" -e instructions true 2>&1'; then
	log=$(section dmesg "$out")
	c=$(section stat "$out" | field 1 instructions)
	if grep -q 'SBI implementation ID=0x1 Version=0x10005$' <<<"$log" &&
		! grep -q 'riscv-pmu-hpm' <<<"$log" &&
		grep -q 'riscv-pmu-sbi: SBI PMU extension is available' <<<"$log" &&
		is_number "$c" && [ "$c" -gt 0 ]; then
		ok "Debian's OpenSBI 1.5.1 (no HPM): HPM driver absent, SBI PMU counts instructions ($c)"
	else
		not_ok "Debian's OpenSBI 1.5.1 (no HPM): HPM driver absent, SBI PMU counts instructions"
		diag "$log" "$(section stat "$out")"
	fi
else
	not_ok "Debian's OpenSBI 1.5.1 (no HPM): guest boots and runs perf stat"
	diag "$(tail -n 20 "$out")"
fi

# Harts with Sscofpmf, on the same OpenSBI with HPM: the HPM driver keeps
# the counters there too, as it samples (linux-patches 2-hpm: "Leave the
# counters to the HPM driver where it counts more"), the SBI PMU driver
# stands aside, and perf record takes samples.  How well it samples:
# tests/guest/hpm-sampling.sh.
# sampling_boot NAME LABEL FILTERING CPU RUN-QEMU-OPTIONS...: one boot,
# CPU (-cpu ..., or empty for the profile's) in HPM_QEMU_EXTRA; the init
# message must say FILTERING (an extended regular expression).
sampling_boot() {
	local out="$tmp/$1" label=$2 filtering=$3 cpu=$4 log n
	shift 4
	if ! HPM_QEMU_EXTRA="$cpu" guest_run "$out" "$@" -- sh -c \
		'echo "== dmesg"; dmesg | grep -E "riscv-pmu"
		echo "== record"; perf record -o /tmp/p.data -e instructions -c 100000 knownloop 1000000 2>&1'; then
		not_ok "$label: guest boots and runs perf record"
		diag "$(tail -n 20 "$out")"
		return
	fi
	log=$(section dmesg "$out")
	n=$(section record "$out" | sed -n 's/.*(\([0-9]*\) samples).*/\1/p')
	if grep -Eq "riscv-pmu-hpm: [0-9]+ counters .*; sampling, mode filtering: $filtering" <<<"$log" &&
		grep -q 'riscv-pmu-sbi: counters left to the HPM driver' <<<"$log" &&
		is_number "$n" && [ "$n" -gt 0 ]; then
		ok "$label: the HPM driver keeps the counters and samples, perf record takes $n samples"
	else
		not_ok "$label: the HPM driver keeps the counters and samples, perf record takes samples"
		diag "$log" "$(section record "$out")"
	fi
}
# virt-sscofpmf (Sscofpmf and Smcntrpmf): the driver filters modes on all
# counters, cycle and instret too.
sampling_boot sscofpmf "virt-sscofpmf on OpenSBI with HPM" \
	'all counters \(Sscofpmf, Smcntrpmf\)' "" --profile virt-sscofpmf
# A hart with Sscofpmf but not Smcntrpmf, as many boards are: no profile
# describes it, so this one boot gives virt's CPU Sscofpmf alone.  The
# driver filters modes on the programmable counters only.
. "$TOP/qemu-config/virt.conf"
sampling_boot sscofpmf-only "virt with Sscofpmf alone on OpenSBI with HPM" \
	'programmable counters \(Sscofpmf\)' "-cpu $QEMU_CPU64,sscofpmf=true" --profile virt
