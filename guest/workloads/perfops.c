// SPDX-License-Identifier: GPL-2.0
/*
 * perfops: the cost of perf_event operations, for the benchmarks.
 *
 * Under QEMU's -icount shift=0 one guest instruction is one nanosecond of
 * guest time, so CLOCK_MONOTONIC elapsed over K repetitions of an
 * operation, divided by K, is the operation's cost in instructions
 * retired in all privilege modes (user, kernel and firmware alike),
 * whatever PMU driver or firmware serves perf.  The clock (the time CSR,
 * 10 MHz on QEMU virt) has a resolution of 100 instructions; repeating
 * each operation thousands of times makes that negligible.
 *
 * usage: perfops ops [-e EVENT[,EVENT...]] [-g GROUP] [-n REPEAT] [-o OP]
 *            prints "op=NAME events=G instructions=X" per operation;
 *            a list of events makes the group (leader first), -g G
 *            repeats a single event G times; -o runs only operation OP
 *            (open+close, enable+disable, read, mmap-read)
 *        perfops time CMD [ARGS...]
 *            runs CMD and prints "elapsed_ns=X status=S"
 *        perfops where CONFIG [CONFIG2]
 *            opens raw event CONFIG (config2, e.g. a counter mask, as
 *            given) on this task and prints the hardware counter the PMU
 *            driver gave it, from the mmap page: "counter=N" (-1: none)
 *        perfops rawread CONFIG [CONFIG2]
 *            opens raw event CONFIG on this task as "where" does and at
 *            once reads its counter directly (csrr of the counter the
 *            mmap page names) and through the mmap page's protocol:
 *            "counter=N raw=X mmap=Y" (X, Y: -1 when not readable); a
 *            counter started for this event holds only its counts
 *        perfops cpuwide CONFIG
 *            opens raw event CONFIG CPU-wide on CPU 0 (pid -1), pinned
 *            there itself, maps it and reads it as a user-space reader
 *            following the mmap page would: "counter=N user_rdpmc=R
 *            read=ok|trapped|unavailable" (trapped: the page offered a
 *            counter that user space may not read, SIGILL)
 *        perfops track CONFIG CONFIG2 SAMPLES WORK
 *            opens raw event CONFIG (CONFIG2 as given, e.g. "0" or a
 *            counter mask; CONFIG "cycles" or "instructions": that
 *            generic event) on this task and maps it; prints
 *            "counter=N pmc_width=W", then SAMPLES lines, each after WORK
 *            iterations of a busy loop: "read=K1 mmap=M read=K2", the
 *            count read(2) gives before and after a read through the
 *            mmap page's protocol (M: -1 when not readable there).  A
 *            reader that gets the kernel's count has K1 <= M <= K2.  The
 *            lines are printed at the end: output could block the task,
 *            and each time it is scheduled in again its counter restarts
 *            from zero, which would hide what a long run does.
 *        perfops inherit CONFIG CONFIG2 COUNTER ROUNDS
 *            opens raw event CONFIG as an inherited event on this task
 *            and CPU 0 and maps it ("counter=N user_rdpmc=R"), then forks ROUNDS
 *            children one after the other, waiting for each; each child
 *            reads hpmcounter COUNTER directly: "child read=trapped" or
 *            "child read=ok"
 *        perfops useraccess
 *            user-space reads of a shared counter: opens and maps two
 *            cycles events on this task, unmaps and closes one, reads
 *            the other through its mmap page ("shared_read=ok" when the
 *            count grows, "trapped" on SIGILL, "unavailable"), closes
 *            it and tries rdcycle ("rdcycle_after_close=trapped" or
 *            "allowed")
 *        perfops rdcounters
 *            reads cycle and instret directly (csrr) with no perf event
 *            open, as any program may try: "rdcycle=ok|trapped
 *            rdinstret=ok|trapped" (what scounteren allows now)
 *        perfops mapread EVENT
 *            opens EVENT (as for ops) on this task, maps it and reads it
 *            as a user-space reader following the mmap page would:
 *            "counter=N user_rdpmc=R read=ok|trapped|unavailable" (ok:
 *            the page offers a counter and reading it does not trap, the
 *            count need not grow: a TLB event may count nothing; trapped:
 *            SIGILL)
 *        perfops guestflag CONFIG EXCLUDE_HOST
 *            opens raw event CONFIG on this task with config1 = 1 (KVM's
 *            RISCV_PMU_CONFIG1_GUEST_EVENTS), exclude_kernel and
 *            exclude_hv set, exclude_host as given (0 or 1), as any
 *            user could: "open=ok" or "open=ERRNO-NAME"
 *        perfops slices EVENT SAMPLES
 *            opens EVENT on this task, maps it, and shares CPU 0 with a
 *            child that spins there, so that the two take turns; reads
 *            the counter the mmap page names directly SAMPLES times in a
 *            row and prints "switches=N first=F max=X": N the times the
 *            task came back (more than 1 ms since the read before), F
 *            the first read, X the largest; then "read=K1 mmap=M
 *            read=K2" as track prints.  A counter that never shows
 *            other tasks' counts keeps F and X far below this task's own
 *            count.  "unavailable" when the page offers no counter,
 *            "trapped" on SIGILL
 *        perfops sampleread CONFIG PERIOD READS
 *            opens raw event CONFIG on this task as a sampling event of
 *            period PERIOD (no ring buffer: the samples are dropped, the
 *            overflows and perf's throttling happen all the same), maps
 *            its first page and reads it READS times as a user-space
 *            reader following the mmap page would: "reads=N counter=C
 *            fallback=F read=ok|trapped" (C: reads the page let take from
 *            the counter, F: reads it sent to read(2), as while the event
 *            was throttled; trapped: SIGILL, the page offered a counter
 *            user space could not read), then "count=K" from read(2)
 *        perfops capfirst EVENT
 *            opens EVENT (as for ops) on this task disabled, maps it and
 *            prints what its first page says before the event is
 *            enabled, as a self-monitoring library checks it:
 *            "before cap_user_rdpmc=C index=I", then enables it and
 *            prints "after cap_user_rdpmc=C index=I read=ok|trapped|
 *            unavailable"
 *        perfops mark
 *            executes one ebreak, a breakpoint trap from user mode that
 *            a trap log (QEMU's -d int) shows, and exits 0: a marker
 *            between the parts of a guest command in such a log
 *        perfops many N [-m]
 *            the cost of one operation on one event among N: opens N
 *            events on this task, alternately instructions and cycles,
 *            each its own group, disabled (as a tool that opens one event
 *            per thread or per metric does; -m maps each one too, as a
 *            self-monitoring library does), on CPU 0 only, and prints
 *            "many events=N mapped=0|1" then, per event (instructions):
 *            "open=" "enable=" (enabling them one by one, the k-th with
 *            k - 1 others on) "read=" (read(2) of each) "disable="
 *            "close="; and "switch=S on=A": S the cost of one switch
 *            away from this task and back (a round trip through two
 *            pipes with a child on the same CPU), less the same round
 *            trip with no event open, and A the events on a counter on
 *            average meanwhile (the sum over the events of time running
 *            over time enabled), so that S / A is the cost per switch of
 *            one event that is on a counter.  The enable and disable
 *            passes are repeated (until 1,000 events have been enabled,
 *            five times at least), the read pass three times, and the
 *            least pass is taken: one that a switch to another task (a
 *            kernel thread) fell in also pays for that switch, which
 *            with 1,000 events costs as much as a pass.
 *            Last, what the events counted over the switches: "grew=G
 *            steady=S insn_min=L insn_max=H": G the events whose count
 *            grew, S those on a counter all the time, L and H the least
 *            and greatest count of the instructions events (all counted
 *            the same stretch, each read at about the same moments)
 *        perfops moved EVENT CONFIG2 SECONDS DELAY
 *            opens EVENT (as for ops) with CONFIG2 as given (e.g. "0" or
 *            a counter mask) on this task, maps it and reads it
 *            through the mmap page's protocol for SECONDS, spinning
 *            DELAY iterations between taking the counter index from the
 *            page and reading that counter (a reader that is slow there,
 *            so that a preemption between the two is likely: its event
 *            may come back on another counter meanwhile).  SIGILL is not
 *            caught: a reader the kernel kills for a stale index dies
 *            of it.  Prints "reads=N retries=R moves=M counters=0xC
 *            read=K1 mmap=V read=K2": M the times a read found the event
 *            on another counter than the read before, C the counters
 *            seen (bit i: hpmcounter i), then read(2), the page and
 *            read(2) again (a reader that gets the kernel's count has
 *            K1 <= V <= K2)
 * *
 * EVENT: instructions (default), cycles, dTLB-load-misses,
 * iTLB-load-misses (cache events, on programmable counters) or rHEX (a
 * raw event).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_GROUP 32

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int parse_event(const char *name, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_HARDWARE;
	if (!strcmp(name, "instructions")) {
		attr->config = PERF_COUNT_HW_INSTRUCTIONS;
	} else if (!strcmp(name, "cycles")) {
		attr->config = PERF_COUNT_HW_CPU_CYCLES;
	} else if (!strcmp(name, "dTLB-load-misses") ||
		   !strcmp(name, "iTLB-load-misses")) {
		attr->type = PERF_TYPE_HW_CACHE;
		attr->config = (name[0] == 'd' ? PERF_COUNT_HW_CACHE_DTLB :
						 PERF_COUNT_HW_CACHE_ITLB) |
			       PERF_COUNT_HW_CACHE_OP_READ << 8 |
			       PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	} else if (name[0] == 'r') {
		char *end;

		attr->type = PERF_TYPE_RAW;
		attr->config = strtoull(name + 1, &end, 16);
		if (*end || end == name + 1)
			return -1;
	} else {
		return -1;
	}
	return 0;
}

static int open_group(const struct perf_event_attr *proto, int n, int *fd)
{
	struct perf_event_attr attr;
	int i;

	for (i = 0; i < n; i++) {
		attr = proto[i];
		attr.disabled = !i;	/* members follow the leader */
		attr.read_format = PERF_FORMAT_GROUP |
				   PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd[i] = syscall(SYS_perf_event_open, &attr, 0, -1,
				i ? fd[0] : -1, 0);
		if (fd[i] < 0) {
			fprintf(stderr, "perfops: perf_event_open (event %d): %s\n",
				i, strerror(errno));
			while (i--)
				close(fd[i]);
			return -1;
		}
	}
	return 0;
}

