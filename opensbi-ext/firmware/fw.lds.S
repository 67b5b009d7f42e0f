/* SPDX-License-Identifier: BSD-2-Clause */
/* hpmfw link map: everything inside [FW_BASE, FW_BASE + FW_SIZE). */
#include "fw_layout.h"

OUTPUT_ARCH(riscv)
ENTRY(_start)

SECTIONS
{
	. = FW_BASE;
	_fw_start = .;
	.text : {
		KEEP(*(.text.entry))
		*(.text .text.*)
	}
	.rodata : ALIGN(8) {
		*(.rodata .rodata.* .srodata .srodata.*)
	}
	.data : ALIGN(8) {
		*(.data .data.* .sdata .sdata.*)
	}
	/* not in the flat binary; the boot hart clears it */
	.bss (NOLOAD) : ALIGN(16) {
		_bss_start = .;
		*(.bss .bss.* .sbss .sbss.* COMMON)
		_bss_end = .;
	}
	/* M-mode stacks, never cleared: harts use them before .bss is */
	.stacks (NOLOAD) : ALIGN(16) {
		. += FW_STACK_SIZE * FW_MAX_HARTS;
		_stacks_end = .;
	}
	_fw_end = .;
	ASSERT(_fw_end <= FW_BASE + FW_SIZE, "hpmfw does not fit in FW_SIZE")

	/DISCARD/ : {
		*(.eh_frame .eh_frame_hdr .comment .note .note.*)
	}
}
