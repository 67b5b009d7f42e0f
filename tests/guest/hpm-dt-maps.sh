#!/usr/bin/env bash
# The HPM extension PMU driver with malformed device-tree event maps:
# each is reported (node, property and entry named) and ignored, and the
# driver still registers its counters.  The kernel boots on QEMU's own
# virt tree, whose riscv,pmu node (/pmu) is edited here (OpenSBI with the
# HPM patch passes it on); it only needs to reach the driver's initcall,
# so it runs without an initramfs and stops at the root mount.  So are
# the counter widths, a catch-all riscv,raw-event-to-mhpmcounters entry
# (the riscv,pmu binding's way to keep raw events to some counters) and
# the FU740 node the series adds.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu=$(. "$TOP/qemu-config/virt.conf" && echo "$QEMU_CPU64")
fw="$TOP/build/firmware/opensbi-hpm-rv64.bin"

# boot DTB OUT: the kernel's console output until it stops.
boot() {
	timeout 60 qemu-system-riscv64 -M virt -cpu "$cpu" -m 256M -smp 1 \
		-bios "$fw" -kernel "$GUEST_OUT/Image" -dtb "$1" \
		-append "console=ttyS0" -nographic -no-reboot </dev/null >"$2" 2>&1
	return 0
}

# node NAME: $tmp/NAME.dtb, QEMU's tree, whose /pmu node has QEMU's
# riscv,event-to-mhpmcounters (cycles, instructions, dTLB load and store
# misses, iTLB load misses on every counter) and no other map.
node() {
	cp "$tmp/base.dtb" "$tmp/$1.dtb" &&
		[ "$(fdtget "$tmp/$1.dtb" /pmu compatible)" = riscv,pmu ]
}

# expect NAME DESCRIPTION LINE...: ok when the console of boot NAME
# ($tmp/NAME.out) has every LINE, else not ok with the driver's lines.
expect() {
	local out="$tmp/$1.out" desc=$2 line
	shift 2
	for line in "$@"; do
		if ! grep -aqF -- "$line" "$out"; then
			not_ok "$desc"
			diag "no line: $line" "$(grep -a 'riscv-pmu\|Oops\|BUG' "$out" | head -n 20)"
			return
		fi
	done
	ok "$desc"
}

registered='riscv-pmu-hpm: 18 counters (mask 0x7fffd), narrowest 64 bits'

if ! "$RUN_QEMU" --profile virt --dump-dtb "$tmp/base.dtb"; then
	not_ok "QEMU virt device tree dumped"
	exit 0
fi

# 1: a range whose first index is after its last (entry 1), and an
#    unknown event index (0x77, generic code 119) in the value map: both
#    properties reported and ignored, no event left.
node a &&
	fdtput -t x "$tmp/a.dtb" /pmu riscv,event-to-mhpmcounters 1 1 7fff9 10019 10010 7fff8 &&
	fdtput -t x "$tmp/a.dtb" /pmu riscv,event-to-mhpmevent 10019 0 5 77 0 2
boot "$tmp/a.dtb" "$tmp/a.out"
expect a "first index after last, unknown event index: both maps reported and ignored, driver registers" \
	'riscv-pmu-hpm: /pmu: riscv,event-to-mhpmcounters: entry 1 <0x10019 0x10010 0x7fff8>: first index after last; ignored' \
	'riscv-pmu-hpm: /pmu: riscv,event-to-mhpmevent: entry 1 <0x77 0x0 0x2>: not a generic or cache event index; ignored' \
	"$registered; 0 generic and 0 cache events from DT, 0 raw-event entries"

# 2: a zero event value (entry 0) in riscv,event-to-mhpmevent: reported
#    and ignored, QEMU's counters kept (its events selected by index).
node b &&
	fdtput -t x "$tmp/b.dtb" /pmu riscv,event-to-mhpmevent 10019 0 0
boot "$tmp/b.dtb" "$tmp/b.out"
expect b "zero event value: that map reported and ignored, QEMU's counter map kept" \
	'riscv-pmu-hpm: /pmu: riscv,event-to-mhpmevent: entry 0 <0x10019 0x0 0x0>: event value 0; ignored' \
	"$registered; 2 generic and 3 cache events from DT, 0 raw-event entries"

# 2b: a value for branch-misses (index 0x6), to which QEMU's node gives
#    no counter: that entry reported and not counted, the other entry
#    (dTLB-load-misses selected by 0x10021) taken.
node h &&
	fdtput -t x "$tmp/h.dtb" /pmu riscv,event-to-mhpmevent 6 0 1234 10019 0 10021
