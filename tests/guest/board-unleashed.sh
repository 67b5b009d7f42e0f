#!/usr/bin/env bash
# The board images (scripts/build-board, make board): the HiFive
# Unleashed's SPI flash image boots on QEMU's sifive_u machine as on
# the board, through Debian's SPL, the project's OpenSBI (HPM extension)
# and Debian's U-Boot, whose default boot fetches the boot script over
# the network (QEMU's TFTP) and boots the project's kernel with booti.
# The kernel's HPM driver registers through the HPM extension on the
# U54, a privileged-spec 1.10 hart without mcountinhibit, and perf stat
# counts cycles and instructions.  The Unmatched's images, which no
# QEMU machine boots, are checked as far as that goes: the FIT's
# firmware is the project's OpenSBI byte for byte, and both boards' SD
# and SPI images put the SPL and the FIT where the boot ROM and the SPL
# read them, with the partition types they look for.
#
# QEMU's SiFive UART drops characters of what user space writes to it:
# the guest command sends its output through /dev/kmsg (its rate limit
# off), whose lines the kernel prints whole.  sifive_u powers off by no
# SBI call (reboot -f and -no-reboot end QEMU).
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -z "${BOARD_KEEP:-}" ] || trap - EXIT
boards="$TOP/build/board"
fw="$TOP/build/firmware/opensbi-hpm-rv64.bin"

