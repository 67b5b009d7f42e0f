/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the bare-metal S-mode conformance program needs and no C library
 * gives it: CSR accessors with the CSR number as an immediate, and the
 * SBI specification's extension IDs.
 */
#ifndef BARE_RISCV_H
#define BARE_RISCV_H

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