boot "$tmp/h.dtb" "$tmp/h.out"
expect h "a value for an event without counters: that entry reported, not counted; the others taken" \
	'riscv-pmu-hpm: /pmu: riscv,event-to-mhpmevent: entry 0: event 0x6 has no counter in riscv,event-to-mhpmcounters; not counted' \
	"$registered; 2 generic and 3 cache events from DT, 0 raw-event entries"

# 3: overlapping ranges (entry 2 inside entry 1); a value map of 4 cells,
#    not whole <index hi lo> entries.
node c &&
	fdtput -t x "$tmp/c.dtb" /pmu riscv,event-to-mhpmcounters 1 1 7fff9 10000 10020 7fff8 10019 10019 18 &&
	fdtput -t x "$tmp/c.dtb" /pmu riscv,event-to-mhpmevent 10019 0 5 1
boot "$tmp/c.dtb" "$tmp/c.out"
expect c "overlapping ranges, a value map of 4 cells: both reported and ignored" \
	'riscv-pmu-hpm: /pmu: riscv,event-to-mhpmcounters: entry 2 <0x10019 0x10019 0x18>: overlaps an earlier entry; ignored' \
	'riscv-pmu-hpm: /pmu: riscv,event-to-mhpmevent: 4 cells, not <index value_hi value_lo> entries; ignored' \
	"$registered; 0 generic and 0 cache events from DT, 0 raw-event entries"

# 4: riscv,counter-widths narrows counters 3 and 4 to 24 bits: 10^8
#    instructions wrap such a counter about six times, which the driver's
#    wrap timer (1 ms here) must catch for the count to come out right.
node w &&
	fdtput -t u "$tmp/w.dtb" /pmu riscv,counter-widths 3 24 4 24
if guest_run "$tmp/w.out" --profile virt --firmware hpm --icount --dtb "$tmp/w.dtb" -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== stat'; perf stat -x';' -o /tmp/s -e cpu/event=0x2,counterid_mask=0x8/ knownloop 50000000; cat /tmp/s
	echo '== end'
	" && section dmesg "$tmp/w.out" | grep -q 'narrowest 24 bits'; then
	c=$(section stat "$tmp/w.out" | awk -F';' '$3 ~ /^cpu\/event=0x2/ { print $1 }')
	if is_number "$c" && within_pct "$c" 100000000 1; then
		ok "24-bit counter 3 counts 10^8 loop instructions within 1 % ($c): no wrap lost"
	else
		not_ok "24-bit counter 3 counts 10^8 loop instructions within 1 %: no wrap lost"
		diag "$(section stat "$tmp/w.out")"
	fi
else
	not_ok "riscv,counter-widths 24: driver reports a 24-bit narrowest counter"
	diag "$(tail -n 20 "$tmp/w.out")"
fi

# 5: a catch-all riscv,raw-event-to-mhpmcounters entry (mask 0, match 0:
#    every raw event) with counters 3 and 4 keeps raw events without a
#    counterid_mask to those two of the 16: three raw events take turns
#    on them (what riscv,num-event-counters = 2 did before the series
#    used the riscv,pmu binding).  A counterid_mask still overrides it.
#    A bitmap naming counters 19-21, which the firmware does not
#    implement: reported and ignored, raw events use any counter again.
node n &&
	fdtput -t x "$tmp/n.dtb" /pmu riscv,raw-event-to-mhpmcounters 0 0 0 0 18
if guest_run "$tmp/n.out" --profile virt --firmware hpm --icount --dtb "$tmp/n.dtb" -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== stat'; perf stat -x';' -o /tmp/s -e r2,r10019,r10021 knownloop 20000000; cat /tmp/s
	echo '== mask'; perf stat -x';' -o /tmp/s -e r2,r10019,cpu/event=0x10021,counterid_mask=0x20/ knownloop 20000000; cat /tmp/s
	echo '== end'
	" && section dmesg "$tmp/n.out" | grep -q '1 raw-event entries'; then
	sec=$(section stat "$tmp/n.out")
	all=1
	for ev in r2 r10019 r10021; do
		p=$(field 5 "$ev" <<<"$sec")
		pct_between "$p" 1 99 || all=0
	done
	if [ $all = 1 ] && is_number "$(field 1 r2 <<<"$sec")"; then
		ok "raw-event-to-mhpmcounters <0 0 0 0 0x18>: three raw events take turns on counters 3 and 4"
	else
		not_ok "raw-event-to-mhpmcounters <0 0 0 0 0x18>: three raw events take turns on counters 3 and 4"
		diag "$sec"
	fi
	sec=$(section mask "$tmp/n.out")
	all=1
	for ev in r2 r10019 cpu/event=0x10021,counterid_mask=0x20/; do
		[ "$(field 5 "$ev" <<<"$sec")" = 100.00 ] || all=0
	done
	if [ $all = 1 ]; then
		ok "a counterid_mask (counter 5) overrides the raw-event entry: three events count 100 % of the time"
	else
		not_ok "a counterid_mask (counter 5) overrides the raw-event entry: three events count 100 % of the time"
		diag "$sec"
	fi
