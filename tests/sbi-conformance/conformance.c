// SPDX-License-Identifier: BSD-2-Clause
/*
 * HPM SBI extension conformance test: a bare-metal S-mode program that
 * the project's firmware boots in place of Linux.  It calls every HPM
 * function with good and bad arguments and checks the answers against
 * shared/design/hpm-abi.md and against what the hart really does (the
 * counters S-mode can read, whether they move), plus the SBI services
 * the HPM work relies on.  One line per check: "ok - ..." or
 * "not ok - ...", then SRST shutdown: reason 0 if all passed, else
 * "system failure" (QEMU exit status 1).
 */
#include <stdarg.h>
#include "sbi_hpm_abi.h"
#include "bare_riscv.h"

typedef unsigned int u32;
typedef unsigned long long u64;

#define CSR_SSTATUS	0x100
#define CSR_SIE		0x104
#define CSR_SCOUNTEREN	0x106
#define CSR_SEPC	0x141
#define CSR_SCAUSE	0x142
#define CSR_STVAL	0x143
#define CSR_SIP		0x144
#define CSR_TIME	0xc01
#define CSR_INSTRET	0xc02
#define SIP_SSIP	(1UL << 1)
#define SIP_STIP	(1UL << 5)

#define EXT_UNKNOWN	0x08fffff0	/* experimental range, nobody's */

/* Sscofpmf's and Smcntrpmf's filter bits as this XLEN holds them. */
#if __riscv_xlen == 64
#define FILTER_SHIFT	0
#else
#define FILTER_SHIFT	32	/* in the high half: mhpmeventh, m*cfgh */
#endif
#define F_MINH	(1UL << (62 - FILTER_SHIFT))
#define F_SINH	(1UL << (61 - FILTER_SHIFT))
#define F_UINH	(1UL << (60 - FILTER_SHIFT))

#define ERR_NOT_SUPPORTED	SBI_HPM_ERR_NOT_SUPPORTED
#define ERR_INVALID_PARAM	SBI_HPM_ERR_INVALID_PARAM
#define ERR_DENIED		SBI_HPM_ERR_DENIED

#define MAX_HARTS	8
#define SECONDARY_MAGIC	0x5ec0d
#define TIMEBASE_HZ	10000000UL	/* QEMU virt's timer */

/* Every HPM error must come with value 0: count the ones that do not. */
static int err_value_bad;

static struct sbiret hpm(ulong fid, ulong a0, ulong a1)
{
	struct sbiret r = sbi_call(SBI_EXT_HPM, fid, a0, a1, 0);

	if (r.error && r.value)
		err_value_bad++;
	return r;
}

static inline int hartid(void)
{
	int id;

	asm volatile("mv %0, tp" : "=r"(id));
	return id;
}

/* ---- output --------------------------------------------------------- */

static char outbuf[256];
static int outlen;

static void flush(void)
{
	if (outlen)
		sbi_call(EXT_DBCN, 0, (ulong)outlen, (ulong)outbuf, 0);
	outlen = 0;
}

static void putch(char c)
{
	if (outlen == sizeof(outbuf))
		flush();
	outbuf[outlen++] = c;
	if (c == '\n')
		flush();
}

static void put_num(ulong v, unsigned int base)
{
	char b[24];
	int n = 0;

	do {
		unsigned int d = base == 16 ? (unsigned int)(v & 15) :
					      (unsigned int)(v % 10);
		b[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v = base == 16 ? v >> 4 : v / 10;
	} while (v);
	while (n)
		putch(b[--n]);
}

/* %s %d %u %x %lx %lu %ld */
static void vprint(const char *fmt, va_list ap)
{
	for (; *fmt; fmt++) {
		int l = 0;

		if (*fmt != '%') {
			putch(*fmt);
			continue;
		}
		if (*++fmt == 'l') {
			l = 1;
			fmt++;
		}
		switch (*fmt) {
		case 's': {
			const char *s = va_arg(ap, const char *);

			while (*s)
				putch(*s++);
			break;
		}
		case 'd': {
			long v = l ? va_arg(ap, long) : va_arg(ap, int);

			if (v < 0) {
				putch('-');
				v = -v;
			}
			put_num((ulong)v, 10);
			break;
		}
		case 'u':
			put_num(l ? va_arg(ap, ulong) : va_arg(ap, unsigned int), 10);
			break;
		case 'x':
			put_num(l ? va_arg(ap, ulong) : va_arg(ap, unsigned int), 16);
			break;
		default:
			putch(*fmt);
		}
	}
}

static void print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
}

static int passed, failed;

static int check(int cond, const char *fmt, ...)
{
	va_list ap;

	print(cond ? "ok - " : "not ok - ");
	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	putch('\n');
	if (cond)
		passed++;
	else
		failed++;
	return cond;
}

/* A check this hart cannot make: said so, and counted neither way. */
static void skip(const char *what, const char *why)
{
	print("# SKIP %s: %s\n", what, why);
}

static void __attribute__((noreturn)) shutdown(int failure)
{
	flush();
	sbi_call(EXT_SRST, 0, 0, failure ? 1 : 0, 0);
	for (;;)
		asm volatile("wfi");
}

/* ---- traps ---------------------------------------------------------- */

/*
 * A probe is a single 4-byte instruction that may trap (a counter CSR
 * read that is not allowed, a load the PMP forbids): the trap handler
 * notes it and skips the instruction.  Any other trap ends the test.
 */
static volatile int probing[MAX_HARTS], faulted[MAX_HARTS];

void trap_handler(void);
void trap_handler(void)
{
	ulong cause = csr_read(CSR_SCAUSE), epc = csr_read(CSR_SEPC);
	int me = hartid();

	if (me < MAX_HARTS && probing[me] &&
	    (cause == 2 || cause == 5 || cause == 7)) {
		faulted[me] = 1;
		csr_write(CSR_SEPC, epc + 4);
		return;
	}
	print("not ok - unexpected trap on hart %d: scause 0x%lx sepc 0x%lx "
	      "stval 0x%lx\n", me, cause, epc, csr_read(CSR_STVAL));
	shutdown(1);
}

extern char ctr_read_table[];
u32 probe_load(ulong addr);

/* Read counter i (0..31), its high half (high = 1), or scountovf (64). */
static int s_read(unsigned int i, int high, ulong *v)
{
	ulong (*stub)(void) =
		(ulong (*)(void))(void *)(ctr_read_table + 8 * (i + 32 * high));
	int me = hartid();
	ulong x;

	faulted[me] = 0;
	probing[me] = 1;
	x = stub();
	probing[me] = 0;
	if (faulted[me])
		return -1;
	*v = x;
	return 0;
}

static int s_readable(unsigned int i)
{
	ulong v;

	return !s_read(i, 0, &v);
}

static ulong s_ctr(unsigned int i)
{
	ulong v = 0;

	s_read(i, 0, &v);
	return v;
}

static ulong rdtime(void)
{
	return csr_read(CSR_TIME);
}

