// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: random harts and random (FID, arg0, arg1) sequences
 * through the HPM core, with the extension's invariants checked after
 * every call.  Any violation aborts, which libFuzzer reports with the
 * input that caused it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hart_model.h"
#include "hpm_abi_errors.h"

struct input {
	const unsigned char *data;
	size_t left;
};

static unsigned long long take(struct input *in, unsigned int bytes)
{
	unsigned long long v = 0;

	while (bytes--) {
		v = (v << 8) | (in->left ? *in->data : 0);
		if (in->left) {
			in->data++;
			in->left--;
		}
	}
	return v;
}

static void violation(const char *what, unsigned long fid)
{
	fprintf(stderr, "HPM core invariant broken after FID %lu: %s\n", fid,
		what);
	abort();
}

/* The DENIED rules: calls that must never succeed. */
static int denied(unsigned long fid, hpm_ulong a0, hpm_ulong a1)
{
	switch (fid) {
	case SBI_EXT_HPM_COUNTER_START:
		return (a1 & SBI_HPM_TIME_BIT) != 0;
	case SBI_EXT_HPM_SET_MCOUNTER:
	case SBI_EXT_HPM_SET_UCOUNTER:
	case SBI_EXT_HPM_SET_MCOUNTERH:
		return a0 == SBI_HPM_IDX_TIME;
	case SBI_EXT_HPM_SET_MCOUNTEREN:
		return !(a0 & SBI_HPM_TIME_BIT);
	case SBI_EXT_HPM_SET_MCOUNTINHIBIT:
	case SBI_EXT_HPM_INHIBIT_SET:
		return (a0 & SBI_HPM_TIME_BIT) != 0;
	default:
		return 0;
	}
}

/*
 * COUNTER_START never touches time (not even a read); when it succeeds
 * the implemented counters of zero_mask are 0, the others keep their
 * value, and mcountinhibit lost exactly the implemented bits of mask.
 */
static void check_counter_start(const struct hart_model *before,
				const struct hart_model *m, long err,
				hpm_ulong mask, hpm_ulong zero_mask)
{
	unsigned int impl = hart_model_implemented(m);
	unsigned int i;

	if (hart_model_touched(m, HPM_CSR_CYCLE + SBI_HPM_IDX_TIME) ||
	    hart_model_touched(m, HPM_CSR_CYCLEH + SBI_HPM_IDX_TIME) ||
	    m->counter[SBI_HPM_IDX_TIME] != before->counter[SBI_HPM_IDX_TIME])
		violation("COUNTER_START touched time",
			  SBI_EXT_HPM_COUNTER_START);
	if (err)
		return;
	for (i = 0; i < 32; i++) {
		unsigned long long want = before->counter[i];

		if (i != SBI_HPM_IDX_TIME && ((zero_mask & impl) >> i) & 1)
			want = 0;
		if (m->counter[i] != want)
			violation("COUNTER_START: a counter is not what the masks say",
				  SBI_EXT_HPM_COUNTER_START);
	}
	if (m->mcountinhibit !=
	    (before->mcountinhibit & ~((unsigned int)mask & impl)))
		violation("COUNTER_START: mcountinhibit is not what mask says",
			  SBI_EXT_HPM_COUNTER_START);
}

static int touched_any(const struct hart_model *m, unsigned int first,
		       unsigned int n)
{
	while (n--)
		if (hart_model_touched(m, first + n))
			return 1;
	return 0;
}

/*
 * GET/SET_MEVENTH and GET/SET_CTRCFG: they succeed exactly where the hart
 * has the register (RV32 + Sscofpmf, implemented counter 3..31; Smcntrpmf,
 * index 0 or 2), a successful SET leaves MINH set, and no call on a hart
 * without the register ever touches it (not even a probing read).
 */
static void check_filters(const struct hart_model *m, unsigned long fid,
			  long err, hpm_ulong a0)
{
	unsigned int impl = hart_model_implemented(m);
	int has;

	if (touched_any(m, HPM_CSR_MHPMEVENT3H, 29) &&
	    (HPM_XLEN != 32 || !m->p.sscofpmf))
		violation("mhpmeventh touched on a hart without it", fid);
	if (!m->p.smcntrpmf &&
	    (touched_any(m, HPM_CSR_MCYCLECFG, 2) ||
	     touched_any(m, HPM_CSR_MCYCLECFGH, 2)))
		violation("mcyclecfg/minstretcfg touched without Smcntrpmf",
			  fid);

	switch (fid) {
	case SBI_EXT_HPM_GET_MEVENTH:
	case SBI_EXT_HPM_SET_MEVENTH:
		has = HPM_XLEN == 32 && m->p.sscofpmf && a0 >= 3 && a0 <= 31 &&
		      ((impl >> a0) & 1);
		if ((err == 0) != has)
			violation("MEVENTH succeeded or failed wrongly", fid);
		if (!err && fid == SBI_EXT_HPM_SET_MEVENTH &&
		    !((m->event[a0] >> 32) & HPM_MHPMEVENTH_MINH))
			violation("SET_MEVENTH left MINH clear", fid);
		if (err == SBI_HPM_ERR_INVALID_PARAM && a0 >= 3 && a0 <= 31)
			violation("MEVENTH: INVALID_PARAM inside 3..31", fid);
		break;
	case SBI_EXT_HPM_GET_CTRCFG:
	case SBI_EXT_HPM_SET_CTRCFG:
		has = m->p.smcntrpmf && (a0 == 0 || a0 == 2);
		if ((err == 0) != has)
			violation("CTRCFG succeeded or failed wrongly", fid);
		if (!err && fid == SBI_EXT_HPM_SET_CTRCFG &&
		    !(m->cfg[a0] & (1ULL << 62)))
			violation("SET_CTRCFG left MINH clear", fid);
		if ((err == SBI_HPM_ERR_INVALID_PARAM) != (a0 != 0 && a0 != 2))
			violation("CTRCFG: INVALID_PARAM for a wrong index",
				  fid);
		break;
	}
}

