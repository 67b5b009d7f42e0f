// SPDX-License-Identifier: BSD-2-Clause
/*
 * The CVA6 RTL counting program: a bare-metal S-mode program that
 * scripts/run-rtl runs behind OpenSBI v1.9 with the HPM extension on the
 * Verilated CVA6 (bcb0f7de).  Through the HPM extension it reads what
 * the hart has, programs every event of perf-events-json/openhwgroup/cva6
 * (events.h, generated from the table) and counts workloads whose counts
 * follow from the RTL's definitions (workloads.S), each exactly: the
 * count for n iterations minus the measured count for 0 iterations must
 * be n times the per-iteration count (and two 0-iteration runs agree).  Every window includes the
 * firmware's own work around the two calls that open and close it (no
 * mode filtering on this hart), which the 0-iteration run measures.
 * Then a selector the hart cannot hold must be refused, and the cost of
 * HPM and SBI PMU calls is measured in cycles.
 *
 * Output: one "ok - ..." / "not ok - ..." line per check, "# ..." lines
 * with what was measured, "# cost NAME: N cycles" lines (bench), and
 * "# N passed, N failed"; the status (tohost) is 0 when all passed.
 */
#include "sbi_hpm_abi.h"
#include "bare_riscv.h"
#include "print.h"


struct table_event {
	ulong code;
	const char *name;
};
#include "events.h"

#define NEVENTS		(sizeof(table_events) / sizeof(*table_events))
#define EXT_BASE	0x10
#define EXT_PMU		0x504d55

/* What the RTL at bcb0f7de has (core/perf_counters.sv, csr_regfile.sv). */
#define HPM_FIRST	3
#define HPM_COUNT	6		/* hpmcounter3..8 */
#define HPM_MASK	(((1UL << HPM_COUNT) - 1) << HPM_FIRST)
#define EVENT_BITS	0x1f		/* mhpmevent keeps 5 bits */

static struct sbiret hpm(ulong fid, ulong a0, ulong a1)
{
	return sbi_call(SBI_EXT_HPM, fid, a0, a1, 0);
}

/* workloads.S */
typedef void workload_fn(ulong n, ulong *buf);
extern workload_fn wstore, wload, wbranch, wcall, wint, wfp, wecall, wicache,
	wdtlb;
void window(workload_fn *fn, ulong n, ulong *buf, ulong mask);
ulong rdcycle(void);

/* Counter i (3..8) read by S-mode itself, where mcounteren lets it. */
static ulong read_hpmcounter(unsigned int i)
{
	ulong v = 0;

	switch (i) {
	case 3: asm volatile("csrr %0, hpmcounter3" : "=r"(v)); break;
	case 4: asm volatile("csrr %0, hpmcounter4" : "=r"(v)); break;
	case 5: asm volatile("csrr %0, hpmcounter5" : "=r"(v)); break;
	case 6: asm volatile("csrr %0, hpmcounter6" : "=r"(v)); break;
	case 7: asm volatile("csrr %0, hpmcounter7" : "=r"(v)); break;
	case 8: asm volatile("csrr %0, hpmcounter8" : "=r"(v)); break;
	}
	return v;
}

/* 1 when mcounteren gives S-mode hpmcounter3..8 (else: GET_MCOUNTER). */
static int direct_reads;

/* ---- what the hart has -------------------------------------------- */

