// SPDX-License-Identifier: BSD-2-Clause
/*
 * HPM extension core: what every HPM SBI call does, independent of the
 * firmware that hosts it.  See hpm_core.h for the contract and
 * shared/design/hpm-abi.md (the authoritative ABI) for the interface.
 *
 * Order of checks for every function, as the ABI fixes it: the function
 * exists on this hart (RV32-only functions, mcountinhibit), then the index
 * is inside the function's architectural range (INVALID_PARAM), then the
 * register is implemented (NOT_SUPPORTED), then the DENIED rules.  Only
 * then is any CSR written, so a failed call changes nothing.
 *
 * A CSR access that traps means the register does not exist, so any trap
 * on a counter or event register is reported as NOT_SUPPORTED.  A counter
 * register that traps is one discovery did not find; an event register
 * may trap for a counter it found, one hard-wired to its event.
 */
#include "hpm_core.h"

/* The counter masks (mcounteren, scounteren, mcountinhibit) are 32 bits. */
#define HPM_MASK_BITS		0xffffffffU
/* What hpm_hart_init() leaves in mcountinhibit: only cycle/instret run. */
#define HPM_INHIBIT_AT_BOOT	0xfffffff8U

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

/*
 * CSR that holds counter @idx (low or @high half) as M-mode reaches it:
 * mcycle, minstret and mhpmcounterN.  time has no machine-mode CSR, so
 * the user-level time/timeh stands in for it.
 */
static unsigned int hpm_mcounter_csr(unsigned int idx, int high)
{
	if (idx == SBI_HPM_IDX_TIME)
		return (high ? HPM_CSR_CYCLEH : HPM_CSR_CYCLE) + idx;
	return (high ? HPM_CSR_MCYCLEH : HPM_CSR_MCYCLE) + idx;
}

static unsigned int hpm_mevent_csr(unsigned int idx)
{
	return HPM_CSR_MHPMEVENT3 + idx - SBI_HPM_IDX_HPM_FIRST;
}

static unsigned int hpm_meventh_csr(unsigned int idx)
{
	return HPM_CSR_MHPMEVENT3H + idx - SBI_HPM_IDX_HPM_FIRST;
}

/*
 * Index checks shared by every function that names one counter: @first
 * is the lowest index the function accepts (3 for the event registers).
 */
