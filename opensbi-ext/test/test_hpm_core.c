// SPDX-License-Identifier: BSD-2-Clause
/*
 * Host unit tests of the HPM core: every function with valid and invalid
 * arguments on each modelled hart, against the ABI table
 * (shared/design/hpm-abi.md).  Built once per XLEN (-DHPM_XLEN=32/64).
 * Prints one "ok - " / "not ok - " line per (hart, function group).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hart_model.h"

/*
 * name, hpm_mask, hpm_width, has_mcountinhibit, has_time, sscofpmf,
 * absent_reads_zero, ticking, smcntrpmf, event_bits, no_mhpmevent
 */
static const struct hart_model_params harts[] = {
	{ "29 counters (QEMU virt)", 0xfffffff8, 64, 1, 1, 0, 0, 0, 0, 0, 0 },
	{ "14 counters 3..16 (CVA6)", 0x0001fff8, 64, 1, 1, 0, 0, 0, 0, 0,
	  0 },
	{ "2 counters of 40 bits (U74)", 0x00000018, 40, 1, 1, 0, 0, 0, 0, 0,
	  0 },
	{ "0 counters", 0, 64, 1, 1, 0, 0, 0, 0, 0, 0 },
	{ "2 counters, no mcountinhibit", 0x00000018, 48, 0, 1, 0, 0, 0, 0, 0,
	  0 },
	{ "4 counters, no time CSR, absent read 0", 0x00000078, 64, 1, 0, 0, 1,
	  0, 0, 0, 0 },
	{ "16 counters, Sscofpmf", 0x0007fff8, 64, 1, 1, 1, 0, 0, 0, 0, 0 },
	{ "29 counters of 48 bits, Sscofpmf, absent read 0", 0xfffffff8, 48, 1,
	  1, 1, 1, 0, 0, 0, 0 },
	{ "sparse counters 3,5,31 of 32 bits", 0x80000028, 32, 1, 1, 0, 0, 0,
	  0, 0, 0 },
	{ "minimal: no counters, time, mcountinhibit", 0, 64, 0, 0, 0, 0, 0,
	  0, 0, 0 },
	{ "16 counters, Smcntrpmf", 0x0007fff8, 64, 1, 1, 0, 0, 0, 1, 0, 0 },
	{ "16 counters, Sscofpmf and Smcntrpmf (QEMU virt)", 0x0007fff8, 64, 1,
	  1, 1, 0, 0, 1, 0, 0 },
	{ "2 counters of 40 bits, Sscofpmf, Smcntrpmf, absent read 0",
	  0x00000018, 40, 1, 1, 1, 1, 0, 1, 0, 0 },
	/* mhpmevent keeps 5 bits: 0x25 reads back as 0x05 */
	{ "6 counters, 5-bit events (CVA6 bcb0f7de)", 0x000001f8, 64, 1, 1, 0,
	  0, 0, 0, 0x1f, 0 },
	/* no H extension: VSINH and VUINH (bits 59, 58) are not kept */
	{ "16 counters, Sscofpmf, no VSINH/VUINH", 0x0007fff8, 64, 1, 1, 1, 0,
	  0, 0, ~(3ULL << 58), 0 },
	/*
	 * each counter hard-wired to its event: no mhpmevent, no inhibit,
	 * absent counters read 0 (as CVA6 v4.2.0's 17..31)
	 */
	{ "14 counters 3..16 without mhpmevent", 0x0001fff8, 64, 0, 0, 0, 1,
	  0, 0, 0, 1 },
	{ "4 counters of 32 bits without mhpmevent", 0x00000078, 32, 0, 1, 0,
	  0, 0, 0, 0, 1 },
	/* too narrow to be found behind the probe's slack */
	{ "2 counters of 16 bits without mhpmevent", 0x00000018, 16, 0, 1, 0,
	  0, 0, 0, 0, 1 },
};

static struct hart_model model;
static struct hpm_hart hart;
static int failures;
static char group[160];

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (!failures++)
		printf("not ok - XLEN %d, %s\n", HPM_XLEN, group);
	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static void begin(const char *hart_name, const char *what)
{
	snprintf(group, sizeof(group), "%s: %s", hart_name, what);
	failures = 0;
}

static int end(void)
{
	if (model.stray_csr)
		fail("touched CSR 0x%x, outside the ABI table",
		     model.stray_csr);
	if (!failures)
		printf("ok - XLEN %d, %s\n", HPM_XLEN, group);
	return failures != 0;
}