static void check_hart(void)
{
	struct sbiret r, g;

	check_counters(HPM_FIRST, HPM_COUNT,
		       "GET_INFO: cycle, instret and hpmcounter3..8 (6 counters), none above",
		       "GET_WIDTH: hpmcounter3..8 are 64 bits");

	r = hpm(SBI_EXT_HPM_GET_MCOUNTER, HPM_FIRST + HPM_COUNT, 0);
	check(r.error == SBI_HPM_ERR_NOT_SUPPORTED,
	      "hpmcounter9 is not implemented (NOT_SUPPORTED)");

	r = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0);
	puts_("# mcountinhibit ");
	puthex(r.value);
	putch('\n');
	check(!r.error, "the hart has mcountinhibit");

	r = hpm(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0);
	direct_reads = !r.error && (r.value & HPM_MASK) == HPM_MASK;
	puts_("# mcounteren ");
	puthex(r.value);
	puts_(direct_reads ? ": counts read with csrr\n" :
			     ": counts read with GET_MCOUNTER\n");
	if (direct_reads) {
		ulong a, b;

		hpm(SBI_EXT_HPM_SET_MCOUNTER, HPM_FIRST, 12345);
		a = read_hpmcounter(HPM_FIRST);
		b = hpm(SBI_EXT_HPM_GET_MCOUNTER, HPM_FIRST, 0).value;
		check(a == 12345 && b == 12345,
		      "an inhibited hpmcounter3 reads the same through csrr and GET_MCOUNTER");
	}

	/* 5-bit selectors: 0x1f is held, 0x25 and 0x20 are not. */
	r = hpm(SBI_EXT_HPM_SET_MEVENT, HPM_FIRST, EVENT_BITS);
	g = hpm(SBI_EXT_HPM_GET_MEVENT, HPM_FIRST, 0);
	check(!r.error && g.value == EVENT_BITS,
	      "SET_MEVENT(3, 0x1f) succeeds and reads back 0x1f");
	hpm(SBI_EXT_HPM_SET_MEVENT, HPM_FIRST, 0x5);
	r = hpm(SBI_EXT_HPM_SET_MEVENT, HPM_FIRST, 0x25);
	g = hpm(SBI_EXT_HPM_GET_MEVENT, HPM_FIRST, 0);
	puts_("# SET_MEVENT(3, 0x25): error ");
	putd(r.error);
	puts_(", mhpmevent3 then ");
	puthex(g.value);
	putch('\n');
	check(r.error == SBI_HPM_ERR_INVALID_PARAM && g.value == 0x5,
	      "SET_MEVENT(3, 0x25) is refused with INVALID_PARAM, the event stays 0x5");
	r = hpm(SBI_EXT_HPM_SET_MEVENT, HPM_FIRST + 1, 0x20);
	check(r.error == SBI_HPM_ERR_INVALID_PARAM,
	      "SET_MEVENT(4, 0x20) is refused (0x20 would count nothing)");
}

/* ---- counting ------------------------------------------------------ */

/*
 * Per-iteration counts of each workload, from its body in workloads.S
 * (the loop's addi and bnez included).  -1: not predicted (printed
 * only): I-cache misses but in wicache, the D-cache, ITLB and stall
 * events, and whatever the firmware does during wecall's SBI calls.
 * DTLB misses are 0 without paging; with it, wdtlb's loads each walk
 * the page table and the RTL counts almost none of them (see wdtlb in
 * workloads.S): check_walks() checks that.
 */
enum { LD, ST, EXC, ERET, BR, CALL, RET, INT, FP, IMISS, DTLB, NKNOWN };
static const ulong known_code[NKNOWN] = { 0x5, 0x6, 0x7, 0x8, 0x9, 0xc, 0xd,
					  0x14, 0x15, 0x1, 0x4 };

struct workload {
	const char *name;
	workload_fn *fn;
	ulong iterations;
	long per_iter[NKNOWN];
	/* run with Sv39 on (paging()) */
	int paging;
};

static const struct workload workloads[] = {
	/*                  LD  ST EXC ERET BR CALL RET INT FP IMISS DTLB */
	{ "stores", wstore, 200,      { 0, 1, 0, 0, 1, 0, 0, 1, 0, -1, 0 }, 0 },
	{ "loads", wload, 200,        { 1, 0, 0, 0, 1, 0, 0, 1, 0, -1, 0 }, 0 },
	{ "branches", wbranch, 200,   { 0, 2, 0, 0, 2, 0, 0, 1, 0, -1, 0 }, 0 },
	{ "calls and returns", wcall, 200,
				      { 0, 5, 0, 0, 5, 2, 2, 1, 0, -1, 0 }, 0 },
	{ "integer", wint, 200,       { 0, 2, 0, 0, 1, 0, 0, 3, 0, -1, 0 }, 0 },
	{ "floating point", wfp, 200, { 0, 1, 0, 0, 1, 0, 0, 1, 1, -1, 0 }, 0 },
	/* each ecall is an SBI call of some 450 cycles: fewer */
	{ "ecalls", wecall, 50,
			{ -1, -1, 1, 1, -1, -1, -1, -1, -1, -1, 0 }, 0 },
	/* cold I-cache lines, one per iteration (no loop: see wicache) */
	{ "I-cache lines", wicache, 200,
				      { 0, 0, 0, 0, 0, 0, 0, -1, 0, 1, 0 }, 0 },
	/* a page of its own per load, Sv39 on (add and addi may pair) */
	{ "loads, a page each", wdtlb, 200,
				      { 1, 0, 0, 0, 1, 0, 0, -1, 0, -1, -1 }, 1 },
};
#define NWORKLOADS	(sizeof(workloads) / sizeof(*workloads))

static ulong buf[16];
static long diff[NEVENTS];

/*
 * Sv39 for wdtlb: the program's gigapage (0x80000000) identity-mapped,
 * and the 512 pages of 4 KiB from DTLB_PAGES all mapping dtlb_page, so
 * that each of wdtlb's loads needs a translation of its own.
 */
#define DTLB_PAGES	0xC0000000UL
#define PTE_V		0x01UL
#define PTE_R		0x02UL
#define PTE_W		0x04UL
#define PTE_X		0x08UL
#define PTE_A		0x40UL
#define PTE_D		0x80UL
#define PTE_TO(pa)	(((ulong)(pa) >> 12) << 10)
#define SATP_SV39	(8UL << 60)
static ulong pt_root[512] __attribute__((aligned(4096)));
static ulong pt_mid[512] __attribute__((aligned(4096)));
static ulong pt_leaf[512] __attribute__((aligned(4096)));
static ulong dtlb_page[512] __attribute__((aligned(4096)));

static void paging(int on)
{
	unsigned int i;

	if (!on) {
		asm volatile("csrw satp, zero; sfence.vma" ::: "memory");
		return;
	}
	pt_root[2] = PTE_TO(0x80000000UL) | PTE_V | PTE_R | PTE_W | PTE_X |
		     PTE_A | PTE_D;
	pt_root[DTLB_PAGES >> 30] = PTE_TO(pt_mid) | PTE_V;
	pt_mid[0] = PTE_TO(pt_leaf) | PTE_V;
	for (i = 0; i < 512; i++)
		pt_leaf[i] = PTE_TO(dtlb_page) | PTE_V | PTE_R | PTE_W |
			     PTE_A | PTE_D;
	asm volatile("sfence.vma; csrw satp, %0; sfence.vma"
		     :: "r"(SATP_SV39 | ((ulong)pt_root >> 12)) : "memory");
}

/* Sv39 translates: a store through page 5 of DTLB_PAGES reaches dtlb_page. */
static void check_paging(void)
{
	ulong satp;

	paging(1);
	asm volatile("csrr %0, satp" : "=r"(satp));
	*(volatile ulong *)(DTLB_PAGES + 5 * 4096 + 8) = 0x5a5a;
	check(satp >> 60 == 8 && ((volatile ulong *)dtlb_page)[1] == 0x5a5a,
	      "Sv39: a store through 0xc0005008 reaches the page the table maps there");
	paging(0);
}
static int stable[NEVENTS];

/* program(): the events of @codes[0..@k-1] on hpmcounter3.. */
static ulong program(const ulong *codes, unsigned int k)
{
	ulong mask = 0;
	unsigned int j;

	for (j = 0; j < k; j++) {
		hpm(SBI_EXT_HPM_SET_MEVENT, HPM_FIRST + j, codes[j]);
		mask |= 1UL << (HPM_FIRST + j);
	}
	return mask;
}

/*
 * count(): run @fn for @n iterations in a window over the counters of
 * @mask (programmed by program()), and read the counts into @out.
 */
static void count(workload_fn *fn, ulong n, ulong mask, ulong *out)
{
	unsigned int j;

	window(fn, n, buf, mask);
	for (j = 0; mask >> (HPM_FIRST + j); j++)
		out[j] = direct_reads ?
				 read_hpmcounter(HPM_FIRST + j) :
				 hpm(SBI_EXT_HPM_GET_MCOUNTER, HPM_FIRST + j, 0).value;
}

static long known_for(const struct workload *w, ulong code)
{
	unsigned int e;

	for (e = 0; e < NKNOWN; e++)
		if (known_code[e] == code)
			return w->per_iter[e];
	return -1;
}

/*
 * wdtlb's n loads walk the page table n times, and the RTL counts at
 * most one of them as a DTLB miss (0 or 1, by the pipeline's timing: 1
 * here, 0 for the same loop in another program): the event is all but
 * dead for loads, not one per miss.
 */
static void check_walks(const struct workload *w, ulong n)
{
	unsigned int j;

	for (j = 0; j < NEVENTS; j++) {
		if (table_events[j].code != 0x4)
			continue;
		verdict(stable[j] && diff[j] >= 0 && diff[j] <= 1);
		puts_(w->name);
		puts_(": the RTL counts at most 1 of their ");
		putu(n);
		puts_(" page-table walks as DTLB_MISSES (");
		putd(diff[j]);
		puts_(")\n");
	}
}

static void check_counts(void)
{
	unsigned int wi, first, j, k;

	for (wi = 0; wi < NWORKLOADS; wi++) {
		const struct workload *w = &workloads[wi];
		ulong n = w->iterations, warm[HPM_COUNT];

		if (w->paging)
			paging(1);
		/* warm the caches and predictors once per workload */
		count(w->fn, n, program(known_code, HPM_COUNT), warm);
		for (first = 0; first < NEVENTS; first += HPM_COUNT) {
			ulong codes[HPM_COUNT], base[HPM_COUNT],
				cnt[HPM_COUNT], again[HPM_COUNT], mask;

			k = NEVENTS - first < HPM_COUNT ? NEVENTS - first
							: HPM_COUNT;
			for (j = 0; j < k; j++)
				codes[j] = table_events[first + j].code;
			mask = program(codes, k);
			count(w->fn, 0, mask, base);
			count(w->fn, n, mask, cnt);
			count(w->fn, 0, mask, again);
			puts_("# ");
			puts_(w->name);
			puts_(", ");
			putu(n);
			puts_(" iterations minus 0:");
			for (j = 0; j < k; j++) {
				long got = (long)(cnt[j] - base[j]);

				diff[first + j] = got;
				stable[first + j] = again[j] == base[j];
				puts_(" ");
				puthex(codes[j]);
				putch(':');
				putd(got);
				if (!stable[first + j])
					putch('?');
			}
			putch('\n');
		}
		for (j = 0; j < NEVENTS; j++) {
			const struct table_event *e = &table_events[j];
			long want = known_for(w, e->code);
			int good = stable[j] && diff[j] == want * (long)n;

			if (want < 0)
				continue;
			verdict(good);
			puts_(w->name);
			puts_(": ");
			puts_(e->name);
			puts_(" ");
			putu((ulong)want);
			puts_(" per iteration\n");
			if (!good) {
				puts_("#   got ");
				putd(diff[j]);
				puts_(stable[j] ? "" : ", and the 0-iteration count varied");
				putch('\n');
			}
		}
		if (w->paging) {
			check_walks(w, n);
			paging(0);
		}
	}
	puts_("# (?: two 0-iteration runs differed)\n");
}

/* ---- cost of a call, in cycles (rdcycle around the ecall) ----------- */

/* Cycles between two rdcycle calls with nothing between them. */
static ulong overhead = ~0UL;

static void measure_overhead(void)
{
	ulong t0, t1;
	int i;

	for (i = 0; i < 8; i++) {
		t0 = rdcycle();
		t1 = rdcycle();
		if (t1 - t0 < overhead)
			overhead = t1 - t0;
	}
	puts_("# rdcycle; rdcycle: ");
	putu(overhead);
	puts_(" cycles (subtracted from every cost)\n");
}

static void cost(const char *name, ulong eid, ulong fid, ulong a0, ulong a1,
		 ulong a2)
{
	ulong best = ~0UL, t0, t1;
	int i;

	for (i = 0; i < 8; i++) {
		t0 = rdcycle();
		sbi_call(eid, fid, a0, a1, a2);
		t1 = rdcycle();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	puts_("# cost ");
	puts_(name);
	puts_(": ");
	putu(best - overhead);
	puts_(" cycles\n");
}

/* SBI PMU counter_start / counter_stop on a counter config_matching gave. */
static void pmu_cost(void)
{
	struct sbiret r = sbi_call(EXT_BASE, 3, EXT_PMU, 0, 0);
	ulong n, idx, t0, t1, best_start = ~0UL, best_stop = ~0UL;
	register ulong a3 asm("a3");
	int i;

	if (r.error || !r.value) {
		check(0, "the firmware offers the SBI PMU extension");
		return;
	}
	n = sbi_call(EXT_PMU, 0, 0, 0, 0).value;	/* num_counters */
	/* config_matching(base 0, mask, flags 0, event 2 = instructions) */
	{
		register ulong r0 asm("a0") = 0;
		register ulong r1 asm("a1") = (1UL << n) - 1;
		register ulong r2 asm("a2") = 0;
		register ulong r6 asm("a6") = 2;
		register ulong r7 asm("a7") = EXT_PMU;

		a3 = 2;
		asm volatile("ecall"
			     : "+r"(r0), "+r"(r1)
			     : "r"(r2), "r"(a3), "r"(r6), "r"(r7)
			     : "memory");
		r.error = (long)r0;
		r.value = r1;
	}
	check(!r.error, "SBI PMU config_matching finds a counter for instructions");
	if (r.error)
		return;
	idx = r.value;
	for (i = 0; i < 8; i++) {
		t0 = rdcycle();
		r = sbi_call(EXT_PMU, 4, idx, 1, 0);	/* counter_stop */
		t1 = rdcycle();
		if (!r.error && t1 - t0 < best_stop)
			best_stop = t1 - t0;
		t0 = rdcycle();
		r = sbi_call(EXT_PMU, 3, idx, 1, 0);	/* counter_start */
		t1 = rdcycle();
		if (!r.error && t1 - t0 < best_start)
			best_start = t1 - t0;
	}
	check(best_start != ~0UL && best_stop != ~0UL,
	      "SBI PMU counter_start and counter_stop succeed");
	puts_("# cost SBI PMU counter_start: ");
	putu(best_start - overhead);
	puts_(" cycles\n# cost SBI PMU counter_stop: ");
	putu(best_stop - overhead);
	puts_(" cycles\n");
}

static void costs(void)
{
	measure_overhead();
	cost("SBI BASE get_spec_version", EXT_BASE, 0, 0, 0, 0);
	cost("HPM GET_MCOUNTER", SBI_EXT_HPM, SBI_EXT_HPM_GET_MCOUNTER, 3, 0, 0);
	cost("HPM SET_MEVENT", SBI_EXT_HPM, SBI_EXT_HPM_SET_MEVENT, 3, 5, 0);
	cost("HPM INHIBIT_CLEAR", SBI_EXT_HPM, SBI_EXT_HPM_INHIBIT_CLEAR,
	     1UL << 3, 0, 0);
	cost("HPM INHIBIT_SET", SBI_EXT_HPM, SBI_EXT_HPM_INHIBIT_SET, 1UL << 3,
	     0, 0);
	cost("HPM COUNTER_START", SBI_EXT_HPM, SBI_EXT_HPM_COUNTER_START,
	     1UL << 3, 1UL << 3, 0);
	/* the HPM extension and the SBI PMU share the counters: stop ours */
	hpm(SBI_EXT_HPM_INHIBIT_SET, HPM_MASK, 0);
	pmu_cost();
}

int main(void)
{
	puts_("# CVA6 RTL counting program: ");
	putu(NEVENTS);
	puts_(" table events\n");
	check_hart();
	check_paging();
	check_counts();
	costs();
	return summary();
}
