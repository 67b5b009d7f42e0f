// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host model of one hart's counter CSRs; see hart_model.h.  The model
 * follows the privileged spec's WARL rules, not the core's code: it is
 * the reference the core is checked against.
 */
#include <string.h>

#include "hart_model.h"

#define TRAP 1

static unsigned long long width_mask(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

unsigned int hart_model_implemented(const struct hart_model *m)
{
	unsigned int hpms = m->p.hpm_mask & ~0x7U;

	/* a counter without mhpmevent must be wider than the probe's slack */
	if (m->p.no_mhpmevent && m->p.hpm_width <= 20)
		hpms = 0;
	return 0x5U | (m->p.has_time ? 0x2U : 0) | hpms;
}

void hart_model_reset(struct hart_model *m, const struct hart_model_params *p)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->p = *p;
	/* Whatever an earlier boot stage left: the core must not trust it. */
	for (i = 0; i < 32; i++) {
		m->counter[i] = 0x1234567890ULL * (i + 1);
		m->event[i] = i;
	}
	/* An earlier stage left the cycle/instret filters set. */
	if (p->smcntrpmf)
		m->cfg[0] = m->cfg[2] = 1ULL << 61;
	m->mcounteren = 0xffffffff;
	m->scounteren = 0x7;
}

static int is_hpm(const struct hart_model *m, unsigned int idx)
{
	return idx >= 3 && idx < 32 && ((m->p.hpm_mask >> idx) & 1);
}

static int counter_exists(const struct hart_model *m, unsigned int idx)
{
	return idx == 0 || idx == 2 || (idx == 1 && m->p.has_time) ||
	       is_hpm(m, idx);
}

static unsigned int counter_width(const struct hart_model *m, unsigned int idx)
{
	return idx < 3 ? 64 : m->p.hpm_width;
}

/* Is @csr one the ABI's table lets the core touch on this XLEN? */
static int in_table(unsigned int csr)
{
	if (csr == HPM_CSR_SCOUNTEREN || csr == HPM_CSR_MCOUNTEREN ||
	    csr == HPM_CSR_MCOUNTINHIBIT)
		return 1;
	if (csr >= HPM_CSR_MHPMEVENT3 && csr < HPM_CSR_MHPMEVENT3 + 29)
		return 1;
	if (csr >= HPM_CSR_MCYCLE && csr < HPM_CSR_MCYCLE + 32 &&
	    csr != HPM_CSR_MCYCLE + 1)
		return 1;
	if (csr >= HPM_CSR_CYCLE && csr < HPM_CSR_CYCLE + 32)
		return 1;
	/* Smcntrpmf: the whole registers on RV64, the high halves on RV32. */
	if (HPM_XLEN == 64 &&
	    (csr == HPM_CSR_MCYCLECFG || csr == HPM_CSR_MINSTRETCFG))
		return 1;
	if (HPM_XLEN == 32 &&
	    (csr == HPM_CSR_MCYCLECFGH || csr == HPM_CSR_MINSTRETCFGH))
		return 1;
	if (HPM_XLEN == 32) {
		if (csr >= HPM_CSR_MHPMEVENT3H &&
		    csr < HPM_CSR_MHPMEVENT3H + 29)
			return 1;
		if (csr >= HPM_CSR_MCYCLEH && csr < HPM_CSR_MCYCLEH + 32 &&
		    csr != HPM_CSR_MCYCLEH + 1)
			return 1;
		if (csr >= HPM_CSR_CYCLEH && csr < HPM_CSR_CYCLEH + 32)
			return 1;
	}
	return 0;
}

/*
 * Locate the 64-bit value behind a counter or event CSR; *shift is 32
 * for a high half.  Returns NULL for other CSRs.
 */