/* Call @fid; check the error, and that a failed call changed nothing. */
static hpm_ulong call(unsigned long fid, hpm_ulong a0, hpm_ulong a1,
		      long want_err)
{
	struct hart_model before = model;
	hpm_ulong value = 0xdead;
	long err = hpm_handle(&hart, fid, a0, a1, &value);

	/*
	 * A refused event is written, read back and put back: writes, but
	 * no change (checked below).
	 */
	if (err && model.writes != before.writes &&
	    !((fid == SBI_EXT_HPM_SET_MEVENT ||
	       fid == SBI_EXT_HPM_SET_MEVENTH) &&
	      err == SBI_HPM_ERR_INVALID_PARAM && a0 >= 3 && a0 <= 31))
		fail("FID %lu (0x%llx): failed call wrote a CSR", fid,
		     (unsigned long long)a0);
	if (err != want_err)
		fail("FID %lu (0x%llx, 0x%llx): error %ld, want %ld", fid,
		     (unsigned long long)a0, (unsigned long long)a1, err,
		     want_err);
	if (err && value != 0)
		fail("FID %lu (0x%llx): failed call returned value 0x%llx", fid,
		     (unsigned long long)a0, (unsigned long long)value);
	if (err && !hart_model_same(&before, &model))
		fail("FID %lu (0x%llx): failed call changed the hart", fid,
		     (unsigned long long)a0);
	return value;
}

static void expect(unsigned long long got, unsigned long long want,
		   const char *what, unsigned int idx)
{
	if (got != want)
		fail("%s %u: 0x%llx, want 0x%llx", what, idx, got, want);
}

