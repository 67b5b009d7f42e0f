/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The code the RTL counting program counts, and the window it is counted
 * in.  Each workload wN(n, buf) runs its body n times; its count for n
 * iterations minus its count for 0 iterations is n times what one
 * iteration retires, by the CVA6's definitions (core/perf_counters.sv):
 *
 *   loads, stores      fu LOAD / STORE
 *   branches           fu CTRL_FLOW: branches, jal, jalr
 *   calls              jal/jalr with rd = x1 or x5
 *   returns            jalr with rd = x0
 *   integer            fu ALU or MULT (not CSR, not branches)
 *   floating point     fu FPU
 *   exceptions         every trap entry (ecall too); exception returns:
 *                      mret, sret
 *
 * Every event but stores is one bit per cycle ORed over the two commit
 * ports: two loads (or branches, integer instructions...) retiring in
 * the same cycle count once.  Two instructions of one class never stand
 * next to each other in any loop body below, nor across the loop's
 * back edge (each body starts with a non-branch and ends with a
 * non-integer instruction: the loop adds "addi; bnez"), so every one
 * counts.  Per iteration (table in counts.c, the same numbers):
 *
 *   wstore   sd                          S, +addi, +bnez
 *   wload    ld                          L
 *   wbranch  sd; beqz (not taken); sd    2 S, 1 B
 *   wcall    sd; jal ra; sd; jalr t0; sd,
 *            callee1: sd; ret  callee2: sd; jr t0
 *                                        5 S, 2 calls (jal x1, jalr x5),
 *                                        2 returns, 4 B (jal, ret, jalr, jr)
 *   wint     addi; sd; mul; sd           2 I, 2 S
 *   wfp      fadd.d; sd                  1 FP, 1 S
 *   wecall   ecall (SBI BASE get_spec_version); sd
 *                                        1 exception, 1 exception return
 *                                        (the firmware's own instructions
 *                                        during the call: not predicted)
 *   wdtlb    ld (a page each, Sv39); add L (add and addi may pair)
 * plus, in every loop, 1 integer (addi) and 1 branch (bnez).
 *
 * wicache is no loop: after a fence.i, which empties the I-cache, it
 * runs the last n of ICACHE_LINES lines of nops, each line once: n
 * I-cache misses (core/cache_subsystem/cva6_icache.sv signals one per
 * line fill), nothing else but integer instructions (nops, two of which
 * may retire together: not predicted).  The lines fetched around them
 * (the jump's, the guard lines the frontend may fetch past the jump
 * before it resolves, the epilogue's) are the same for every n.
 */
	.option	norvc
	.text

/*
 * Loop skeleton: a0 = n, a1 = buf; t3 counts, t4 = buf, t2 keeps ra.
 * SETUP runs before the loop, for every n.
 */
.macro	WORKLOAD name, setup1=nop, setup2=nop
	.globl	\name
	.align	3
\name:
	mv	t2, ra
	sd	zero, 0(a1)
	\setup1
	sd	zero, 0(a1)
	\setup2
	mv	t3, a0
	mv	t4, a1
	sd	zero, 0(t4)
	beqz	t3, 2f
1:
.endm
.macro	END_WORKLOAD
	addi	t3, t3, -1
	bnez	t3, 1b
2:	sd	zero, 8(t4)
	mv	ra, t2
	ret
.endm

WORKLOAD wstore
	sd	t4, 16(t4)
END_WORKLOAD

WORKLOAD wload
	ld	t1, 16(t4)
END_WORKLOAD

WORKLOAD wbranch
	sd	t4, 16(t4)
	beqz	t3, 2f
	sd	t4, 24(t4)
END_WORKLOAD

WORKLOAD wcall, "la t6, callee2"
	sd	t4, 16(t4)
	jal	ra, callee1
	sd	t4, 24(t4)
	jalr	t0, 0(t6)
	sd	t4, 32(t4)
END_WORKLOAD
callee1:
	sd	t4, 48(t4)
	ret
callee2:
	sd	t4, 56(t4)
	jr	t0

WORKLOAD wint
	addi	t5, t5, 1
	sd	t4, 16(t4)
	mul	t5, t5, t5
	sd	t4, 24(t4)
END_WORKLOAD

WORKLOAD wfp
	fadd.d	ft0, ft0, ft1
	sd	t4, 16(t4)
END_WORKLOAD

WORKLOAD wecall, "li a7, 0x10", "li a6, 0"	/* BASE get_spec_version */
	ecall
	sd	t4, 16(t4)
END_WORKLOAD

/*
 * With Sv39 on (counts.c's paging()): after an sfence.vma, which empties
 * the TLBs, each iteration loads from a 4 KiB page of its own at
 * 0xC0000000 + i * 4096, a page-table walk each.  The RTL counts at most
 * one of them as a DTLB miss: cva6_shared_tlb.sv raises dtlb_miss_o only
 * in a cycle where the DTLB lookup misses and the walker's miss signal is
 * set, which comes a cycle after the lookup (cva6_ptw.sv); the fetch
 * still asks then (ITLB misses count), the load unit almost never does.
 */
WORKLOAD wdtlb, "sfence.vma; li t0, 0xC0000000", "lui t6, 1"
	ld	t1, 0(t0)
	add	t0, t0, t6
END_WORKLOAD

/* I-cache lines (16 bytes: IcacheLineWidth 128) of wicache's block. */
#define ICACHE_LINES	256

	.globl	wicache
	.align	4
wicache:
	sd	zero, 0(a1)
	fence.i
	la	t0, icache_block_end
	slli	t1, a0, 4
	sub	t0, t0, t1
	jr	t0
	.align	4
	.rept	2 * 4		/* two guard lines */
	nop
	.endr
icache_block:
	.rept	ICACHE_LINES * 4
	nop
	.endr
icache_block_end:
	sd	zero, 8(a1)
	ret

/*
 * window(fn, n, buf, mask): COUNTER_START(mask, mask) (the counters of
 * mask start from zero inside the firmware), fn(n, buf), INHIBIT_SET(mask).
 * The same instructions run around fn for every n, so the zero-iteration
 * run measures all of them: the firmware's return from the first call,
 * the call of fn, and the firmware's entry of the second call.
 */
	.globl	window
	.align	3
window:
	addi	sp, sp, -48
	sd	ra, 0(sp)
	sd	s0, 8(sp)
	sd	s1, 16(sp)
	sd	s2, 24(sp)
	sd	s3, 32(sp)
	mv	s0, a0
	mv	s1, a1
	mv	s2, a2
	mv	s3, a3
	li	a7, 0x0848504d	/* HPM */
	li	a6, 18		/* COUNTER_START */
	mv	a0, s3
	mv	a1, s3
	ecall
	mv	a0, s1
	mv	a1, s2
	jalr	ra, 0(s0)
	li	a7, 0x0848504d
	li	a6, 16		/* INHIBIT_SET */
	mv	a0, s3
	ecall
	ld	ra, 0(sp)
	ld	s0, 8(sp)
	ld	s1, 16(sp)
	ld	s2, 24(sp)
	ld	s3, 32(sp)
	addi	sp, sp, 48
	ret

/* cycles(): rdcycle, for the cost of a call. */
	.globl	rdcycle
rdcycle:
	csrr	a0, cycle
	ret
