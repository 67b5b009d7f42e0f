// SPDX-License-Identifier: BSD-2-Clause
/*
 * HPM SBI extension (EID 0x0848504d, experimental): S-mode access to
 * mhpmevent, the machine counters, mcounteren, scounteren and
 * mcountinhibit of the calling hart, and to the mode filters of
 * Sscofpmf (RV32: mhpmeventh) and Smcntrpmf (mcyclecfg, minstretcfg).
 *
 * This file only connects the portable core (hpm/hpm_core.c, which holds
 * every rule of the ABI) to OpenSBI: per-hart state in the scratch space,
 * and CSR access by number that reports a trap instead of taking it.
 * The accessors know only the CSRs of the extension's ABI table; any
 * other number is refused without touching the hart.
 *
 * The extension shares the counters with OpenSBI's SBI PMU extension;
 * enable one or the other, not both (see the Kconfig help).
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

/* The core's CSR numbers are the privileged spec's, as are OpenSBI's. */
_Static_assert(HPM_CSR_SCOUNTEREN == CSR_SCOUNTEREN, "scounteren");
_Static_assert(HPM_CSR_MCOUNTEREN == CSR_MCOUNTEREN, "mcounteren");
_Static_assert(HPM_CSR_MCOUNTINHIBIT == CSR_MCOUNTINHIBIT, "mcountinhibit");
_Static_assert(HPM_CSR_MHPMEVENT3 == CSR_MHPMEVENT3, "mhpmevent3");
_Static_assert(HPM_CSR_MCYCLE == CSR_MCYCLE, "mcycle");
_Static_assert(HPM_CSR_CYCLE == CSR_CYCLE, "cycle");
#if __riscv_xlen == 32
_Static_assert(HPM_CSR_MCYCLECFGH == CSR_MCYCLECFGH, "mcyclecfgh");
_Static_assert(HPM_CSR_MINSTRETCFGH == CSR_MINSTRETCFGH, "minstretcfgh");
_Static_assert(HPM_CSR_MHPMEVENT3H == CSR_MHPMEVENT3H, "mhpmevent3h");
_Static_assert(HPM_CSR_MCYCLEH == CSR_MCYCLEH, "mcycleh");
_Static_assert(HPM_CSR_CYCLEH == CSR_CYCLEH, "cycleh");
#else
_Static_assert(HPM_CSR_MCYCLECFG == CSR_MCYCLECFG, "mcyclecfg");
_Static_assert(HPM_CSR_MINSTRETCFG == CSR_MINSTRETCFG, "minstretcfg");
#endif

/* The core answers with the SBI specification's error values. */
_Static_assert(SBI_HPM_ERR_FAILED == SBI_EFAIL, "FAILED");
_Static_assert(SBI_HPM_ERR_NOT_SUPPORTED == SBI_ENOTSUPP, "NOT_SUPPORTED");
_Static_assert(SBI_HPM_ERR_INVALID_PARAM == SBI_EINVAL, "INVALID_PARAM");
_Static_assert(SBI_HPM_ERR_DENIED == SBI_EDENIED, "DENIED");

/*
 * The ABI table as CSR numbers.  A CSR number is an immediate of the
 * instruction, so each register needs its own access; these lists expand
 * @X once per register.  hpm29 covers the 29 programmable counters
 * (index 3..31) from the CSR of index 3.
 */
#define HPM_X4(X, n)	X((n)) X((n) + 1) X((n) + 2) X((n) + 3)
#define HPM_X29(X, n)	HPM_X4(X, n) HPM_X4(X, (n) + 4)			\
			HPM_X4(X, (n) + 8) HPM_X4(X, (n) + 12)		\
			HPM_X4(X, (n) + 16) HPM_X4(X, (n) + 20)		\
			HPM_X4(X, (n) + 24) X((n) + 28)
/* mcycle, minstret, mhpmcounter3..31: there is no mtime CSR. */
#define HPM_MCOUNTERS(X, base)						\
	X((base) + SBI_HPM_IDX_CYCLE) X((base) + SBI_HPM_IDX_INSTRET)	\
	HPM_X29(X, (base) + SBI_HPM_IDX_HPM_FIRST)
/* cycle, time, instret, hpmcounter3..31 (read-only). */
#define HPM_UCOUNTERS(X, base)						\
	X((base) + SBI_HPM_IDX_CYCLE) X((base) + SBI_HPM_IDX_TIME)	\
	X((base) + SBI_HPM_IDX_INSTRET)					\
	HPM_X29(X, (base) + SBI_HPM_IDX_HPM_FIRST)

/*
 * Smcntrpmf's filters of cycle and instret: the whole registers on RV64,
 * only their high halves (where the filter bits are) on RV32.
 */
#if __riscv_xlen == 32
#define HPM_CTRCFG_CSRS(X)	X(HPM_CSR_MCYCLECFGH) X(HPM_CSR_MINSTRETCFGH)
#define HPM_WRITABLE_HIGH(X)						\
	HPM_X29(X, HPM_CSR_MHPMEVENT3H) HPM_MCOUNTERS(X, HPM_CSR_MCYCLEH)
