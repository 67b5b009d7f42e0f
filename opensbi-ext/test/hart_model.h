/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A model of one hart's counter CSRs for host tests of the HPM core:
 * counters with a given width (WARL), counters that do not exist (they
 * trap, as on QEMU, or read as zero, as hardwired registers do), an
 * optional mcountinhibit and time CSR, counters hard-wired to their
 * events (no mhpmevent), RV32 high halves, and a record of
 * every CSR the core touched outside the ABI's table.
 */
#ifndef HART_MODEL_H
#define HART_MODEL_H

#include "hpm_core.h"

struct hart_model_params {
	const char *name;
	unsigned int hpm_mask; /* implemented hpmcounters (bits 3..31) */
	unsigned int hpm_width; /* their width in bits */
	int has_mcountinhibit;
	int has_time;
	int sscofpmf;
	int absent_reads_zero; /* absent counters read 0 instead of trapping */
	int ticking; /* counters advance on every CSR access */
	int smcntrpmf; /* mcyclecfg/minstretcfg (RV32: their high halves) */
	/* bits mhpmevent keeps (RV32: low | high << 32); 0: all (WARL) */
	unsigned long long event_bits;
	/* no mhpmevent: each counter counts an event of its own */
	int no_mhpmevent;
};

struct hart_model {
	struct hart_model_params p;
	unsigned long long counter[32]; /* index as in the ABI; [1] is time */
	unsigned long long event[32]; /* mhpmevent (RV32: low | high << 32) */
	unsigned int mcounteren, scounteren, mcountinhibit;
	unsigned long long cfg[3]; /* [0] mcyclecfg, [2] minstretcfg */
	unsigned int stray_csr; /* first CSR outside the table, or 0 */
	unsigned long accesses; /* reads and writes, trapping or not */
	unsigned long writes; /* write attempts, trapping or not */
	unsigned int touched[4096 / 32]; /* bit per CSR number accessed */
};

extern const struct hpm_csr_ops hart_model_ops;

void hart_model_reset(struct hart_model *m, const struct hart_model_params *p);

/* Counters the core should find: cycle, instret, time if any, the hpms. */
unsigned int hart_model_implemented(const struct hart_model *m);

/* 1 when the core accessed @csr since the last reset. */
int hart_model_touched(const struct hart_model *m, unsigned int csr);

/* Bits Smcntrpmf defines in mcyclecfg/minstretcfg: xINH, 62..58. */
#define HART_MODEL_CFG_BITS	(0x1fULL << 58)

/* 1 when the CSR-visible state of @a and @b is the same. */
int hart_model_same(const struct hart_model *a, const struct hart_model *b);

#endif
