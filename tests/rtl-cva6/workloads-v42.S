/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The code the v4.2.0 counting program (counts-v42.c) counts, and the
 * window it is counted in.  CVA6 v4.2.0 (src/perf_counters.sv) counts
 * on hard-wired counters, and counts loads, stores, branches, calls
 * and returns on commit port 0 only:
 *
 *   0xB07 loads, 0xB08 stores      fu LOAD / STORE
 *   0xB0B branches                 fu CTRL_FLOW: branches, jal, jalr
 *   0xB0C calls                    jal with rd = x1 (decoded as op ADD)
 *   0xB0D returns                  jalr with rd = x1 (so "ret", which
 *                                  writes x0, is not one)
 *   0xB09 exceptions               every trap entry (ecall too)
 *   0xB0A exception returns        mret, sret
 *
 * A store never commits on port 1.  A load or a control-flow
 * instruction may, beside the instruction before it, unless that one is
 * a CSR instruction: so each load and control-flow instruction below,
 * the loop's own and the window's included, comes right after a CSR read
 * (csrr of sscratch, which changes nothing) and commits on port 0, where
 * it counts.  Per iteration (table in counts-v42.c, the same numbers):
 *
 *   w42store   sd                        1 store
 *   w42load    ld                        1 load
 *   w42branch  beqz (not taken)          1 branch
 *   w42call    jal ra; jalr ra,
 *              callee: ret               1 call, 1 return (the jalr),
 *                                        4 branches (jal, jalr, 2 ret)
 *   w42ecall   ecall (SBI BASE get_spec_version)
 *                                        1 exception, 1 exception return
 *                                        (the firmware's own instructions
 *                                        during the call: not predicted)
 * plus, in every loop, 1 branch (bnez).
 */
	.option	norvc
	.text

/* A CSR instruction, so that the next one commits on port 0. */
.macro	PORT0
	csrr	t1, sscratch
.endm

/* Loop skeleton: a0 = n, a1 = buf; t3 counts, t4 = buf, t2 keeps ra. */
.macro	WORKLOAD name, setup1=nop, setup2=nop
	.globl	\name
	.align	3
\name:
	mv	t2, ra
	\setup1
	\setup2
	mv	t3, a0
	mv	t4, a1
	PORT0
	beqz	t3, 2f
1:
.endm

.macro	END_WORKLOAD
	addi	t3, t3, -1
	PORT0
	bnez	t3, 1b
2:	mv	ra, t2
	PORT0
	ret
.endm

WORKLOAD w42store
	sd	t4, 16(t4)
END_WORKLOAD

WORKLOAD w42load
	PORT0
	ld	t0, 16(t4)
END_WORKLOAD

WORKLOAD w42branch
	PORT0
	beqz	t3, 2f
END_WORKLOAD

WORKLOAD w42call, "la t6, callee42"
	PORT0
	jal	ra, callee42
	PORT0
	jalr	ra, 0(t6)
END_WORKLOAD

callee42:
	PORT0
	ret

WORKLOAD w42ecall, "li a7, 0x10", "li a6, 0"	/* BASE get_spec_version */
	ecall
END_WORKLOAD

/*
 * window42(fn, n, buf, before, after): before[i - 3] = GET_MCOUNTER(i)
 * for i = 3..16, fn(n, buf), then the same into after.  The same
 * instructions run around fn for every n, so the zero-iteration run
 * measures all of them, the firmware's included.
 */
	.globl	window42
	.align	3
window42:
	addi	sp, sp, -48
	sd	ra, 0(sp)
	sd	s0, 8(sp)
	sd	s1, 16(sp)
	sd	s2, 24(sp)
	sd	s3, 32(sp)
	sd	s4, 40(sp)
	mv	s0, a0
	mv	s1, a1
	mv	s2, a2
	mv	s4, a4
	mv	a0, a3
	PORT0
	jal	ra, read42
	mv	a0, s1
	mv	a1, s2
	PORT0
	jalr	ra, 0(s0)
	mv	a0, s4
	PORT0
	jal	ra, read42
	PORT0
	ld	ra, 0(sp)
	PORT0
	ld	s0, 8(sp)
	PORT0
	ld	s1, 16(sp)
	PORT0
	ld	s2, 24(sp)
	PORT0
	ld	s3, 32(sp)
	PORT0
	ld	s4, 40(sp)
	addi	sp, sp, 48
	PORT0
	ret

/* read42(out): out[i - 3] = GET_MCOUNTER(i), i = 3..16. */
read42:
	mv	t5, a0
	li	s3, 3
3:	li	a7, 0x0848504d	/* HPM */
	li	a6, 2		/* GET_MCOUNTER */
	mv	a0, s3
	ecall
	sd	a1, 0(t5)
	addi	t5, t5, 8
	addi	s3, s3, 1
	li	t0, 17
	PORT0
	bne	s3, t0, 3b
	PORT0
	ret
