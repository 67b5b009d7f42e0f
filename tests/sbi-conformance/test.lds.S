/* SPDX-License-Identifier: BSD-2-Clause */
/* Where QEMU -kernel puts a flat S-mode program behind the firmware. */
#if __riscv_xlen == 64
#define LOAD_ADDR	0x80200000
#else
#define LOAD_ADDR	0x80400000
#endif
OUTPUT_ARCH(riscv)
ENTRY(_start)
SECTIONS
{
	. = LOAD_ADDR;
	.text : { KEEP(*(.text.entry)) *(.text .text.*) }
	.rodata : ALIGN(8) { *(.rodata .rodata.* .srodata .srodata.*) }
	/*
	 * .bss goes into the flat binary on purpose: QEMU loads it as
	 * zeros, so no clearing loop is needed before other harts use it.
	 */
	.data : ALIGN(16) {
		*(.data .data.* .sdata .sdata.*)
		*(.bss .bss.* .sbss .sbss.* COMMON)
		BYTE(0)
	}
	/DISCARD/ : { *(.eh_frame .eh_frame_hdr .comment .note .note.*) }
}
