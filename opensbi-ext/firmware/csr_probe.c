// SPDX-License-Identifier: BSD-2-Clause
/*
 * CSR access by number, reporting a trap instead of dying of it.
 *
 * The HPM core asks for CSRs by run-time number and must learn whether
 * each exists (that is how it discovers the counters), and the boot code
 * probes optional registers (menvcfg, mstateen0, stimecmp, ...).  A CSR
 * number is an immediate of the instruction, so each register in
 * csr_table.h has a tiny stub in start.S.  Before calling a stub we flag
 * this hart as probing; if the stub traps (illegal instruction), the trap
 * handler sees the flag, records the fault and resumes after the CSR
 * instruction, which leaves the hart unchanged, as hpm_csr_ops requires.
 */
#include "fw.h"
#include "csr_table.h"

struct csr_range {
	unsigned short first, count;
};

static const struct csr_range csr_ranges[] = {
#define X(first, count)	{ first, count },
	FW_CSR_RANGES(X)
#undef X
};

/* Byte offset of csr's stub in either table, or -1 if it has none. */
static long csr_stub_offset(unsigned int csr)
{
	unsigned long i, index = 0;

	for (i = 0; i < sizeof(csr_ranges) / sizeof(csr_ranges[0]); i++) {
		const struct csr_range *r = &csr_ranges[i];

		if (csr >= r->first && csr < (unsigned int)r->first + r->count)
			return (long)(index + csr - r->first) * FW_CSR_STUB_SIZE;
		index += r->count;
	}
	return -1;
}

int fw_csr_read_safe(unsigned int csr, ulong *val)
{
	struct hart *h = &fw_harts[cur_hartid()];
	long off = csr_stub_offset(csr);
	ulong (*stub)(void);
	ulong v;

	if (off < 0)
		return -1;
	stub = (ulong (*)(void))(void *)(fw_csr_read_table + off);
	h->faulted = 0;
	h->probing = 1;
	v = stub();
	h->probing = 0;
	if (h->faulted)
		return -1;
	*val = v;
	return 0;
}

int fw_csr_write_safe(unsigned int csr, ulong val)
{
	struct hart *h = &fw_harts[cur_hartid()];
	long off = csr_stub_offset(csr);
	void (*stub)(ulong);

	if (off < 0)
		return -1;
	stub = (void (*)(ulong))(void *)(fw_csr_write_table + off);
	h->faulted = 0;
	h->probing = 1;
	stub(val);
	h->probing = 0;
	return h->faulted ? -1 : 0;
}