static void close_group(int n, int *fd)
{
	while (n--)
		close(fd[n]);
}

static const char *only_op;

static int want(const char *op)
{
	return !only_op || !strcmp(only_op, op);
}

static void report(const char *op, int n, uint64_t ns, long repeat)
{
	if (!want(op))
		return;
	printf("op=%s events=%d instructions=%.1f\n", op, n,
	       repeat ? (double)ns / (double)repeat : 0.0);
}

/* Read the counter behind an mmap page the way perf's user-space read
 * protocol says: retry while the kernel updates the page. */
#if defined(__riscv)
static uint64_t read_counter_csr(unsigned int idx)
{
	uint64_t v = 0;

	switch (idx) {
#define CASE(n) case n: __asm__ volatile("csrr %0, %1" : "=r"(v) : "i"(0xc00 + n)); break
	CASE(0); CASE(1); CASE(2); CASE(3); CASE(4); CASE(5); CASE(6); CASE(7);
	CASE(8); CASE(9); CASE(10); CASE(11); CASE(12); CASE(13); CASE(14);
	CASE(15); CASE(16); CASE(17); CASE(18); CASE(19); CASE(20); CASE(21);
	CASE(22); CASE(23); CASE(24); CASE(25); CASE(26); CASE(27); CASE(28);
	CASE(29); CASE(30); CASE(31);
#undef CASE
	}
	return v;
}
#else
static uint64_t read_counter_csr(unsigned int idx)
{
	(void)idx;
	return 0;
}
#endif