/* 2n + 1 instructions, all retired in S-mode */
static void spin(ulong n)
{
	asm volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

/*
 * Under QEMU's -icount instret counts retired instructions exactly, so
 * a loop 1000 iterations longer retires exactly 2000 more; without it
 * instret follows the host clock and that is all but impossible.
 */
static int instret_exact(void)
{
	ulong a, b, c;

	a = csr_read(CSR_INSTRET);
	spin(1000);
	b = csr_read(CSR_INSTRET);
	spin(2000);
	c = csr_read(CSR_INSTRET);
	return (c - b) - (b - a) == 2000;
}

static int popcount(ulong x)
{
	int n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

static int lowest_bit(ulong x)
{
	int i;

	for (i = 0; i < __riscv_xlen; i++)
		if (x & (1UL << i))
			return i;
	return -1;
}

/* ---- the checks ----------------------------------------------------- */

static u32 info;		/* GET_INFO */
static u32 hpm_mask;		/* implemented hpmcounters (bits 3..31) */
static int has_sscofpmf;
static int has_smcntrpmf;
static int has_mcountinhibit;	/* GET_MCOUNTINHIBIT answers */

/* ---- the device tree ------------------------------------------------ */

static u32 be32(const unsigned char *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

/*
 * 1 when the flattened device tree at @fdt names ISA extension @ext as
 * an entry of a "riscv,isa-extensions" string list ("\0ext\0") or in
 * a "riscv,isa" string ("_ext\0" or "_ext_"), as QEMU writes them.
 * Smcntrpmf has no CSR S-mode could probe, so this is how the program
 * learns whether the hart has it; run.sh checks what it learnt against
 * what QEMU was asked for.
 */
static int fdt_has_ext(ulong fdt, const char *ext)
{
	const unsigned char *b = (const unsigned char *)fdt;
	u32 size, i, n, k;

	if (!fdt || be32(b) != 0xd00dfeed)
		return -1;
	size = be32(b + 4);
	for (n = 0; ext[n]; n++)
		;
	for (i = 1; i + n + 1 < size; i++) {
		if (b[i - 1] != 0 && b[i - 1] != '_')
			continue;
		for (k = 0; k < n && b[i + k] == (unsigned char)ext[k]; k++)
			;
		if (k == n && (b[i + n] == 0 || b[i + n] == '_'))
			return 1;
	}
	return 0;
}

static void test_base(void)
{
	struct sbiret r;
	static const ulong exts[] = { EXT_BASE, EXT_TIME, EXT_IPI, EXT_RFENCE,
				      EXT_HSM, EXT_SRST, EXT_DBCN };
	unsigned int i, bad = 0;

	/* The firmware is OpenSBI v1.9 (implementation 1, version 1.9). */
	r = sbi_call(EXT_BASE, 0, 0, 0, 0);
	check(!r.error && r.value == 0x03000000,
	      "base: get_spec_version is 3.0 (0x%lx)", r.value);
	r = sbi_call(EXT_BASE, 1, 0, 0, 0);
	check(!r.error && r.value == 1,
	      "base: get_impl_id is 1, OpenSBI (0x%lx)", r.value);
	r = sbi_call(EXT_BASE, 2, 0, 0, 0);
	check(!r.error && r.value == 0x10009,
	      "base: get_impl_version is 0x10009, v1.9 (0x%lx)", r.value);
	r = sbi_call(EXT_BASE, 4, 0, 0, 0);
	print("# mvendorid 0x%lx", r.value);
	r = sbi_call(EXT_BASE, 5, 0, 0, 0);
	print(" marchid 0x%lx", r.value);
	r = sbi_call(EXT_BASE, 6, 0, 0, 0);
	print(" mimpid 0x%lx\n", r.value);
	check(!r.error, "base: get_mimpid succeeds");

	r = sbi_call(EXT_BASE, 3, SBI_EXT_HPM, 0, 0);
	check(!r.error && r.value, "base: probe_extension(HPM 0x%x) is available",
	      SBI_EXT_HPM);
	/*
	 * OpenSBI's own PMU extension stays on beside HPM, as in its
	 * default configuration: both are offered.
	 */
	r = sbi_call(EXT_BASE, 3, EXT_PMU, 0, 0);
	check(!r.error && r.value, "base: probe_extension(PMU 0x504d55) is "
	      "available beside HPM");
	r = sbi_call(EXT_BASE, 3, EXT_UNKNOWN, 0, 0);
	check(!r.error && !r.value, "base: probe_extension(unknown 0x%x) is 0",
	      EXT_UNKNOWN);
	r = sbi_call(EXT_UNKNOWN, 0, 0, 0, 0);
	check(r.error == ERR_NOT_SUPPORTED, "unknown EID is NOT_SUPPORTED");
	r = sbi_call(EXT_BASE, 99, 0, 0, 0);
	check(r.error == ERR_NOT_SUPPORTED, "base: unknown FID is NOT_SUPPORTED");
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		r = sbi_call(EXT_BASE, 3, exts[i], 0, 0);
		if (r.error || !r.value) {
			print("# extension 0x%lx missing\n", exts[i]);
			bad++;
		}
	}
	check(!bad, "base: TIME, IPI, RFENCE, HSM, SRST and DBCN are available");
}

static void test_info(void)
{
	struct sbiret r = hpm(SBI_EXT_HPM_GET_INFO, 0, 0);
	u32 readable = 0;
	ulong v;
	int i;

	info = (u32)r.value;
	hpm_mask = info & ~7U;
	has_sscofpmf = !s_read(32, 1, &v);	/* scountovf exists */
	print("# GET_INFO 0x%x: %d hpmcounters, sscofpmf %d\n", info,
	      popcount(hpm_mask), has_sscofpmf);
	check(!r.error && (info & 7) == 7,
	      "GET_INFO reports cycle, time and instret");
	for (i = 0; i < 32; i++)
		if (s_readable((unsigned int)i))
			readable |= 1U << i;
	check(readable == info,
	      "GET_INFO matches the counters S-mode can read (0x%x)", readable);
}

static void test_index_checks(void)
{
	static const ulong counter_fids[] = {
		SBI_EXT_HPM_GET_MCOUNTER, SBI_EXT_HPM_SET_MCOUNTER,
		SBI_EXT_HPM_GET_UCOUNTER, SBI_EXT_HPM_SET_UCOUNTER,
		SBI_EXT_HPM_GET_WIDTH,
#if __riscv_xlen == 32
		SBI_EXT_HPM_GET_MCOUNTERH, SBI_EXT_HPM_SET_MCOUNTERH,
#endif
	};
	static const ulong event_fids[] = { SBI_EXT_HPM_GET_MEVENT,
					    SBI_EXT_HPM_SET_MEVENT };
	u32 absent = ~info;
	int hole = lowest_bit(absent), bad = 0, bad_ns = 0;
	unsigned int f;
	struct sbiret r;
	ulong i;

	for (f = 0; f < sizeof(event_fids) / sizeof(event_fids[0]); f++) {
		for (i = 0; i < 3; i++)
			bad += hpm(event_fids[f], i, 0).error != ERR_INVALID_PARAM;
		bad += hpm(event_fids[f], 32, 0).error != ERR_INVALID_PARAM;
		bad += hpm(event_fids[f], ~0UL, 0).error != ERR_INVALID_PARAM;
		if (hole >= 0)
			bad_ns += hpm(event_fids[f], (ulong)hole, 0).error !=
				  ERR_NOT_SUPPORTED;
	}
	check(!bad, "GET/SET_MEVENT: index 0..2, 32 and ~0 are INVALID_PARAM");
	for (f = 0; f < sizeof(counter_fids) / sizeof(counter_fids[0]); f++) {
		bad += hpm(counter_fids[f], 32, 0).error != ERR_INVALID_PARAM;
		bad += hpm(counter_fids[f], ~0UL, 0).error != ERR_INVALID_PARAM;
		if (hole >= 0)
			bad_ns += hpm(counter_fids[f], (ulong)hole, 0).error !=
				  ERR_NOT_SUPPORTED;
	}
	check(!bad, "counter functions: index 32 and ~0 are INVALID_PARAM");
	if (hole >= 0)
		check(!bad_ns, "every indexed function: unimplemented counter "
		      "%d is NOT_SUPPORTED", hole);
	else
		skip("unimplemented counter is NOT_SUPPORTED", "all 32 exist");

	r = hpm(SBI_EXT_HPM_SET_MCOUNTER, SBI_HPM_IDX_TIME, 0);
	check(r.error == ERR_DENIED, "SET_MCOUNTER(time) is DENIED");
	r = hpm(SBI_EXT_HPM_SET_UCOUNTER, SBI_HPM_IDX_TIME, 0);
	check(r.error == ERR_DENIED, "SET_UCOUNTER(time) is DENIED");
#if __riscv_xlen == 64
	bad = 0;
	for (i = 0; i < 33; i += 2) {
		bad += hpm(SBI_EXT_HPM_GET_MCOUNTERH, i, 0).error !=
		       ERR_NOT_SUPPORTED;
		bad += hpm(SBI_EXT_HPM_SET_MCOUNTERH, i, 0).error !=
		       ERR_NOT_SUPPORTED;
	}
	check(!bad, "GET/SET_MCOUNTERH are NOT_SUPPORTED on RV64");
#else
	r = hpm(SBI_EXT_HPM_SET_MCOUNTERH, SBI_HPM_IDX_TIME, 0);
	check(r.error == ERR_DENIED, "SET_MCOUNTERH(time) is DENIED");
#endif
	bad = 0;
	bad += hpm(SBI_EXT_HPM_FID_COUNT, 0, 0).error != ERR_NOT_SUPPORTED;
	bad += hpm(0x100, 0, 0).error != ERR_NOT_SUPPORTED;
	bad += hpm(~0UL, 0, 0).error != ERR_NOT_SUPPORTED;
	check(!bad, "FIDs %d, 0x100 and ~0 are NOT_SUPPORTED",
	      SBI_EXT_HPM_FID_COUNT);
}

static void test_width(void)
{
	int i, bad = 0;

	for (i = 0; i < 32; i++) {
		struct sbiret r = hpm(SBI_EXT_HPM_GET_WIDTH, (ulong)i, 0);

		if (info & (1U << i)) {
			if (r.error || r.value != 64) {
				print("# width(%d) = %ld/%lu\n", i, r.error,
				      r.value);
				bad++;
			}
		} else if (r.error != ERR_NOT_SUPPORTED) {
			bad++;
		}
	}
	check(!bad, "GET_WIDTH is 64 for every implemented counter (QEMU)");
}

static void test_events(void)
{
	ulong minh = 0;
	int i, bad_init = 0, bad_rt = 0, bad_minh = 0;

#if __riscv_xlen == 64
	if (has_sscofpmf)
		minh = 1UL << 62;
#endif
	if (!hpm_mask) {
		skip("GET/SET_MEVENT round trip", "no hpmcounters");
		return;
	}
	for (i = 3; i < 32; i++) {
		struct sbiret r;

		if (!(hpm_mask & (1U << i)))
			continue;
		r = hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)i, 0);
		bad_init += r.error || r.value != 0;
		r = hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)i, 0x2);
		bad_rt += r.error != 0;
		r = hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)i, 0);
		bad_rt += r.error || r.value != (0x2 | minh);
