/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The CSRs the firmware may access with a run-time CSR number or without
 * knowing whether they exist: the HPM core's table (hpm_core.h) plus the
 * optional registers the boot code probes.  start.S turns each range into
 * one "csrr a0, N; ret" and one "csrw N, a0; ret" stub per register (8
 * bytes each), csr_probe.c finds a register's stub from the same list;
 * keeping one list keeps the two in step.
 */
#ifndef HPMFW_CSR_TABLE_H
#define HPMFW_CSR_TABLE_H

#define FW_CSR_STUB_SIZE	8

/* X(first CSR, number of consecutive CSRs) */
#define FW_CSR_RANGES(X)						\
	X(0x106, 1)	/* scounteren */				\
	X(0x14d, 1)	/* stimecmp */					\
	X(0x15d, 1)	/* stimecmph */					\
	X(0x306, 1)	/* mcounteren */				\
	X(0x30a, 1)	/* menvcfg */					\
	X(0x30c, 1)	/* mstateen0 */					\
	X(0x31a, 1)	/* menvcfgh */					\
	X(0x31c, 1)	/* mstateen0h */				\
	X(0x320, 1)	/* mcountinhibit */				\
	X(0x323, 29)	/* mhpmevent3..31 */				\
	X(0x3a0, 1)	/* pmpcfg0 */					\
	X(0x3b0, 2)	/* pmpaddr0..1 */				\
	X(0x723, 29)	/* mhpmevent3h..31h */				\
	X(0xb00, 32)	/* mcycle, -, minstret, mhpmcounter3..31 */	\
	X(0xb80, 32)	/* their high halves */				\
	X(0xc00, 32)	/* cycle, time, instret, hpmcounter3..31 */	\
	X(0xc80, 32)	/* their high halves */				\
	X(0xda0, 1)	/* scountovf */

#endif /* HPMFW_CSR_TABLE_H */