static unsigned long long *locate(struct hart_model *m, unsigned int csr,
				  unsigned int *idx, int *shift, int *is_event,
				  int *user)
{
	*shift = 0;
	*is_event = 0;
	*user = 0;
	if (csr >= HPM_CSR_MHPMEVENT3 && csr < HPM_CSR_MHPMEVENT3 + 29) {
		*idx = csr - HPM_CSR_MHPMEVENT3 + 3;
		*is_event = 1;
		return &m->event[*idx];
	}
	if (HPM_XLEN == 32 && csr >= HPM_CSR_MHPMEVENT3H &&
	    csr < HPM_CSR_MHPMEVENT3H + 29) {
		*idx = csr - HPM_CSR_MHPMEVENT3H + 3;
		*is_event = 1;
		*shift = 32;
		return &m->event[*idx];
	}
	if (csr >= HPM_CSR_MCYCLE && csr < HPM_CSR_MCYCLE + 32) {
		*idx = csr - HPM_CSR_MCYCLE;
	} else if (HPM_XLEN == 32 && csr >= HPM_CSR_MCYCLEH &&
		   csr < HPM_CSR_MCYCLEH + 32) {
		*idx = csr - HPM_CSR_MCYCLEH;
		*shift = 32;
	} else if (csr >= HPM_CSR_CYCLE && csr < HPM_CSR_CYCLE + 32) {
		*idx = csr - HPM_CSR_CYCLE;
		*user = 1;
	} else if (HPM_XLEN == 32 && csr >= HPM_CSR_CYCLEH &&
		   csr < HPM_CSR_CYCLEH + 32) {
		*idx = csr - HPM_CSR_CYCLEH;
		*shift = 32;
		*user = 1;
	} else {
		return NULL;
	}
	if (*idx == 1 && !*user)
		return NULL; /* there is no mtime CSR */
	return &m->counter[*idx];
}

/*
 * A running hart: time always advances; cycle, instret and every
 * programmable counter with a non-zero event advance unless inhibited.
 * Counters wrap at their width.
 */
static void tick(struct hart_model *m)
{
	unsigned int i;

	if (!m->p.ticking)
		return;
	m->counter[1]++;
	for (i = 0; i < 32; i++) {
		if (i == 1 || !counter_exists(m, i))
			continue;
		if (m->p.has_mcountinhibit && ((m->mcountinhibit >> i) & 1))
			continue;
		/* Event 0 counts nothing (bits 56+ are Sscofpmf filters). */
		if (i >= 3 && !m->p.no_mhpmevent &&
		    !(m->event[i] & 0x00ffffffffffffffULL))
			continue;
		m->counter[i] =
			(m->counter[i] + 1) & width_mask(counter_width(m, i));
	}
}

static void record(struct hart_model *m, unsigned int csr)
{
	m->accesses++;
	if (csr < 4096)
		m->touched[csr / 32] |= 1U << (csr % 32);
	tick(m);
}

int hart_model_touched(const struct hart_model *m, unsigned int csr)
{
	return csr < 4096 && ((m->touched[csr / 32] >> (csr % 32)) & 1);
}

/* mcyclecfg/minstretcfg (RV64) or their high halves (RV32), else NULL. */
static unsigned long long *locate_cfg(struct hart_model *m, unsigned int csr)
{
	switch (csr) {
	case HPM_CSR_MCYCLECFG:
	case HPM_CSR_MCYCLECFGH:
		return &m->cfg[0];
	case HPM_CSR_MINSTRETCFG:
	case HPM_CSR_MINSTRETCFGH:
		return &m->cfg[2];
	}
	return NULL;
}