/* Inlined, as in a real reader: the benchmark measures the read, not a call. */
static inline __attribute__((always_inline)) int
mmap_read(volatile struct perf_event_mmap_page *pc, uint64_t *val)
{
	uint32_t seq, idx;
	uint64_t count, pmc;
	int width;

	do {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		if (!pc->cap_user_rdpmc || !idx)
			return -1;
		width = pc->pmc_width;
		pmc = read_counter_csr(idx - 1);
		if (width < 64)
			pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >> (64 - width));
		count += pmc;
		__sync_synchronize();
	} while (pc->lock != seq);
	*val = count;
	return 0;
}

static sigjmp_buf sigill_env;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(sigill_env, 1);
}

/*
 * fn(arg) with SIGILL caught (a counter CSR that user space may not
 * read): 1 if it trapped, else 0 and *ret is fn's value.
 */
static int trapped(int (*fn)(void *), void *arg, int *ret)
{
	struct sigaction sa, old;
	int t = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigaction(SIGILL, &sa, &old);
	if (sigsetjmp(sigill_env, 1))
		t = 1;
	else
		*ret = fn(arg);
	sigaction(SIGILL, &old, NULL);
	return t;
}

struct mmap_read_args {
	volatile struct perf_event_mmap_page *pc;
	uint64_t first, last;
};

/* Two reads around some work: 0 when the count grew, -1 otherwise. */
static int mmap_read_twice(void *p)
{
	struct mmap_read_args *a = p;
	volatile unsigned long spin;

	if (mmap_read(a->pc, &a->first))
		return -1;
	for (spin = 0; spin < 100000; spin++)
		;
	if (mmap_read(a->pc, &a->last))
		return -1;
	return a->last > a->first ? 0 : -1;
}

/*
 * Run the page reader fn on a and print how it went: "trapped" (SIGILL,
 * the page offered a counter user space may not read), "unavailable"
 * (the page offered none, or the count did not grow) or "ok".
 */
static void print_read_verdict(int (*fn)(void *), struct mmap_read_args *a)
{
	int ret = -1;

	if (trapped(fn, a, &ret))
		printf("trapped\n");
	else
		printf("%s\n", ret ? "unavailable" : "ok");
}

static int read_cycle(void *p)
{
	(void)p;
	return (int)(read_counter_csr(0) & 1);
}

static int read_instret(void *p)
{
	(void)p;
	return (int)(read_counter_csr(2) & 1);
}

static int rdcounters(void)
{
	int ret;

	printf("rdcycle=%s", trapped(read_cycle, NULL, &ret) ? "trapped" : "ok");
	printf(" rdinstret=%s\n",
	       trapped(read_instret, NULL, &ret) ? "trapped" : "ok");
	return 0;
}