#if __riscv_xlen == 32
		/* RV32: MINH is in the high half, which SET_MEVENT sets */
		if (has_sscofpmf)
			bad_minh += hpm(SBI_EXT_HPM_GET_MEVENTH, (ulong)i, 0).value !=
				    F_MINH;
#endif
		if (minh) {
			/* MINH stays even when the caller asks it off */
			bad_minh += (hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)i, 0).value &
				     minh) != minh;
		}
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)i, 0);
	}
	check(!bad_init, "GET_MEVENT is 0 on every hpmcounter after boot");
	check(!bad_rt, "SET_MEVENT/GET_MEVENT round trip on every hpmcounter");
	if (minh)
		check(!bad_minh, "Sscofpmf: SET_MEVENT always sets MINH");
#if __riscv_xlen == 32
	else if (has_sscofpmf)
		check(!bad_minh, "Sscofpmf: SET_MEVENT always sets MINH "
		      "(in mhpmeventh, read with GET_MEVENTH)");
#endif
	else
		skip("Sscofpmf: SET_MEVENT always sets MINH", "no Sscofpmf");
}

/*
 * A hart without mcountinhibit (privileged spec 1.10): the five functions
 * that use it are NOT_SUPPORTED, and COUNTER_START writes nothing.
 */
static void test_no_inhibit(void)
{
	int h = lowest_bit(hpm_mask), bad = 0;
	struct sbiret r;
	ulong v;

	bad += hpm(SBI_EXT_HPM_SET_MCOUNTINHIBIT, 0, 0).error !=
	       ERR_NOT_SUPPORTED;
	bad += hpm(SBI_EXT_HPM_INHIBIT_SET, 0x5, 0).error != ERR_NOT_SUPPORTED;
	bad += hpm(SBI_EXT_HPM_INHIBIT_CLEAR, 0x5, 0).error !=
	       ERR_NOT_SUPPORTED;
	check(!bad, "no mcountinhibit: SET_MCOUNTINHIBIT, INHIBIT_SET and "
	      "INHIBIT_CLEAR are NOT_SUPPORTED (%d were not)", bad);
	if (h < 0) {
		skip("no mcountinhibit: COUNTER_START writes nothing",
		     "no hpmcounters");
		return;
	}
	/* event 0 counts nothing: the counter holds what it was given */
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 12345);
	r = hpm(SBI_EXT_HPM_COUNTER_START, 1UL << h, 1UL << h);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	check(r.error == ERR_NOT_SUPPORTED && v == 12345,
	      "no mcountinhibit: COUNTER_START is NOT_SUPPORTED and zeroes "
	      "nothing (error %ld, hpmcounter%d %lu)", r.error, h, v);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
}

