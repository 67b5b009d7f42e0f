// SPDX-License-Identifier: BSD-2-Clause
/*
 * The few C library functions GCC may emit calls to even with
 * -ffreestanding (structure copies and clears), plus what the FDT editor
 * needs.  Byte loops: the firmware moves a few kilobytes at most.
 */
#include "fw.h"

void *memcpy(void *dst, const void *src, unsigned long n)
{
	u8 *d = dst;
	const u8 *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, unsigned long n)
{
	u8 *d = dst;
	const u8 *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, unsigned long n)
{
	u8 *d = dst;

	while (n--)
		*d++ = (u8)c;
	return dst;
}

int memcmp(const void *a, const void *b, unsigned long n)
{
	const u8 *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

unsigned long strlen(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (u8)*a - (u8)*b;
}