static int model_read(void *ctx, unsigned int csr, hpm_ulong *val)
{
	struct hart_model *m = ctx;
	unsigned long long *reg;
	unsigned int idx;
	int shift, is_event, user;

	record(m, csr);
	*val = 0;
	if (!in_table(csr)) {
		if (!m->stray_csr)
			m->stray_csr = csr;
		return TRAP;
	}
	switch (csr) {
	case HPM_CSR_SCOUNTEREN:
		*val = m->scounteren;
		return 0;
	case HPM_CSR_MCOUNTEREN:
		*val = m->mcounteren;
		return 0;
	case HPM_CSR_MCOUNTINHIBIT:
		if (!m->p.has_mcountinhibit)
			return TRAP;
		*val = m->mcountinhibit;
		return 0;
	}
	reg = locate_cfg(m, csr);
	if (reg) {
		if (!m->p.smcntrpmf)
			return TRAP;
		*val = (hpm_ulong)(*reg >> (HPM_XLEN == 32 ? 32 : 0));
		return 0;
	}
	reg = locate(m, csr, &idx, &shift, &is_event, &user);
	if (!reg)
		return TRAP;
	if (is_event) {
		if (m->p.no_mhpmevent)
			return TRAP;
		if (!is_hpm(m, idx))
			return m->p.absent_reads_zero ? 0 : TRAP;
		if (shift && !m->p.sscofpmf)
			return TRAP;
		*val = (hpm_ulong)(*reg >> shift);
		return 0;
	}
	if (!counter_exists(m, idx))
		return (m->p.absent_reads_zero && idx != 1) ? 0 : TRAP;
	*val = (hpm_ulong)((*reg & width_mask(counter_width(m, idx))) >> shift);
	return 0;
}

static int model_write(void *ctx, unsigned int csr, hpm_ulong val)
{
	struct hart_model *m = ctx;
	unsigned long long *reg, keep;
	unsigned int idx;
	int shift, is_event, user;

	record(m, csr);
	m->writes++;
	if (!in_table(csr)) {
		if (!m->stray_csr)
			m->stray_csr = csr;
		return TRAP;
	}
	switch (csr) {
	case HPM_CSR_SCOUNTEREN:
		m->scounteren = (unsigned int)val;
		return 0;
	case HPM_CSR_MCOUNTEREN:
		m->mcounteren = (unsigned int)val;
		return 0;
	case HPM_CSR_MCOUNTINHIBIT:
		if (!m->p.has_mcountinhibit)
			return TRAP;
		/* WARL: time's bit and absent counters' bits stay 0. */
		m->mcountinhibit =
			(unsigned int)val & hart_model_implemented(m) & ~0x2U;
		return 0;
	}
	reg = locate_cfg(m, csr);
	if (reg) {
		if (!m->p.smcntrpmf)
			return TRAP;
		/* WARL: only the xINH bits are kept, the rest reads 0. */
		*reg = ((unsigned long long)val << (HPM_XLEN == 32 ? 32 : 0)) &
		       HART_MODEL_CFG_BITS;
		return 0;
	}
	reg = locate(m, csr, &idx, &shift, &is_event, &user);
	if (!reg || user)
		return TRAP; /* user counters are read-only */
	if (is_event) {
		if (m->p.no_mhpmevent)
			return TRAP;
		if (!is_hpm(m, idx))
			return m->p.absent_reads_zero ? 0 : TRAP;
		if (shift && !m->p.sscofpmf)
			return TRAP;
	} else if (!counter_exists(m, idx)) {
		return m->p.absent_reads_zero ? 0 : TRAP;
	}
	keep = shift ? 0xffffffffULL
		     : (HPM_XLEN == 32 ? 0xffffffff00000000ULL : 0);
	*reg = (*reg & keep) | ((unsigned long long)val << shift);
	if (!is_event)
		*reg &= width_mask(counter_width(m, idx));
	else if (m->p.event_bits)
		*reg &= m->p.event_bits;
	return 0;
}

const struct hpm_csr_ops hart_model_ops = {
	.read = model_read,
	.write = model_write,
};

int hart_model_same(const struct hart_model *a, const struct hart_model *b)
{
	unsigned int i;

	for (i = 0; i < 32; i++) {
		if (!counter_exists(a, i) && !is_hpm(a, i))
			continue;
		if (a->counter[i] != b->counter[i] ||
		    a->event[i] != b->event[i])
			return 0;
	}
	return a->cfg[0] == b->cfg[0] && a->cfg[2] == b->cfg[2] &&
	       a->mcounteren == b->mcounteren &&
	       a->scounteren == b->scounteren &&
	       a->mcountinhibit == b->mcountinhibit;
}