static void test_inhibit(void)
{
	struct sbiret r = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0);
	ulong inh = r.value, c0, c1, i0, i1, v;

	/* run.sh compares this with the profile */
	has_mcountinhibit = r.error != ERR_NOT_SUPPORTED;
	print("# mcountinhibit: %s\n", has_mcountinhibit ? "present" : "absent");
	if (!has_mcountinhibit) {
		test_no_inhibit();
		return;
	}
	check(!r.error && (inh & 7) == 0 && (inh & hpm_mask) == hpm_mask,
	      "after boot cycle and instret run, hpmcounters are inhibited "
	      "(0x%lx)", inh);
	r = hpm(SBI_EXT_HPM_SET_MCOUNTINHIBIT, inh | SBI_HPM_TIME_BIT, 0);
	check(r.error == ERR_DENIED &&
	      hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value == inh,
	      "SET_MCOUNTINHIBIT with the time bit is DENIED, changes nothing");
	r = hpm(SBI_EXT_HPM_INHIBIT_SET, SBI_HPM_TIME_BIT | 1, 0);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value;
	check(r.error == ERR_DENIED && v == inh,
	      "INHIBIT_SET with the time bit is DENIED, changes nothing "
	      "(error %ld, 0x%lx after, 0x%lx before)", r.error, v, inh);

	r = hpm(SBI_EXT_HPM_INHIBIT_SET, 0x5, 0);
	c0 = s_ctr(0);
	i0 = s_ctr(2);
	spin(10000);
	c1 = s_ctr(0);
	i1 = s_ctr(2);
	check(!r.error && c0 == c1 && i0 == i1,
	      "INHIBIT_SET(cycle|instret) stops both");
	r = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0);
	check((r.value & 5) == 5, "GET_MCOUNTINHIBIT shows them inhibited");
	r = hpm(SBI_EXT_HPM_INHIBIT_CLEAR, 0x5, 0);
	c0 = s_ctr(0);
	i0 = s_ctr(2);
	spin(10000);
	c1 = s_ctr(0);
	i1 = s_ctr(2);
	check(!r.error && c1 != c0 && i1 - i0 >= 20000,
	      "INHIBIT_CLEAR(cycle|instret) starts both (instret +%lu)", i1 - i0);

	r = hpm(SBI_EXT_HPM_SET_MCOUNTINHIBIT, ~SBI_HPM_TIME_BIT & 0xffffffffUL, 0);
	check(!r.error &&
	      hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value ==
	      (info & ~SBI_HPM_TIME_BIT),
	      "SET_MCOUNTINHIBIT(all but time) reads back the implemented "
	      "counters (WARL)");
	r = hpm(SBI_EXT_HPM_INHIBIT_SET, ~SBI_HPM_TIME_BIT & 0xffffffffUL, 0);
	check(!r.error && !(hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value &
			    SBI_HPM_TIME_BIT),
	      "the time bit of mcountinhibit reads 0");
	r = hpm(SBI_EXT_HPM_SET_MCOUNTINHIBIT, inh, 0);
	check(!r.error && hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value == inh,
	      "SET_MCOUNTINHIBIT restores the boot value");
}

/*
 * hpmcounter h, stopped at v: the user-level and machine-level calls and
 * S-mode's CSR read and write the same counter.
 */
static void test_counter_access(int h, ulong v)
{
	struct sbiret r;
	ulong s;

	s = s_ctr((unsigned int)h);
	r = hpm(SBI_EXT_HPM_GET_UCOUNTER, (ulong)h, 0);
	check(!r.error && r.value == v && s == (ulong)v,
	      "GET_UCOUNTER and S-mode hpmcounter%d read the machine counter", h);
	r = hpm(SBI_EXT_HPM_SET_UCOUNTER, (ulong)h, 12345);
	check(!r.error && s_ctr((unsigned int)h) == 12345,
	      "SET_UCOUNTER writes what S-mode reads");
	r = hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 54321);
	check(!r.error && s_ctr((unsigned int)h) == 54321 &&
	      hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value == 54321,
	      "SET_MCOUNTER/GET_MCOUNTER round trip");
}

/*
 * On a hart without mcountinhibit every counter runs: its event starts
 * and stops it, event 0 counting nothing.
 */
static void test_counting_free(int h)
{
	ulong v, v2, ins0, ins1;
	struct sbiret r;

	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	r = hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
	spin(1000);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	check(!r.error && v == 0,
	      "hpmcounter%d with event 0 stays at 0 (%lu)", h, v);

	/*
	 * The counter is zeroed once it counts the event: QEMU 10 counts
	 * from where the counter was written, not from the event change.
	 */
	r = hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0x2);
	ins0 = s_ctr(2);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
	spin(100000);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	ins1 = s_ctr(2);
	print("# hpmcounter%d (event 0x2, no mcountinhibit): %lu over a "
	      "200001-instruction loop, instret %lu\n", h, v, ins1 - ins0);
	check(!r.error && v > 0 && v <= ins1 - ins0 &&
	      (!instret_exact() || v >= 200000),
	      "SET_MEVENT 0x2 makes hpmcounter%d count instructions", h);
	/*
	 * QEMU 10 drops what a counter counted for an event when the event
	 * changes (it reads 0 after event 0 here): only "it holds still"
	 * is checked.
	 */
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	spin(10000);
	v2 = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	check(v2 == v, "SET_MEVENT 0 stops hpmcounter%d", h);
	test_counter_access(h, v);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
}

static void test_counting(void)
{
	int h = lowest_bit(hpm_mask), h2;
	ulong v, v2, ins0, ins1;
#if __riscv_xlen == 32
	ulong s;
#endif
	struct sbiret r;

	if (h < 0) {
		skip("hpmcounter counting", "no hpmcounters");
		return;
	}
	if (!has_mcountinhibit) {
		test_counting_free(h);
		return;
	}
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0x2);
	r = hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
	spin(1000);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	check(!r.error && v == 0, "inhibited hpmcounter%d stays at 0", h);

	ins0 = s_ctr(2);
	r = hpm(SBI_EXT_HPM_INHIBIT_CLEAR, 1UL << h, 0);
	spin(100000);
	hpm(SBI_EXT_HPM_INHIBIT_SET, 1UL << h, 0);
	ins1 = s_ctr(2);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	print("# hpmcounter%d (event 0x2): %lu over a 200001-instruction loop, "
	      "instret %lu\n", h, v, ins1 - ins0);
	/*
	 * Under -icount instret counts instructions exactly and the loop
	 * alone retires 200001; without it QEMU's counters follow the host
	 * clock and only "it moved, within the instret window" holds.
	 */
	check(!r.error && v > 0 && v <= ins1 - ins0 &&
	      (!instret_exact() || v >= 200000),
	      "SET_MEVENT 0x2 makes hpmcounter%d count instructions", h);
	spin(10000);
	v2 = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	check(v2 == v, "INHIBIT_SET stops hpmcounter%d", h);
	test_counter_access(h, v);
#if __riscv_xlen == 32
	r = hpm(SBI_EXT_HPM_SET_MCOUNTERH, (ulong)h, 0xabc);
	check(!r.error && hpm(SBI_EXT_HPM_GET_MCOUNTERH, (ulong)h, 0).value ==
	      0xabc && !s_read((unsigned int)h, 1, &s) && s == 0xabc,
	      "SET_MCOUNTERH/GET_MCOUNTERH round trip, S-mode hpmcounterh agrees");
	hpm(SBI_EXT_HPM_SET_MCOUNTERH, (ulong)h, 0);
#endif

	/* no event: enabled but counting nothing */
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
	hpm(SBI_EXT_HPM_INHIBIT_CLEAR, 1UL << h, 0);
	spin(10000);
	hpm(SBI_EXT_HPM_INHIBIT_SET, 1UL << h, 0);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	/*
	 * QEMU with Sscofpmf keeps counting once MINH is the only bit set
	 * (seen with QEMU 10), so this is a property of the plain PMU only.
	 */
	if (has_sscofpmf)
		skip("hpmcounter with event 0 counts nothing", "Sscofpmf");
	else
		check(v == 0, "hpmcounter%d with event 0 counts nothing (%lu)",
		      h, v);

	/* a group: two counters started and stopped by one call each */
	h2 = lowest_bit(hpm_mask & ~(1U << h));
	if (h2 < 0) {
		skip("INHIBIT_CLEAR/SET start and stop a group", "one hpmcounter");
	} else {
		ulong both = 1UL << h | 1UL << h2, a, b, a2, b2;

		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0x2);
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h2, 0x1);
		hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
		hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h2, 0);
		r = hpm(SBI_EXT_HPM_INHIBIT_CLEAR, both, 0);
		spin(10000);
		hpm(SBI_EXT_HPM_INHIBIT_SET, both, 0);
		a = s_ctr((unsigned int)h);
		b = s_ctr((unsigned int)h2);
		spin(10000);
		a2 = s_ctr((unsigned int)h);
		b2 = s_ctr((unsigned int)h2);
		check(!r.error && a && b && a == a2 && b == b2,
		      "INHIBIT_CLEAR/SET start and stop hpmcounter%d (0x2) and "
		      "%d (0x1) together (%lu, %lu)", h, h2, a, b);
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h2, 0);
		hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h2, 0);
	}
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
}