static int useraccess(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct mmap_read_args a;
	void *pc[2];
	int fd[2], i, ret = -1;

	parse_event("cycles", &attr);
	for (i = 0; i < 2; i++) {
		fd[i] = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		if (fd[i] < 0) {
			fprintf(stderr, "perfops: perf_event_open: %s\n",
				strerror(errno));
			return 1;
		}
		pc[i] = mmap(NULL, page, PROT_READ, MAP_SHARED, fd[i], 0);
		if (pc[i] == MAP_FAILED) {
			fprintf(stderr, "perfops: mmap: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("counters=%d,%d\n",
	       (int)((struct perf_event_mmap_page *)pc[0])->index - 1,
	       (int)((struct perf_event_mmap_page *)pc[1])->index - 1);
	munmap(pc[0], page);
	close(fd[0]);
	a.pc = pc[1];
	if (trapped(mmap_read_twice, &a, &ret))
		printf("shared_read=trapped\n");
	else
		printf("shared_read=%s\n", ret ? "unavailable" : "ok");
	munmap(pc[1], page);
	close(fd[1]);
	printf("rdcycle_after_close=%s\n",
	       trapped(read_cycle, NULL, &ret) ? "trapped" : "allowed");
	return 0;
}

static int ops(const struct perf_event_attr *attr, int n, long repeat)
{
	uint64_t buf[3 + 2 * MAX_GROUP], t, sink = 0;
	int fd[MAX_GROUP];
	long i;
	void *page;

	/* Warm up: the first opens allocate perf contexts and fault pages. */
	for (i = 0; i < 16; i++) {
		if (open_group(attr, n, fd))
			return 1;
		close_group(n, fd);
	}

	/* open + close */
	t = now_ns();
	for (i = 0; want("open+close") && i < repeat; i++) {
		if (open_group(attr, n, fd))
			return 1;
		close_group(n, fd);
	}
	report("open+close", n, now_ns() - t, repeat);

	if (open_group(attr, n, fd))
		return 1;

	/*
	 * enable + disable of the whole group through its leader, as perf
	 * itself does (the members are enabled and follow it): the group
	 * goes on and off the counters in one pass each.  PERF_IOC_FLAG_GROUP
	 * would disable the members too, and enable them one at a time.
	 */
	t = now_ns();
	for (i = 0; want("enable+disable") && i < repeat; i++) {
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0);
		ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
	}
	report("enable+disable", n, now_ns() - t, repeat);

	/* read(2) of the running group */
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	t = now_ns();
	for (i = 0; want("read") && i < repeat; i++) {
		if (read(fd[0], buf, sizeof(buf)) <= 0) {
			fprintf(stderr, "perfops: read: %s\n", strerror(errno));
			return 1;
		}
		sink += buf[3];
	}
	report("read", n, now_ns() - t, repeat);

	/* user-space read through the leader's mmap page, where allowed */
	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		    fd[0], 0);
	if (page != MAP_FAILED) {
		uint64_t v;

		if (mmap_read(page, &v) == 0) {
			t = now_ns();
			for (i = 0; want("mmap-read") && i < repeat; i++) {
				mmap_read(page, &v);
				sink += v;
			}
			report("mmap-read", n, now_ns() - t, repeat);
		} else if (want("mmap-read")) {
			printf("op=mmap-read events=%d unavailable\n", n);
		}
		munmap(page, (size_t)sysconf(_SC_PAGESIZE));
	}
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	close_group(n, fd);
	return sink == 42;	/* keep the reads; never true in practice */
}

static int time_cmd(char **argv)
{
	uint64_t t = now_ns();
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "perfops: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("elapsed_ns=%llu status=%d\n", (unsigned long long)(now_ns() - t),
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	return 0;
}

/*
 * Open event ATTR for PID on CPU, as perf_event_open takes them, and map
 * its first page: NULL (with a message) if either fails.  The
 * descriptor goes to *fdp unless NULL.
 */
static struct perf_event_mmap_page *open_attr_mapped(struct perf_event_attr *attr,
						     pid_t pid, int cpu,
						     int *fdp)
{
	void *pc;
	int fd;

	fd = syscall(SYS_perf_event_open, attr, pid, cpu, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "perfops: perf_event_open: %s\n", strerror(errno));
		return NULL;
	}
	pc = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		  fd, 0);
	if (pc == MAP_FAILED) {
		fprintf(stderr, "perfops: mmap: %s\n", strerror(errno));
		return NULL;
	}
	if (fdp)
		*fdp = fd;
	return pc;
}

/* The same for raw event CONFIG (CONFIG2 as given, may be NULL). */
static struct perf_event_mmap_page *open_mapped(const char *config,
						const char *config2,
						pid_t pid, int cpu, int inherit,
						int *fdp)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	if (!strcmp(config, "cycles") || !strcmp(config, "instructions")) {
		/* The generic events legacy mode lets user space read */
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = config[0] == 'c' ? PERF_COUNT_HW_CPU_CYCLES :
			      PERF_COUNT_HW_INSTRUCTIONS;
	} else {
		attr.config = strtoull(config, NULL, 0);
	}
	attr.config2 = config2 ? strtoull(config2, NULL, 0) : 0;
	attr.inherit = inherit;
	return open_attr_mapped(&attr, pid, cpu, fdp);
}

/*
 * The flag KVM marks its guest events with, from any task: without
 * exclude_host, exclude_kernel names the guest's kernel, and a driver
 * that took it so would count the host's kernel past
 * perf_event_paranoid.
 */
static int guestflag(const char *config, const char *exclude_host)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.size = sizeof(attr),
		.config = strtoull(config, NULL, 0),
		.config1 = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.exclude_host = !!atoi(exclude_host),
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0) {
		printf("open=%s\n", errno == EINVAL ? "EINVAL" : strerror(errno));
		return 0;
	}
	close(fd);
	printf("open=ok\n");
	return 0;
}

static int where(const char *config, const char *config2)
{
	struct perf_event_mmap_page *pc = open_mapped(config, config2, 0, -1, 0, NULL);

	if (!pc)
		return 1;
	/* index is the counter + 1 while the event is on the hardware. */
	printf("counter=%d user_rdpmc=%d\n", (int)pc->index - 1,
	       (int)pc->cap_user_rdpmc);
	return 0;
}