else
	not_ok "raw-event-to-mhpmcounters <0 0 0 0 0x18>: the driver takes the entry"
	diag "$(grep -a 'riscv-pmu\|Oops\|BUG' "$tmp/n.out" | head -n 20)"
fi
fdtput -t x "$tmp/n.dtb" /pmu riscv,raw-event-to-mhpmcounters 0 0 0 0 3ffff8
boot "$tmp/n.dtb" "$tmp/n21.out"
expect n21 "raw-event bitmap naming counters 19-21 of 3-18: reported and ignored" \
	'riscv-pmu-hpm: /pmu: riscv,raw-event-to-mhpmcounters: entry 0 <0x0 0x0 0x0 0x0 0x3ffff8>: names counters the firmware does not implement; ignored' \
	"$registered; 2 generic and 3 cache events from DT, 0 raw-event entries"

# 6: a 16-bit width (too narrow for the wrap timer: the counter is
#    reported and not used at all, tests/guest/hpm-narrow.sh counts
#    around it), a raw map of 6 bytes (not whole cells), an
#    event-to-mhpmcounters bitmap naming time, a value map with an event
#    twice: each reported and ignored.
node d &&
	fdtput -t x "$tmp/d.dtb" /pmu riscv,event-to-mhpmcounters 1 1 7fff9 2 2 6 &&
	fdtput -t x "$tmp/d.dtb" /pmu riscv,event-to-mhpmevent 10019 0 5 10019 0 6 &&
	fdtput -t u "$tmp/d.dtb" /pmu riscv,counter-widths 3 16 &&
	fdtput -t bx "$tmp/d.dtb" /pmu riscv,raw-event-to-mhpmcounters 1 0 3 0 0 1
boot "$tmp/d.dtb" "$tmp/d.out"
expect d "a bitmap naming time, an event mapped twice, a map of 6 bytes: each reported and ignored; a 16-bit counter reported and not used" \
	'riscv,event-to-mhpmcounters: entry 1 <0x2 0x2 0x6>: names time; ignored' \
	'riscv,event-to-mhpmevent: entry 1 <0x10019 0x0 0x6>: event mapped twice; ignored' \
	'riscv,counter-widths: counter 3 is 16 bits wide, under the 24 bits the wrap timer can follow; not used' \
	'riscv,raw-event-to-mhpmcounters: 6 bytes, not a list of 32-bit cells; ignored' \
	"riscv-pmu-hpm: 17 counters (mask 0x7fff5), narrowest 64 bits; 0 generic and 0 cache events from DT, 0 raw-event entries"

# 7: cycle named for an event that is not cycles, a raw entry whose
#    match has bits outside its mask, a bitmap of 0 (no counter).
node g &&
	fdtput -t x "$tmp/g.dtb" /pmu riscv,event-to-mhpmcounters 1 1 7fff9 10019 10019 9 &&
	fdtput -t x "$tmp/g.dtb" /pmu riscv,raw-event-to-mhpmcounters 0 3 0 1 8
boot "$tmp/g.dtb" "$tmp/g.out"
expect g "cycle for dTLB misses, a raw match outside its mask: each reported and ignored" \
	'riscv,event-to-mhpmcounters: entry 1 <0x10019 0x10019 0x9>: names cycle or instret for another event; ignored' \
	'riscv,raw-event-to-mhpmcounters: entry 0 <0x0 0x3 0x0 0x1 0x8>: match has bits outside the mask; ignored' \
	"$registered; 0 generic and 0 cache events from DT, 0 raw-event entries"
node z &&
	fdtput -t x "$tmp/z.dtb" /pmu riscv,event-to-mhpmcounters 1 1 7fff9 10019 10021 0