/* the fixed counters */
static void test_fixed_counters(void)
{
	struct sbiret r;
	ulong v, s;

	/*
	 * The window is wide: without -icount instret follows the host
	 * clock, and a busy host can stall this hart between the two lines.
	 */
	r = hpm(SBI_EXT_HPM_SET_MCOUNTER, SBI_HPM_IDX_INSTRET, 0x40000000);
	v = s_ctr(2);
	check(!r.error && v >= 0x40000000 && v - 0x40000000 < 0x10000000,
	      "SET_MCOUNTER(instret) sets the running counter (0x%lx)", v);
	s = rdtime();
	r = hpm(SBI_EXT_HPM_GET_MCOUNTER, SBI_HPM_IDX_TIME, 0);
	v = rdtime();
	check(!r.error && r.value >= s && r.value <= v,
	      "GET_MCOUNTER(time) reads the time");
	s = s_ctr(0);
	r = hpm(SBI_EXT_HPM_GET_UCOUNTER, SBI_HPM_IDX_CYCLE, 0);
	v = s_ctr(0);
	check(!r.error && r.value >= s && r.value <= v,
	      "GET_UCOUNTER(cycle) reads the running cycle counter");
}

/* 1 when every counter of @mask reads 0 through GET_MCOUNTER[H]. */
static int counters_zero(ulong mask)
{
	int i, bad = 0;

	for (i = 0; i < 32; i++) {
		if (!(mask & (1UL << i)))
			continue;
		bad += hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)i, 0).value != 0;
#if __riscv_xlen == 32
		bad += hpm(SBI_EXT_HPM_GET_MCOUNTERH, (ulong)i, 0).value != 0;
#endif
	}
	return !bad;
}

/* COUNTER_START (FID 18): zero one mask, start another, in one call. */
static void test_counter_start(void)
{
	int h = lowest_bit(hpm_mask), h2 = lowest_bit(hpm_mask & ~(1U << h));
	ulong inh, v, v2, ins0, ins1, both, absent = ~info & ~SBI_HPM_TIME_BIT;
	struct sbiret r;

	if (h < 0 || h2 < 0) {
		skip("COUNTER_START", "fewer than two hpmcounters");
		return;
	}
	if (!has_mcountinhibit) {
		skip("COUNTER_START zeroes and starts", "no mcountinhibit "
		     "(NOT_SUPPORTED, checked above)");
		return;
	}
	both = 1UL << h | 1UL << h2;
	/* counters with a count, stopped */
	hpm(SBI_EXT_HPM_INHIBIT_SET, both, 0);
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0x2);
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h2, 0x2);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0x7000000);
	hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h2, 12345);
#if __riscv_xlen == 32
	hpm(SBI_EXT_HPM_SET_MCOUNTERH, (ulong)h, 0xabc);
	hpm(SBI_EXT_HPM_SET_MCOUNTERH, (ulong)h2, 0xdef);
#endif
	inh = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value;

	r = hpm(SBI_EXT_HPM_COUNTER_START, both, both | SBI_HPM_TIME_BIT);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	v2 = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h2, 0).value;
	check(r.error == ERR_DENIED &&
	      hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value == inh &&
	      v == 0x7000000 && v2 == 12345,
	      "COUNTER_START with time in zero_mask is DENIED, changes "
	      "nothing (error %ld, counters %lu, %lu)", r.error, v, v2);

	/* h zeroed and started, h2 only zeroed, in one call */
	ins0 = s_ctr(2);
	r = hpm(SBI_EXT_HPM_COUNTER_START, 1UL << h, both);
	inh = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value;
	spin(100000);
	hpm(SBI_EXT_HPM_INHIBIT_SET, 1UL << h, 0);
	ins1 = s_ctr(2);
	v = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
	print("# COUNTER_START: hpmcounter%d counted %lu over a "
	      "200001-instruction loop (instret %lu)\n", h, v, ins1 - ins0);
	check(!r.error && v > 0 && v <= ins1 - ins0 &&
	      (!instret_exact() || v >= 200000),
	      "COUNTER_START zeroes hpmcounter%d and starts it in one call", h);
#if __riscv_xlen == 32
	check(hpm(SBI_EXT_HPM_GET_MCOUNTERH, (ulong)h, 0).value == 0,
	      "COUNTER_START zeroes the high half too");
#endif
	check(counters_zero(1UL << h2) && (inh & both) == (1UL << h2),
	      "COUNTER_START: hpmcounter%d in zero_mask only is zeroed and "
	      "stays stopped (mcountinhibit 0x%lx)", h2, inh);

	/* instret may be zeroed: it restarts from a small value */
	hpm(SBI_EXT_HPM_SET_MCOUNTER, SBI_HPM_IDX_INSTRET, 0x40000000);
	r = hpm(SBI_EXT_HPM_COUNTER_START, 0, 1UL << SBI_HPM_IDX_INSTRET);
	v = s_ctr(2);
	check(!r.error && v < 0x10000000,
	      "COUNTER_START zeroes instret (0x%lx after)", v);

	/* bits of absent counters are ignored */
	hpm(SBI_EXT_HPM_INHIBIT_SET, both, 0);
	inh = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value;
	r = hpm(SBI_EXT_HPM_COUNTER_START, absent, absent);
	check(!r.error &&
	      hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value == inh,
	      "COUNTER_START ignores the bits of absent counters (0x%lx)",
	      absent);

	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h2, 0);
	hpm(SBI_EXT_HPM_COUNTER_START, 0, both);
}

static void test_counteren(void)
{
	struct sbiret r = hpm(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0);
	ulong ce = r.value, sc;
	int h = lowest_bit(hpm_mask);

	check(!r.error && (ce & info) == info,
	      "GET_MCOUNTEREN: every implemented counter open to S (0x%lx)", ce);
	r = hpm(SBI_EXT_HPM_SET_MCOUNTEREN, ce & ~SBI_HPM_TIME_BIT, 0);
	check(r.error == ERR_DENIED &&
	      hpm(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0).value == ce,
	      "SET_MCOUNTEREN without TM is DENIED, changes nothing");
	if (h >= 0) {
		r = hpm(SBI_EXT_HPM_SET_MCOUNTEREN, ce & ~(1UL << h), 0);
		check(!r.error && !s_readable((unsigned int)h),
		      "SET_MCOUNTEREN without bit %d hides hpmcounter%d from S",
		      h, h);
		r = hpm(SBI_EXT_HPM_SET_MCOUNTEREN, ce, 0);
		check(!r.error && s_readable((unsigned int)h),
		      "SET_MCOUNTEREN with bit %d shows it again", h);
	}
	r = hpm(SBI_EXT_HPM_SET_MCOUNTEREN, 0xffffffffUL, 0);
	check(!r.error && (hpm(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0).value & info) ==
	      info, "SET_MCOUNTEREN(all ones) opens every implemented counter");

	sc = csr_read(CSR_SCOUNTEREN);
	r = hpm(SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0);
	check(!r.error && r.value == sc, "GET_SCOUNTEREN reads scounteren (0x%lx)",
	      sc);
	r = hpm(SBI_EXT_HPM_SET_SCOUNTEREN, 0x5, 0);
	check(!r.error && csr_read(CSR_SCOUNTEREN) == 0x5 &&
	      hpm(SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0).value == 0x5,
	      "SET_SCOUNTEREN writes scounteren");
	hpm(SBI_EXT_HPM_SET_SCOUNTEREN, sc, 0);
}