/* 1 when @err is SET_MEVENT(H)'s refusal of an event the hart cannot hold. */
static int event_refused(unsigned long fid, hpm_ulong a0, long err)
{
	return (fid == SBI_EXT_HPM_SET_MEVENT ||
		fid == SBI_EXT_HPM_SET_MEVENTH) &&
	       err == SBI_HPM_ERR_INVALID_PARAM && a0 >= 3 && a0 <= 31;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct hart_model model;
	struct input in = { data, size };
	struct hart_model_params p;
	struct hpm_hart hart;
	unsigned int widths[] = { 64, 40, 48, 32, 1, 63 };

	memset(&p, 0, sizeof(p));
	p.name = "fuzz";
	p.hpm_mask = (unsigned int)take(&in, 4) & 0xfffffff8U;
	p.hpm_width = widths[take(&in, 1) % 6];
	p.has_mcountinhibit = take(&in, 1) & 1;
	p.has_time = take(&in, 1) & 1;
	p.sscofpmf = take(&in, 1) & 1;
	p.absent_reads_zero = take(&in, 1) & 1;
	p.smcntrpmf = take(&in, 1) & 1;
	/*
	 * mhpmevent keeps every bit, or (without Sscofpmf) 5 bits as on
	 * the CVA6, or (with it) all but VSINH and VUINH, as without H
	 */
	if (take(&in, 1) & 1)
		p.event_bits = p.sscofpmf ? ~(3ULL << 58) : 0x1f;
	hart_model_reset(&model, &p);
	hpm_hart_init(&hart, &hart_model_ops, &model,
		      (p.sscofpmf ? HPM_HART_SSCOFPMF : 0) |
		      (p.smcntrpmf ? HPM_HART_SMCNTRPMF : 0));
	if (model.stray_csr)
		violation("init touched a CSR outside the table", 0);
	if (hart.implemented != hart_model_implemented(&model))
		violation("discovery found the wrong counters", 0);

	while (in.left) {
		unsigned long fid = (unsigned long)take(&in, 1);
		hpm_ulong a0 = (hpm_ulong)take(&in, 8);
		hpm_ulong a1 = (hpm_ulong)take(&in, 8);
		struct hart_model before = model;
		hpm_ulong value;
		long err;

		/* Favour the defined functions and small indices. */
		if (fid & 0x80)
			fid &= 0x1f;
		if (a0 & 0x100)
			a0 &= 0x3f;
		/* touched[] now records this call's accesses only. */
		memset(model.touched, 0, sizeof(model.touched));
		err = hpm_handle(&hart, fid, a0, a1, &value);

		if (model.stray_csr)
			violation("touched a CSR outside the table", fid);
		if (model.mcountinhibit & SBI_HPM_TIME_BIT)
			violation("time inhibited", fid);
		if (!(model.mcounteren & SBI_HPM_TIME_BIT))
			violation("mcounteren.TM cleared", fid);
		if (err > 0 || err < -4 ||
		    (err && !((hpm_allowed_errors(fid, HPM_XLEN) >> -err) & 1)))
			violation("error outside the allowed set", fid);
		if (err && value)
			violation("a failed call returned a value", fid);
		if (!err && denied(fid, a0, a1))
			violation("a call the ABI denies succeeded", fid);
		/*
		 * A refused event (SET_MEVENT/SET_MEVENTH: INVALID_PARAM
		 * inside the index range) was written, read back and put
		 * back: writes, but no change.
		 */
		if (err && (!hart_model_same(&before, &model) ||
			    (model.writes != before.writes &&
			     !event_refused(fid, a0, err))))
			violation("a failed call changed the hart", fid);
		if (!err && fid == SBI_EXT_HPM_GET_INFO &&
		    value != hart_model_implemented(&model))
			violation("GET_INFO differs from the hart", fid);
		check_filters(&model, fid, err, a0);
		if (fid == SBI_EXT_HPM_COUNTER_START)
			check_counter_start(&before, &model, err, a0, a1);
		if (!err && fid == SBI_EXT_HPM_SET_MEVENT && p.sscofpmf &&
		    !(model.event[a0] & (1ULL << 62)))
			violation("SET_MEVENT left MINH clear", fid);
	}
	return 0;
}
