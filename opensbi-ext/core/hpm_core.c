// SPDX-License-Identifier: BSD-2-Clause
/*
 * HPM extension core: what every HPM SBI call does, independent of the
 * firmware that hosts it.  See hpm_core.h for the contract and
 * shared/design/hpm-abi.md (repeated in opensbi-ext/README.md) for the
 * interface.
 *
 * Order of checks for every function, as the ABI fixes it: the function
 * exists on this hart (RV32-only functions, mcountinhibit), then the index
 * is inside the function's architectural range (INVALID_PARAM), then the
 * register is implemented (NOT_SUPPORTED), then the DENIED rules.  Only
 * then is any CSR written, so a failed call changes nothing.
 */
#include "hpm_core.h"

#define HPM_ALL_COUNTERS	0xffffffffU
/* Counters a mask may name at all: time is never inhibited or hidden. */
#define HPM_HPM_COUNTERS	0xfffffff8U

static int hpm_csr_read(struct hpm_hart *hart, unsigned int csr,
			hpm_ulong *val)
{
	*val = 0;
	return hart->ops->read(hart->ctx, csr, val);
}

static int hpm_csr_write(struct hpm_hart *hart, unsigned int csr,
			 hpm_ulong val)
{
	return hart->ops->write(hart->ctx, csr, val);
}

static int hpm_is_implemented(const struct hpm_hart *hart, hpm_ulong idx)
{
	return (hart->implemented >> idx) & 1;
}

/* CSR behind counter @idx as M-mode sees it: mcycle, time, minstret,... */
static unsigned int hpm_mcounter_csr(hpm_ulong idx, int high)
{
	if (idx == SBI_HPM_IDX_TIME)
		return (high ? HPM_CSR_CYCLEH : HPM_CSR_CYCLE) + SBI_HPM_IDX_TIME;
	return (high ? HPM_CSR_MCYCLEH : HPM_CSR_MCYCLE) + (unsigned int)idx;
}

