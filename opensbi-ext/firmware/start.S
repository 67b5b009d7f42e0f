/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hpmfw entry, trap vector and CSR access stubs.
 */
#include "fw_layout.h"
#include "csr_table.h"

#if __riscv_xlen == 64
#define REG_S	sd
#define REG_L	ld
#define SZREG	8
#else
#define REG_S	sw
#define REG_L	lw
#define SZREG	4
#endif
/* struct trap_frame: x0..x31, mepc, mstatus, padding to 16 bytes. */
#define FRAME_SIZE	(36 * SZREG)
#define F_MEPC		(32 * SZREG)
#define F_MSTATUS	(33 * SZREG)

	.section .text.entry, "ax", %progbits
	.globl _start
_start:
	/*
	 * Every hart comes here from QEMU's reset vector with a0 = hartid,
	 * a1 = FDT, a2 = fw_dynamic_info.  No interrupt may reach us before
	 * the trap vector is in place, and mscratch = 0 tells the vector
	 * that a trap came from M-mode itself.
	 */
	csrw	mie, zero
	csrw	mscratch, zero
	la	t0, fw_trap_vector
	csrw	mtvec, t0
	csrr	a0, mhartid
	li	t0, FW_MAX_HARTS
	bgeu	a0, t0, fw_park
	/* Stacks grow down from _stacks_end: hart i gets slot i. */
	la	sp, _stacks_end
	slli	t0, a0, FW_STACK_SHIFT
	sub	sp, sp, t0
	call	fw_main
	/* fall through: fw_main never returns */
fw_park:
	/* Harts beyond FW_MAX_HARTS (or unlisted ones) never run. */
	wfi
	j	fw_park

	.text
	.align	2
	.globl	fw_trap_vector
fw_trap_vector:
	/*
	 * From S/U-mode mscratch holds this hart's M stack top; from
	 * M-mode (CSR probes, firmware bugs) it is 0 and we stay on the
	 * current stack.  Either way mscratch ends up holding the
	 * interrupted sp.
	 */
	csrrw	sp, mscratch, sp
	bnez	sp, 1f
	csrr	sp, mscratch
1:
	addi	sp, sp, -FRAME_SIZE
	REG_S	x1, 1*SZREG(sp)
	REG_S	x3, 3*SZREG(sp)
	REG_S	x4, 4*SZREG(sp)
	REG_S	x5, 5*SZREG(sp)
	REG_S	x6, 6*SZREG(sp)
	REG_S	x7, 7*SZREG(sp)
	REG_S	x8, 8*SZREG(sp)
	REG_S	x9, 9*SZREG(sp)
	REG_S	x10, 10*SZREG(sp)
	REG_S	x11, 11*SZREG(sp)
	REG_S	x12, 12*SZREG(sp)
	REG_S	x13, 13*SZREG(sp)
	REG_S	x14, 14*SZREG(sp)
	REG_S	x15, 15*SZREG(sp)
	REG_S	x16, 16*SZREG(sp)
	REG_S	x17, 17*SZREG(sp)
	REG_S	x18, 18*SZREG(sp)
	REG_S	x19, 19*SZREG(sp)
	REG_S	x20, 20*SZREG(sp)
	REG_S	x21, 21*SZREG(sp)
	REG_S	x22, 22*SZREG(sp)
	REG_S	x23, 23*SZREG(sp)
	REG_S	x24, 24*SZREG(sp)
	REG_S	x25, 25*SZREG(sp)
	REG_S	x26, 26*SZREG(sp)
	REG_S	x27, 27*SZREG(sp)
	REG_S	x28, 28*SZREG(sp)
	REG_S	x29, 29*SZREG(sp)
	REG_S	x30, 30*SZREG(sp)
	REG_S	x31, 31*SZREG(sp)
	csrr	t0, mscratch
	REG_S	t0, 2*SZREG(sp)
	/* While the firmware runs, a nested trap must see "from M". */
	csrw	mscratch, zero
	/* Nested traps overwrite mepc/mstatus: keep them in the frame. */
	csrr	t0, mepc
	REG_S	t0, F_MEPC(sp)
	csrr	t0, mstatus
	REG_S	t0, F_MSTATUS(sp)

	mv	a0, sp
	call	fw_trap

	REG_L	t0, F_MEPC(sp)
	csrw	mepc, t0
	REG_L	t0, F_MSTATUS(sp)
	csrw	mstatus, t0
	/* Going back below M: the frame's top is this hart's stack top. */
	srli	t1, t0, 11
	andi	t1, t1, 3
	li	t2, 3
	beq	t1, t2, 2f
	addi	t1, sp, FRAME_SIZE
	csrw	mscratch, t1
