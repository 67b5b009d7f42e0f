// SPDX-License-Identifier: GPL-2.0
/*
 * papi-knownloop: the known loop of knownloop.c, measured with PAPI's API.
 *
 * Counts the events named on the command line (presets such as
 * PAPI_TOT_INS, or native events such as qemu_virt::INST_RETIRED) around
 * a loop of exactly 2 * ITERATIONS instructions (addi, bnez), in PAPI's
 * default domain (user mode), and prints one line per event.
 *
 * usage: papi-knownloop ITERATIONS EVENT...
 * prints: papi-knownloop: iterations=N loop_instructions=2N
 *         EVENT=COUNT        (one line per event)
 */
#include <stdio.h>
#include <stdlib.h>
#include <papi.h>

#include "../workloads/known_loop.h"

static void die(const char *what, const char *arg, int ret)
{
	fprintf(stderr, "papi-knownloop: %s%s%s: %s\n", what, arg ? " " : "",
		arg ? arg : "", PAPI_strerror(ret));
	exit(1);
}

int main(int argc, char **argv)
{
	long long counts[16];
	int set = PAPI_NULL, ret, i, n;
	unsigned long iters;
	char *end;

	if (argc < 3 || argc - 2 > (int)(sizeof(counts) / sizeof(counts[0]))) {
		fprintf(stderr, "usage: %s ITERATIONS EVENT... (at most %zu events)\n",
			argv[0], sizeof(counts) / sizeof(counts[0]));
		return 2;
	}
	iters = strtoul(argv[1], &end, 0);
	if (*argv[1] == '\0' || *end != '\0') {
		fprintf(stderr, "%s: not a number: %s\n", argv[0], argv[1]);
		return 2;
	}
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT)
		die("PAPI_library_init", NULL, ret < 0 ? ret : PAPI_EINVAL);
	ret = PAPI_create_eventset(&set);
	if (ret != PAPI_OK)
		die("PAPI_create_eventset", NULL, ret);
	n = argc - 2;
	for (i = 0; i < n; i++) {
		ret = PAPI_add_named_event(set, argv[i + 2]);
		if (ret != PAPI_OK)
			die("cannot add event", argv[i + 2], ret);
	}
	ret = PAPI_start(set);
	if (ret != PAPI_OK)
		die("PAPI_start", NULL, ret);
	spin(iters);
	ret = PAPI_stop(set, counts);
	if (ret != PAPI_OK)
		die("PAPI_stop", NULL, ret);
	printf("papi-knownloop: iterations=%lu loop_instructions=%lu\n", iters,
	       iters * INSNS_PER_ITERATION);
	for (i = 0; i < n; i++)
		printf("%s=%lld\n", argv[i + 2], counts[i]);
	return 0;
}
