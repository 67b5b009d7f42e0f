// SPDX-License-Identifier: GPL-2.0
/*
 * perf-fuzz: open, use and close many perf events with random attributes
 * on the "cpu" PMU, to check that the PMU driver survives whatever user
 * space asks (the kernel log is checked by the caller).
 *
 * usage: perf-fuzz [N [SEED]]     (default N = 10000, SEED = 1)
 *
 * Each event gets a random type (raw mostly, also hardware, cache and the
 * PMU's own type from sysfs), a config drawn from the event values QEMU
 * counts, small values and random 64-bit words, a random counterid_mask
 * in config2 (0, one counter, random bits), random flags (disabled,
 * inherit, pinned, exclusive, exclude_*), sometimes a sample period, a
 * random target (this task or a CPU) and sometimes a group leader among
 * the events still open.  Up to WINDOW events stay open at once; open
 * events are enabled, disabled, reset, read and mmapped (user-space
 * counter reads) at random while a short loop runs, then closed.
 *
 * Prints "fuzz_events=N opened=X failed=Y bad_errno=Z" and one line
 * "errno NAME COUNT" per error seen.  A failure is "bad" when open
 * returns -1 with an errno outside those perf_event_open documents, or
 * returns anything else below 0; a read that fails on an open event or
 * returns part of a count is bad too (0, end of file, is what a pinned
 * event that could not be scheduled reads).  Exit status 0 when
 * nothing was bad.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WINDOW 24

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static unsigned int below(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static int errno_documented(int e)
{
	switch (e) {
	case E2BIG: case EACCES: case EBADF: case EBUSY: case EFAULT:
	case EINTR: case EINVAL: case EMFILE: case ENODEV: case ENOENT:
	case ENOSPC: case ENOSYS: case EOPNOTSUPP: case EOVERFLOW:
	case EPERM: case ESRCH: case EAGAIN: case ENOMEM:
		return 1;
	}
	return 0;
}

static int read_pmu_type(void)
{
	FILE *f = fopen("/sys/bus/event_source/devices/cpu/type", "r");
	int type = PERF_TYPE_RAW;

	if (f) {
		if (fscanf(f, "%d", &type) != 1)
			type = PERF_TYPE_RAW;
		fclose(f);
	}
	return type;
}

static uint64_t random_config(void)
{
	static const uint64_t known[] = {
		0x1, 0x2, 0x10019, 0x1001b, 0x10021, 0x0, 0x3, 0x1002,
		0x4000, 0x801, 0xffffffffffffffffull,
	};

	switch (below(4)) {
	case 0:
	case 1:
		return known[below(sizeof(known) / sizeof(known[0]))];
	case 2:
		return below(0x10030);
	default:
		return rnd();
	}
}

static uint64_t random_mask(void)
{
	switch (below(5)) {
	case 0:
		return 0;
	case 1:
		return 1ull << below(32);
	case 2:
		return rnd() & 0xffffffffull;
	case 3:
		return (1ull << below(32)) | (1ull << below(32));
	default:
		return rnd();
	}
}

static void random_attr(struct perf_event_attr *a, int pmu_type)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);

	switch (below(10)) {
	case 0:
		a->type = PERF_TYPE_HARDWARE;
		a->config = below(PERF_COUNT_HW_MAX + 2);
		break;
	case 1:
		a->type = PERF_TYPE_HW_CACHE;
		a->config = below(PERF_COUNT_HW_CACHE_MAX + 1) |
			    below(PERF_COUNT_HW_CACHE_OP_MAX + 1) << 8 |
			    below(PERF_COUNT_HW_CACHE_RESULT_MAX + 1) << 16;
		if (!below(8))
			a->config = rnd();
		break;
	case 2:
		a->type = pmu_type;
		a->config = random_config();
		break;
	default:
		a->type = PERF_TYPE_RAW;
		a->config = random_config();
		break;
	}
	a->config2 = random_mask();
	if (!below(8))
		a->config1 = rnd();

	a->disabled = below(2);
	a->inherit = !below(4);
	a->pinned = !below(8);
	a->exclusive = !below(16);
	a->exclude_user = !below(8);
	a->exclude_kernel = !below(4);
	a->exclude_hv = !below(4);
	a->exclude_idle = !below(8);
	if (!below(10)) {
		a->sample_period = 1 + below(100000);
		a->sample_type = PERF_SAMPLE_IP;
	}
	if (!below(4))
		a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				 PERF_FORMAT_TOTAL_TIME_RUNNING;
}

struct slot {
	int fd;
	void *page;
};

static int bad;

static void use_event(struct slot *s)
{
	uint64_t buf[8];
	ssize_t n;

	switch (below(6)) {
	case 0:
		ioctl(s->fd, PERF_EVENT_IOC_ENABLE, 0);
		break;
	case 1:
		ioctl(s->fd, PERF_EVENT_IOC_DISABLE, 0);
		break;
	case 2:
		ioctl(s->fd, PERF_EVENT_IOC_RESET, 0);
		break;
	case 3:
		if (!s->page) {
			s->page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ,
				       MAP_SHARED, s->fd, 0);
			if (s->page == MAP_FAILED)
				s->page = NULL;
		}
		if (s->page) {
			volatile struct perf_event_mmap_page *pg = s->page;

			(void)pg->index;
			(void)pg->offset;
		}
		break;
	default:
		n = read(s->fd, buf, sizeof(buf));
		/* 0: a pinned event that could not be scheduled (EOF) */
		if (n < 0 || (n > 0 && n < (ssize_t)sizeof(uint64_t))) {
			fprintf(stderr, "read of an open event: %zd (%s)\n",
				n, n < 0 ? strerror(errno) : "short");
			bad++;
		}
		break;
	}
}