2:
	REG_L	x1, 1*SZREG(sp)
	REG_L	x3, 3*SZREG(sp)
	REG_L	x4, 4*SZREG(sp)
	REG_L	x5, 5*SZREG(sp)
	REG_L	x6, 6*SZREG(sp)
	REG_L	x7, 7*SZREG(sp)
	REG_L	x8, 8*SZREG(sp)
	REG_L	x9, 9*SZREG(sp)
	REG_L	x10, 10*SZREG(sp)
	REG_L	x11, 11*SZREG(sp)
	REG_L	x12, 12*SZREG(sp)
	REG_L	x13, 13*SZREG(sp)
	REG_L	x14, 14*SZREG(sp)
	REG_L	x15, 15*SZREG(sp)
	REG_L	x16, 16*SZREG(sp)
	REG_L	x17, 17*SZREG(sp)
	REG_L	x18, 18*SZREG(sp)
	REG_L	x19, 19*SZREG(sp)
	REG_L	x20, 20*SZREG(sp)
	REG_L	x21, 21*SZREG(sp)
	REG_L	x22, 22*SZREG(sp)
	REG_L	x23, 23*SZREG(sp)
	REG_L	x24, 24*SZREG(sp)
	REG_L	x25, 25*SZREG(sp)
	REG_L	x26, 26*SZREG(sp)
	REG_L	x27, 27*SZREG(sp)
	REG_L	x28, 28*SZREG(sp)
	REG_L	x29, 29*SZREG(sp)
	REG_L	x30, 30*SZREG(sp)
	REG_L	x31, 31*SZREG(sp)
	REG_L	sp, 2*SZREG(sp)
	mret

/*
 * fw_enter_smode(hartid, arg, addr, stack_top): mret into S-mode at addr
 * with a0 = hartid, a1 = arg, translation off and S interrupts disabled,
 * as the SBI boot and HSM hart_start contracts require.
 */
	.globl	fw_enter_smode
fw_enter_smode:
	csrw	mepc, a2
	li	t0, (3 << 11) | (1 << 17) | (1 << 8) | (1 << 5) | (1 << 1)
	csrc	mstatus, t0		/* MPP, MPRV, SPP, SPIE, SIE */
	li	t0, (1 << 11)
	csrs	mstatus, t0		/* MPP = S */
	csrw	satp, zero
	csrw	mscratch, a3
	li	ra, 0
	li	sp, 0
	li	a2, 0
	li	a3, 0
	mret

/* fw_switch_stack(stack_top, fn): run fn (which never returns) afresh. */
	.globl	fw_switch_stack
fw_switch_stack:
	mv	sp, a0
	jr	a1

/*
 * CSR stubs, FW_CSR_STUB_SIZE bytes each.  Compressed encodings would
 * make the stubs uneven, and the probe handler skips a trapping CSR
 * instruction by adding 4 to mepc, so no RVC here.
 */
	.macro	CSR_READ_RANGE first, count
	.set	csrn, \first
	.rept	\count
	csrr	a0, csrn
	ret
	.set	csrn, csrn + 1
	.endr
	.endm
	.macro	CSR_WRITE_RANGE first, count
	.set	csrn, \first
	.rept	\count
	csrw	csrn, a0
	ret
	.set	csrn, csrn + 1
	.endr
	.endm

	.option	push
	.option	norvc
	.align	3
	.globl	fw_csr_read_table
fw_csr_read_table:
#define X(first, count)	CSR_READ_RANGE first, count ;
	FW_CSR_RANGES(X)
#undef X
	.align	3
	.globl	fw_csr_write_table
fw_csr_write_table:
#define X(first, count)	CSR_WRITE_RANGE first, count ;
	FW_CSR_RANGES(X)
#undef X
	.option	pop
