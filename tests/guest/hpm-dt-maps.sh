#!/usr/bin/env bash
# The HPM extension PMU driver with malformed device-tree event maps:
# each is reported (property and entry named) and ignored, and the driver
# still registers its counters.  The kernel boots on QEMU's own virt
# tree (no profile overlay, which would replace the maps) with a
# "riscv,hpm-pmu" node edited here; it only needs to reach the driver's
# initcall, so it runs without an initramfs and stops at the root mount.
# So are the number of event counters and the FU740 node the series adds.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu=$(. "$TOP/qemu-config/virt.conf" && echo "$QEMU_CPU64")
fw="$TOP/build/firmware/opensbi-hpm-rv64.bin"

# boot DTB OUT: the kernel's console output until it stops.
boot() {
	timeout 60 qemu-system-riscv64 -M virt -cpu "$cpu" -m 512M -smp 1 \
		-bios "$fw" -kernel "$GUEST_OUT/Image" -dtb "$1" \
		-append "console=ttyS0" -nographic -no-reboot </dev/null >"$2" 2>&1
	return 0
}

# node NAME: $tmp/NAME.dtb, QEMU's tree with a bare "riscv,hpm-pmu" node.
node() {
	cp "$tmp/base.dtb" "$tmp/$1.dtb" &&
		fdtput -c "$tmp/$1.dtb" /hpm-pmu &&
		fdtput -t s "$tmp/$1.dtb" /hpm-pmu compatible riscv,hpm-pmu
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

if ! qemu-system-riscv64 -M virt -cpu "$cpu" -m 512M -smp 1 \
	-machine dumpdtb="$tmp/base.dtb" -display none >/dev/null 2>&1; then
	not_ok "QEMU virt device tree dumped"
	exit 0
fi

# 1: an unknown generic event id (0x77) in entry 1; a cache map of 3
#    cells, not a whole number of 2-cell entries.
node a &&
	fdtput -t x "$tmp/a.dtb" /hpm-pmu riscv,hw-event-map 0 1 77 2 &&
	fdtput -t x "$tmp/a.dtb" /hpm-pmu riscv,hw-cache-event-map 10003 10019 10004
boot "$tmp/a.dtb" "$tmp/a.out"
expect a "unknown event id and wrong map length: both maps reported and ignored, driver registers" \
	'riscv-pmu-hpm: /hpm-pmu: riscv,hw-event-map: entry 1 <0x77 0x2 0x0>: unknown event; map ignored' \
	'riscv-pmu-hpm: /hpm-pmu: riscv,hw-cache-event-map: 3 cells, not a whole number' \
	"$registered; 0 generic and 0 cache events from DT"

# 2: a zero event value in the cache map (entry 0), a good generic map
#    with counter masks (3 cells).
node b &&
	fdtput -t x "$tmp/b.dtb" /hpm-pmu riscv,event-map-cells 3 &&
	fdtput -t x "$tmp/b.dtb" /hpm-pmu riscv,hw-event-map 0 1 8 1 2 10 &&
	fdtput -t x "$tmp/b.dtb" /hpm-pmu riscv,hw-cache-event-map 10003 0 0
boot "$tmp/b.dtb" "$tmp/b.out"
expect b "zero event value: that map reported and ignored, the other kept" \
	'riscv,hw-cache-event-map: entry 0 <0x10003 0x0 0x0>: event value 0; map ignored' \
	"$registered; 2 generic and 0 cache events from DT"

# 3: an impossible cell count.
cp "$tmp/a.dtb" "$tmp/c.dtb"
fdtput -t x "$tmp/c.dtb" /hpm-pmu riscv,event-map-cells 7
boot "$tmp/c.dtb" "$tmp/c.out"
expect c "riscv,event-map-cells 7: reported, maps ignored, driver registers" \
	'riscv,event-map-cells is 7, not 2 or 3; maps ignored' "$registered"

# 4: riscv,counter-widths narrows counters 3 and 4 to 24 bits: 10^8
#    instructions wrap such a counter about six times, which the driver's
#    wrap timer (1 ms here) must catch for the count to come out right.
#    The profile's overlay adds its maps to this node.
node w &&
	fdtput -t u "$tmp/w.dtb" /hpm-pmu riscv,counter-widths 3 24 4 24
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

# 5: riscv,num-event-counters = 2 leaves hpmcounter3 and 4 of the 16:
#    three raw events then take turns on two counters.  17 names more
#    counters than the firmware implements: reported and ignored.
node n &&
	fdtput -t u "$tmp/n.dtb" /hpm-pmu riscv,num-event-counters 2
if guest_run "$tmp/n.out" --profile virt --firmware hpm --icount --dtb "$tmp/n.dtb" -- sh -c "
	echo '== dmesg'; dmesg | grep riscv-pmu-hpm
	echo '== stat'; perf stat -x';' -o /tmp/s -e r2,r10019,r10021 knownloop 20000000; cat /tmp/s
	echo '== end'
	" && section dmesg "$tmp/n.out" | grep -q 'riscv-pmu-hpm: 4 counters (mask 0x1d)'; then
	sec=$(section stat "$tmp/n.out")
	all=1
	for ev in r2 r10019 r10021; do
		p=$(field 5 "$ev" <<<"$sec")
		pct_between "$p" 1 99 || all=0
	done
	if [ $all = 1 ] && is_number "$(field 1 r2 <<<"$sec")"; then
		ok "riscv,num-event-counters 2: counters 0, 2, 3, 4 (mask 0x1d), three raw events take turns on two"
	else
		not_ok "riscv,num-event-counters 2: three raw events take turns on two counters"
		diag "$sec"
	fi
else
	not_ok "riscv,num-event-counters 2: the driver keeps counters 0, 2, 3, 4 (mask 0x1d)"
	diag "$(grep -a 'riscv-pmu\|Oops\|BUG' "$tmp/n.out" | head -n 20)"
fi
fdtput -t u "$tmp/n.dtb" /hpm-pmu riscv,num-event-counters 17
boot "$tmp/n.dtb" "$tmp/n17.out"
expect n17 "riscv,num-event-counters 17 of 16: reported and ignored, all counters kept" \
	'riscv-pmu-hpm: /hpm-pmu: riscv,num-event-counters: 17 counters, the firmware implements 0x7fff8; ignored' \
	"$registered"

# 6: a generic event mapped twice, a 16-bit width (too narrow for the
#    wrap timer), a cache map of 6 bytes (not whole cells) and a node
#    that is disabled: each reported and ignored.
node d &&
	fdtput -t x "$tmp/d.dtb" /hpm-pmu riscv,hw-event-map 0 1 0 2 &&
	fdtput -t u "$tmp/d.dtb" /hpm-pmu riscv,counter-widths 3 16 &&
	fdtput -t bx "$tmp/d.dtb" /hpm-pmu riscv,hw-cache-event-map 1 0 3 0 0 1
boot "$tmp/d.dtb" "$tmp/d.out"
expect d "an event mapped twice, a 16-bit width, a map of 6 bytes: each reported and ignored" \
	'riscv,hw-event-map: entry 1 <0x0 0x2 0x0>: event mapped twice; map ignored' \
	'riscv,counter-widths: entry 0 <3 16>: no such counter or width; ignored' \
	'riscv,hw-cache-event-map: 6 bytes, not a list of 32-bit cells; ignored' \
	"$registered; 0 generic and 0 cache events from DT"
# The maps of case 2, whose cache map is malformed, in a disabled node.
cp "$tmp/b.dtb" "$tmp/e.dtb"
fdtput -t s "$tmp/e.dtb" /hpm-pmu status disabled
boot "$tmp/e.dtb" "$tmp/e.out"
if grep -aq 'riscv-pmu-hpm: /hpm-pmu' "$tmp/e.out"; then
	not_ok "a disabled node is not read"
	diag "$(grep -a 'riscv-pmu' "$tmp/e.out")"
else
	expect e "a disabled node is not read" "$registered; 0 generic and 0 cache events from DT"
fi

# 7: the FU740's node as the series ships it (arch/riscv/boot/dts/sifive/
#    fu740-c000.dtsi in the patched tree) is well formed for the driver:
#    grafted onto QEMU's tree, all its entries are taken.
src=$("$TOP/scripts/prepare-linux" 2>/dev/null | tail -n 1)
dtsi="$src/arch/riscv/boot/dts/sifive/fu740-c000.dtsi"
if [ -f "$dtsi" ] &&
	awk '/^\thpm-pmu \{/ { on = 1 } on { print } on && /^\t\};/ { exit }' "$dtsi" >"$tmp/node" &&
	[ -s "$tmp/node" ]; then
	hw=$(sed -n '/riscv,hw-event-map/,/;/p' "$tmp/node" | grep -o '<0x[0-9a-f]* 0x[0-9a-f]*>' | wc -l)
	cache=$(sed -n '/riscv,hw-cache-event-map/,/;/p' "$tmp/node" | grep -o '<0x[0-9a-f]* 0x[0-9a-f]*>' | wc -l)
	{ printf '/dts-v1/;\n/plugin/;\n&{/} {\n'; cat "$tmp/node"; printf '};\n'; } >"$tmp/fu740.dtso"
	if dtc -q -@ -I dts -O dtb -o "$tmp/fu740.dtbo" "$tmp/fu740.dtso" &&
		fdtoverlay -i "$tmp/base.dtb" -o "$tmp/f.dtb" "$tmp/fu740.dtbo"; then
		boot "$tmp/f.dtb" "$tmp/f.out"
		if grep -aq "riscv-pmu-hpm: .* $hw generic and $cache cache events from DT" "$tmp/f.out" &&
			! grep -aq 'riscv-pmu-hpm: /hpm-pmu' "$tmp/f.out" && [ "$hw" -ge 3 ] && [ "$cache" -ge 6 ]; then
			ok "the FU740 node of the series: all $hw generic and $cache cache entries taken, no complaint"
		else
			not_ok "the FU740 node of the series: all $hw generic and $cache cache entries taken, no complaint"
			diag "$(grep -a 'riscv-pmu' "$tmp/f.out" | head -n 10)"
		fi
	else
		not_ok "the FU740 node of the series compiles as an overlay"
		diag "$(cat "$tmp/fu740.dtso")"
	fi
else
	not_ok "the FU740 node found in the patched tree ($dtsi)"
fi