/* GET_MEVENTH, SET_MEVENTH (FIDs 19, 20): RV32 with Sscofpmf only. */
static void test_meventh(void)
{
	static const ulong fids[] = { SBI_EXT_HPM_GET_MEVENTH,
				      SBI_EXT_HPM_SET_MEVENTH };
	int h = lowest_bit(hpm_mask), i, bad = 0, bad_rt = 0, bad_minh = 0;
	int has = __riscv_xlen == 32 && has_sscofpmf;
	unsigned int f;

	for (f = 0; f < 2; f++) {
		for (i = 0; i < 3; i++)
			bad += hpm(fids[f], (ulong)i, 0).error !=
			       ERR_INVALID_PARAM;
		bad += hpm(fids[f], 32, 0).error != ERR_INVALID_PARAM;
		bad += hpm(fids[f], ~0UL, 0).error != ERR_INVALID_PARAM;
	}
	check(!bad, "GET/SET_MEVENTH: index 0..2, 32 and ~0 are "
	      "INVALID_PARAM");
	bad = 0;
	for (i = 3; i < 32; i++) {
		if (has && (hpm_mask & (1U << i)))
			continue;
		for (f = 0; f < 2; f++)
			bad += hpm(fids[f], (ulong)i, F_SINH).error !=
			       ERR_NOT_SUPPORTED;
	}
	if (!has) {
		check(!bad, "GET/SET_MEVENTH are NOT_SUPPORTED on every "
		      "counter (%s)", __riscv_xlen == 64 ? "RV64" :
		      "no Sscofpmf");
		return;
	}
	check(!bad, "GET/SET_MEVENTH: absent counters are NOT_SUPPORTED");
	for (i = 3; i < 32; i++) {
		ulong low;

		if (!(hpm_mask & (1U << i)))
			continue;
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)i, 0x2);
		low = hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)i, 0).value;
		bad_rt += hpm(SBI_EXT_HPM_SET_MEVENTH, (ulong)i,
			      F_SINH | F_UINH).error != 0;
		bad_rt += hpm(SBI_EXT_HPM_GET_MEVENTH, (ulong)i, 0).value !=
			  (F_MINH | F_SINH | F_UINH);
		bad_rt += hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)i, 0).value != low;
		/* MINH stays even when the caller asks it off */
		hpm(SBI_EXT_HPM_SET_MEVENTH, (ulong)i, 0);
		bad_minh += hpm(SBI_EXT_HPM_GET_MEVENTH, (ulong)i, 0).value !=
			    F_MINH;
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)i, 0);
	}
	check(!bad_rt, "SET_MEVENTH/GET_MEVENTH round trip (SINH|UINH, "
	      "MINH added) on every hpmcounter, low half kept");
	check(!bad_minh, "Sscofpmf: SET_MEVENTH always sets MINH");
	/* mhpmeventh really filters: SINH hides the S-mode loop */
	if (h >= 0) {
		ulong v_s, v_all;

		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0x2);
		hpm(SBI_EXT_HPM_SET_MEVENTH, (ulong)h, F_SINH);
		hpm(SBI_EXT_HPM_COUNTER_START, 1UL << h, 1UL << h);
		spin(100000);
		hpm(SBI_EXT_HPM_INHIBIT_SET, 1UL << h, 0);
		v_s = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
		hpm(SBI_EXT_HPM_SET_MEVENTH, (ulong)h, 0);
		hpm(SBI_EXT_HPM_COUNTER_START, 1UL << h, 1UL << h);
		spin(100000);
		hpm(SBI_EXT_HPM_INHIBIT_SET, 1UL << h, 0);
		v_all = hpm(SBI_EXT_HPM_GET_MCOUNTER, (ulong)h, 0).value;
		print("# hpmcounter%d (event 0x2) over a 200001-instruction "
		      "S-mode loop: %lu with SINH, %lu without\n", h, v_s,
		      v_all);
		/*
		 * QEMU 10.0 computes the low half of a count from the low
		 * half of mhpmevent, where RV32 has no filter bit, so it
		 * never filters what S-mode reads here (200516 with SINH,
		 * 200514 without): nothing to check on QEMU.
		 */
		skip("mhpmeventh.SINH stops an hpmcounter counting S-mode",
		     "QEMU does not apply RV32's filter bits to the low half "
		     "of a count (measured above)");
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
		hpm(SBI_EXT_HPM_SET_MCOUNTER, (ulong)h, 0);
	}
}

/*
 * GET_CTRCFG, SET_CTRCFG (FIDs 21, 22): Smcntrpmf only.  Run last: the
 * filters it leaves (MINH at least) keep instret from counting the
 * firmware, which report_costs() measures.
 */
static void test_ctrcfg(void)
{
	static const ulong fids[] = { SBI_EXT_HPM_GET_CTRCFG,
				      SBI_EXT_HPM_SET_CTRCFG };
	static const ulong bad_idx[] = { 1, 3, 31, 32, ~0UL };
	int bad = 0, bad_rt = 0, bad_minh = 0;
	unsigned int f, k, i;
	ulong a, b, c, d, e, g;

	for (f = 0; f < 2; f++)
		for (k = 0; k < sizeof(bad_idx) / sizeof(bad_idx[0]); k++)
			bad += hpm(fids[f], bad_idx[k], 0).error !=
			       ERR_INVALID_PARAM;
	check(!bad, "GET/SET_CTRCFG: index 1, 3, 31, 32 and ~0 are "
	      "INVALID_PARAM");
	if (!has_smcntrpmf) {
		bad = 0;
		for (f = 0; f < 2; f++)
			for (i = 0; i <= 2; i += 2)
				bad += hpm(fids[f], i, F_SINH).error !=
				       ERR_NOT_SUPPORTED;
		check(!bad, "GET/SET_CTRCFG are NOT_SUPPORTED without "
		      "Smcntrpmf");
		return;
	}
	for (i = 0; i <= 2; i += 2) {
		struct sbiret r = hpm(SBI_EXT_HPM_GET_CTRCFG, i, 0);

		print("# %s at boot: 0x%lx\n", i ? "minstretcfg" :
		      "mcyclecfg", r.value);
		bad_rt += r.error != 0;
		bad_rt += hpm(SBI_EXT_HPM_SET_CTRCFG, i, F_SINH | F_UINH).error !=
			  0;
		bad_rt += hpm(SBI_EXT_HPM_GET_CTRCFG, i, 0).value !=
			  (F_MINH | F_SINH | F_UINH);
		/* MINH stays even when the caller asks it off */
		hpm(SBI_EXT_HPM_SET_CTRCFG, i, 0);
		bad_minh += hpm(SBI_EXT_HPM_GET_CTRCFG, i, 0).value != F_MINH;
	}
	check(!bad_rt, "SET_CTRCFG/GET_CTRCFG round trip (SINH|UINH, MINH "
	      "added) for cycle and instret");
	check(!bad_minh, "Smcntrpmf: SET_CTRCFG always sets MINH");

	/* the filter really works: SINH hides the S-mode loop from instret */
	hpm(SBI_EXT_HPM_SET_CTRCFG, SBI_HPM_IDX_INSTRET, F_SINH);
	a = csr_read(CSR_INSTRET);
	spin(100000);
	b = csr_read(CSR_INSTRET);
	hpm(SBI_EXT_HPM_SET_CTRCFG, SBI_HPM_IDX_INSTRET, 0);
	c = csr_read(CSR_INSTRET);
	spin(100000);
	d = csr_read(CSR_INSTRET);
	print("# instret over a 200001-instruction S-mode loop: %lu with "
	      "SINH, %lu without\n", b - a, d - c);
#if __riscv_xlen == 64
	check(b - a < 1000 && d - c > 100 * (b - a) &&
	      (!instret_exact() || d - c >= 200000),
	      "minstretcfg.SINH stops instret counting S-mode");
#else
	/* as for mhpmeventh: QEMU 10.0 filters no low half on RV32 */
	skip("minstretcfgh.SINH stops instret counting S-mode",
	     "QEMU does not apply RV32's filter bits to the low half of a "
	     "count (measured above)");
#endif
	/* and cycle's */
	hpm(SBI_EXT_HPM_SET_CTRCFG, SBI_HPM_IDX_CYCLE, F_SINH);
	a = s_ctr(0);
	spin(100000);
	b = s_ctr(0);
	hpm(SBI_EXT_HPM_SET_CTRCFG, SBI_HPM_IDX_CYCLE, 0);
	e = s_ctr(0);
	spin(100000);
	g = s_ctr(0);
	print("# cycle over the same loop: %lu with SINH, %lu without\n",
	      b - a, g - e);
#if __riscv_xlen == 64
	check(b - a < 1000 && g - e > 100 * (b - a),
	      "mcyclecfg.SINH stops cycle counting S-mode");
#else
	skip("mcyclecfgh.SINH stops cycle counting S-mode",
	     "QEMU does not apply RV32's filter bits to the low half of a "
	     "count (measured above)");
#endif
}

