/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The known loop: on RISC-V exactly INSNS_PER_ITERATION instructions an
 * iteration (addi, bnez), so that a count of retired instructions can be
 * checked exactly.  Shared by knownloop and papi-knownloop (guest/papi).
 */
#ifndef KNOWN_LOOP_H
#define KNOWN_LOOP_H

#define INSNS_PER_ITERATION 2

static inline void spin(unsigned long iterations)
{
	if (!iterations)
		return;
#if defined(__riscv)
	__asm__ volatile("1:\n\t"
			 "addi %0, %0, -1\n\t"
			 "bnez %0, 1b\n"
			 : "+r"(iterations));
#else
	while (iterations) {
		__asm__ volatile("" : "+r"(iterations));
		iterations--;
	}
#endif
}

#endif