static void close_slot(struct slot *s)
{
	if (s->page)
		munmap(s->page, sysconf(_SC_PAGESIZE));
	close(s->fd);
	s->fd = -1;
	s->page = NULL;
}

int main(int argc, char **argv)
{
	static unsigned long errcount[4096];
	struct slot slot[WINDOW];
	struct perf_event_attr attr;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long n = 10000, i, opened = 0, failed = 0;
	int pmu_type = read_pmu_type();
	volatile unsigned long spin;
	int j, e;

	if (argc > 1)
		n = strtoul(argv[1], NULL, 0);
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	if (!rng_state)
		rng_state = 1;
	for (j = 0; j < WINDOW; j++)
		slot[j].fd = -1, slot[j].page = NULL;

	for (i = 0; i < n; i++) {
		struct slot *s = &slot[below(WINDOW)];
		int group = -1, cpu = -1;
		pid_t pid = 0;
		long fd;

		if (s->fd >= 0)
			close_slot(s);

		random_attr(&attr, pmu_type);
		if (!below(4)) {
			pid = -1;
			cpu = below(ncpu > 0 ? ncpu : 1);
		}
		if (!below(4)) {
			j = below(WINDOW);
			group = slot[j].fd;
		}
		if (!below(200))
			group = 1000;	/* not a perf event fd */

		fd = syscall(__NR_perf_event_open, &attr, pid, cpu, group, 0);
		if (fd >= 0) {
			opened++;
			s->fd = fd;
			for (j = below(4); j >= 0; j--)
				use_event(s);
		} else {
			failed++;
			e = errno;
			if (fd != -1 || e <= 0 || !errno_documented(e)) {
				fprintf(stderr, "open #%lu: returned %ld errno %d type %u config %#llx config2 %#llx\n",
					i, fd, e, attr.type,
					(unsigned long long)attr.config,
					(unsigned long long)attr.config2);
				bad++;
			}
			if (e > 0 && e < 4096)
				errcount[e]++;
		}
		for (spin = 0; spin < 200; spin++)
			;
		if (!below(50))
			for (j = 0; j < WINDOW; j++)
				if (slot[j].fd >= 0 && below(2))
					use_event(&slot[j]);
	}
	for (j = 0; j < WINDOW; j++)
		if (slot[j].fd >= 0)
			close_slot(&slot[j]);

	printf("fuzz_events=%lu opened=%lu failed=%lu bad_errno=%d\n",
	       n, opened, failed, bad);
	for (e = 1; e < 4096; e++)
		if (errcount[e])
			printf("errno %s %lu\n", strerrorname_np(e) ?
			       strerrorname_np(e) : "?", errcount[e]);
	return bad ? 1 : 0;
}