static unsigned long long mask_of(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

/* Deterministic pseudo-random masks (a 32-bit LCG). */
static unsigned int next_random(void)
{
	static unsigned int state = 12345;

	state = state * 1103515245U + 12345U;
	return state ^ (state >> 16);
}

static const hpm_ulong bad_indices[] = { 32, 33, 0x100, (hpm_ulong)-1 };

static unsigned int features_of(const struct hart_model_params *p)
{
	return (p->sscofpmf ? HPM_HART_SSCOFPMF : 0) |
	       (p->smcntrpmf ? HPM_HART_SMCNTRPMF : 0);
}

static void setup(const struct hart_model_params *p)
{
	hart_model_reset(&model, p);
	hpm_hart_init(&hart, &hart_model_ops, &model, features_of(p));
}

static int test_init(const struct hart_model_params *p)
{
	unsigned int i;

	begin(p->name, "discovery at boot");
	setup(p);
	expect(hart.implemented, hart_model_implemented(&model), "implemented",
	       0);
	expect(hart.has_mcountinhibit, p->has_mcountinhibit, "mcountinhibit",
	       0);
	for (i = 3; i < 32; i++) {
		if (!((p->hpm_mask >> i) & 1))
			continue;
		expect(model.counter[i], 0, "hpmcounter after init", i);
		if (!p->no_mhpmevent)
			expect(model.event[i] & 0xffffffff, 0,
			       "mhpmevent after init", i);
	}
	if (hart_model_touched(&model, HPM_CSR_MCYCLECFG) ||
	    hart_model_touched(&model, HPM_CSR_MINSTRETCFG) ||
	    hart_model_touched(&model, HPM_CSR_MCYCLECFGH) ||
	    hart_model_touched(&model, HPM_CSR_MINSTRETCFGH))
		fail("discovery touched mcyclecfg/minstretcfg");
	if (p->has_mcountinhibit) {
		expect(model.mcountinhibit & 0x7, 0,
		       "cycle/instret inhibited after init", 0);
		expect(model.mcountinhibit & p->hpm_mask, p->hpm_mask,
		       "hpmcounters inhibited after init", 0);
	}
	return end();
}

/* Discovery on a hart whose counters run: the widths must not suffer. */
static int test_init_running(const struct hart_model_params *p)
{
	struct hart_model_params running = *p;
	unsigned int i;

	begin(p->name, "discovery while counters run");
	running.ticking = 1;
	hart_model_reset(&model, &running);
	/* An earlier stage left every event counting something. */
	for (i = 3; i < 32; i++)
		model.event[i] = 2;
	model.mcountinhibit = 0;
	hpm_hart_init(&hart, &hart_model_ops, &model, features_of(p));
	expect(hart.implemented, hart_model_implemented(&model), "implemented",
	       0);
	for (i = 0; i < 32; i++) {
		unsigned int want = 0;

		if ((hart_model_implemented(&model) >> i) & 1)
			want = i < 3 ? 64 : p->hpm_width;
		expect(hart.width[i], want, "width", i);
	}
	return end();
}

static int test_info_width(const struct hart_model_params *p)
{
	unsigned int i, k;

	begin(p->name, "GET_INFO, GET_WIDTH");
	setup(p);
	expect(call(SBI_EXT_HPM_GET_INFO, 0, 0, 0),
	       hart_model_implemented(&model), "GET_INFO", 0);
	for (i = 0; i < 32; i++) {
		int present = (hart_model_implemented(&model) >> i) & 1;
		hpm_ulong w = call(SBI_EXT_HPM_GET_WIDTH, i, 0,
				   present ? 0 : SBI_HPM_ERR_NOT_SUPPORTED);

		if (present)
			expect(w, i < 3 ? 64 : p->hpm_width, "width", i);
	}
	for (k = 0; k < sizeof(bad_indices) / sizeof(*bad_indices); k++)
		call(SBI_EXT_HPM_GET_WIDTH, bad_indices[k], 0,
		     SBI_HPM_ERR_INVALID_PARAM);
	return end();
}

static int test_mevent(const struct hart_model_params *p)
{
	unsigned long long minh = 0;
	unsigned int i, k;

	begin(p->name, "GET_MEVENT, SET_MEVENT");
	setup(p);
	if (p->sscofpmf && HPM_XLEN == 64)
		minh = HPM_MHPMEVENT_MINH_RV64;
	for (i = 0; i < 3; i++) {
		call(SBI_EXT_HPM_GET_MEVENT, i, 0, SBI_HPM_ERR_INVALID_PARAM);
		call(SBI_EXT_HPM_SET_MEVENT, i, 2, SBI_HPM_ERR_INVALID_PARAM);
	}
	for (k = 0; k < sizeof(bad_indices) / sizeof(*bad_indices); k++) {
		call(SBI_EXT_HPM_GET_MEVENT, bad_indices[k], 0,
		     SBI_HPM_ERR_INVALID_PARAM);
		call(SBI_EXT_HPM_SET_MEVENT, bad_indices[k], 2,
		     SBI_HPM_ERR_INVALID_PARAM);
	}
	for (i = 3; i < 32; i++) {
		hpm_ulong ev = (hpm_ulong)(0x10019 + i);

		if (!((p->hpm_mask >> i) & 1) || p->no_mhpmevent) {
			call(SBI_EXT_HPM_GET_MEVENT, i, 0,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			call(SBI_EXT_HPM_SET_MEVENT, i, ev,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			continue;
		}
		if (p->event_bits && !p->sscofpmf)
			ev &= (hpm_ulong)p->event_bits;
		call(SBI_EXT_HPM_SET_MEVENT, i, ev, 0);
		expect(call(SBI_EXT_HPM_GET_MEVENT, i, 0, 0), ev | minh,
		       "GET_MEVENT after SET_MEVENT", i);
		if (p->sscofpmf && HPM_XLEN == 32)
			expect(model.event[i] >> 32, HPM_MHPMEVENTH_MINH,
			       "mhpmeventh MINH", i);
		if (p->event_bits && !p->sscofpmf) {
			/* a selector bit the register cannot hold */
			hpm_ulong bad = ev | (hpm_ulong)(p->event_bits + 1);
			unsigned long long held = model.event[i];

			call(SBI_EXT_HPM_SET_MEVENT, i, bad,
			     SBI_HPM_ERR_INVALID_PARAM);
			expect(model.event[i], held,
			       "a refused SET_MEVENT leaves the event", i);
			call(SBI_EXT_HPM_SET_MEVENT, i, (hpm_ulong)-1,
			     SBI_HPM_ERR_INVALID_PARAM);
			expect(model.event[i], held,
			       "a refused SET_MEVENT(~0) leaves the event", i);
		}
		if (p->event_bits && p->sscofpmf && HPM_XLEN == 64) {
			/* mode bits the hart drops do not change the event */
			hpm_ulong vs = (hpm_ulong)(3ULL << 58);

			call(SBI_EXT_HPM_SET_MEVENT, i, ev | vs, 0);
			expect(call(SBI_EXT_HPM_GET_MEVENT, i, 0, 0), ev | minh,
			       "GET_MEVENT after SET_MEVENT with VSINH|VUINH",
			       i);
		}
	}
	return end();
}

static int test_counters(const struct hart_model_params *p, int user)
{
	unsigned long get =
		user ? SBI_EXT_HPM_GET_UCOUNTER : SBI_EXT_HPM_GET_MCOUNTER;
	unsigned long set =
		user ? SBI_EXT_HPM_SET_UCOUNTER : SBI_EXT_HPM_SET_MCOUNTER;
	unsigned int i, k;

	begin(p->name, user ? "GET_UCOUNTER, SET_UCOUNTER"
			    : "GET_MCOUNTER, SET_MCOUNTER");
	setup(p);
	for (k = 0; k < sizeof(bad_indices) / sizeof(*bad_indices); k++) {
		call(get, bad_indices[k], 0, SBI_HPM_ERR_INVALID_PARAM);
		call(set, bad_indices[k], 1, SBI_HPM_ERR_INVALID_PARAM);
	}
	for (i = 0; i < 32; i++) {
		int present = (hart_model_implemented(&model) >> i) & 1;
		unsigned long long v = 0xfedcba9876543210ULL ^ i;
		unsigned long long want;

		if (!present) {
			call(get, i, 0, SBI_HPM_ERR_NOT_SUPPORTED);
			call(set, i, (hpm_ulong)v, SBI_HPM_ERR_NOT_SUPPORTED);
			continue;
		}
		if (i == 1) {
			expect(call(get, i, 0, 0), (hpm_ulong)model.counter[1],
			       "time", i);
			call(set, i, 5, SBI_HPM_ERR_DENIED);
			continue;
		}
		call(set, i, (hpm_ulong)v, 0);
		want = (hpm_ulong)v & mask_of(i < 3 ? 64 : p->hpm_width);
		expect(call(get, i, 0, 0), want, "counter read back", i);
		expect(model.counter[i] & 0xffffffff, want & 0xffffffff,
		       "machine counter written", i);
	}
	return end();
}

static int test_counters_high(const struct hart_model_params *p)
{
	unsigned int i;

	begin(p->name, "GET_MCOUNTERH, SET_MCOUNTERH");
	setup(p);
	for (i = 0; i < 34; i++) {
		int present =
			i < 32 && ((hart_model_implemented(&model) >> i) & 1);
		unsigned long long want;

		if (HPM_XLEN == 64) {
			call(SBI_EXT_HPM_GET_MCOUNTERH, i, 0,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			call(SBI_EXT_HPM_SET_MCOUNTERH, i, 1,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			continue;
		}
		if (i >= 32) {
			call(SBI_EXT_HPM_GET_MCOUNTERH, i, 0,
			     SBI_HPM_ERR_INVALID_PARAM);
			call(SBI_EXT_HPM_SET_MCOUNTERH, i, 1,
			     SBI_HPM_ERR_INVALID_PARAM);
			continue;
		}
		if (!present) {
			call(SBI_EXT_HPM_GET_MCOUNTERH, i, 0,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			call(SBI_EXT_HPM_SET_MCOUNTERH, i, 1,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			continue;
		}
		if (i == 1) {
			expect(call(SBI_EXT_HPM_GET_MCOUNTERH, i, 0, 0),
			       model.counter[1] >> 32, "timeh", i);
			call(SBI_EXT_HPM_SET_MCOUNTERH, i, 1,
			     SBI_HPM_ERR_DENIED);
			continue;
		}
		call(SBI_EXT_HPM_SET_MCOUNTER, i, 0x89abcdef, 0);
		call(SBI_EXT_HPM_SET_MCOUNTERH, i, 0xffffffff, 0);
		want = (0xffffffff89abcdefULL &
			mask_of(i < 3 ? 64 : p->hpm_width));
		expect(call(SBI_EXT_HPM_GET_MCOUNTERH, i, 0, 0), want >> 32,
		       "high half", i);
		expect(call(SBI_EXT_HPM_GET_MCOUNTER, i, 0, 0),
		       want & 0xffffffff, "low half kept", i);
	}
	return end();
}

static int test_enables(const struct hart_model_params *p)
{
	unsigned int impl, i;

	begin(p->name, "mcounteren, scounteren");
	setup(p);
	impl = hart_model_implemented(&model);
	expect(call(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0, 0), model.mcounteren,
	       "GET_MCOUNTEREN", 0);
	call(SBI_EXT_HPM_SET_MCOUNTEREN, 0, 0, SBI_HPM_ERR_DENIED);
	call(SBI_EXT_HPM_SET_MCOUNTEREN, 0xfffffffd, 0, SBI_HPM_ERR_DENIED);
	call(SBI_EXT_HPM_SET_MCOUNTEREN, 0xffffffff, 0, 0);
	expect(call(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0, 0), impl | 0x2,
	       "mcounteren keeps only implemented bits", 0);
	call(SBI_EXT_HPM_SET_MCOUNTEREN, 0x2, 0, 0);
	expect(model.mcounteren, 0x2, "mcounteren = TM only", 0);

	call(SBI_EXT_HPM_SET_SCOUNTEREN, 0xffffffff, 0, 0);
	expect(call(SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0, 0), impl,
	       "scounteren keeps only implemented bits", 0);
	call(SBI_EXT_HPM_SET_SCOUNTEREN, 0, 0, 0);
	expect(call(SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0, 0), 0, "scounteren", 0);

	for (i = 0; i < 100; i++) {
		hpm_ulong mask = (hpm_ulong)next_random();

		if (HPM_XLEN == 64) /* bits above 31 name no counter */
			mask |= (hpm_ulong)((unsigned long long)next_random()
					    << 32);
		if (mask & 0x2) {
			call(SBI_EXT_HPM_SET_MCOUNTEREN, mask, 0, 0);
			expect(model.mcounteren, (mask & impl) | 0x2,
			       "mcounteren of random mask", i);
		} else {
			call(SBI_EXT_HPM_SET_MCOUNTEREN, mask, 0,
			     SBI_HPM_ERR_DENIED);
		}
		expect(call(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0, 0),
		       model.mcounteren, "GET_MCOUNTEREN = hardware", i);
		call(SBI_EXT_HPM_SET_SCOUNTEREN, mask, 0, 0);
		expect(model.scounteren, mask & impl,
		       "scounteren of random mask", i);
		expect(call(SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0, 0),
		       model.scounteren, "GET_SCOUNTEREN = hardware", i);
	}
	return end();
}

static int test_inhibit(const struct hart_model_params *p)
{
	unsigned long fids[] = { SBI_EXT_HPM_GET_MCOUNTINHIBIT,
				 SBI_EXT_HPM_SET_MCOUNTINHIBIT,
				 SBI_EXT_HPM_INHIBIT_SET,
				 SBI_EXT_HPM_INHIBIT_CLEAR };
	unsigned int impl, i, hpm;

	begin(p->name, "mcountinhibit, INHIBIT_SET, INHIBIT_CLEAR");
	setup(p);
	impl = hart_model_implemented(&model);
	if (!p->has_mcountinhibit) {
		/* The function is absent: that comes before DENIED. */
		for (i = 0; i < 4; i++) {
			call(fids[i], 0x8, 0, SBI_HPM_ERR_NOT_SUPPORTED);
			call(fids[i], 0x2, 0, SBI_HPM_ERR_NOT_SUPPORTED);
		}
		return end();
	}
	call(SBI_EXT_HPM_SET_MCOUNTINHIBIT, 0x2, 0, SBI_HPM_ERR_DENIED);
	call(SBI_EXT_HPM_INHIBIT_SET, 0xffffffff, 0, SBI_HPM_ERR_DENIED);
	call(SBI_EXT_HPM_SET_MCOUNTINHIBIT, 0xfffffffd, 0, 0);
	expect(call(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0, 0), impl & ~0x2U,
	       "mcountinhibit keeps only implemented bits", 0);
	call(SBI_EXT_HPM_SET_MCOUNTINHIBIT, 0, 0, 0);
	expect(call(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0, 0), 0, "cleared", 0);

	/* INHIBIT_SET and INHIBIT_CLEAR touch only the bits they name. */
	hpm = p->hpm_mask & ~0x7U;
	call(SBI_EXT_HPM_INHIBIT_SET, 0x1, 0, 0);
	call(SBI_EXT_HPM_INHIBIT_SET, hpm & 0x0000aaa8, 0, 0);
	expect(model.mcountinhibit, 0x1 | (hpm & 0xaaa8), "after INHIBIT_SET",
	       0);
	call(SBI_EXT_HPM_INHIBIT_CLEAR, 0x3, 0, 0);
	expect(model.mcountinhibit, hpm & 0xaaa8, "after INHIBIT_CLEAR", 0);
	call(SBI_EXT_HPM_INHIBIT_SET, 0xfffffffd, 0, 0);
	expect(model.mcountinhibit, impl & ~0x2U, "group stop", 0);
	call(SBI_EXT_HPM_INHIBIT_CLEAR, hpm & 0x18, 0, 0);
	expect(model.mcountinhibit, impl & ~0x2U & ~(hpm & 0x18), "group start",
	       0);

	/* Random masks against the rule: only the named bits change. */
	for (i = 0; i < 200; i++) {
		unsigned int old = model.mcountinhibit;
		unsigned int mask = next_random();
		unsigned int writable = impl & ~0x2U;

		if (i & 1) {
			call(SBI_EXT_HPM_INHIBIT_CLEAR, mask, 0, 0);
			expect(model.mcountinhibit, old & ~(mask & writable),
			       "INHIBIT_CLEAR of random mask", mask);
		} else if (mask & 0x2) {
			call(SBI_EXT_HPM_INHIBIT_SET, mask, 0,
			     SBI_HPM_ERR_DENIED);
			expect(model.mcountinhibit, old, "denied INHIBIT_SET",
			       mask);
		} else {
			call(SBI_EXT_HPM_INHIBIT_SET, mask, 0, 0);
			expect(model.mcountinhibit, old | (mask & writable),
			       "INHIBIT_SET of random mask", mask);
		}
		expect(call(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0, 0),
		       model.mcountinhibit, "GET_MCOUNTINHIBIT = hardware", i);
	}
	return end();
}

/* Give every implemented counter but time a distinct non-zero count. */
static void fill_counters(void)
{
	unsigned int i;

	for (i = 0; i < 32; i++)
		if (i != 1)
			model.counter[i] = 0xa5a5a5a5a5a5ULL * (i + 1) &
					   mask_of(i < 3 ? 64 : model.p.hpm_width);
}

/*
 * COUNTER_START(mask, zero_mask) on the current model against the ABI:
 * the implemented counters of zero_mask are 0 (both halves), every
 * other counter and time keep their value, mcountinhibit loses the
 * implemented bits of mask and nothing else, time's CSR is not touched.
 */
static void counter_start_ok(hpm_ulong mask, hpm_ulong zero_mask)
{
	unsigned int impl = hart_model_implemented(&model);
	unsigned int writable = impl & ~0x2U;
	struct hart_model before = model;
	unsigned int i;

	memset(model.touched, 0, sizeof(model.touched));
	call(SBI_EXT_HPM_COUNTER_START, mask, zero_mask, 0);
	for (i = 0; i < 32; i++) {
		unsigned long long want = before.counter[i];

		if (i != 1 && ((zero_mask & impl) >> i) & 1)
			want = 0;
		expect(model.counter[i], want, "counter after COUNTER_START",
		       i);
	}
	expect(model.mcountinhibit,
	       before.mcountinhibit & ~((unsigned int)mask & writable),
	       "mcountinhibit after COUNTER_START", (unsigned int)mask);
	for (i = 3; i < 32; i++)
		expect(model.event[i], before.event[i],
		       "mhpmevent after COUNTER_START", i);
	if (hart_model_touched(&model, HPM_CSR_CYCLE + SBI_HPM_IDX_TIME) ||
	    hart_model_touched(&model, HPM_CSR_CYCLEH + SBI_HPM_IDX_TIME))
		fail("COUNTER_START touched time");
}

static int test_counter_start(const struct hart_model_params *p)
{
	unsigned int impl, hpm, i;

	begin(p->name, "COUNTER_START");
	setup(p);
	impl = hart_model_implemented(&model);
	hpm = p->hpm_mask & ~0x7U;
	fill_counters();
	if (!p->has_mcountinhibit) {
		/* The function is absent: that comes before DENIED. */
		call(SBI_EXT_HPM_COUNTER_START, 0x18, 0x18,
		     SBI_HPM_ERR_NOT_SUPPORTED);
		call(SBI_EXT_HPM_COUNTER_START, 0, 0x2,
		     SBI_HPM_ERR_NOT_SUPPORTED);
		call(SBI_EXT_HPM_COUNTER_START, 0, 0,
		     SBI_HPM_ERR_NOT_SUPPORTED);
		return end();
	}
	/* time in zero_mask: DENIED, whatever else the masks hold. */
	call(SBI_EXT_HPM_COUNTER_START, 0, 0x2, SBI_HPM_ERR_DENIED);
	call(SBI_EXT_HPM_COUNTER_START, 0xffffffff, 0xffffffff,
	     SBI_HPM_ERR_DENIED);
	call(SBI_EXT_HPM_COUNTER_START, hpm, hpm | 0x2, SBI_HPM_ERR_DENIED);
	/* time in mask only: allowed, its bit is ignored. */
	counter_start_ok(0x2, 0);

	/* A group started from zero; one counter zeroed but left stopped. */
	call(SBI_EXT_HPM_INHIBIT_SET, 0xfffffffd, 0, 0);
	fill_counters();
	if (hpm) {
		unsigned int a = hpm & -hpm, b = (hpm & ~a) & -(hpm & ~a);

		counter_start_ok(a, a | b);
		expect(model.mcountinhibit & (a | b), b,
		       "only the started counter runs", a);
	}
	/* cycle and instret may be zeroed; zeroing alone starts nothing. */
	call(SBI_EXT_HPM_INHIBIT_SET, 0xfffffffd, 0, 0);
	fill_counters();
	counter_start_ok(0, 0x5);
	expect(model.mcountinhibit, impl & ~0x2U, "zero_mask starts nothing",
	       0);
	counter_start_ok(0x5, 0);
	/* Bits of absent counters (and above 31) are ignored. */
	fill_counters();
	counter_start_ok(~(hpm_ulong)0x2 & ~(hpm_ulong)impl,
			 ~(hpm_ulong)0x2 & ~(hpm_ulong)impl);
	counter_start_ok(~(hpm_ulong)0, ~(hpm_ulong)0x2);
	expect(model.mcountinhibit, 0, "every counter started", 0);

	for (i = 0; i < 200; i++) {
		hpm_ulong mask = (hpm_ulong)next_random();
		hpm_ulong zero = (hpm_ulong)next_random();

		if (HPM_XLEN == 64) {
			mask |= (hpm_ulong)((unsigned long long)next_random()
					    << 32);
			zero |= (hpm_ulong)((unsigned long long)next_random()
					    << 32);
		}
		if (i % 3 == 0)
			call(SBI_EXT_HPM_INHIBIT_SET, next_random() & ~0x2U,
			     0, 0);
		if (i % 5 == 0)
			fill_counters();
		if (zero & 0x2)
			call(SBI_EXT_HPM_COUNTER_START, mask, zero,
			     SBI_HPM_ERR_DENIED);
		else
			counter_start_ok(mask, zero);
	}
	return end();
}

/* Indices outside 3..31, INVALID_PARAM on every hart and XLEN. */
static const hpm_ulong bad_event_indices[] = { 0, 1, 2, 32, 33, 0x100,
					       (hpm_ulong)-1 };

static int test_meventh(const struct hart_model_params *p)
{
	/* The register exists on RV32 harts with Sscofpmf only. */
	int has = HPM_XLEN == 32 && p->sscofpmf;
	unsigned int i, k;

	begin(p->name, "GET_MEVENTH, SET_MEVENTH");
	setup(p);
	for (k = 0; k < sizeof(bad_event_indices) / sizeof(*bad_event_indices);
	     k++) {
		call(SBI_EXT_HPM_GET_MEVENTH, bad_event_indices[k], 0,
		     SBI_HPM_ERR_INVALID_PARAM);
		call(SBI_EXT_HPM_SET_MEVENTH, bad_event_indices[k], 0x30000000,
		     SBI_HPM_ERR_INVALID_PARAM);
	}
	for (i = 3; i < 32; i++) {
		/* SINH | UINH | OF, and whatever event bits 55:32 hold */
		hpm_ulong high = (hpm_ulong)(0xb0000000U | i);
		unsigned long long low;

		if (!has || !((p->hpm_mask >> i) & 1)) {
			call(SBI_EXT_HPM_GET_MEVENTH, i, 0,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			call(SBI_EXT_HPM_SET_MEVENTH, i, high,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			continue;
		}
		call(SBI_EXT_HPM_SET_MEVENT, i, 0x2, 0);
		low = model.event[i] & 0xffffffff;
		call(SBI_EXT_HPM_SET_MEVENTH, i, high, 0);
		expect(model.event[i] >> 32, high | HPM_MHPMEVENTH_MINH,
		       "mhpmeventh after SET_MEVENTH", i);
		expect(model.event[i] & 0xffffffff, low,
		       "SET_MEVENTH keeps the low half", i);
		expect(call(SBI_EXT_HPM_GET_MEVENTH, i, 0, 0),
		       model.event[i] >> 32, "GET_MEVENTH = hardware", i);
		/* MINH stays even when the caller asks it off. */
		call(SBI_EXT_HPM_SET_MEVENTH, i, 0, 0);
		expect(call(SBI_EXT_HPM_GET_MEVENTH, i, 0, 0),
		       HPM_MHPMEVENTH_MINH, "GET_MEVENTH after SET_MEVENTH 0",
		       i);
		/* OF and xINH bits of modes the hart lacks are not kept */
		call(SBI_EXT_HPM_SET_MEVENTH, i, 0xffffffff, 0);
		expect(call(SBI_EXT_HPM_GET_MEVENTH, i, 0, 0),
		       p->event_bits ? (hpm_ulong)(p->event_bits >> 32)
				     : 0xffffffff,
		       "GET_MEVENTH after SET_MEVENTH ~0", i);
	}
	if (!has && (hart_model_touched(&model, HPM_CSR_MHPMEVENT3H) ||
		     hart_model_touched(&model, HPM_CSR_MHPMEVENT3H + 28)))
		fail("mhpmeventh touched on a hart without it");
	return end();
}

static int test_ctrcfg(const struct hart_model_params *p)
{
	static const hpm_ulong bad[] = { 1, 3, 31, 32, 0x100, (hpm_ulong)-1 };
	/* MINH, SINH, UINH as the ABI places them for this XLEN */
	const unsigned int sh = HPM_XLEN == 32 ? 32 : 0;
	const hpm_ulong minh = (hpm_ulong)(1ULL << (62 - sh));
	const hpm_ulong sinh = (hpm_ulong)(1ULL << (61 - sh));
	const hpm_ulong uinh = (hpm_ulong)(1ULL << (60 - sh));
	unsigned int i, k;

	begin(p->name, "GET_CTRCFG, SET_CTRCFG");
	setup(p);
	for (k = 0; k < sizeof(bad) / sizeof(*bad); k++) {
		call(SBI_EXT_HPM_GET_CTRCFG, bad[k], 0,
		     SBI_HPM_ERR_INVALID_PARAM);
		call(SBI_EXT_HPM_SET_CTRCFG, bad[k], sinh,
		     SBI_HPM_ERR_INVALID_PARAM);
	}
	for (i = 0; i <= 2; i += 2) {
		unsigned int other = 2 - i;
		unsigned long long other_cfg;

		if (!p->smcntrpmf) {
			call(SBI_EXT_HPM_GET_CTRCFG, i, 0,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			call(SBI_EXT_HPM_SET_CTRCFG, i, sinh,
			     SBI_HPM_ERR_NOT_SUPPORTED);
			continue;
		}
		expect(call(SBI_EXT_HPM_GET_CTRCFG, i, 0, 0),
		       (hpm_ulong)(model.cfg[i] >> sh),
		       "GET_CTRCFG reads what the hart holds", i);
		other_cfg = model.cfg[other];
		call(SBI_EXT_HPM_SET_CTRCFG, i, sinh | uinh, 0);
		expect(model.cfg[i], (unsigned long long)(minh | sinh | uinh)
		       << sh, "cfg after SET_CTRCFG(SINH|UINH)", i);
		expect(model.cfg[other], other_cfg,
		       "SET_CTRCFG leaves the other counter's cfg", i);
		expect(call(SBI_EXT_HPM_GET_CTRCFG, i, 0, 0),
		       minh | sinh | uinh, "GET_CTRCFG after SET_CTRCFG", i);
		/* MINH stays even when the caller asks it off. */
		call(SBI_EXT_HPM_SET_CTRCFG, i, 0, 0);
		expect(call(SBI_EXT_HPM_GET_CTRCFG, i, 0, 0), minh,
		       "GET_CTRCFG after SET_CTRCFG(0)", i);
		/* bits the hart does not keep read back as it holds them */
		call(SBI_EXT_HPM_SET_CTRCFG, i, (hpm_ulong)-1, 0);
		expect(call(SBI_EXT_HPM_GET_CTRCFG, i, 0, 0),
		       (hpm_ulong)(HART_MODEL_CFG_BITS >> sh),
		       "GET_CTRCFG after SET_CTRCFG(~0)", i);
	}
	if (!p->smcntrpmf &&
	    (hart_model_touched(&model, HPM_CSR_MCYCLECFG) ||
	     hart_model_touched(&model, HPM_CSR_MINSTRETCFG) ||
	     hart_model_touched(&model, HPM_CSR_MCYCLECFGH) ||
	     hart_model_touched(&model, HPM_CSR_MINSTRETCFGH)))
		fail("cfg registers touched on a hart without Smcntrpmf");
	return end();
}

static int test_unknown(const struct hart_model_params *p)
{
	unsigned long fids[] = { SBI_EXT_HPM_FID_COUNT, 23, 100, 0x80000000UL,
				 ~0UL };
	unsigned int i;

	begin(p->name, "unknown FIDs");
	setup(p);
	for (i = 0; i < sizeof(fids) / sizeof(*fids); i++)
		call(fids[i], 3, 2, SBI_HPM_ERR_NOT_SUPPORTED);
	return end();
}

int main(void)
{
	unsigned int h;
	int failed = 0;

	for (h = 0; h < sizeof(harts) / sizeof(*harts); h++) {
		const struct hart_model_params *p = &harts[h];

		failed |= test_init(p);
		failed |= test_init_running(p);
		failed |= test_info_width(p);
		failed |= test_mevent(p);
		failed |= test_counters(p, 0);
		failed |= test_counters(p, 1);
		failed |= test_counters_high(p);
		failed |= test_enables(p);
		failed |= test_inhibit(p);
		failed |= test_counter_start(p);
		failed |= test_meventh(p);
		failed |= test_ctrcfg(p);
		failed |= test_unknown(p);
	}
	return failed;
}