#define HPM_READ_ONLY_HIGH(X)	HPM_UCOUNTERS(X, HPM_CSR_CYCLEH)
#else
#define HPM_CTRCFG_CSRS(X)	X(HPM_CSR_MCYCLECFG) X(HPM_CSR_MINSTRETCFG)
#define HPM_WRITABLE_HIGH(X)
#define HPM_READ_ONLY_HIGH(X)
#endif

/* Registers the core may write, and those it may only read. */
#define HPM_WRITABLE_CSRS(X)						\
	X(HPM_CSR_MCOUNTINHIBIT) HPM_X29(X, HPM_CSR_MHPMEVENT3)		\
	HPM_MCOUNTERS(X, HPM_CSR_MCYCLE) HPM_CTRCFG_CSRS(X)		\
	HPM_WRITABLE_HIGH(X)
#define HPM_READ_ONLY_CSRS(X)						\
	HPM_UCOUNTERS(X, HPM_CSR_CYCLE) HPM_READ_ONLY_HIGH(X)

#define HPM_READ_CASE(num)						\
	case (num):							\
		value = csr_read_allowed((num), &trap);			\
		break;

#define HPM_WRITE_CASE(num)						\
	case (num):							\
		csr_write_allowed((num), &trap, val);			\
		break;

/*
 * hpm_csr_ops.read: 0 and the value, or non-zero if the CSR trapped or
 * is not in the ABI table.  mcounteren and scounteren exist on every hart
 * that has S-mode, so they use the plain accessors (OpenSBI's
 * csr_read_num() does not handle them).
 */
static int hpm_csr_read(void *ctx, unsigned int csr, hpm_ulong *val)
{
	struct sbi_trap_info trap = { 0 };
	unsigned long value = 0;

	switch (csr) {
	case HPM_CSR_MCOUNTEREN:
		value = csr_read(CSR_MCOUNTEREN);
		break;
	case HPM_CSR_SCOUNTEREN:
		value = csr_read(CSR_SCOUNTEREN);
		break;
	HPM_WRITABLE_CSRS(HPM_READ_CASE)
	HPM_READ_ONLY_CSRS(HPM_READ_CASE)
	default:
		return SBI_EINVAL;
	}
	if (trap.cause)
		return SBI_ENOTSUPP;
	*val = value;
	return 0;
}

/* hpm_csr_ops.write: as hpm_csr_read(); a trapped write changed nothing. */
static int hpm_csr_write(void *ctx, unsigned int csr, hpm_ulong val)
{
	struct sbi_trap_info trap = { 0 };

	switch (csr) {
	case HPM_CSR_MCOUNTEREN:
		csr_write(CSR_MCOUNTEREN, val);
		break;
	case HPM_CSR_SCOUNTEREN:
		csr_write(CSR_SCOUNTEREN, val);
		break;
	HPM_WRITABLE_CSRS(HPM_WRITE_CASE)
	default:
		return SBI_EINVAL;
	}
	return trap.cause ? SBI_ENOTSUPP : 0;
}

static const struct hpm_csr_ops hpm_opensbi_csr_ops = {
	.read	= hpm_csr_read,
	.write	= hpm_csr_write,
};

/* Per-hart state, in each hart's scratch space. */
struct hpm_hart_state {
	struct hpm_hart hart;
	/* hpm_hart_init() has run on this hart. */
	bool discovered;
};

static unsigned long hpm_state_offset;

/*
 * The core's view of the calling hart.  Discovery runs on the hart's
 * first HPM call rather than at boot: OpenSBI has no per-hart init hook
 * for an ecall extension, and each hart must probe its own CSRs.  The
 * scratch allocator zeroes the space on every hart, so "discovered"
 * starts false.
 */
static struct hpm_hart *hpm_this_hart(void)
{
	struct sbi_scratch *scratch = sbi_scratch_thishart_ptr();
	struct hpm_hart_state *state =
		sbi_scratch_offset_ptr(scratch, hpm_state_offset);
	unsigned int features = 0;

	if (!state->discovered) {
		if (sbi_hart_has_extension(scratch, SBI_HART_EXT_SSCOFPMF))
			features |= HPM_HART_SSCOFPMF;
		if (sbi_hart_has_extension(scratch, SBI_HART_EXT_SMCNTRPMF))
			features |= HPM_HART_SMCNTRPMF;
		hpm_hart_init(&state->hart, &hpm_opensbi_csr_ops, NULL,
			      features);
		state->discovered = true;
	}
	return &state->hart;
}

static int sbi_ecall_hpm_handler(unsigned long extid, unsigned long funcid,
				 struct sbi_trap_regs *regs,
				 struct sbi_ecall_return *out)
{
	hpm_ulong value = 0;
	long err;

	err = hpm_handle(hpm_this_hart(), funcid, regs->a0, regs->a1, &value);
	out->value = value;
	return (int)err;
}

struct sbi_ecall_extension ecall_hpm;

static int sbi_ecall_hpm_register_extensions(void)
{
	if (!hpm_state_offset) {
		hpm_state_offset =
			sbi_scratch_alloc_offset(sizeof(struct hpm_hart_state));
		if (!hpm_state_offset)
			return SBI_ENOMEM;
	}
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