boot "$tmp/z.dtb" "$tmp/z.out"
expect z "a counter bitmap of 0: reported and ignored" \
	'riscv,event-to-mhpmcounters: entry 1 <0x10019 0x10021 0x0>: no counter; ignored' \
	"$registered; 0 generic and 0 cache events from DT, 0 raw-event entries"

# The maps of case 2, whose value map is malformed, in a disabled node.
cp "$tmp/b.dtb" "$tmp/e.dtb"
fdtput -t s "$tmp/e.dtb" /pmu status disabled
boot "$tmp/e.dtb" "$tmp/e.out"
if grep -aq 'riscv-pmu-hpm: /pmu' "$tmp/e.out"; then
	not_ok "a disabled node is not read"
	diag "$(grep -a 'riscv-pmu' "$tmp/e.out")"
else
	expect e "a disabled node is not read" "$registered; 0 generic and 0 cache events from DT"
fi

# 8: the FU740's node as the series ships it (arch/riscv/boot/dts/sifive/
#    fu740-c000.dtsi in the patched tree) is well formed for the driver:
#    grafted onto QEMU's tree (it replaces QEMU's maps in /pmu), all its
#    events are taken: those its event-to-mhpmcounters ranges name, and
#    its raw-event entries.
src=$("$TOP/scripts/prepare-linux" 2>/dev/null | tail -n 1)
dtsi="$src/arch/riscv/boot/dts/sifive/fu740-c000.dtsi"
if [ -f "$dtsi" ] &&
	awk '/^\tpmu \{/ { on = 1 } on { print } on && /^\t\};/ { exit }' "$dtsi" >"$tmp/node" &&
	grep -q 'compatible = "riscv,pmu"' "$tmp/node"; then
	# The generic (type 0, codes 1-10) and cache (type 1, cache 0-6, op
	# 0-2, result 0-1) event indices its ranges cover.
	counts=$(sed -n '/riscv,event-to-mhpmcounters/,/;/p' "$tmp/node" | sed 's|/\*.*\*/||g' |
		grep -o '<[^>]*>' | tr -d '<>' | while read -r first last _; do
			for ((c = 1; c <= 10; c++)); do
				((c >= first && c <= last)) && echo hw
			done
			for ((k = 0; k < 7 * 3 * 2; k++)); do
				idx=$((0x10000 | (k / 6) << 3 | (k / 2 % 3) << 1 | k % 2))
				((idx >= first && idx <= last)) && echo cache
			done
		done | sort | uniq -c)
	hw=$(awk '$2 == "hw" { print $1 }' <<<"$counts")
	cache=$(awk '$2 == "cache" { print $1 }' <<<"$counts")
	raw=$(sed -n '/riscv,raw-event-to-mhpmcounters/,/;/p' "$tmp/node" | grep -o '<[^>]*>' | wc -l)
	{ printf '/dts-v1/;\n/plugin/;\n&{/} {\n'; cat "$tmp/node"; printf '};\n'; } >"$tmp/fu740.dtso"
	if dtc -q -@ -I dts -O dtb -o "$tmp/fu740.dtbo" "$tmp/fu740.dtso" &&
		fdtoverlay -i "$tmp/base.dtb" -o "$tmp/f.dtb" "$tmp/fu740.dtbo"; then
		boot "$tmp/f.dtb" "$tmp/f.out"
		if grep -aq "riscv-pmu-hpm: .*narrowest 40 bits; $hw generic and $cache cache events from DT, $raw raw-event entries" "$tmp/f.out" &&
			! grep -aq 'riscv-pmu-hpm: /pmu' "$tmp/f.out" &&
			[ "${hw:-0}" -ge 5 ] && [ "${cache:-0}" -ge 6 ] && [ "$raw" -ge 3 ]; then
			ok "the FU740 node of the series: all $hw generic, $cache cache events and $raw raw-event entries taken, 40-bit counters, no complaint"
		else
			not_ok "the FU740 node of the series: all $hw generic, $cache cache events and $raw raw-event entries taken, 40-bit counters, no complaint"
			diag "$(grep -a 'riscv-pmu' "$tmp/f.out" | head -n 10)"
		fi
	else
		not_ok "the FU740 node of the series compiles as an overlay"
		diag "$(cat "$tmp/fu740.dtso")"
	fi
else
	not_ok "the FU740 riscv,pmu node found in the patched tree ($dtsi)"
fi