/* ---- other harts ---------------------------------------------------- */

static volatile int sec_stage[MAX_HARTS];
static volatile ulong sec_info[MAX_HARTS], sec_event[MAX_HARTS];

static void secondary_main(int me)
{
	int h;

	sec_info[me] = hpm(SBI_EXT_HPM_GET_INFO, 0, 0).value;
	h = lowest_bit(sec_info[me] & ~7UL);
	if (h >= 0) {
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0x1);
		sec_event[me] = hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)h, 0).value;
	}
	__atomic_store_n(&sec_stage[me], 1, __ATOMIC_RELEASE);

	/* wait for an IPI, with interrupts masked: poll sip.SSIP */
	csr_set(CSR_SIE, SIP_SSIP);
	while (!(csr_read(CSR_SIP) & SIP_SSIP))
		;
	csr_clear(CSR_SIP, SIP_SSIP);
	__atomic_store_n(&sec_stage[me], 2, __ATOMIC_RELEASE);

	/* stay in S-mode until told to stop (remote fences meanwhile) */
	while (__atomic_load_n(&sec_stage[me], __ATOMIC_ACQUIRE) != 3)
		;
	if (h >= 0)
		hpm(SBI_EXT_HPM_SET_MEVENT, (ulong)h, 0);
	sbi_call(EXT_HSM, 1, 0, 0, 0);		/* hart_stop */
	sec_stage[me] = -1;			/* hart_stop returned */
	for (;;)
		;
}

static int wait_stage(int hart, int stage)
{
	ulong t0 = rdtime();

	while (__atomic_load_n(&sec_stage[hart], __ATOMIC_ACQUIRE) != stage)
		if (rdtime() - t0 > 2 * TIMEBASE_HZ)
			return 0;
	return 1;
}

void _start(void);

static void test_harts(int me)
{
	int other = -1, i, n = 0, h = lowest_bit(hpm_mask);
	struct sbiret r;
	ulong t0, ev0 = 0;

	for (i = 0; i < MAX_HARTS; i++) {
		r = sbi_call(EXT_HSM, 2, (ulong)i, 0, 0);
		if (r.error)
			continue;
		n++;
		if (i != me && other < 0 && r.value == 1)
			other = i;
	}
	r = sbi_call(EXT_HSM, 2, (ulong)me, 0, 0);
	check(!r.error && r.value == 0, "hsm: this hart is STARTED");
	r = sbi_call(EXT_HSM, 2, 100, 0, 0);
	check(r.error == ERR_INVALID_PARAM, "hsm: status of hart 100 is "
	      "INVALID_PARAM");
	r = sbi_call(EXT_IPI, 0, 1, 100, 0);
	check(r.error == ERR_INVALID_PARAM, "ipi: hart 100 is INVALID_PARAM");
	print("# %d hart(s)\n", n);
	if (other < 0) {
		skip("other harts: HSM, IPI, RFENCE, per-hart HPM", "one hart");
		return;
	}
	if (h >= 0)
		ev0 = hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)h, 0).value;
	r = sbi_call(EXT_HSM, 0, (ulong)other, (ulong)_start, SECONDARY_MAGIC);
	check(!r.error && wait_stage(other, 1),
	      "hsm: hart_start runs hart %d", other);
	r = sbi_call(EXT_HSM, 0, (ulong)other, (ulong)_start, SECONDARY_MAGIC);
	check(r.error == -6, "hsm: hart_start of a started hart is "
	      "ALREADY_AVAILABLE");
	check(sec_info[other] == info, "hart %d reports the same GET_INFO",
	      other);
	if (h >= 0) {
		r = hpm(SBI_EXT_HPM_GET_MEVENT, (ulong)h, 0);
		check((sec_event[other] & 0xff) == 0x1 && r.value == ev0,
		      "HPM calls act on the calling hart only");
	}
	r = sbi_call(EXT_IPI, 0, 1UL << other, 0, 0);
	check(!r.error && wait_stage(other, 2), "ipi: send_ipi reaches hart %d "
	      "as SSIP", other);
	r = sbi_call(EXT_RFENCE, 0, 1UL << other, 0, 0);
	check(!r.error, "rfence: remote_fence_i completes");
	r = sbi_call(EXT_RFENCE, 1, ~0UL, ~0UL, 0);
	check(!r.error, "rfence: remote_sfence_vma to all harts completes");
	__atomic_store_n(&sec_stage[other], 3, __ATOMIC_RELEASE);
	t0 = rdtime();
	do {
		r = sbi_call(EXT_HSM, 2, (ulong)other, 0, 0);
	} while (r.value != 1 && rdtime() - t0 < 2 * TIMEBASE_HZ);
	check(!r.error && r.value == 1 && sec_stage[other] == 3,
	      "hsm: hart_stop stops hart %d", other);
	/* Reset the stage before the start: the hart may reach 1 at once. */
	__atomic_store_n(&sec_stage[other], 0, __ATOMIC_RELEASE);
	r = sbi_call(EXT_HSM, 0, (ulong)other, (ulong)_start, SECONDARY_MAGIC);
	check(!r.error && wait_stage(other, 1), "hsm: a stopped hart starts "
	      "again");
	sbi_call(EXT_IPI, 0, 1UL << other, 0, 0);
	wait_stage(other, 2);
	__atomic_store_n(&sec_stage[other], 3, __ATOMIC_RELEASE);
}

