// SPDX-License-Identifier: BSD-2-Clause
/*
 * What the RTL counting programs share: text through the SBI debug
 * console, one call per line; TAP-style verdicts ("ok - ...",
 * "not ok - ...") counted in passed and failed; the first checks of
 * what the hart has.
 */
#include "sbi_hpm_abi.h"
#include "bare_riscv.h"
#include "print.h"

#define EXT_BASE	0x10
#define EXT_DBCN	0x4442434e

unsigned int passed, failed;

static char line[256];
static unsigned int len;

void putch(char c)
{
	if (len < sizeof(line))
		line[len++] = c;
	if (c == '\n' || len == sizeof(line)) {
		sbi_call(EXT_DBCN, 0, len, (ulong)line, 0);
		len = 0;
	}
}

void puts_(const char *s)
{
	while (*s)
		putch(*s++);
}

void putu(ulong v)
{
	char b[24];
	int n = 0;

	do {
		b[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		putch(b[--n]);
}

void putd(long v)
{
	if (v < 0) {
		putch('-');
		v = -v;
	}
	putu((ulong)v);
}

void puthex(ulong v)
{
	char b[16];
	int n = 0;

	do {
		b[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	puts_("0x");
	while (n)
		putch(b[--n]);
}

/* The start of a check's line; its text follows. */
void verdict(int good)
{
	puts_(good ? "ok - " : "not ok - ");
	if (good)
		passed++;
	else
		failed++;
}

void check(int good, const char *what)
{
	verdict(good);
	puts_(what);
	putch('\n');
}

void check_counters(unsigned long first, unsigned long count,
		    const char *info, const char *width)
{
	ulong mask = ((1UL << count) - 1) << first, i;
	struct sbiret r;
	int good;

	r = sbi_call(EXT_BASE, 3, SBI_EXT_HPM, 0, 0);
	check(!r.error && r.value, "the firmware offers the HPM extension");

	r = sbi_call(SBI_EXT_HPM, SBI_EXT_HPM_GET_INFO, 0, 0, 0);
	puts_("# GET_INFO ");
	puthex(r.value);
	putch('\n');
	check(!r.error && (r.value & ~2UL) == (mask | 5), info);

	good = 1;
	for (i = first; i < first + count; i++) {
		r = sbi_call(SBI_EXT_HPM, SBI_EXT_HPM_GET_WIDTH, i, 0, 0);
		good &= !r.error && r.value == 64;
	}
	check(good, width);
}

int summary(void)
{
	puts_("# ");
	putu(passed);
	puts_(" passed, ");
	putu(failed);
	puts_(" failed\n");
	return failed ? 1 : 0;
}
