#!/usr/bin/env bash
# scripts/flash-board writes a board image only to a removable disk or an
# SD card, whole and unmounted, or to an MTD device of the SPI flash's
# size; everything else is refused, before a byte is written, with a
# message saying why.  The devices are device nodes made here (mknod,
# numbers no driver answers) and a sysfs tree (HPM_SYSFS) describing
# them, so each refusal is reached on any machine; the write itself
# needs a board and is not run.
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flash="$TOP/scripts/flash-board"
if [ ! -f "$TOP/build/board/unleashed/sd.img" ]; then
	not_ok "the board images are built (make build)"
	exit 0
fi
if ! mknod "$tmp/sdz" b 7 250 2>/dev/null || ! mknod "$tmp/sdz1" b 7 251 ||
	! mknod "$tmp/mmcblk9" b 7 252 || ! mknod "$tmp/mtd9" c 90 18 ||
	! mknod "$tmp/mtd8" c 90 16; then
	not_ok "device nodes can be made for the checks (mknod, as root)"
	exit 0
fi
sys="$tmp/sys"
blk() {	# blk NAME REMOVABLE SECTORS [TYPE] [partition]
	mkdir -p "$sys/class/block/$1/device"
	echo "$2" >"$sys/class/block/$1/removable"
	echo "$3" >"$sys/class/block/$1/size"
	[ -z "${4:-}" ] || echo "$4" >"$sys/class/block/$1/device/type"
	[ -z "${5:-}" ] || echo 1 >"$sys/class/block/$1/partition"
}
blk sdz 0 1000000
blk sdz1 1 1000000 "" partition
blk mmcblk9 0 1000 SD
mkdir -p "$sys/class/mtd/mtd9" "$sys/class/mtd/mtd8"
echo 1048576 >"$sys/class/mtd/mtd9/size"

# refused WANT ARGS...: flash-board ARGS exits 1 with WANT in its message
# and writes nothing (the image files and device nodes are unchanged).
refused() {
	local want=$1 out rc
	shift
	out=$(HPM_SYSFS="$sys" "$flash" --yes "$@" 2>&1 </dev/null)
	rc=$?
	if [ "$rc" = 1 ] && grep -q -- "$want" <<<"$out"; then
		return 0
	fi
	diag "status $rc: $out"
	return 1
}
check "a regular file is refused" refused 'is not a block device' --board unleashed --sd "$TOP/README.md"
check "a character device that is not a disk is refused for --sd" refused 'is not a block device' --board unleashed --sd /dev/null
check "a fixed disk is refused (removable 0, not an SD card)" refused 'neither a removable disk nor an SD card' --board unleashed --sd "$tmp/sdz"
check "a partition is refused: the whole card" refused 'is a partition' --board unleashed --sd "$tmp/sdz1"
check "an SD card smaller than the image is refused" refused 'less than' --board unmatched --sd "$tmp/mmcblk9"
check "--spi takes only an MTD device" refused 'is not an MTD device' --board unmatched --spi /dev/null
check "an MTD device of another size than the SPI flash is refused" refused 'not the 33554432 of the board' --board unmatched --spi "$tmp/mtd9"
check "an MTD device sysfs does not describe is refused" refused 'no .*/size' --board unmatched --spi "$tmp/mtd8"
check "no device, or both, is refused" refused 'one of --sd DEVICE and --spi DEVICE' --board unleashed
check "an unknown board is refused" refused 'unleashed or unmatched' --board vision --sd "$tmp/sdz"