# Both boards: the FIT and the two disk images.
spl_type=5B193300-FC78-40CD-8002-E86C45580B47
fit_type=2E54B353-1271-4842-806F-E436D6AF6985
for board in unleashed unmatched; do
	d="$boards/$board"
	if [ ! -f "$d/u-boot.itb" ]; then
		not_ok "$board: the board images are built (make build)"
		continue
	fi
	idx=$(dumpimage -l "$d/u-boot.itb" | sed -n 's/^ *Image \([0-9]*\) (opensbi)$/\1/p')
	if [ -n "$idx" ] &&
		dumpimage -T flat_dt -p "$idx" -o "$tmp/fw-$board" "$d/u-boot.itb" >/dev/null &&
		cmp -s "$tmp/fw-$board" "$fw"; then
		ok "$board: the FIT's firmware is the project's OpenSBI (build/firmware/opensbi-hpm-rv64.bin)"
	else
		not_ok "$board: the FIT's firmware is the project's OpenSBI"
		diag "$(dumpimage -l "$d/u-boot.itb" 2>&1 | head -n 30)"
	fi
	for img in sd:34 spi:40; do
		name=${img%:*} spl=${img#*:}
		p1=$(sgdisk -i 1 "$d/$name.img" 2>/dev/null)
		p2=$(sgdisk -i 2 "$d/$name.img" 2>/dev/null)
		if grep -q "^Partition GUID code: $spl_type" <<<"$p1" &&
			grep -q "^First sector: $spl " <<<"$p1" &&
			grep -q "^Partition GUID code: $fit_type" <<<"$p2" &&
			grep -q "^First sector: $((spl + 2048)) " <<<"$p2" &&
			cmp -s -n "$(stat -c %s "$d/u-boot-spl.bin")" -i $((spl * 512)):0 \
				"$d/$name.img" "$d/u-boot-spl.bin" &&
			cmp -s -n "$(stat -c %s "$d/u-boot.itb")" -i $(((spl + 2048) * 512)):0 \
				"$d/$name.img" "$d/u-boot.itb"; then
			ok "$board: $name.img holds the SPL at sector $spl and the FIT at $((spl + 2048)), with the SPL's partition types"
		else
			not_ok "$board: $name.img holds the SPL at sector $spl and the FIT at $((spl + 2048)), with the SPL's partition types"
			diag "$(sgdisk -p "$d/$name.img" 2>&1)"
		fi
	done
done

# The Unleashed boots on sifive_u from its SPI flash image.
d="$boards/unleashed"
[ -f "$d/spi.img" ] || exit 0
mkdir -p "$tmp/tftp" "$tmp/run/hpm-run"
cp "$d/boot/Image" "$d/boot/boot.scr.uimg" "$d/boot/hifive-unleashed-a00.dtb" "$tmp/tftp/"
cat >"$tmp/run/hpm-run/cmd" <<'EOF'
# /dev/kmsg drops lines beyond ten in five seconds unless told not to.
echo on >/proc/sys/kernel/printk_devkmsg
{
	echo "== dmesg"; dmesg | grep -E 'Machine model|SBI implementation|riscv-pmu'
	echo "== cpuinfo"; grep -m1 -E '^uarch' /proc/cpuinfo
	echo "== dt"; cat /proc/device-tree/cpus/cpu@1/riscv,isa-base; echo
	echo "== stat"; perf stat -x, -e cycles,instructions knownloop 100000 2>&1
	echo "== end"
} 2>&1 | while IFS= read -r line; do echo "board: $line" >/dev/kmsg; done
reboot -f
EOF
(cd "$tmp/run" && find . | cpio -o -H newc --quiet) >"$tmp/run.cpio"
cat "$d/boot/initramfs.cpio" "$tmp/run.cpio" >"$tmp/tftp/initramfs.cpio"
# The device tree says 8 GiB: the SPL faults with less.  -icount: the
# counters count instructions.
timeout 300 qemu-system-riscv64 -M sifive_u,msel=6 -m 8G -smp 5 -icount shift=0 -nographic -no-reboot \
	-bios "$d/u-boot-spl.bin" -drive if=mtd,format=raw,file="$d/spi.img",snapshot=on \
	-nic user,tftp="$tmp/tftp" </dev/null >"$tmp/console" 2>&1
rc=$?
tr -d '\r' <"$tmp/console" >"$tmp/log"
sed -n 's/^\[ *[0-9.]*\] board: //p' "$tmp/log" >"$tmp/out"
if [ "$rc" != 0 ] || ! grep -qx '== end' "$tmp/out"; then
	not_ok "unleashed: sifive_u boots the SPI image into the project's kernel, which runs the command (QEMU status $rc)"
	diag "$(tail -n 40 "$tmp/log")"
	exit 0
fi
ok "unleashed: sifive_u boots the SPI image into the project's kernel, which runs the command"
grep -q '^riscv-hpm-perf: booting Linux over TFTP from ' "$tmp/log"
check "unleashed: Debian's U-Boot fetched the boot script by itself (distro boot over DHCP and TFTP)" [ $? = 0 ]
log=$(section dmesg "$tmp/out")
# riscv,isa-base: in the kernel's device tree, not in U-Boot's.
if grep -q 'Machine model: SiFive HiFive Unleashed A00' <<<"$log" &&
	[ "$(section dt "$tmp/out" | tr -d '\0')" = rv64i ] &&
	grep -q 'SBI implementation ID=0x1 Version=0x10009' <<<"$log"; then
	ok "unleashed: Linux runs on the kernel's Unleashed device tree, on OpenSBI v1.9"
else
	not_ok "unleashed: Linux runs on the kernel's Unleashed device tree, on OpenSBI v1.9"
	diag "$log" "riscv,isa-base: $(section dt "$tmp/out")"
fi
if grep -q 'riscv-pmu-hpm: no mcountinhibit' <<<"$log" &&
	grep -Eq 'riscv-pmu-hpm: [0-9]+ counters .*through the HPM SBI extension' <<<"$log" &&
	grep -q 'riscv-pmu-sbi: counters left to the HPM driver' <<<"$log"; then
	ok "unleashed: the HPM driver takes the U54's counters through the HPM extension, without mcountinhibit"
else
	not_ok "unleashed: the HPM driver takes the U54's counters through the HPM extension, without mcountinhibit"
	diag "$log"
fi
stat=$(section stat "$tmp/out")
cyc=$(perf_count cycles <<<"$stat")
ins=$(perf_count instructions <<<"$stat")
# Under -icount the counters count instructions, of all harts: the
# loop's 200,000, its exec and exit, what the idle harts run meanwhile;
# not counts snapshotted from before (the counters run since boot).
if [ "${ins:-0}" -ge 200000 ] 2>/dev/null && [ "$ins" -lt 2000000 ] &&
	[ "${cyc:-0}" -ge 200000 ] 2>/dev/null && [ "$cyc" -lt 2000000 ]; then
	ok "unleashed: perf stat -e cycles,instructions knownloop 100000 counts ($cyc cycles, $ins instructions: the loop's 200000 and less than 2 M)"
else
	not_ok "unleashed: perf stat -e cycles,instructions knownloop 100000 counts"
	diag "$stat"
fi
