#!/usr/bin/env bash
# scripts/flash-board writes a board image only to a removable disk or an
# SD card, whole and not in use, or, on the board itself, to the NOR
# flash's MTD device of the SPI image's size; everything else is
# refused, before a byte is written, with a message saying why.  The
# devices are device nodes made here (mknod, numbers no driver here
# answers), with a sysfs and a procfs of the test's own (HPM_SYSFS,
# HPM_PROC: mounts, swaps, the machine's device tree), so that every
# refusal is reached on any machine.  The devices it accepts are
# accepted up to its question, answered no: nothing is written.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flash="$TOP/scripts/flash-board"
if [ ! -f "$TOP/build/board/unleashed/sd.img" ]; then
	not_ok "the board images are built (make build)"
	exit 0
fi
sys="$tmp/sys" proc="$tmp/proc" dev="$tmp/dev"
mkdir -p "$sys/dev/block" "$sys/dev/char" "$proc/self" "$proc/device-tree" "$dev" "$tmp/bin"
: >"$proc/self/mountinfo"
echo 'Filename Type Size Used Priority' >"$proc/swaps"
# disk NAME MINOR REMOVABLE SECTORS [TYPE]: a block device node and its
# sysfs directory, found by its numbers as the kernel's is.
disk() {
	mknod "$dev/$1" b 7 "$2" || return 1
	mkdir -p "$sys/block/$1/device" "$sys/block/$1/holders"
	echo "$3" >"$sys/block/$1/removable"
	echo "$4" >"$sys/block/$1/size"
	echo "7:$2" >"$sys/block/$1/dev"
	[ -z "${5:-}" ] || echo "$5" >"$sys/block/$1/device/type"
	ln -s "../../block/$1" "$sys/dev/block/7:$2"
}
# part DISK NAME MINOR: a partition of DISK.
part() {
	mknod "$dev/$2" b 7 "$3" || return 1
	mkdir -p "$sys/block/$1/$2/holders"
	echo 1 >"$sys/block/$1/$2/partition"
	echo "7:$3" >"$sys/block/$1/$2/dev"
	ln -s "../../block/$1/$2" "$sys/dev/block/7:$3"
}
# mtd NAME MINOR TYPE BYTES
mtd() {
	mknod "$dev/$1" c 90 "$2" || return 1
	mkdir -p "$sys/class/mtd/$1"
	echo "$3" >"$sys/class/mtd/$1/type"
	echo "$4" >"$sys/class/mtd/$1/size"
	ln -s "../../class/mtd/$1" "$sys/dev/char/90:$2"
}
big=4000000	# sectors: about 2 GB
if ! { disk sdz 200 0 "$big" && part sdz sdz1 201 &&
	disk sdy 210 1 "$big" && part sdy sdy1 211 &&
	disk sdx 220 1 "$big" && part sdx sdx1 221 &&
	disk sdw 230 1 "$big" && part sdw sdw1 231 &&
	disk sdv 240 1 "$big" && part sdv sdv1 241 &&
	disk mmcblk9 250 0 1000 SD && disk mmcblk8 251 0 "$big" SD &&
	mtd mtd9 18 nor 1048576 && mknod "$dev/mtd8" c 90 16 &&
	mtd mtd7 14 nand 33554432 && mtd mtd6 12 nor 33554432; } 2>"$tmp/mknod"; then
	not_ok "device nodes can be made for the checks (mknod, as root)"
	diag "$(cat "$tmp/mknod")"
	exit 0
fi
# sdy1 is mounted (as the root file system: /proc/mounts says /dev/root),
# sdx1 holds a device-mapper device, sdv1 is swapped on.
echo "22 1 7:211 / / rw,relatime shared:1 - ext4 /dev/root rw" >"$proc/self/mountinfo"
mkdir -p "$sys/block/sdx/sdx1/holders/dm-0"
echo "$dev/sdv1 partition 1048572 0 -2" >>"$proc/swaps"
# flashcp, should anything come that far
printf '#!/bin/sh\necho "flashcp ran" >&2\nexit 1\n' >"$tmp/bin/flashcp"
chmod +x "$tmp/bin/flashcp"

