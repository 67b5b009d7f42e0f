/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef RTL_PRINT_H
#define RTL_PRINT_H

extern unsigned int passed, failed;

void putch(char c);
void puts_(const char *s);
void putu(unsigned long v);
void putd(long v);
void puthex(unsigned long v);
/* The start of a check's line ("ok - " or "not ok - "); its text follows. */
void verdict(int good);
/* A whole check's line. */
void check(int good, const char *what);

#endif
