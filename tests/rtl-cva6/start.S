/* SPDX-License-Identifier: BSD-2-Clause */
/* S-mode entry of the RTL counting program (one hart). */
	.section .text.entry, "ax", %progbits
	.globl	_start
_start:
	/* a0 = hartid, a1 = FDT */
	la	sp, stack_end
	la	t0, trap
	csrw	stvec, t0
	csrw	sie, zero
	li	t0, 1 << 13	/* sstatus.FS = Initial: the FP workload */
	csrs	sstatus, t0
	call	main
	/* main returns the status: tohost = status << 1 | 1 ends the run */
	slli	a0, a0, 1
	ori	a0, a0, 1
	la	t0, tohost
	sd	a0, 0(t0)
1:	wfi
	j	1b

/* An S-mode trap is a bug of the program: end with status 3. */
	.align	2
trap:
	li	a0, 7
	la	t0, tohost
	sd	a0, 0(t0)
	j	trap

	.data
	.align	6
	.globl	tohost
tohost:	.dword	0
	.align	6
	.globl	fromhost
fromhost: .dword 0

	.bss
	.align	4
	.space	16384
stack_end:
