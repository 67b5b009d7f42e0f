// SPDX-License-Identifier: BSD-2-Clause
/*
 * The counting program for CVA6 v4.2.0, the paper's fixed-counter
 * generation: a bare-metal S-mode program that scripts/run-rtl --core
 * cva6-v4.2 runs behind OpenSBI v1.9 with the HPM extension.  That hart
 * has mhpmcounter3..16, each hard-wired to one event, no mhpmevent, no
 * mcountinhibit, and no counter S-mode may read: every count is read
 * through the firmware (GET_MCOUNTER).  The counters never stop, so each
 * window reads all fourteen before and after a workload
 * (workloads-v42.S), and the count for n iterations minus the count for
 * 0 iterations must be n times what one iteration retires, by v4.2.0's
 * definitions (two 0-iteration runs must agree too).  The firmware's own
 * work during the reads is in every window, the same for every n.
 *
 * Output as counts.c: "ok - ..." / "not ok - ..." lines, "# ..." lines,
 * "# N passed, N failed"; the status is 0 when all passed.
 */
#include "sbi_hpm_abi.h"
#include "bare_riscv.h"
#include "print.h"

#define HPM_FIRST	3
#define HPM_COUNT	14		/* mhpmcounter3..16 */
#define HPM_MASK	(((1UL << HPM_COUNT) - 1) << HPM_FIRST)

static struct sbiret hpm(ulong fid, ulong a0, ulong a1)
{
	return sbi_call(SBI_EXT_HPM, fid, a0, a1, 0);
}

/* workloads-v42.S */
typedef void workload_fn(ulong n, ulong *buf);
extern workload_fn w42store, w42load, w42branch, w42call, w42ecall;
void window42(workload_fn *fn, ulong n, ulong *buf, ulong *before,
	      ulong *after);

/* v4.2.0's counters (include/riscv_pkg.sv), by CSR number 0xB00 + i. */
static const char *const counter_name[HPM_COUNT] = {
	"L1 I-cache misses (3)", "L1 D-cache misses (4)", "ITLB misses (5)",
	"DTLB misses (6)", "loads (7)", "stores (8)", "exceptions (9)",
	"exception returns (10)", "branches and jumps (11)", "calls (12)",
	"returns (13)", "mispredicts (14)", "scoreboard full (15)",
	"fetch queue empty (16)",
};

static void check_hart(void)
{
	struct sbiret r, g;
	ulong i;
	int good;

	check_counters(HPM_FIRST, HPM_COUNT,
		       "GET_INFO: cycle, instret and mhpmcounter3..16 (14 counters), none above",
		       "GET_WIDTH: mhpmcounter3..16 are 64 bits");

	good = 1;
	for (i = HPM_FIRST; i < HPM_FIRST + HPM_COUNT; i++) {
		good &= hpm(SBI_EXT_HPM_GET_MEVENT, i, 0).error ==
			SBI_HPM_ERR_NOT_SUPPORTED;
		good &= hpm(SBI_EXT_HPM_SET_MEVENT, i, 5).error ==
			SBI_HPM_ERR_NOT_SUPPORTED;
	}
	check(good, "GET_MEVENT and SET_MEVENT: NOT_SUPPORTED (no mhpmevent)");

	r = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0);
	check(r.error == SBI_HPM_ERR_NOT_SUPPORTED,
	      "GET_MCOUNTINHIBIT: NOT_SUPPORTED (no mcountinhibit)");

	r = hpm(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0);
	puts_("# mcounteren ");
	puthex(r.value);
	putch('\n');
	check(!r.error && r.value == 0,
	      "mcounteren reads 0: S-mode reads no counter itself");

	/* stores: the firmware's few between the two calls, no more */
	r = hpm(SBI_EXT_HPM_SET_MCOUNTER, HPM_FIRST + 5, 1000000);
	g = hpm(SBI_EXT_HPM_GET_MCOUNTER, HPM_FIRST + 5, 0);
	check(!r.error && !g.error && g.value >= 1000000 &&
		      g.value < 1000000 + 1000,
	      "SET_MCOUNTER then GET_MCOUNTER: mhpmcounter8 goes on from the value written");
}

/* Per-iteration counts (workloads-v42.S); -1: not predicted. */
enum { LD, ST, EXC, ERET, BR, CALL, RET, NKNOWN };
static const unsigned int known_idx[NKNOWN] = { 7, 8, 9, 10, 11, 12, 13 };

struct workload {
	const char *name;
	workload_fn *fn;
	ulong iterations;
	long per_iter[NKNOWN];
};

static const struct workload workloads[] = {
	/*                                  LD  ST EXC ERET BR CALL RET */
	{ "stores", w42store, 200,         { 0, 1, 0, 0, 1, 0, 0 } },
	{ "loads", w42load, 200,           { 1, 0, 0, 0, 1, 0, 0 } },
	{ "branches", w42branch, 200,      { 0, 0, 0, 0, 2, 0, 0 } },
	{ "calls and returns", w42call, 200, { 0, 0, 0, 0, 5, 1, 1 } },
	/* each ecall is an SBI call of some 450 cycles: fewer */
	{ "ecalls", w42ecall, 50,          { -1, -1, 1, 1, -1, -1, -1 } },
};
#define NWORKLOADS	(sizeof(workloads) / sizeof(*workloads))

static ulong buf[16];

static void count(workload_fn *fn, ulong n, long *out)
{
	ulong before[HPM_COUNT], after[HPM_COUNT];
	unsigned int j;

	window42(fn, n, buf, before, after);
	for (j = 0; j < HPM_COUNT; j++)
		out[j] = (long)(after[j] - before[j]);
}

static void check_counts(void)
{
	unsigned int wi, j, e;

	for (wi = 0; wi < NWORKLOADS; wi++) {
		const struct workload *w = &workloads[wi];
		long warm[HPM_COUNT], base[HPM_COUNT], cnt[HPM_COUNT],
			again[HPM_COUNT];

		/* warm the caches and predictors once per workload */
		count(w->fn, w->iterations, warm);
		count(w->fn, 0, base);
		count(w->fn, w->iterations, cnt);
		count(w->fn, 0, again);
		puts_("# ");
		puts_(w->name);
		puts_(", ");
		putu(w->iterations);
		puts_(" iterations minus 0:");
		for (j = 0; j < HPM_COUNT; j++) {
			puts_(" ");
			putu(HPM_FIRST + j);
			putch(':');
			putd(cnt[j] - base[j]);
			if (again[j] != base[j])
				putch('?');
		}
		putch('\n');
		for (e = 0; e < NKNOWN; e++) {
			unsigned int k = known_idx[e] - HPM_FIRST;
			long want = w->per_iter[e], got = cnt[k] - base[k];
			int good = again[k] == base[k] &&
				   got == want * (long)w->iterations;

			if (want < 0)
				continue;
			verdict(good);
			puts_(w->name);
			puts_(": ");
			puts_(counter_name[k]);
			puts_(" ");
			putu((ulong)want);
			puts_(" per iteration\n");
			if (!good) {
				puts_("#   got ");
				putd(got);
				puts_(again[k] == base[k] ? "" :
				      ", and the 0-iteration count varied");
				putch('\n');
			}
		}
	}
	puts_("# (?: two 0-iteration runs differed)\n");
}

int main(void)
{
	puts_("# CVA6 v4.2.0 RTL counting program: 14 hard-wired counters\n");
	check_hart();
	check_counts();
	return summary();
}