/* Index checks shared by every function that names one counter. */
static long hpm_check_counter(const struct hpm_hart *hart, hpm_ulong idx,
			      hpm_ulong first)
{
	if (idx < first || idx > SBI_HPM_IDX_LAST)
		return SBI_HPM_ERR_INVALID_PARAM;
	if (!hpm_is_implemented(hart, idx))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

/*
 * Width in bits of a counter that was just written with all ones: the
 * run of ones from bit 0 that the WARL register kept.
 */
static unsigned char hpm_width_of(unsigned long long readback)
{
	unsigned char width = 0;

	while (width < 64 && ((readback >> width) & 1))
		width++;
	return width;
}

/*
 * Probe programmable counter @idx: a counter that exists keeps at least
 * bit 0 of an all-ones write, one that does not either traps or reads
 * back zero.  The counter is inhibited (where possible) and its event is
 * 0, so it does not move while it is probed.  Returns its width, 0 if it
 * is not implemented; the counter is left at zero.
 */
static unsigned char hpm_probe_hpmcounter(struct hpm_hart *hart,
					  unsigned int idx)
{
	unsigned int csr = HPM_CSR_MCYCLE + idx;
	unsigned long long readback;
	hpm_ulong lo, hi = 0;

	if (hpm_csr_write(hart, HPM_CSR_MHPMEVENT3 + idx - 3, 0))
		return 0;
	if (HPM_XLEN == 32 && (hart->features & HPM_HART_SSCOFPMF))
		hpm_csr_write(hart, HPM_CSR_MHPMEVENT3H + idx - 3, 0);

	if (hpm_csr_write(hart, csr, (hpm_ulong)-1))
		return 0;
	if (HPM_XLEN == 32 &&
	    hpm_csr_write(hart, HPM_CSR_MCYCLEH + idx, (hpm_ulong)-1))
		return 0;
	if (hpm_csr_read(hart, csr, &lo))
		return 0;
	if (HPM_XLEN == 32 && hpm_csr_read(hart, HPM_CSR_MCYCLEH + idx, &hi))
		return 0;

	readback = lo;
	if (HPM_XLEN == 32)
		readback |= (unsigned long long)hi << 32;

	hpm_csr_write(hart, csr, 0);
	if (HPM_XLEN == 32)
		hpm_csr_write(hart, HPM_CSR_MCYCLEH + idx, 0);

	return readback ? hpm_width_of(readback) : 0;
}

void hpm_hart_init(struct hpm_hart *hart, const struct hpm_csr_ops *ops,
		   void *ctx, unsigned int features)
{
	hpm_ulong val;
	unsigned int idx;

	hart->ops = ops;
	hart->ctx = ctx;
	hart->features = features;
	hart->implemented = 0;
	for (idx = 0; idx < SBI_HPM_NUM_COUNTERS; idx++)
		hart->width[idx] = 0;

	/* Stop the programmable counters while they are probed. */
	hart->has_mcountinhibit =
		!hpm_csr_write(hart, HPM_CSR_MCOUNTINHIBIT, HPM_HPM_COUNTERS) &&
		!hpm_csr_read(hart, HPM_CSR_MCOUNTINHIBIT, &val);

	/*
	 * cycle and instret are 64 bits wide by the privileged spec; they
	 * keep counting (they may be shared with S-mode's own use), so they
	 * are not written here.  time exists when M-mode can read it.
	 */
	if (!hpm_csr_read(hart, HPM_CSR_MCYCLE, &val)) {
		hart->implemented |= 1U << SBI_HPM_IDX_CYCLE;
		hart->width[SBI_HPM_IDX_CYCLE] = 64;
	}
	if (!hpm_csr_read(hart, HPM_CSR_CYCLE + SBI_HPM_IDX_TIME, &val)) {
		hart->implemented |= 1U << SBI_HPM_IDX_TIME;
		hart->width[SBI_HPM_IDX_TIME] = 64;
	}
	if (!hpm_csr_read(hart, HPM_CSR_MCYCLE + SBI_HPM_IDX_INSTRET, &val)) {
		hart->implemented |= 1U << SBI_HPM_IDX_INSTRET;
		hart->width[SBI_HPM_IDX_INSTRET] = 64;
	}

	for (idx = SBI_HPM_IDX_HPM_FIRST; idx <= SBI_HPM_IDX_LAST; idx++) {
		unsigned char width = hpm_probe_hpmcounter(hart, idx);

		if (width) {
			hart->implemented |= 1U << idx;
			hart->width[idx] = width;
		}
	}
}

static long hpm_get_mevent(struct hpm_hart *hart, hpm_ulong idx,
			   hpm_ulong *value)
{
	long err = hpm_check_counter(hart, idx, SBI_HPM_IDX_HPM_FIRST);

	if (err)
		return err;
	if (hpm_csr_read(hart, HPM_CSR_MHPMEVENT3 + (unsigned int)idx - 3,
			 value))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

static long hpm_set_mevent(struct hpm_hart *hart, hpm_ulong idx,
			   hpm_ulong event)
{
	unsigned int csr = HPM_CSR_MHPMEVENT3 + (unsigned int)idx - 3;
	long err = hpm_check_counter(hart, idx, SBI_HPM_IDX_HPM_FIRST);

	if (err)
		return err;
	/*
	 * With Sscofpmf, S-mode never counts M-mode activity: the firmware's
	 * own work is not the caller's to measure.
	 */
	if (hart->features & HPM_HART_SSCOFPMF) {
#if HPM_XLEN == 64
		event |= HPM_MHPMEVENT_MINH_RV64;
#else
		if (hpm_csr_write(hart, HPM_CSR_MHPMEVENT3H + idx - 3,
				  HPM_MHPMEVENTH_MINH))
			return SBI_HPM_ERR_FAILED;
#endif
	}
	if (hpm_csr_write(hart, csr, event))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

static long hpm_get_counter(struct hpm_hart *hart, unsigned int csr_base,
			    hpm_ulong idx, hpm_ulong *value)
{
	unsigned int csr;
	long err = hpm_check_counter(hart, idx, 0);

	if (err)
		return err;
	if (csr_base == HPM_CSR_MCYCLE || csr_base == HPM_CSR_MCYCLEH)
		csr = hpm_mcounter_csr(idx, csr_base == HPM_CSR_MCYCLEH);
	else
		csr = csr_base + (unsigned int)idx;
	/* A user-level CSR that M-mode cannot read is not supported here. */
	if (hpm_csr_read(hart, csr, value))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

static long hpm_set_counter(struct hpm_hart *hart, int high, hpm_ulong idx,
			    hpm_ulong value)
{
	long err = hpm_check_counter(hart, idx, 0);

	if (err)
		return err;
	/* time belongs to the platform: nobody below M-mode may move it. */
	if (idx == SBI_HPM_IDX_TIME)
		return SBI_HPM_ERR_DENIED;
	if (hpm_csr_write(hart, hpm_mcounter_csr(idx, high), value))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

static long hpm_get_mask_csr(struct hpm_hart *hart, unsigned int csr,
			     hpm_ulong *value)
{
	if (hpm_csr_read(hart, csr, value))
		return SBI_HPM_ERR_FAILED;
	*value &= HPM_ALL_COUNTERS;
	return SBI_HPM_SUCCESS;
}

static long hpm_set_mask_csr(struct hpm_hart *hart, unsigned int csr,
			     hpm_ulong mask)
{
	if (hpm_csr_write(hart, csr, mask & hart->implemented))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

static long hpm_set_mcounteren(struct hpm_hart *hart, hpm_ulong mask)
{
	/* Without TM, S-mode would lose time and stimecmp. */
	if (!(mask & SBI_HPM_TIME_BIT))
		return SBI_HPM_ERR_DENIED;
	/* TM stays set even on a hart whose time CSR M-mode cannot read. */
	if (hpm_csr_write(hart, HPM_CSR_MCOUNTEREN,
			  (mask & hart->implemented) | SBI_HPM_TIME_BIT))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

/*
 * mcountinhibit functions: @set and @clear are masks of the bits to set
 * and to clear; SET_MCOUNTINHIBIT sets the whole register.
 */
static long hpm_update_inhibit(struct hpm_hart *hart, hpm_ulong set,
			       hpm_ulong clear)
{
	hpm_ulong cur;

	if (hpm_csr_read(hart, HPM_CSR_MCOUNTINHIBIT, &cur))
		return SBI_HPM_ERR_FAILED;
	cur = (cur & ~clear) | set;
	cur &= hart->implemented & ~(hpm_ulong)SBI_HPM_TIME_BIT;
	if (hpm_csr_write(hart, HPM_CSR_MCOUNTINHIBIT, cur))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

long hpm_handle(struct hpm_hart *hart, unsigned long fid, hpm_ulong arg0,
		hpm_ulong arg1, hpm_ulong *value)
{
	long err;

	*value = 0;

	switch (fid) {
	case SBI_EXT_HPM_GET_MEVENT:
		err = hpm_get_mevent(hart, arg0, value);
		break;
	case SBI_EXT_HPM_SET_MEVENT:
		err = hpm_set_mevent(hart, arg0, arg1);
		break;
	case SBI_EXT_HPM_GET_MCOUNTER:
		err = hpm_get_counter(hart, HPM_CSR_MCYCLE, arg0, value);
		break;
	case SBI_EXT_HPM_SET_MCOUNTER:
	case SBI_EXT_HPM_SET_UCOUNTER:
		/* User counters are read-only views of the machine ones. */
		err = hpm_set_counter(hart, 0, arg0, arg1);
		break;
	case SBI_EXT_HPM_GET_UCOUNTER:
		err = hpm_get_counter(hart, HPM_CSR_CYCLE, arg0, value);
		break;
	case SBI_EXT_HPM_GET_MCOUNTEREN:
		err = hpm_get_mask_csr(hart, HPM_CSR_MCOUNTEREN, value);
		break;
	case SBI_EXT_HPM_SET_MCOUNTEREN:
		err = hpm_set_mcounteren(hart, arg0);
		break;
	case SBI_EXT_HPM_GET_SCOUNTEREN:
		err = hpm_get_mask_csr(hart, HPM_CSR_SCOUNTEREN, value);
		break;
	case SBI_EXT_HPM_SET_SCOUNTEREN:
		err = hpm_set_mask_csr(hart, HPM_CSR_SCOUNTEREN, arg0);
		break;
	case SBI_EXT_HPM_GET_MCOUNTINHIBIT:
		if (!hart->has_mcountinhibit)
			return SBI_HPM_ERR_NOT_SUPPORTED;
		err = hpm_get_mask_csr(hart, HPM_CSR_MCOUNTINHIBIT, value);
		/* time cannot be inhibited: its bit always reads 0. */
		*value &= ~(hpm_ulong)SBI_HPM_TIME_BIT;
		break;
	case SBI_EXT_HPM_SET_MCOUNTINHIBIT:
	case SBI_EXT_HPM_INHIBIT_SET:
	case SBI_EXT_HPM_INHIBIT_CLEAR:
		if (!hart->has_mcountinhibit)
			return SBI_HPM_ERR_NOT_SUPPORTED;
		if (fid != SBI_EXT_HPM_INHIBIT_CLEAR &&
		    (arg0 & SBI_HPM_TIME_BIT))
			return SBI_HPM_ERR_DENIED;
		if (fid == SBI_EXT_HPM_SET_MCOUNTINHIBIT)
			err = hpm_update_inhibit(hart, arg0, HPM_ALL_COUNTERS);
		else if (fid == SBI_EXT_HPM_INHIBIT_SET)
			err = hpm_update_inhibit(hart, arg0, 0);
		else
			err = hpm_update_inhibit(hart, 0, arg0);
		break;
	case SBI_EXT_HPM_GET_MCOUNTERH:
		if (HPM_XLEN != 32)
			return SBI_HPM_ERR_NOT_SUPPORTED;
		err = hpm_get_counter(hart, HPM_CSR_MCYCLEH, arg0, value);
		break;
	case SBI_EXT_HPM_SET_MCOUNTERH:
		if (HPM_XLEN != 32)
			return SBI_HPM_ERR_NOT_SUPPORTED;
		err = hpm_set_counter(hart, 1, arg0, arg1);
		break;
	case SBI_EXT_HPM_GET_INFO:
		*value = hart->implemented;
		return SBI_HPM_SUCCESS;
	case SBI_EXT_HPM_GET_WIDTH:
		err = hpm_check_counter(hart, arg0, 0);
		if (!err)
			*value = hart->width[arg0];
		break;
	default:
		return SBI_HPM_ERR_NOT_SUPPORTED;
	}

	if (err)
		*value = 0;
	return err;
}
