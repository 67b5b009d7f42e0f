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
/*
 * The HPM extension is offered; GET_INFO is cycle, instret (time may be
 * there too) and @count counters from @first, none other (check @info);
 * each of them is 64 bits wide (check @width).
 */
void check_counters(unsigned long first, unsigned long count,
		    const char *info, const char *width);
/* "# N passed, N failed"; returns the program's status (0: all passed). */
int summary(void);

#endif
