// SPDX-License-Identifier: GPL-2.0
/*
 * knownloop: retire an exactly known number of instructions.
 *
 * The loop body is two instructions (addi, bnez) written in assembly, so
 * the count does not depend on the compiler: N iterations retire 2*N
 * instructions in the loop.  Everything else the process does (exec,
 * libc start-up, printing) is a few tens of thousands of instructions,
 * which is below 0.1 % of a 10^8-instruction run.
 *
 * usage: knownloop ITERATIONS
 * prints: knownloop: iterations=N loop_instructions=2N
 */
#include <stdio.h>
#include <stdlib.h>

#include "known_loop.h"

int main(int argc, char **argv)
{
	char *end;
	unsigned long n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s ITERATIONS\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[1], &end, 0);
	if (*argv[1] == '\0' || *end != '\0') {
		fprintf(stderr, "%s: not a number: %s\n", argv[0], argv[1]);
		return 2;
	}
	spin(n);
	printf("knownloop: iterations=%lu loop_instructions=%lu\n", n,
	       n * INSNS_PER_ITERATION);
	return 0;
}