static int rawread(const char *config, const char *config2)
{
	struct perf_event_mmap_page *pc = open_mapped(config, config2, 0, -1, 0, NULL);
	uint64_t raw = (uint64_t)-1, val = (uint64_t)-1;
	unsigned int index;

	if (!pc)
		return 1;
	index = pc->index;
	if (index && pc->cap_user_rdpmc) {
		raw = read_counter_csr(index - 1);
		mmap_read(pc, &val);
	}
	printf("counter=%d raw=%lld mmap=%lld\n", (int)index - 1,
	       (long long)raw, (long long)val);
	return 0;
}

static int track(const char *config, const char *config2, long samples,
		 long work)
{
	struct perf_event_mmap_page *pc;
	uint64_t (*s)[3];
	volatile long spin;
	long i;
	int fd;

	s = calloc((size_t)samples, sizeof(*s));
	if (!s)
		return 1;
	pc = open_mapped(config, config2, 0, -1, 0, &fd);
	if (!pc)
		return 1;
	for (i = 0; i < samples; i++) {
		for (spin = 0; spin < work; spin++)
			;
		if (read(fd, &s[i][0], sizeof(s[i][0])) != sizeof(s[i][0]))
			return 1;
		if (mmap_read(pc, &s[i][1]))
			s[i][1] = (uint64_t)-1;
		if (read(fd, &s[i][2], sizeof(s[i][2])) != sizeof(s[i][2]))
			return 1;
	}
	printf("counter=%d pmc_width=%d\n", (int)pc->index - 1,
	       (int)pc->pmc_width);
	for (i = 0; i < samples; i++)
		printf("read=%llu mmap=%lld read=%llu\n",
		       (unsigned long long)s[i][0], (long long)s[i][1],
		       (unsigned long long)s[i][2]);
	free(s);
	return 0;
}

/*
 * The mmap page's read protocol with DELAY spins between taking the
 * counter's index and reading it; counts the retries and the index it
 * read at (0: none).
 */
static int slow_mmap_read(volatile struct perf_event_mmap_page *pc,
			  long delay, uint64_t *val, long *retries,
			  uint32_t *index)
{
	volatile long spin;
	uint32_t seq, idx;
	uint64_t count, pmc;
	int width;

	for (;;) {
		seq = pc->lock;
		__sync_synchronize();
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			for (spin = 0; spin < delay; spin++)
				;
			width = pc->pmc_width;
			pmc = read_counter_csr(idx - 1);
			if (width < 64)
				pmc = (uint64_t)((int64_t)(pmc << (64 - width)) >>
						 (64 - width));
			count += pmc;
		}
		__sync_synchronize();
		if (pc->lock == seq)
			break;
		(*retries)++;
	}
	*val = count;
	*index = idx;
	return idx ? 0 : -1;
}

static int moved(const char *name, const char *config2, long seconds,
		 long delay)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr attr;
	uint64_t end, val, k1, k2, counters = 0;
	long reads = 0, retries = 0, moves = 0;
	uint32_t idx, last = 0;
	int fd;

	if (parse_event(name, &attr)) {
		fprintf(stderr, "perfops: bad event %s\n", name);
		return 2;
	}
	attr.config2 = strtoull(config2, NULL, 0);
	pc = open_attr_mapped(&attr, 0, -1, &fd);
	if (!pc)
		return 1;
	end = now_ns() + (uint64_t)seconds * 1000000000ull;
	do {
		if (!slow_mmap_read(pc, delay, &val, &retries, &idx)) {
			counters |= 1ull << (idx - 1);
			if (last && idx != last)
				moves++;
			last = idx;
		}
		reads++;
	} while (now_ns() < end);
	if (read(fd, &k1, sizeof(k1)) != sizeof(k1))
		return 1;
	if (slow_mmap_read(pc, 0, &val, &retries, &idx))
		val = (uint64_t)-1;
	if (read(fd, &k2, sizeof(k2)) != sizeof(k2))
		return 1;
	printf("reads=%ld retries=%ld moves=%ld counters=%#llx read=%llu mmap=%lld read=%llu\n",
	       reads, retries, moves, (unsigned long long)counters,
	       (unsigned long long)k1, (long long)val, (unsigned long long)k2);
	return 0;
}

