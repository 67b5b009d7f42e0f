// SPDX-License-Identifier: GPL-2.0
/*
 * ptrchase: dependent loads over a configurable footprint.
 *
 * The footprint is cut into pages; one node per page, at a varying cache
 * line of the page, linked in a random cyclic order.  Every step is a
 * load that depends on the previous one and lands on another page, so a
 * footprint larger than the TLB's reach misses the data TLB on nearly
 * every step, while a small one (64 KiB = 16 pages) does not.
 *
 * usage: ptrchase FOOTPRINT[K|M|G] STEPS
 * prints: ptrchase: footprint=BYTES pages=P steps=S end=INDEX
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define LINE 64

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end || s == end)
		return -1;
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	size_t footprint, pages, page, i, steps;
	uint32_t seed = 12345;
	size_t *order;
	char *mem;
	void **p;

	page = (size_t)sysconf(_SC_PAGESIZE);
	if (argc != 3 || parse_size(argv[1], &footprint) ||
	    parse_size(argv[2], &steps) || footprint < 2 * page) {
		fprintf(stderr, "usage: %s FOOTPRINT[K|M|G] STEPS (footprint >= 2 pages)\n",
			argv[0]);
		return 2;
	}
	pages = footprint / page;
	mem = aligned_alloc(page, pages * page);
	order = malloc(pages * sizeof(*order));
	if (!mem || !order) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	/* Fisher-Yates shuffle of the page order, page 0 first. */
	for (i = 0; i < pages; i++)
		order[i] = i;
	for (i = pages - 1; i > 1; i--) {
		size_t j;

		seed = seed * 1103515245u + 12345u;
		j = 1 + (seed >> 8) % i;
		size_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
#define NODE(k) ((void **)(mem + order[k] * page + (order[k] % (page / LINE)) * LINE))
	for (i = 0; i < pages; i++)
		*NODE(i) = NODE((i + 1) % pages);
	p = NODE(0);
	for (i = 0; i < steps; i++)
		p = (void **)*p;
	printf("ptrchase: footprint=%zu pages=%zu steps=%zu end=%zu\n",
	       pages * page, pages, steps, (size_t)((char *)p - mem) / page);
	return 0;
}
