// SPDX-License-Identifier: GPL-2.0
/*
 * hpmfault: a task reads its own event through the mmap page while the
 * firmware fails the PMU driver's calls, for tests/guest/hpm-fault-
 * injection.sh on the TEST-ONLY firmware (run-qemu --firmware
 * hpm-faultinj, tests/fault-injection/): opening the raw event
 * 0xfa1XPPFF makes every PP-th later HPM call of FID FF fail (X = 1:
 * only those whose first argument is 0), period 0 stops it.
 *
 * usage: hpmfault [-s STALE] [-A] [-P] [-p PERIOD] [-z] -f FID -r RATE
 *                 CONFIG CONFIG2 READS WORK
 *
 *   -s STALE   first count STALE busy-loop iterations with raw event 0x2
 *              (instructions) on the counters CONFIG2 names, and close
 *              it: the counter then holds another event's count
 *   -f FID, -r RATE  the calls to fail: every RATE-th call of FID
 *   -z         only the calls of FID whose first argument is 0 (for
 *              COUNTER_START: the zeroings that start nothing)
 *   -A         arm the injector after opening the event (default:
 *              before), so that its start succeeds and later calls fail
 *   -P         open the event pinned (an event opened later does not
 *              move it off its counter)
 *   -p PERIOD  open it as a sampling event of period PERIOD (the
 *              samples are not read: no ring buffer)
 *
 * Opens raw event CONFIG (config2 CONFIG2) on this task, maps its first
 * page, and READS times: runs WORK busy-loop iterations, then reads the
 * count with read(2), through the mmap page as a self-monitoring reader
 * would (index, offset, csrr of the counter, pmc_width), and with read(2)
 * again.  Then it disarms the injector, sleeps (the event goes off its
 * counter and on again, its start no longer failing), and reads twice
 * through the page around some work.  Prints, at the end:
 *   stale=S                      (with -s: the stale event's count)
 *   sample ns=T read=K1 mmap=M read=K2   per read, T the guest time since
 *                                just before the open (M -1: the page
 *                                offered no counter, read(2) it is)
 *   sigill=0|1                   whether a read through the page trapped
 *   recovered mmap=M1 mmap=M2 read=K
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define FI_KEY		0xfa100000ull
#define FI_A0_ZERO	0x00010000ull

struct sample {
	uint64_t ns, k1, k2;
	int64_t m;
};

static sigjmp_buf sigill_jmp;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(sigill_jmp, 1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin(long n)
{
	volatile long i;

	for (i = 0; i < n; i++)
		;
}

static uint64_t csr_counter(unsigned int idx)
{
	uint64_t v = 0;

#ifdef __riscv
	switch (idx) {
#define RD(n) case n: __asm__ volatile("csrr %0, %1" : "=r"(v) : "i"(0xc00 + n)); break;
	RD(0) RD(1) RD(2) RD(3) RD(4) RD(5) RD(6) RD(7) RD(8) RD(9) RD(10)
	RD(11) RD(12) RD(13) RD(14) RD(15) RD(16) RD(17) RD(18) RD(19)
	RD(20) RD(21) RD(22) RD(23) RD(24) RD(25) RD(26) RD(27) RD(28)
	RD(29) RD(30) RD(31)
#undef RD
	}
#else
	(void)idx;
#endif
	return v;
}

/* The count as perf's user-space read protocol gives it; -1: no counter. */
static int64_t page_read(volatile struct perf_event_mmap_page *pc)
{
	uint32_t seq, idx;
	uint64_t count, pmc;
	unsigned int width;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		if (!pc->cap_user_rdpmc || !idx)
			return -1;
		count = pc->offset;
		width = pc->pmc_width;
		pmc = csr_counter(idx - 1);
		if (width < 64)
			pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
		count += pmc;
		__sync_synchronize();
	} while (pc->lock != seq);
	return (int64_t)count;
}

static int open_raw(uint64_t config, uint64_t config2, uint64_t period,
		    int pinned)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = config;
	attr.config2 = config2;
	attr.sample_period = period;
	attr.pinned = pinned;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "hpmfault: perf_event_open %#llx: %s\n",
			(unsigned long long)config, strerror(errno));
		exit(1);
	}
	return fd;
}

