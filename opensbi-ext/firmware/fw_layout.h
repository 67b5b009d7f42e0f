/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Memory layout of hpmfw, shared by the C code, start.S and the linker
 * script (all three go through the C preprocessor).
 */
#ifndef HPMFW_LAYOUT_H
#define HPMFW_LAYOUT_H

/* Where QEMU's -bios image is loaded and every hart enters. */
#define FW_BASE		0x80000000
/*
 * The whole firmware (image, data, stacks) lives in this naturally
 * aligned power-of-two region, so one NAPOT PMP entry can hide it from
 * S/U-mode and one reserved-memory node can keep Linux out of it.
 */
#define FW_SIZE		0x40000

/* Per-hart arrays are sized for this many harts; higher hartids park. */
#define FW_MAX_HARTS	8
/* M-mode stack per hart (trap frames, SBI calls, the HPM core). */
#define FW_STACK_SHIFT	13
#define FW_STACK_SIZE	(1 << FW_STACK_SHIFT)

/* Where the next stage goes when QEMU gave no fw_dynamic_info. */
#if __riscv_xlen == 64
#define FW_NEXT_ADDR_DEFAULT	0x80200000
#else
#define FW_NEXT_ADDR_DEFAULT	0x80400000
#endif

#endif /* HPMFW_LAYOUT_H */