static void test_misc(void)
{
	struct sbiret r;
	ulong t0, now, pending;
	u32 word;
	int me = hartid();

	/* TIME: set_timer raises STIP (polled, interrupts stay masked) */
	t0 = rdtime();
	r = sbi_call(EXT_TIME, 0, t0 + TIMEBASE_HZ / 1000, 0, 0);
	/*
	 * time is read after sip, so that a hart descheduled between the
	 * two reads cannot see STIP with a time from before it was due.
	 * Generous: without -icount, time follows a host that may be busy.
	 */
	do {
		pending = csr_read(CSR_SIP) & SIP_STIP;
		now = rdtime();
	} while (!pending && now - t0 < 10 * TIMEBASE_HZ);
	check(!r.error && pending && now - t0 >= TIMEBASE_HZ / 1000,
	      "time: set_timer raises STIP when due (error %ld, STIP %d after "
	      "%lu ticks, due after %lu)", r.error, !!pending, now - t0,
	      (ulong)TIMEBASE_HZ / 1000);
	sbi_call(EXT_TIME, 0, ~0UL, ~0UL, 0);
	check(!(csr_read(CSR_SIP) & SIP_STIP),
	      "time: set_timer(far future) clears STIP");

	/* the firmware's memory is PMP-protected */
	faulted[me] = 0;
	probing[me] = 1;
	word = probe_load(0x80000000UL);
	probing[me] = 0;
	check(faulted[me], "firmware memory is not readable from S-mode "
	      "(0x%x)", faulted[me] ? 0 : word);
	r = sbi_call(EXT_DBCN, 0, 4, 0x80000000UL, 0);
	check(r.error == ERR_INVALID_PARAM, "dbcn: console_write from firmware "
	      "memory is INVALID_PARAM");
	r = sbi_call(EXT_DBCN, 0, 3, (ulong)"# \n", 0);
	check(!r.error && r.value == 3, "dbcn: console_write returns the count");
	r = sbi_call(EXT_SRST, 0, 7, 0, 0);
	check(r.error == ERR_INVALID_PARAM, "srst: reserved type is "
	      "INVALID_PARAM");
	r = sbi_call(EXT_SRST, 0, 0, 2, 0);
	check(r.error == ERR_INVALID_PARAM, "srst: reserved reason is "
	      "INVALID_PARAM");
}

/*
 * Round-trip cost of each call, for the benchmarks (bench/run): under
 * QEMU's -icount, instret counts the instructions of every privilege
 * mode, so this is what one call costs from S-mode through the firmware
 * and back.  Not a check: printed as "# cost NAME INSTRUCTIONS".
 */
static void report_cost(const char *name, ulong eid, ulong fid, ulong a0,
			ulong a1)
{
	const ulong n = 64;
	ulong i, t0, t1;

	sbi_call(eid, fid, a0, a1, 0);		/* warm the caches' state */
	t0 = csr_read(CSR_INSTRET);
	for (i = 0; i < n; i++)
		sbi_call(eid, fid, a0, a1, 0);
	t1 = csr_read(CSR_INSTRET);
	print("# cost %s %lu\n", name, (t1 - t0) / n);
}

static void report_costs(void)
{
	int h = lowest_bit(hpm_mask);
	ulong hx = h >= 0 ? (ulong)h : 0, bit = 1UL << hx;
	ulong mcen = hpm(SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0).value;
	ulong scen = hpm(SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0).value;
	ulong inh = hpm(SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0).value;

	report_cost("base_get_spec_version", 0x10, 0, 0, 0);
	report_cost("GET_MEVENT", SBI_EXT_HPM, SBI_EXT_HPM_GET_MEVENT, hx, 0);
	report_cost("SET_MEVENT", SBI_EXT_HPM, SBI_EXT_HPM_SET_MEVENT, hx, 0);
	report_cost("GET_MCOUNTER", SBI_EXT_HPM, SBI_EXT_HPM_GET_MCOUNTER, 0, 0);
	report_cost("SET_MCOUNTER", SBI_EXT_HPM, SBI_EXT_HPM_SET_MCOUNTER, hx, 0);
	report_cost("GET_UCOUNTER", SBI_EXT_HPM, SBI_EXT_HPM_GET_UCOUNTER, 0, 0);
	report_cost("SET_UCOUNTER", SBI_EXT_HPM, SBI_EXT_HPM_SET_UCOUNTER, hx, 0);
	report_cost("GET_MCOUNTEREN", SBI_EXT_HPM, SBI_EXT_HPM_GET_MCOUNTEREN, 0, 0);
	report_cost("SET_MCOUNTEREN", SBI_EXT_HPM, SBI_EXT_HPM_SET_MCOUNTEREN, mcen, 0);
	report_cost("GET_SCOUNTEREN", SBI_EXT_HPM, SBI_EXT_HPM_GET_SCOUNTEREN, 0, 0);
	report_cost("SET_SCOUNTEREN", SBI_EXT_HPM, SBI_EXT_HPM_SET_SCOUNTEREN, scen, 0);
	report_cost("GET_MCOUNTINHIBIT", SBI_EXT_HPM, SBI_EXT_HPM_GET_MCOUNTINHIBIT, 0, 0);
	report_cost("SET_MCOUNTINHIBIT", SBI_EXT_HPM, SBI_EXT_HPM_SET_MCOUNTINHIBIT, inh, 0);
	report_cost("GET_INFO", SBI_EXT_HPM, SBI_EXT_HPM_GET_INFO, 0, 0);
	report_cost("GET_WIDTH", SBI_EXT_HPM, SBI_EXT_HPM_GET_WIDTH, 0, 0);
	report_cost("INHIBIT_SET", SBI_EXT_HPM, SBI_EXT_HPM_INHIBIT_SET, bit, 0);
	report_cost("INHIBIT_CLEAR", SBI_EXT_HPM, SBI_EXT_HPM_INHIBIT_CLEAR, bit, 0);
	report_cost("COUNTER_START", SBI_EXT_HPM, SBI_EXT_HPM_COUNTER_START, bit, bit);
	report_cost("GET_MEVENTH", SBI_EXT_HPM, SBI_EXT_HPM_GET_MEVENTH, hx, 0);
	report_cost("GET_CTRCFG", SBI_EXT_HPM, SBI_EXT_HPM_GET_CTRCFG, 0, 0);
	hpm(SBI_EXT_HPM_SET_MCOUNTINHIBIT, inh, 0);
}

void test_entry(ulong hart, ulong arg);
void test_entry(ulong hart, ulong arg)
{
	int me = (int)hart;

	asm volatile("mv tp, %0" :: "r"(hart));
	if (arg == SECONDARY_MAGIC)
		secondary_main(me);

	print("# HPM SBI conformance, RV%d, hart %d\n", __riscv_xlen, me);
	test_base();
	test_info();
	has_smcntrpmf = fdt_has_ext(arg, "smcntrpmf");
	/* run.sh compares these with the QEMU CPU it asked for */
	print("# extensions: sscofpmf %d smcntrpmf %d (device tree: "
	      "sscofpmf %d)\n", has_sscofpmf, has_smcntrpmf,
	      fdt_has_ext(arg, "sscofpmf"));
	check(has_smcntrpmf >= 0, "the device tree is at a1 (0x%lx)", arg);
	test_index_checks();
	test_width();
	test_events();
	test_inhibit();
	test_counting();
	test_fixed_counters();
	test_counter_start();
	test_meventh();
	test_counteren();
	test_misc();
	test_harts(me);
	check(!err_value_bad, "every HPM error returns value 0 (%d did not)",
	      err_value_bad);
	report_costs();
	test_ctrcfg();
	print("# %d passed, %d failed\n", passed, failed);
	shutdown(failed != 0);
}