# fb ARGS...: flash-board ARGS, answering no to its question.
fb() {
	HPM_SYSFS="$sys" HPM_PROC="$proc" PATH="$tmp/bin:$PATH" "$flash" "$@" 2>&1 <<<n
}
# refused WANT ARGS...: flash-board ARGS exits 1 with WANT in its message,
# without asking.
refused() {
	local want=$1 out rc
	shift
	out=$(fb "$@")
	rc=$?
	if [ "$rc" = 1 ] && grep -q -- "$want" <<<"$out" && ! grep -q 'Write .* to ' <<<"$out"; then
		return 0
	fi
	diag "status $rc: $out"
	return 1
}
# asks ARGS...: flash-board ARGS gets to its question and, answered no,
# writes nothing.
asks() {
	local out rc
	out=$(fb "$@")
	rc=$?
	if [ "$rc" = 1 ] && grep -q 'Write .* to .*everything on it is lost' <<<"$out" &&
		grep -q 'nothing written' <<<"$out"; then
		return 0
	fi
	diag "status $rc: $out"
	return 1
}
check "a regular file is refused" refused 'is not a block device' --board unleashed --sd "$TOP/README.md"
check "a character device is refused for --sd" refused 'is not a block device' --board unleashed --sd /dev/null
check "a fixed disk is refused (removable 0, not an SD card)" refused 'neither a removable disk nor an SD card' --board unleashed --sd "$dev/sdz"
check "a partition is refused: the whole card" refused 'is a partition' --board unleashed --sd "$dev/sdz1"
check "a card whose partition is mounted (as /dev/root) is refused" refused 'is in use: 7:211 is mounted' --board unleashed --sd "$dev/sdy"
check "a card a device-mapper device sits on is refused" refused 'is in use by dm-0' --board unleashed --sd "$dev/sdx"
check "a card with a swap partition in use is refused" refused 'is a swap device' --board unleashed --sd "$dev/sdv"
check "an SD card smaller than the image is refused" refused 'less than' --board unmatched --sd "$dev/mmcblk9"
check "a removable disk not in use gets the question, and no answer writes nothing" asks --board unmatched --sd "$dev/sdw"
check "an SD card in an MMC slot (removable 0, type SD) gets the question" asks --board unmatched --sd "$dev/mmcblk8"
check "--spi takes only an MTD device" refused 'is not a character device' --board unmatched --spi "$dev/sdw"
check "an MTD device sysfs does not describe is refused" refused 'no .*/dev/char/90:16' --board unmatched --spi "$dev/mtd8"
printf 'sifive,hifive-unleashed-a00\0sifive,fu540-c000\0' >"$proc/device-tree/compatible"
check "--spi on another board than the image's is refused" refused 'is not a HiFive Unmatched' --board unmatched --spi "$dev/mtd6"
rm -f "$proc/device-tree/compatible"
check "--spi on a machine without that device tree (a PC's firmware flash) is refused" refused 'is not a HiFive Unmatched' --board unmatched --spi "$dev/mtd6"
printf 'sifive,hifive-unmatched-a00\0sifive,fu740-c000\0sifive,fu740\0' >"$proc/device-tree/compatible"
check "an MTD device of another size than the SPI flash is refused" refused 'not the 33554432 of the board' --board unmatched --spi "$dev/mtd9"
check "an MTD device that is not NOR flash is refused" refused 'is not a NOR flash' --board unmatched --spi "$dev/mtd7"
check "the board's 32 MiB NOR flash gets the question, and no answer writes nothing" asks --board unmatched --spi "$dev/mtd6"
check "no device, or both, is refused" refused 'one of --sd DEVICE and --spi DEVICE' --board unleashed
check "an unknown board is refused" refused 'unleashed or unmatched' --board vision --sd "$dev/sdw"