/* Run this task on CPU 0 only: 0, or -1 with a message. */
static int pin_cpu0(void)
{
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		fprintf(stderr, "perfops: sched_setaffinity: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int cpuwide(const char *config)
{
	struct mmap_read_args a;

	if (pin_cpu0())
		return 1;
	a.pc = open_mapped(config, NULL, -1, 0, 0, NULL);
	if (!a.pc)
		return 1;
	printf("counter=%d user_rdpmc=%d read=", (int)a.pc->index - 1,
	       (int)a.pc->cap_user_rdpmc);
	print_read_verdict(mmap_read_twice, &a);
	return 0;
}

/* One read through the mmap page: 0 when it offers a counter. */
static int mmap_read_once(void *p)
{
	struct mmap_read_args *a = p;

	return mmap_read(a->pc, &a->first);
}

static int mapread(const char *name)
{
	struct perf_event_attr attr;
	struct mmap_read_args a;

	if (parse_event(name, &attr)) {
		fprintf(stderr, "perfops: bad event %s\n", name);
		return 2;
	}
	a.pc = open_attr_mapped(&attr, 0, -1, NULL);
	if (!a.pc)
		return 1;
	printf("counter=%d user_rdpmc=%d read=", (int)a.pc->index - 1,
	       (int)a.pc->cap_user_rdpmc);
	print_read_verdict(mmap_read_once, &a);
	return 0;
}

static int capfirst(const char *name)
{
	struct perf_event_attr attr;
	struct mmap_read_args a;
	int fd;

	if (parse_event(name, &attr)) {
		fprintf(stderr, "perfops: bad event %s\n", name);
		return 2;
	}
	attr.disabled = 1;
	a.pc = open_attr_mapped(&attr, 0, -1, &fd);
	if (!a.pc)
		return 1;
	printf("before cap_user_rdpmc=%d index=%u\n", (int)a.pc->cap_user_rdpmc,
	       a.pc->index);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	printf("after cap_user_rdpmc=%d index=%u read=", (int)a.pc->cap_user_rdpmc,
	       a.pc->index);
	print_read_verdict(mmap_read_once, &a);
	return 0;
}

struct sample_read_args {
	volatile struct perf_event_mmap_page *pc;
	long reads, counter, fallback;
};

static int sample_reads(void *p)
{
	struct sample_read_args *a = p;
	uint64_t v;
	long i;

	for (i = 0; i < a->reads; i++) {
		if (mmap_read(a->pc, &v))
			a->fallback++;
		else
			a->counter++;
	}
	return 0;
}

static int sampleread(const char *config, long period, long reads)
{
	struct perf_event_attr attr;
	struct sample_read_args a = { .reads = reads };
	uint64_t count = 0;
	int fd, ret = 0, t;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_RAW;
	attr.config = strtoull(config, NULL, 0);
	attr.sample_period = period;
	attr.disabled = 1;
	a.pc = open_attr_mapped(&attr, 0, -1, &fd);
	if (!a.pc)
		return 1;
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t = trapped(sample_reads, &a, &ret);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	printf("reads=%ld counter=%ld fallback=%ld read=%s\n",
	       a.counter + a.fallback, a.counter, a.fallback,
	       t ? "trapped" : "ok");
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return 1;
	printf("count=%llu\n", (unsigned long long)count);
	return 0;
}

static int read_csr_of(void *p)
{
	volatile uint64_t v = read_counter_csr(*(unsigned int *)p);

	(void)v;
	return 0;
}

/*
 * An inherited event on this task, mapped: its page, then, in ROUNDS
 * children started one after the other while this task waits for each
 * (a context switch from parent to child, where perf may swap the two
 * tasks' cloned contexts instead of removing the events), whether a
 * child's direct read of counter CTR traps.
 */
static int inherit(const char *config, const char *config2, unsigned int ctr,
		   int rounds)
{
	struct perf_event_mmap_page *pc;
	int i, status;

	/* perf maps an inherited task event only when it names a CPU. */
	pc = open_mapped(config, config2, 0, 0, 1, NULL);
	if (!pc)
		return 1;
	printf("counter=%d user_rdpmc=%d\n", (int)pc->index - 1,
	       (int)pc->cap_user_rdpmc);
	fflush(stdout);
	for (i = 0; i < rounds; i++) {
		pid_t child = fork();

		if (child < 0)
			return 1;
		if (!child) {
			int ret;

			printf("child read=%s\n",
			       trapped(read_csr_of, &ctr, &ret) ? "trapped" : "ok");
			exit(0);
		}
		waitpid(child, &status, 0);
	}
	return 0;
}

struct slices_args {
	volatile struct perf_event_mmap_page *pc;
	long samples;
	long switches;
	uint64_t first, max;
};

/* The direct reads of slices: -1 when the page offers no counter. */
static int slices_read(void *p)
{
	struct slices_args *a = p;
	unsigned int idx = a->pc->index;
	uint64_t raw, t, last;
	long i;

	if (!idx || !a->pc->cap_user_rdpmc)
		return -1;
	a->first = a->max = read_counter_csr(idx - 1);
	last = now_ns();
	for (i = 1; i < a->samples; i++) {
		raw = read_counter_csr(idx - 1);
		t = now_ns();
		if (t - last > 1000000)
			a->switches++;
		if (raw > a->max)
			a->max = raw;
		last = t;
	}
	return 0;
}

static int slices(const char *name, long samples)
{
	struct slices_args a = { .samples = samples };
	struct perf_event_attr attr;
	uint64_t k1, m, k2;
	int fd, ret = -1, status;
	pid_t child;

	if (parse_event(name, &attr)) {
		fprintf(stderr, "perfops: bad event %s\n", name);
		return 2;
	}
	if (pin_cpu0())
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child)
		for (;;)
			;
	a.pc = open_attr_mapped(&attr, 0, -1, &fd);
	if (!a.pc)
		goto out;
	if (trapped(slices_read, &a, &ret)) {
		printf("trapped\n");
	} else if (ret) {
		printf("unavailable\n");
	} else {
		printf("switches=%ld first=%llu max=%llu\n", a.switches,
		       (unsigned long long)a.first, (unsigned long long)a.max);
		if (read(fd, &k1, sizeof(k1)) != sizeof(k1) ||
		    mmap_read(a.pc, &m) ||
		    read(fd, &k2, sizeof(k2)) != sizeof(k2)) {
			fprintf(stderr, "perfops: reading the event failed\n");
			ret = -1;
			goto out;
		}
		printf("read=%llu mmap=%llu read=%llu\n",
		       (unsigned long long)k1, (unsigned long long)m,
		       (unsigned long long)k2);
	}
	ret = 0;
out:
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	return ret ? 1 : 0;
}

/*
 * perfops many: see the header.  Each figure is the elapsed guest time of
 * a pass over the N events (the least pass where there are several)
 * divided by N: one operation on one event, whatever the others cost it.
 */
struct many_read {
	uint64_t value, enabled, running;
};

/* Round trips of a byte between this task and a child on its CPU. */
static uint64_t many_pingpong(long rounds)
{
	int there[2], back[2], status;
	uint64_t t;
	char c = 0;
	pid_t child;
	long i;

	if (pipe(there) || pipe(back))
		return 0;
	child = fork();
	if (child < 0)
		return 0;
	if (!child) {
		/* Its own copies would keep the pipes open: no EOF. */
		close(there[1]);
		close(back[0]);
		while (read(there[0], &c, 1) == 1)
			if (write(back[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(there[0]);
	close(back[1]);
	t = now_ns();
	for (i = 0; i < rounds; i++)
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			break;
	t = now_ns() - t;
	close(there[1]);
	close(back[0]);
	waitpid(child, &status, 0);
	return t;
}

static int many(long n, int mapped)
{
	struct perf_event_attr attr[2];
	struct many_read *before, *after;
	uint64_t t_open, t_enable = UINT64_MAX, t_read = UINT64_MAX;
	uint64_t t_disable = UINT64_MAX, t_close, t_switch, t_bare, t;
	long i, pass, passes = n < 200 ? 1000 / n : 5;
	long rounds = n < 10 ? 2000 : 20000 / n < 50 ? 50 : 20000 / n;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct rlimit nofile = { n + 64, n + 64 };
	uint64_t insn_min = UINT64_MAX, insn_max = 0, d;
	long grew = 0, steady = 0;
	double on = 0;
	int *fd;

	if (pin_cpu0())
		return 1;
	setrlimit(RLIMIT_NOFILE, &nofile);
	parse_event("instructions", &attr[0]);
	parse_event("cycles", &attr[1]);
	fd = calloc(n, sizeof(*fd));
	before = calloc(n, sizeof(*before));
	after = calloc(n, sizeof(*after));
	if (!fd || !before || !after)
		return 1;

	/* The first events of the boot switch perf's static keys on. */
	for (i = 0; i < 16; i++) {
		fd[0] = syscall(SYS_perf_event_open, &attr[0], 0, -1, -1, 0);
		if (fd[0] >= 0)
			close(fd[0]);
	}

	t_open = now_ns();
	for (i = 0; i < n; i++) {
		struct perf_event_attr a = attr[i & 1];

		a.disabled = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		fd[i] = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd[i] < 0) {
			fprintf(stderr, "perfops: perf_event_open (event %ld): %s\n",
				i, strerror(errno));
			return 1;
		}
		if (mapped && mmap(NULL, page, PROT_READ, MAP_SHARED, fd[i],
				   0) == MAP_FAILED) {
			fprintf(stderr, "perfops: mmap: %s\n", strerror(errno));
			return 1;
		}
	}
	t_open = now_ns() - t_open;

	for (pass = 0; pass < passes; pass++) {
		t = now_ns();
		for (i = 0; i < n; i++)
			ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
		t = now_ns() - t;
		t_enable = t < t_enable ? t : t_enable;
		if (pass == passes - 1)
			break;
		t = now_ns();
		for (i = 0; i < n; i++)
			ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
		t = now_ns() - t;
		t_disable = t < t_disable ? t : t_disable;
	}

	for (pass = 0; pass < 3; pass++) {
		t = now_ns();
		for (i = 0; i < n; i++)
			if (read(fd[i], &before[i], sizeof(before[i])) !=
			    sizeof(before[i]))
				return 1;
		t = now_ns() - t;
		t_read = t < t_read ? t : t_read;
	}

	t_switch = many_pingpong(rounds);
	for (i = 0; i < n; i++) {
		if (read(fd[i], &after[i], sizeof(after[i])) != sizeof(after[i]))
			return 1;
		if (after[i].enabled > before[i].enabled)
			on += (double)(after[i].running - before[i].running) /
			      (double)(after[i].enabled - before[i].enabled);
		grew += after[i].value > before[i].value;
		steady += after[i].running - before[i].running ==
			  after[i].enabled - before[i].enabled;
		d = after[i].value - before[i].value;
		if (!(i & 1) && d < insn_min)
			insn_min = d;
		if (!(i & 1) && d > insn_max)
			insn_max = d;
	}

	t = now_ns();
	for (i = 0; i < n; i++)
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
	t = now_ns() - t;
	t_disable = t < t_disable ? t : t_disable;
	t_close = now_ns();
	for (i = 0; i < n; i++)
		close(fd[i]);
	t_close = now_ns() - t_close;
	t_bare = many_pingpong(rounds);

	printf("many events=%ld mapped=%d\n", n, mapped);
	printf("open=%.1f enable=%.1f read=%.1f disable=%.1f close=%.1f\n",
	       (double)t_open / n, (double)t_enable / n, (double)t_read / n,
	       (double)t_disable / n, (double)t_close / n);
	printf("switch=%.1f on=%.2f rounds=%ld\n",
	       ((double)t_switch - (double)t_bare) / rounds, on, rounds);
	printf("grew=%ld steady=%ld insn_min=%llu insn_max=%llu\n", grew,
	       steady, (unsigned long long)insn_min,
	       (unsigned long long)insn_max);
	return 0;
}

#if defined(__riscv)
static void skip_ebreak(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	((ucontext_t *)uc)->uc_mcontext.__gregs[REG_PC] += 4;
}

/* One breakpoint trap from user mode, and on past it. */
static int mark(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = skip_ebreak;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGTRAP, &sa, NULL))
		return 1;
	__asm__ volatile(".option push\n.option norvc\nebreak\n.option pop");
	return 0;
}
#else
static int mark(void)
{
	return 1;
}
#endif

static void usage(void)
{
	fprintf(stderr, "usage: perfops ops [-e EVENT[,EVENT...]] [-g GROUP] [-n REPEAT] [-o OP]\n"
			"       perfops time CMD [ARGS...]\n"
			"       perfops where CONFIG [CONFIG2]\n"
			"       perfops rawread CONFIG [CONFIG2]\n"
			"       perfops cpuwide CONFIG\n"
			"       perfops track CONFIG CONFIG2 SAMPLES WORK\n"
			"       perfops moved EVENT CONFIG2 SECONDS DELAY\n"
			"       perfops inherit CONFIG CONFIG2 COUNTER ROUNDS\n"
			"       perfops useraccess\n"
			"       perfops rdcounters\n"
			"       perfops mapread EVENT\n"
			"       perfops slices EVENT SAMPLES\n"
			"       perfops sampleread CONFIG PERIOD READS\n"
			"       perfops capfirst EVENT\n"
			"       perfops mark\n"
			"       perfops many N [-m]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr[MAX_GROUP];
	char *events = "instructions", *name, *save;
	long repeat = 1000;
	int group = 1, n = 0, opt;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "time")) {
		if (argc < 3)
			usage();
		return time_cmd(argv + 2);
	}
	if (!strcmp(argv[1], "where")) {
		if (argc < 3 || argc > 4)
			usage();
		return where(argv[2], argc == 4 ? argv[3] : NULL);
	}
	if (!strcmp(argv[1], "rawread")) {
		if (argc < 3 || argc > 4)
			usage();
		return rawread(argv[2], argc == 4 ? argv[3] : NULL);
	}
	if (!strcmp(argv[1], "cpuwide")) {
		if (argc != 3)
			usage();
		return cpuwide(argv[2]);
	}
	if (!strcmp(argv[1], "track")) {
		if (argc != 6 || atol(argv[4]) < 1 || atol(argv[5]) < 0)
			usage();
		return track(argv[2], argv[3], atol(argv[4]), atol(argv[5]));
	}
	if (!strcmp(argv[1], "moved")) {
		if (argc != 6 || atol(argv[4]) < 1 || atol(argv[5]) < 0)
			usage();
		return moved(argv[2], argv[3], atol(argv[4]), atol(argv[5]));
	}
	if (!strcmp(argv[1], "inherit")) {
		if (argc != 6)
			usage();
		return inherit(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
	}
	if (!strcmp(argv[1], "useraccess"))
		return useraccess();
	if (!strcmp(argv[1], "rdcounters"))
		return rdcounters();
	if (!strcmp(argv[1], "mark"))
		return mark();
	if (!strcmp(argv[1], "mapread")) {
		if (argc != 3)
			usage();
		return mapread(argv[2]);
	}
	if (!strcmp(argv[1], "guestflag")) {
		if (argc != 4)
			usage();
		return guestflag(argv[2], argv[3]);
	}
	if (!strcmp(argv[1], "capfirst")) {
		if (argc != 3)
			usage();
		return capfirst(argv[2]);
	}
	if (!strcmp(argv[1], "sampleread")) {
		if (argc != 5 || atol(argv[3]) < 1 || atol(argv[4]) < 1)
			usage();
		return sampleread(argv[2], atol(argv[3]), atol(argv[4]));
	}
	if (!strcmp(argv[1], "slices")) {
		if (argc != 4 || atol(argv[3]) < 1)
			usage();
		return slices(argv[2], atol(argv[3]));
	}
	if (!strcmp(argv[1], "many")) {
		if (argc < 3 || argc > 4 || atol(argv[2]) < 1 ||
		    (argc == 4 && strcmp(argv[3], "-m")))
			usage();
		return many(atol(argv[2]), argc == 4);
	}
	if (strcmp(argv[1], "ops"))
		usage();
	optind = 2;
	while ((opt = getopt(argc, argv, "e:g:n:o:")) != -1) {
		switch (opt) {
		case 'e': events = optarg; break;
		case 'g': group = atoi(optarg); break;
		case 'n': repeat = atol(optarg); break;
		case 'o': only_op = optarg; break;
		default: usage();
		}
	}
	if (group < 1 || group > MAX_GROUP || repeat < 0)
		usage();
	for (name = strtok_r(events, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		if (n == MAX_GROUP || parse_event(name, &attr[n])) {
			fprintf(stderr, "perfops: bad event %s\n", name);
			return 2;
		}
		n++;
	}
	if (n == 1)
		while (n < group)
			attr[n++] = attr[0];
	return ops(attr, n, repeat);
}