static long hpm_check_index(const struct hpm_hart *hart, hpm_ulong idx,
			    unsigned int first)
{
	if (idx < first || idx > SBI_HPM_IDX_LAST)
		return SBI_HPM_ERR_INVALID_PARAM;
	if (!hpm_is_implemented(hart, idx))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

/*
 * Width of a counter from what an all-ones write left in it: a WARL
 * counter of N bits keeps bits 0..N-1, so the highest bit that stuck
 * gives N.  Using the highest bit (not a count of ones) means a bit the
 * hardware happens to tie low does not shorten the counter.
 */
static unsigned char hpm_width_of(unsigned long long kept)
{
	unsigned char width = 0;

	while (kept) {
		kept >>= 1;
		width++;
	}
	return width;
}

/*
 * Low bits left clear in the value that probes a counter which cannot be
 * stopped: fewer than 2^20 events between the write and the read back do
 * not carry it past its top bit.  Such a counter must keep more bits
 * than these to be found at all.
 */
#define HPM_PROBE_SLACK_BITS	20

/*
 * Probe programmable counter @idx.  Its event is set to 0 (count nothing)
 * and it is inhibited where the hart can, so it cannot move between the
 * all-ones write and the read back; a move would wrap it to a small value
 * and understate the width.  A counter without mhpmevent (hard-wired to
 * one event, as on the CVA6 up to v4.2.0, which has no mcountinhibit
 * either) may move: it gets all ones but the low HPM_PROBE_SLACK_BITS
 * bits, whose highest kept bit still gives its width.  A counter that
 * does not exist either traps or keeps nothing of the write.  Returns the
 * width in bits, 0 if the counter is not implemented.  The counter is
 * left at zero (a hard-wired one goes on counting from there).
 */
static unsigned char hpm_probe_hpmcounter(struct hpm_hart *hart,
					  unsigned int idx)
{
	unsigned int csr = HPM_CSR_MCYCLE + idx;
	hpm_ulong probe = (hpm_ulong)-1;
	unsigned long long kept;
	hpm_ulong lo, hi = 0;

	if (hpm_csr_write(hart, hpm_mevent_csr(idx), 0)) {
		probe <<= HPM_PROBE_SLACK_BITS;
	} else if (HPM_XLEN == 32 && (hart->features & HPM_HART_SSCOFPMF)) {
		/* The high half holds MINH & co. on RV32 with Sscofpmf. */
		hpm_csr_write(hart, hpm_meventh_csr(idx), 0);
	}

	if (hpm_csr_write(hart, csr, probe))
		return 0;
	if (hpm_csr_read(hart, csr, &lo))
		lo = 0;
	/*
	 * RV32: a counter of 32 bits or less may lack a high half; a trap
	 * there only means the upper bits do not exist.
	 */
	if (HPM_XLEN == 32 &&
	    !hpm_csr_write(hart, HPM_CSR_MCYCLEH + idx, (hpm_ulong)-1)) {
		if (hpm_csr_read(hart, HPM_CSR_MCYCLEH + idx, &hi))
			hi = 0;
		hpm_csr_write(hart, HPM_CSR_MCYCLEH + idx, 0);
	}
	hpm_csr_write(hart, csr, 0);

	kept = lo;
	if (HPM_XLEN == 32)
		kept |= (unsigned long long)hi << 32;
	/*
	 * A counter probed with slack counts only if it kept some of the
	 * bits written: what sits below them may be events counted since.
	 */
	if (probe != (hpm_ulong)-1 && !(kept >> HPM_PROBE_SLACK_BITS))
		return 0;
	return hpm_width_of(kept);
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
	hart->has_mcountinhibit = 0;
	if (!hpm_csr_write(hart, HPM_CSR_MCOUNTINHIBIT, HPM_INHIBIT_AT_BOOT) &&
	    !hpm_csr_read(hart, HPM_CSR_MCOUNTINHIBIT, &val))
		hart->has_mcountinhibit = 1;

	/*
	 * cycle and instret are 64 bits wide by the privileged spec.  They
	 * are only read, never written: S-mode may already rely on them
	 * (the core can be initialised lazily, at the first HPM call).
	 * time exists when M-mode can read the time CSR; there is no
	 * machine-mode time CSR to probe instead.
	 */
	if (!hpm_csr_read(hart, HPM_CSR_MCYCLE + SBI_HPM_IDX_CYCLE, &val)) {
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
	long err = hpm_check_index(hart, idx, SBI_HPM_IDX_HPM_FIRST);

	if (err)
		return err;
	if (hpm_csr_read(hart, hpm_mevent_csr((unsigned int)idx), value))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

/*
 * The bits of mhpmevent (RV32: of its low half, or with @high of
 * mhpmeventh) that select the event, which SET_MEVENT and SET_MEVENTH
 * read back.  With Sscofpmf, bits 63..56 (RV32: 31..24 of mhpmeventh)
 * hold OF and the mode-inhibit bits instead: a hart keeps the xINH bit
 * of a mode it has, drops that of a mode it lacks (QEMU drops VSINH and
 * VUINH without the H extension) and sets OF itself, none of which
 * makes the register count another event.  Without Sscofpmf every bit
 * belongs to the selector.
 */
static hpm_ulong hpm_event_select_bits(const struct hpm_hart *hart, int high)
{
	if (!(hart->features & HPM_HART_SSCOFPMF))
		return (hpm_ulong)-1;
#if HPM_XLEN == 64
	(void)high;
	return (hpm_ulong)((1ULL << 56) - 1);
#else
	return high ? (hpm_ulong)0x00ffffffU : (hpm_ulong)-1;
#endif
}

/*
 * Write @val to event register @csr and read it back.  mhpmevent is
 * WARL and a hart may keep fewer bits than written (the CVA6 keeps 5:
 * 0x25 reads back as 0x05, another event): when a selector bit differs,
 * the register gets @old back and the call fails with INVALID_PARAM,
 * so an event the hart cannot hold is refused, never counted as another.
 */
static long hpm_write_event(struct hpm_hart *hart, unsigned int csr,
			    hpm_ulong val, hpm_ulong old, hpm_ulong select)
{
	hpm_ulong kept;

	if (hpm_csr_write(hart, csr, val))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	if (hpm_csr_read(hart, csr, &kept) || ((kept ^ val) & select)) {
		hpm_csr_write(hart, csr, old);
		return SBI_HPM_ERR_INVALID_PARAM;
	}
	return SBI_HPM_SUCCESS;
}

static long hpm_set_mevent(struct hpm_hart *hart, hpm_ulong idx,
			   hpm_ulong event)
{
	unsigned int csr = hpm_mevent_csr((unsigned int)idx);
	long err = hpm_check_index(hart, idx, SBI_HPM_IDX_HPM_FIRST);
	hpm_ulong old;

	if (err)
		return err;
	if (hpm_csr_read(hart, csr, &old))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	/*
	 * With Sscofpmf, S-mode never counts machine-mode activity: what the
	 * firmware does on the caller's behalf is not the caller's to
	 * measure, and counting it would leak M-mode timing.  On RV32 MINH
	 * lives in mhpmeventh, written first so that a failure there leaves
	 * the event as it was (and put back if the low half is refused).
	 */
	if (hart->features & HPM_HART_SSCOFPMF) {
#if HPM_XLEN == 64
		event |= HPM_MHPMEVENT_MINH_RV64;
#else
		unsigned int csrh = hpm_meventh_csr((unsigned int)idx);
		hpm_ulong oldh;

		if (hpm_csr_read(hart, csrh, &oldh) ||
		    hpm_csr_write(hart, csrh, HPM_MHPMEVENTH_MINH))
			return SBI_HPM_ERR_NOT_SUPPORTED;
		err = hpm_write_event(hart, csr, event, old,
				      hpm_event_select_bits(hart, 0));
		if (err)
			hpm_csr_write(hart, csrh, oldh);
		return err;
#endif
	}
	return hpm_write_event(hart, csr, event, old,
			       hpm_event_select_bits(hart, 0));
}

/* GET_MCOUNTER, GET_MCOUNTERH: counter @idx as M-mode holds it. */
static long hpm_get_mcounter(struct hpm_hart *hart, hpm_ulong idx, int high,
			     hpm_ulong *value)
{
	long err = hpm_check_index(hart, idx, SBI_HPM_IDX_CYCLE);

	if (err)
		return err;
	if (hpm_csr_read(hart, hpm_mcounter_csr((unsigned int)idx, high),
			 value))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

/*
 * GET_UCOUNTER: the user-level CSR (cycle, time, instret, hpmcounterN),
 * which is what S-mode and U-mode would read.  A user CSR that traps even
 * in M-mode does not exist on this hart, so the caller cannot read it
 * either: NOT_SUPPORTED, as discovery decides for time.
 */
static long hpm_get_ucounter(struct hpm_hart *hart, hpm_ulong idx,
			     hpm_ulong *value)
{
	long err = hpm_check_index(hart, idx, SBI_HPM_IDX_CYCLE);

	if (err)
		return err;
	if (hpm_csr_read(hart, HPM_CSR_CYCLE + (unsigned int)idx, value))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

/*
 * SET_MCOUNTER, SET_UCOUNTER, SET_MCOUNTERH.  User counters are read-only
 * views of the machine ones, so all three write the machine counter.
 */
static long hpm_set_counter(struct hpm_hart *hart, hpm_ulong idx, int high,
			    hpm_ulong value)
{
	long err = hpm_check_index(hart, idx, SBI_HPM_IDX_CYCLE);

	if (err)
		return err;
	/* time belongs to the platform: nothing below M-mode may move it. */
	if (idx == SBI_HPM_IDX_TIME)
		return SBI_HPM_ERR_DENIED;
	if (hpm_csr_write(hart, hpm_mcounter_csr((unsigned int)idx, high),
			  value))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

/*
 * mcounteren and scounteren exist on every hart with S-mode, which is
 * the only mode that can call this extension: a trap on them is a
 * firmware or hardware fault, not an unsupported function.
 */
static long hpm_get_enable(struct hpm_hart *hart, unsigned int csr,
			   hpm_ulong *value)
{
	if (hpm_csr_read(hart, csr, value))
		return SBI_HPM_ERR_FAILED;
	*value &= HPM_MASK_BITS;
	return SBI_HPM_SUCCESS;
}

static long hpm_set_mcounteren(struct hpm_hart *hart, hpm_ulong mask)
{
	/* Without TM, S-mode would lose time and stimecmp. */
	if (!(mask & SBI_HPM_TIME_BIT))
		return SBI_HPM_ERR_DENIED;
	/*
	 * TM stays set even on a hart without a time CSR: there the
	 * firmware emulates time for S-mode, and TM still gates stimecmp.
	 */
	if (hpm_csr_write(hart, HPM_CSR_MCOUNTEREN,
			  (mask & hart->implemented) | SBI_HPM_TIME_BIT))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

static long hpm_set_scounteren(struct hpm_hart *hart, hpm_ulong mask)
{
	if (hpm_csr_write(hart, HPM_CSR_SCOUNTEREN, mask & hart->implemented))
		return SBI_HPM_ERR_FAILED;
	return SBI_HPM_SUCCESS;
}

static long hpm_get_mcountinhibit(struct hpm_hart *hart, hpm_ulong *value)
{
	if (hpm_csr_read(hart, HPM_CSR_MCOUNTINHIBIT, value))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	/* time cannot be inhibited: its bit always reads 0. */
	*value &= HPM_MASK_BITS & ~(hpm_ulong)SBI_HPM_TIME_BIT;
	return SBI_HPM_SUCCESS;
}

/*
 * SET_MCOUNTINHIBIT, INHIBIT_SET, INHIBIT_CLEAR: mcountinhibit becomes
 * (old & ~@clear) | @set, where only bits of implemented counters other
 * than time count; every other bit keeps what the hardware holds, so
 * INHIBIT_SET and INHIBIT_CLEAR touch only the bits they name.
 */
static long hpm_update_mcountinhibit(struct hpm_hart *hart, hpm_ulong set,
				     hpm_ulong clear)
{
	hpm_ulong writable = hart->implemented & ~(hpm_ulong)SBI_HPM_TIME_BIT;
	hpm_ulong cur;

	if (hpm_csr_read(hart, HPM_CSR_MCOUNTINHIBIT, &cur))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	cur = (cur & ~(clear & writable)) | (set & writable);
	if (hpm_csr_write(hart, HPM_CSR_MCOUNTINHIBIT, cur & HPM_MASK_BITS))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return SBI_HPM_SUCCESS;
}

static long hpm_inhibit_call(struct hpm_hart *hart, unsigned long fid,
			     hpm_ulong mask, hpm_ulong *value)
{
	/* The function does not exist on a hart without mcountinhibit. */
	if (!hart->has_mcountinhibit)
		return SBI_HPM_ERR_NOT_SUPPORTED;

	switch (fid) {
	case SBI_EXT_HPM_GET_MCOUNTINHIBIT:
		return hpm_get_mcountinhibit(hart, value);
	case SBI_EXT_HPM_SET_MCOUNTINHIBIT:
		/* Stopping time would stop the platform timer for S-mode. */
		if (mask & SBI_HPM_TIME_BIT)
			return SBI_HPM_ERR_DENIED;
		return hpm_update_mcountinhibit(hart, mask, HPM_MASK_BITS);
	case SBI_EXT_HPM_INHIBIT_SET:
		if (mask & SBI_HPM_TIME_BIT)
			return SBI_HPM_ERR_DENIED;
		return hpm_update_mcountinhibit(hart, mask, 0);
	default:	/* SBI_EXT_HPM_INHIBIT_CLEAR */
		return hpm_update_mcountinhibit(hart, 0, mask);
	}
}

/*
 * COUNTER_START: zero every implemented counter of @zero_mask, then
 * start the implemented counters of @mask, so that a group starts from
 * zero in one call and no caller ever reads a count left by another.
 * Every check is made before the first write: on a hart without
 * mcountinhibit, or with time in @zero_mask, nothing is written.
 */
static long hpm_counter_start(struct hpm_hart *hart, hpm_ulong mask,
			      hpm_ulong zero_mask)
{
	hpm_ulong zero;
	unsigned int idx;

	if (!hart->has_mcountinhibit)
		return SBI_HPM_ERR_NOT_SUPPORTED;
	/* time belongs to the platform: nothing below M-mode may move it. */
	if (zero_mask & SBI_HPM_TIME_BIT)
		return SBI_HPM_ERR_DENIED;

	zero = zero_mask & hart->implemented;
	for (idx = 0; idx < SBI_HPM_NUM_COUNTERS; idx++) {
		if (!((zero >> idx) & 1))
			continue;
		/*
		 * Low half first: a running counter then restarts from a
		 * small value and cannot carry into the high half between
		 * the two writes.  A counter of 32 bits or less has no
		 * high half to clear (discovery found none, or one that
		 * keeps nothing).  The counter is implemented, so these
		 * writes do not trap.
		 */
		hpm_csr_write(hart, hpm_mcounter_csr(idx, 0), 0);
		if (HPM_XLEN == 32 && hart->width[idx] > 32)
			hpm_csr_write(hart, hpm_mcounter_csr(idx, 1), 0);
	}
	return hpm_update_mcountinhibit(hart, 0, mask);
}

/*
 * GET_MEVENTH, SET_MEVENTH: the upper half of mhpmevent on RV32, which
 * holds Sscofpmf's OF and xINH bits.  The index range comes first (the
 * ABI lists INVALID_PARAM first for these functions), then whether the
 * hart has the register at all, then whether the counter is implemented.
 */
static long hpm_meventh(struct hpm_hart *hart, unsigned long fid,
			hpm_ulong idx, hpm_ulong val, hpm_ulong *value)
{
	unsigned int csr;
	hpm_ulong old;

	if (idx < SBI_HPM_IDX_HPM_FIRST || idx > SBI_HPM_IDX_LAST)
		return SBI_HPM_ERR_INVALID_PARAM;
	if (HPM_XLEN != 32 || !(hart->features & HPM_HART_SSCOFPMF) ||
	    !hpm_is_implemented(hart, idx))
		return SBI_HPM_ERR_NOT_SUPPORTED;

	csr = hpm_meventh_csr((unsigned int)idx);
	if (fid == SBI_EXT_HPM_GET_MEVENTH) {
		if (hpm_csr_read(hart, csr, value))
			return SBI_HPM_ERR_NOT_SUPPORTED;
		return SBI_HPM_SUCCESS;
	}
	/*
	 * As SET_MEVENT: S-mode never counts machine-mode activity, and
	 * event bits the register cannot hold are refused.
	 */
	if (hpm_csr_read(hart, csr, &old))
		return SBI_HPM_ERR_NOT_SUPPORTED;
	return hpm_write_event(hart, csr, val | HPM_MHPMEVENTH_MINH, old,
			       hpm_event_select_bits(hart, 1));
}

/*
 * GET_CTRCFG, SET_CTRCFG: Smcntrpmf's mode filter of cycle (index 0,
 * mcyclecfg) or instret (index 2, minstretcfg).  On RV32 only the high
 * halves are reached: the filter bits live there, and the low halves
 * hold nothing the ABI defines.
 */
static long hpm_ctrcfg(struct hpm_hart *hart, unsigned long fid,
		       hpm_ulong idx, hpm_ulong val, hpm_ulong *value)
{
	unsigned int csr;

	if (idx != SBI_HPM_IDX_CYCLE && idx != SBI_HPM_IDX_INSTRET)
		return SBI_HPM_ERR_INVALID_PARAM;
	if (!(hart->features & HPM_HART_SMCNTRPMF))
		return SBI_HPM_ERR_NOT_SUPPORTED;

	if (HPM_XLEN == 32)
		csr = idx == SBI_HPM_IDX_CYCLE ? HPM_CSR_MCYCLECFGH
					       : HPM_CSR_MINSTRETCFGH;
	else
		csr = idx == SBI_HPM_IDX_CYCLE ? HPM_CSR_MCYCLECFG
					       : HPM_CSR_MINSTRETCFG;
	if (fid == SBI_EXT_HPM_GET_CTRCFG) {
		if (hpm_csr_read(hart, csr, value))
			return SBI_HPM_ERR_NOT_SUPPORTED;
		return SBI_HPM_SUCCESS;
	}
	/* S-mode never counts machine-mode activity on these either. */
#if HPM_XLEN == 64
	val |= HPM_MHPMEVENT_MINH_RV64;
#else
	val |= HPM_MHPMEVENTH_MINH;
#endif
	if (hpm_csr_write(hart, csr, val))
		return SBI_HPM_ERR_NOT_SUPPORTED;
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
		err = hpm_get_mcounter(hart, arg0, 0, value);
		break;
	case SBI_EXT_HPM_SET_MCOUNTER:
	case SBI_EXT_HPM_SET_UCOUNTER:
		err = hpm_set_counter(hart, arg0, 0, arg1);
		break;
	case SBI_EXT_HPM_GET_UCOUNTER:
		err = hpm_get_ucounter(hart, arg0, value);
		break;
	case SBI_EXT_HPM_GET_MCOUNTEREN:
		err = hpm_get_enable(hart, HPM_CSR_MCOUNTEREN, value);
		break;
	case SBI_EXT_HPM_SET_MCOUNTEREN:
		err = hpm_set_mcounteren(hart, arg0);
		break;
	case SBI_EXT_HPM_GET_SCOUNTEREN:
		err = hpm_get_enable(hart, HPM_CSR_SCOUNTEREN, value);
		break;
	case SBI_EXT_HPM_SET_SCOUNTEREN:
		err = hpm_set_scounteren(hart, arg0);
		break;
	case SBI_EXT_HPM_GET_MCOUNTINHIBIT:
	case SBI_EXT_HPM_SET_MCOUNTINHIBIT:
	case SBI_EXT_HPM_INHIBIT_SET:
	case SBI_EXT_HPM_INHIBIT_CLEAR:
		err = hpm_inhibit_call(hart, fid, arg0, value);
		break;
	case SBI_EXT_HPM_COUNTER_START:
		err = hpm_counter_start(hart, arg0, arg1);
		break;
	case SBI_EXT_HPM_GET_MEVENTH:
	case SBI_EXT_HPM_SET_MEVENTH:
		err = hpm_meventh(hart, fid, arg0, arg1, value);
		break;
	case SBI_EXT_HPM_GET_CTRCFG:
	case SBI_EXT_HPM_SET_CTRCFG:
		err = hpm_ctrcfg(hart, fid, arg0, arg1, value);
		break;
	case SBI_EXT_HPM_GET_MCOUNTERH:
	case SBI_EXT_HPM_SET_MCOUNTERH:
		/* The high halves exist only on RV32. */
		if (HPM_XLEN != 32)
			err = SBI_HPM_ERR_NOT_SUPPORTED;
		else if (fid == SBI_EXT_HPM_GET_MCOUNTERH)
			err = hpm_get_mcounter(hart, arg0, 1, value);
		else
			err = hpm_set_counter(hart, arg0, 1, arg1);
		break;
	case SBI_EXT_HPM_GET_INFO:
		*value = hart->implemented;
		err = SBI_HPM_SUCCESS;
		break;
	case SBI_EXT_HPM_GET_WIDTH:
		err = hpm_check_index(hart, arg0, SBI_HPM_IDX_CYCLE);
		if (!err)
			*value = hart->width[arg0];
		break;
	default:
		err = SBI_HPM_ERR_NOT_SUPPORTED;
		break;
	}

	if (err)
		*value = 0;
	return err;
}
