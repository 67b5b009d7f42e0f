// SPDX-License-Identifier: BSD-2-Clause
/*
 * Output of the RTL counting programs: text through the SBI debug
 * console, one call per line, and TAP-style verdicts ("ok - ...",
 * "not ok - ...") counted in passed and failed.
 */
#include "bare_riscv.h"
#include "print.h"

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