static uint64_t read_count(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) != sizeof(v)) {
		fprintf(stderr, "hpmfault: read: %s\n", strerror(errno));
		exit(1);
	}
	return v;
}

/* Set the firmware's plan: the event is programmed, so the call is made. */
static uint64_t fi_flags;

static void injector(unsigned int fid, unsigned int rate)
{
	close(open_raw(FI_KEY | fi_flags | (rate & 0xff) << 8 | (fid & 0xff),
		       0, 0, 0));
}

static void usage(void)
{
	fprintf(stderr, "usage: hpmfault [-s STALE] [-A] [-P] [-p PERIOD] [-z] -f FID -r RATE CONFIG CONFIG2 READS WORK\n");
	exit(2);
}

/* The reads, in functions of their own: main()'s locals survive a SIGILL. */
static struct sample *samples;
static volatile long done;
static int64_t recovered[2] = { -1, -1 };

static int read_loop(volatile struct perf_event_mmap_page *pc, int fd,
		     long reads, long work, uint64_t t0)
{
	if (sigsetjmp(sigill_jmp, 1))
		return 1;
	for (; done < reads; done++) {
		spin(work);
		samples[done].k1 = read_count(fd);
		samples[done].m = page_read(pc);
		samples[done].k2 = read_count(fd);
		samples[done].ns = now_ns() - t0;
	}
	return 0;
}

static int read_recovered(volatile struct perf_event_mmap_page *pc, long work)
{
	if (sigsetjmp(sigill_jmp, 1))
		return 1;
	recovered[0] = page_read(pc);
	spin(work);
	recovered[1] = page_read(pc);
	return 0;
}

int main(int argc, char **argv)
{
	long stale = 0, reads, work, i;
	uint64_t config, config2, period = 0, stale_count = 0, t0;
	int fid = -1, rate = -1, arm_after = 0, pinned = 0, opt, fd, sigill;
	volatile struct perf_event_mmap_page *pc;
	struct sigaction sa;

	while ((opt = getopt(argc, argv, "s:f:r:APp:z")) != -1) {
		switch (opt) {
		case 's': stale = atol(optarg); break;
		case 'f': fid = atoi(optarg); break;
		case 'r': rate = atoi(optarg); break;
		case 'A': arm_after = 1; break;
		case 'P': pinned = 1; break;
		case 'p': period = strtoull(optarg, NULL, 0); break;
		case 'z': fi_flags = FI_A0_ZERO; break;
		default: usage();
		}
	}
	if (argc - optind != 4 || fid < 0 || rate < 1 || rate > 255)
		usage();
	config = strtoull(argv[optind], NULL, 0);
	config2 = strtoull(argv[optind + 1], NULL, 0);
	reads = atol(argv[optind + 2]);
	work = atol(argv[optind + 3]);
	if (reads < 1 || work < 0)
		usage();
	samples = calloc(reads, sizeof(*samples));
	if (!samples)
		return 1;

	if (stale) {
		fd = open_raw(0x2, config2, 0, 0);
		spin(stale);
		stale_count = read_count(fd);
		close(fd);
	}
	if (!arm_after)
		injector(fid, rate);
	t0 = now_ns();
	fd = open_raw(config, config2, period, pinned);
	pc = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (pc == MAP_FAILED) {
		fprintf(stderr, "hpmfault: mmap: %s\n", strerror(errno));
		return 1;
	}
	if (arm_after)
		injector(fid, rate);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigaction(SIGILL, &sa, NULL);
	sigill = read_loop(pc, fd, reads, work, t0);
	injector(fid, 0);
	/* Off the counter and on again: the start no longer fails. */
	usleep(2000);
	sigill |= read_recovered(pc, work);

	if (stale)
		printf("stale=%llu\n", (unsigned long long)stale_count);
	for (i = 0; i < done; i++)
		printf("sample ns=%llu read=%llu mmap=%lld read=%llu\n",
		       (unsigned long long)samples[i].ns,
		       (unsigned long long)samples[i].k1,
		       (long long)samples[i].m,
		       (unsigned long long)samples[i].k2);
	printf("sigill=%d\n", sigill);
	printf("recovered mmap=%lld mmap=%lld read=%llu\n",
	       (long long)recovered[0], (long long)recovered[1],
	       (unsigned long long)read_count(fd));
	return 0;
}
