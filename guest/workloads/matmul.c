// SPDX-License-Identifier: GPL-2.0
/*
 * matmul: the naive and the loop-interchanged matrix multiplication of
 * the seeds (C = A * B, N x N).  Integer elements, so both orders give
 * the same checksum bit for bit on any machine, and the host build of
 * this file gives the reference checksum the guest tests compare with.
 *
 * usage: matmul naive|interchanged N
 * prints: matmul: order=ORDER n=N checksum=0x...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(int32_t *m, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n * n; i++) {
		seed = seed * 1103515245u + 12345u;
		m[i] = (int32_t)((seed >> 16) % 201) - 100;
	}
}

/* i, j, k: walks B by columns, one cache line per element. */
static void naive(const int32_t *a, const int32_t *b, int64_t *c, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int64_t sum = 0;

			for (k = 0; k < n; k++)
				sum += (int64_t)a[i * n + k] * b[k * n + j];
			c[i * n + j] = sum;
		}
}

/* i, k, j: walks B and C by rows, sequentially. */
static void interchanged(const int32_t *a, const int32_t *b, int64_t *c,
			 size_t n)
{
	size_t i, j, k;

	memset(c, 0, n * n * sizeof(*c));
	for (i = 0; i < n; i++)
		for (k = 0; k < n; k++) {
			int64_t aik = a[i * n + k];

			for (j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
}

int main(int argc, char **argv)
{
	int32_t *a, *b;
	int64_t *c;
	uint64_t checksum = 0;
	size_t n, i;
	char *end;

	if (argc != 3 || (strcmp(argv[1], "naive") &&
			  strcmp(argv[1], "interchanged"))) {
		fprintf(stderr, "usage: %s naive|interchanged N\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[2], &end, 0);
	if (*end || n == 0 || n > 4096) {
		fprintf(stderr, "%s: N must be 1..4096\n", argv[0]);
		return 2;
	}
	a = malloc(n * n * sizeof(*a));
	b = malloc(n * n * sizeof(*b));
	c = malloc(n * n * sizeof(*c));
	if (!a || !b || !c) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	fill(a, n, 1);
	fill(b, n, 2);
	if (argv[1][0] == 'n')
		naive(a, b, c, n);
	else
		interchanged(a, b, c, n);
	for (i = 0; i < n * n; i++)
		checksum = checksum * 31 + (uint64_t)c[i];
	printf("matmul: order=%s n=%zu checksum=0x%016llx\n", argv[1], n,
	       (unsigned long long)checksum);
	return 0;
}
