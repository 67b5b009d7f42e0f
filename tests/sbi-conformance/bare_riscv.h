/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the bare-metal S-mode programs (the conformance program, and
 * tests/rtl-cva6's on the CVA6 RTL) need and no C library gives them:
 * CSR accessors with the CSR number as an immediate, SBI calls, and the
 * SBI specification's extension IDs.
 */
#ifndef BARE_RISCV_H
#define BARE_RISCV_H

typedef unsigned long ulong;

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

#define csr_read(csr) ({						\
	unsigned long __v;						\
	asm volatile("csrr %0, " __stringify(csr) : "=r"(__v) :: "memory"); \
	__v; })
#define csr_write(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	asm volatile("csrw " __stringify(csr) ", %0" :: "rK"(__v) : "memory"); })
#define csr_set(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	asm volatile("csrs " __stringify(csr) ", %0" :: "rK"(__v) : "memory"); })
#define csr_clear(csr, val) ({						\
	unsigned long __v = (unsigned long)(val);			\
	asm volatile("csrc " __stringify(csr) ", %0" :: "rK"(__v) : "memory"); })

/* An SBI call's error and value (SBI specification v2.0, chapter 3). */
struct sbiret {
	long error;
	ulong value;
};

/* An SBI call of extension eid, function fid, with up to three arguments. */
static inline struct sbiret sbi_call(ulong eid, ulong fid, ulong a0,
				     ulong a1, ulong a2)
{
	register ulong r0 asm("a0") = a0;
	register ulong r1 asm("a1") = a1;
	register ulong r2 asm("a2") = a2;
	register ulong r6 asm("a6") = fid;
	register ulong r7 asm("a7") = eid;

	asm volatile("ecall"
		     : "+r"(r0), "+r"(r1)
		     : "r"(r2), "r"(r6), "r"(r7)
		     : "memory");
	return (struct sbiret){ (long)r0, r1 };
}

/* SBI extension IDs (SBI specification v2.0). */
#define EXT_LEGACY_PUTCHAR	0x01
#define EXT_LEGACY_GETCHAR	0x02
#define EXT_BASE		0x10
#define EXT_TIME		0x54494d45
#define EXT_IPI			0x735049
#define EXT_RFENCE		0x52464e43
#define EXT_HSM			0x48534d
#define EXT_SRST		0x53525354
#define EXT_PMU			0x504d55
#define EXT_DBCN		0x4442434e

#endif /* BARE_RISCV_H */
