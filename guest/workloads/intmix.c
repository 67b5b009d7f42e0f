// SPDX-License-Identifier: GPL-2.0
/*
 * intmix: a CoreMark-like integer workload for the overhead benchmarks,
 * written for this project: each iteration walks and reverses a linked
 * list, multiplies small integer matrices, runs a state machine over a
 * text buffer and folds everything into a CRC-16, the four kinds of work
 * CoreMark mixes.  Deterministic; prints the CRC so runs can be compared.
 *
 * usage: intmix ITERATIONS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LIST_LEN	64
#define MAT_N		8
#define TEXT_LEN	256

struct node {
	struct node *next;
	int32_t value;
};

static uint16_t crc16(uint16_t crc, uint32_t data)
{
	int i;

	for (i = 0; i < 32; i++) {
		unsigned int bit = ((crc >> 15) ^ (data >> i)) & 1;

		crc = (uint16_t)((crc << 1) ^ (bit ? 0x8005 : 0));
	}
	return crc;
}

static struct node *reverse(struct node *head)
{
	struct node *prev = NULL;

	while (head) {
		struct node *next = head->next;

		head->next = prev;
		prev = head;
		head = next;
	}
	return prev;
}

/* States: 0 start, 1 integer, 2 decimal, 3 exponent, 4 invalid. */
static unsigned int scan(const char *text, unsigned int *counts)
{
	unsigned int state = 0, i, transitions = 0;

	for (i = 0; i < TEXT_LEN; i++) {
		char c = text[i];
		unsigned int next;

		if (c == ',') {
			counts[state]++;
			state = 0;
			continue;
		}
		if (c >= '0' && c <= '9')
			next = state == 0 ? 1 : state;
		else if (c == '.')
			next = state == 1 ? 2 : 4;
		else if (c == 'e')
			next = state == 1 || state == 2 ? 3 : 4;
		else
			next = 4;
		transitions += next != state;
		state = next;
	}
	return transitions;
}

int main(int argc, char **argv)
{
	static struct node nodes[LIST_LEN];
	static int32_t a[MAT_N][MAT_N], b[MAT_N][MAT_N], c[MAT_N][MAT_N];
	static char text[TEXT_LEN];
	unsigned int counts[5] = { 0 };
	const char alphabet[] = "0123456789.e,x";
	struct node *head = NULL;
	unsigned long iterations, it;
	uint16_t crc = 0;
	uint32_t seed = 1;
	int i, j, k;

	if (argc != 2 || !(iterations = strtoul(argv[1], NULL, 0))) {
		fprintf(stderr, "usage: %s ITERATIONS\n", argv[0]);
		return 2;
	}
	for (i = 0; i < LIST_LEN; i++) {
		seed = seed * 1103515245u + 12345u;
		nodes[i].value = (int32_t)(seed >> 16);
		nodes[i].next = head;
		head = &nodes[i];
	}
	for (i = 0; i < MAT_N; i++)
		for (j = 0; j < MAT_N; j++) {
			a[i][j] = i * MAT_N + j - 20;
			b[i][j] = (i ^ j) + 3;
		}
	for (i = 0; i < TEXT_LEN; i++) {
		seed = seed * 1103515245u + 12345u;
		text[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
	}

	for (it = 0; it < iterations; it++) {
		struct node *n;
		int32_t sum = 0;

		for (n = head; n; n = n->next)
			sum += n->value & 0xffff;
		head = reverse(head);
		crc = crc16(crc, (uint32_t)sum);

		for (i = 0; i < MAT_N; i++)
			for (j = 0; j < MAT_N; j++) {
				int32_t s = 0;

				for (k = 0; k < MAT_N; k++)
					s += a[i][k] * b[k][j];
				c[i][j] = s;
			}
		a[it % MAT_N][(it / MAT_N) % MAT_N] += c[0][0] & 7;
		crc = crc16(crc, (uint32_t)c[MAT_N - 1][MAT_N - 1]);

		crc = crc16(crc, scan(text, counts));
		text[it % TEXT_LEN] = alphabet[crc % (sizeof(alphabet) - 1)];
	}
	printf("intmix: iterations=%lu crc=0x%04x\n", iterations, crc);
	return 0;
}
