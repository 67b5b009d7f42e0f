/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * HPM extension core: the whole behaviour of the HPM SBI extension
 * (index checks, error choice, DENIED rules, WARL masks, counter discovery,
 * RV32 high halves) in plain freestanding C.
 *
 * The core never touches a CSR itself.  The environment that hosts it
 * (OpenSBI, or the host-side model used by the unit tests and the fuzzer)
 * supplies struct hpm_csr_ops; the core only ever passes it CSR numbers
 * from the table in the ABI document.
 *
 * No C library header is included, so the same file builds inside OpenSBI
 * (-nostdinc) and on the host.
 */
#ifndef HPM_CORE_H
#define HPM_CORE_H

#include "sbi_hpm_abi.h"

/*
 * XLEN of the hart the core serves.  On RISC-V it follows the compiler;
 * the host build sets HPM_XLEN to 32 or 64 to test both.
 */
#ifndef HPM_XLEN
#ifdef __riscv_xlen
#define HPM_XLEN __riscv_xlen
#else
#define HPM_XLEN 64
#endif
#endif

#if HPM_XLEN == 32
typedef unsigned int hpm_ulong;
#elif HPM_XLEN == 64
typedef unsigned long long hpm_ulong;
#else
#error "HPM_XLEN must be 32 or 64"
#endif

/* CSR numbers the core may pass to hpm_csr_ops (privileged spec). */
#define HPM_CSR_SCOUNTEREN	0x106
#define HPM_CSR_MCOUNTEREN	0x306
#define HPM_CSR_MCOUNTINHIBIT	0x320
#define HPM_CSR_MCYCLECFG	0x321	/* Smcntrpmf, RV64 */
#define HPM_CSR_MINSTRETCFG	0x322	/* Smcntrpmf, RV64 */
#define HPM_CSR_MCYCLECFGH	0x721	/* Smcntrpmf, RV32 */
#define HPM_CSR_MINSTRETCFGH	0x722	/* Smcntrpmf, RV32 */
#define HPM_CSR_MHPMEVENT3	0x323	/* ..0x33f: mhpmevent3..31 */
#define HPM_CSR_MHPMEVENT3H	0x723	/* RV32 + Sscofpmf: mhpmevent3h.. */
#define HPM_CSR_MCYCLE		0xb00	/* + i: mcycle, -, minstret, mhpmcounterN */
#define HPM_CSR_MCYCLEH		0xb80	/* RV32 high halves */
#define HPM_CSR_CYCLE		0xc00	/* + i: cycle, time, instret, hpmcounterN */
#define HPM_CSR_CYCLEH		0xc80	/* RV32 high halves */

/*
 * MINH: bit 62 of mhpmevent on RV64, bit 30 of mhpmeventh on RV32.
 * Smcntrpmf's mcyclecfg and minstretcfg have it at the same place.
 */
#define HPM_MHPMEVENT_MINH_RV64	(1ULL << 62)
#define HPM_MHPMEVENTH_MINH	(1U << 30)

/*
 * Access to the hart's CSRs.  Each call returns 0 on success and a
 * non-zero value when the access trapped (the register does not exist);
 * a trapping write must leave the hart unchanged.  The host may ignore
 * the return value of CSRs it knows to exist.
 */
struct hpm_csr_ops {
	int (*read)(void *ctx, unsigned int csr, hpm_ulong *val);
	int (*write)(void *ctx, unsigned int csr, hpm_ulong val);
};

/* Features of the hart that cannot be discovered through the counters. */
#define HPM_HART_SSCOFPMF	(1U << 0)	/* MINH on SET_MEVENT, mhpmeventh */
#define HPM_HART_SMCNTRPMF	(1U << 1)	/* mcyclecfg, minstretcfg */

/* What the core knows of one hart; filled by hpm_hart_init(). */
struct hpm_hart {
	const struct hpm_csr_ops *ops;
	void *ctx;
	unsigned int features;		/* HPM_HART_* */
	unsigned int implemented;	/* bit i: counter i exists */
	int has_mcountinhibit;
	unsigned char width[SBI_HPM_NUM_COUNTERS];	/* bits, 0 if absent */
};

/*
 * Discover the hart's counters (implemented mask, widths, mcountinhibit)
 * on the calling hart.  Afterwards every mhpmevent is 0, every
 * hpmcounter is zero and inhibited, and cycle and instret count (what
 * OpenSBI leaves at boot: mcountinhibit = ~0x7).  A counter without
 * mhpmevent is implemented too (GET_MEVENT and SET_MEVENT then give
 * NOT_SUPPORTED for it); on a hart without mcountinhibit it counts on
 * from zero.  Call once per hart at boot, before the first hpm_handle()
 * on it.
 */
void hpm_hart_init(struct hpm_hart *hart, const struct hpm_csr_ops *ops,
		   void *ctx, unsigned int features);

/*
 * Handle one HPM call on the calling hart.  Returns an SBI_HPM_* error
 * value; on SBI_HPM_SUCCESS *value holds the a1 result (0 for setters).
 * On error *value is 0 and no CSR has been written.
 */
long hpm_handle(struct hpm_hart *hart, unsigned long fid, hpm_ulong arg0,
		hpm_ulong arg1, hpm_ulong *value);

#endif /* HPM_CORE_H */
