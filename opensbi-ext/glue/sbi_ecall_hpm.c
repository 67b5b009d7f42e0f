/*
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * HPM extension (EID 0x0848504d, experimental): S-mode access to the
 * machine-level counters, their events, mcounteren, scounteren and
 * mcountinhibit.  The behaviour lives in hpm/hpm_core.c, shared with the
 * riscv-hpm-perf project's QEMU test firmware; this file only connects it
 * to OpenSBI: per-hart state in scratch space and CSR access.
 */

#include <sbi/riscv_asm.h>
#include <sbi/riscv_encoding.h>
#include <sbi/sbi_csr_detect.h>
#include <sbi/sbi_ecall.h>
#include <sbi/sbi_error.h>
#include <sbi/sbi_hart.h>
#include <sbi/sbi_scratch.h>
#include <sbi/sbi_trap.h>
#include "hpm/hpm_core.h"

struct sbi_hpm_hart {
	bool initialized;
	struct hpm_hart core;
};

static unsigned long hpm_hart_offset;

/*
 * Which counter a counter CSR (machine or user, low or high half) is
 * behind, or -1 for any other CSR.
 */
static int hpm_counter_of(unsigned int csr)
{
	if (csr >= CSR_MCYCLE && csr <= CSR_MHPMCOUNTER31)
		return csr - CSR_MCYCLE;
	if (csr >= CSR_CYCLE && csr <= CSR_HPMCOUNTER31)
		return csr - CSR_CYCLE;
#if __riscv_xlen == 32
	if (csr >= CSR_MCYCLEH && csr <= CSR_MHPMCOUNTER31H)
		return csr - CSR_MCYCLEH;
	if (csr >= CSR_CYCLEH && csr <= CSR_HPMCOUNTER31H)
		return csr - CSR_CYCLEH;
#endif
	if (csr >= CSR_MHPMEVENT3 && csr <= CSR_MHPMEVENT31)
		return csr - CSR_MHPMEVENT3 + 3;
#if __riscv_xlen == 32
	if (csr >= CSR_MHPMEVENT3H && csr <= CSR_MHPMEVENT31H)
		return csr - CSR_MHPMEVENT3H + 3;
#endif
	return -1;
}

/*
 * OpenSBI found the hart's counters at boot (mhpm_mask, the time CSR,
 * the privileged version for mcountinhibit); an access to a register it
 * did not find is reported as trapped without touching the hardware, so
 * the core's probe never traps in M-mode.
 */
static bool hpm_csr_present(struct sbi_scratch *scratch, unsigned int csr)
{
	int idx;

	if (csr == CSR_MCOUNTINHIBIT)
		return sbi_hart_priv_version(scratch) >= SBI_HART_PRIV_VER_1_11;
	if (csr == CSR_MCOUNTEREN || csr == CSR_SCOUNTEREN)
		return true;
	idx = hpm_counter_of(csr);
	if (idx < 0)
		return false;
	if (idx == 1)
		return sbi_hart_has_csr(scratch, SBI_HART_CSR_TIME);
	if (idx == 0 || idx == 2)
		return true;
#if __riscv_xlen == 32
	if (csr >= CSR_MHPMEVENT3H && csr <= CSR_MHPMEVENT31H &&
	    !sbi_hart_has_extension(scratch, SBI_HART_EXT_SSCOFPMF))
		return false;
#endif
	return sbi_hart_mhpm_mask(scratch) & BIT(idx);
}

/* The user-level counter CSR @csr as the machine counter behind it. */
static unsigned int hpm_machine_csr(unsigned int csr)
{
#if __riscv_xlen == 32
	if (csr >= CSR_CYCLEH && csr <= CSR_HPMCOUNTER31H)
		return CSR_MCYCLEH + (csr - CSR_CYCLEH);
#endif
	if (csr >= CSR_CYCLE && csr <= CSR_HPMCOUNTER31)
		return CSR_MCYCLE + (csr - CSR_CYCLE);
	return csr;
}

static int hpm_opensbi_read(void *ctx, unsigned int csr, hpm_ulong *val)
{
	struct sbi_scratch *scratch = ctx;

	if (!hpm_csr_present(scratch, csr))
		return SBI_ENOTSUPP;

	switch (csr) {
	/* csr_read_num() covers neither of these two. */
	case CSR_MCOUNTEREN:
		*val = csr_read(CSR_MCOUNTEREN);
		return 0;
	case CSR_SCOUNTEREN:
		*val = csr_read(CSR_SCOUNTEREN);
		return 0;
	case CSR_TIME:
		*val = csr_read(CSR_TIME);
		return 0;
#if __riscv_xlen == 32
	case CSR_TIMEH:
		*val = csr_read(CSR_TIMEH);
		return 0;
#endif
	default:
		*val = csr_read_num(hpm_machine_csr(csr));
		return 0;
	}
}

static int hpm_opensbi_write(void *ctx, unsigned int csr, hpm_ulong val)
{
	struct sbi_scratch *scratch = ctx;

	if (!hpm_csr_present(scratch, csr))
		return SBI_ENOTSUPP;

	switch (csr) {
	case CSR_MCOUNTEREN:
		csr_write(CSR_MCOUNTEREN, val);
		return 0;
	case CSR_SCOUNTEREN:
		csr_write(CSR_SCOUNTEREN, val);
		return 0;
	default:
		/* The user-level counters are read-only. */
		if (csr >= CSR_CYCLE && csr <= CSR_HPMCOUNTER31H)
			return SBI_EDENIED;
		csr_write_num(csr, val);
		return 0;
	}
}

static const struct hpm_csr_ops hpm_opensbi_csr_ops = {
	.read	= hpm_opensbi_read,
	.write	= hpm_opensbi_write,
};

/*
 * The first HPM call on a hart probes its counters; until then the
 * extension leaves them as OpenSBI set them up.
 */
static struct hpm_hart *hpm_this_hart(void)
{
	struct sbi_scratch *scratch = sbi_scratch_thishart_ptr();
	struct sbi_hpm_hart *h = sbi_scratch_offset_ptr(scratch,
							hpm_hart_offset);

	if (!h->initialized) {
		hpm_hart_init(&h->core, &hpm_opensbi_csr_ops, scratch,
			      sbi_hart_has_extension(scratch,
						     SBI_HART_EXT_SSCOFPMF) ?
			      HPM_HART_SSCOFPMF : 0);
		h->initialized = true;
	}
	return &h->core;
}

static int sbi_ecall_hpm_handler(unsigned long extid, unsigned long funcid,
				 struct sbi_trap_regs *regs,
				 struct sbi_ecall_return *out)
{
	hpm_ulong value = 0;
	long ret;

	ret = hpm_handle(hpm_this_hart(), funcid, regs->a0, regs->a1, &value);
	out->value = value;
	return ret;
}

struct sbi_ecall_extension ecall_hpm;

static int sbi_ecall_hpm_register_extensions(void)
{
	hpm_hart_offset = sbi_scratch_alloc_offset(sizeof(struct sbi_hpm_hart));
	if (!hpm_hart_offset)
		return SBI_ENOMEM;

	return sbi_ecall_register_extension(&ecall_hpm);
}

struct sbi_ecall_extension ecall_hpm = {
	.name			= "hpm",
	.extid_start		= SBI_EXT_HPM,
	.extid_end		= SBI_EXT_HPM,
	.experimental		= true,
	.register_extensions	= sbi_ecall_hpm_register_extensions,
	.handle			= sbi_ecall_hpm_handler,
};
