/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * S-mode entry of the HPM conformance test, its trap vector and the
 * counter-CSR stubs (a CSR number is an immediate, so reading counter i
 * by run-time index needs one stub per counter).
 */
#if __riscv_xlen == 64
#define REG_S	sd
#define REG_L	ld
#define SZREG	8
#else
#define REG_S	sw
#define REG_L	lw
#define SZREG	4
#endif
#define FRAME_SIZE	(32 * SZREG)

	.section .text.entry, "ax", %progbits
	.globl	_start
_start:
	/* a0 = hartid, a1 = FDT (or hart_start's opaque) */
	la	sp, stacks_end
	li	t0, 8
	bgeu	a0, t0, 2f
	slli	t0, a0, 13	/* 8 KiB per hart */
	sub	sp, sp, t0
	la	t0, trap_vector
	csrw	stvec, t0
	csrw	sie, zero
	call	test_entry
2:	wfi
	j	2b

	.text
	.align	2
trap_vector:
	addi	sp, sp, -FRAME_SIZE
	REG_S	ra, 1*SZREG(sp)
	REG_S	t0, 5*SZREG(sp)
	REG_S	t1, 6*SZREG(sp)
	REG_S	t2, 7*SZREG(sp)
	REG_S	a0, 10*SZREG(sp)
	REG_S	a1, 11*SZREG(sp)
	REG_S	a2, 12*SZREG(sp)
	REG_S	a3, 13*SZREG(sp)
	REG_S	a4, 14*SZREG(sp)
	REG_S	a5, 15*SZREG(sp)
	REG_S	a6, 16*SZREG(sp)
	REG_S	a7, 17*SZREG(sp)
	REG_S	t3, 28*SZREG(sp)
	REG_S	t4, 29*SZREG(sp)
	REG_S	t5, 30*SZREG(sp)
	REG_S	t6, 31*SZREG(sp)
	call	trap_handler
	REG_L	ra, 1*SZREG(sp)
	REG_L	t0, 5*SZREG(sp)
	REG_L	t1, 6*SZREG(sp)
	REG_L	t2, 7*SZREG(sp)
	REG_L	a0, 10*SZREG(sp)
	REG_L	a1, 11*SZREG(sp)
	REG_L	a2, 12*SZREG(sp)
	REG_L	a3, 13*SZREG(sp)
	REG_L	a4, 14*SZREG(sp)
	REG_L	a5, 15*SZREG(sp)
	REG_L	a6, 16*SZREG(sp)
	REG_L	a7, 17*SZREG(sp)
	REG_L	t3, 28*SZREG(sp)
	REG_L	t4, 29*SZREG(sp)
	REG_L	t5, 30*SZREG(sp)
	REG_L	t6, 31*SZREG(sp)
	addi	sp, sp, FRAME_SIZE
	sret

/*
 * 8-byte stubs "csrr a0, N; ret", no RVC so that a trapping stub is
 * skipped by adding 4 to sepc.  Table 0: cycle..hpmcounter31 (0xc00+i),
 * table 1: their high halves (0xc80+i), then scountovf (0xda0).
 */
	.option	push
	.option	norvc
	.globl	ctr_read_table
ctr_read_table:
	.set	csrn, 0xc00
	.rept	32
	csrr	a0, csrn
	ret
	.set	csrn, csrn + 1
	.endr
	.set	csrn, 0xc80
	.rept	32
	csrr	a0, csrn
	ret
	.set	csrn, csrn + 1
	.endr
	csrr	a0, 0xda0
	ret

/* probe_load(addr): lw that may fault (4 bytes, skipped on fault) */
	.globl	probe_load
probe_load:
	lw	a0, 0(a0)
	ret
	.option	pop

	.bss
	.align	4
	.space	8 * 8192
	.globl	stacks_end
stacks_end:
