// SPDX-License-Identifier: GPL-2.0
/*
 * hpmrace: stress of user-space counter access grants (scounteren).
 *
 * usage: hpmrace SECONDS
 *
 * The main thread, pinned to CPU 0, counts two raw events on itself (they
 * take both programmable counters of the U74 profile) and is switched in
 * and out all the time by a competitor process on the same CPU, so the
 * PMU driver grants and revokes user reads of its counters at every
 * switch.  Meanwhile a second thread, on CPU 1, maps and unmaps the two
 * events' user pages as fast as it can, which makes the driver change
 * the events' user-read state from that CPU.  Then everything is closed
 * and a fresh process tries to read hpmcounter3..31 on each CPU: no
 * task has an event any more, so every read must trap.  Prints
 * "iterations=N" then, per CPU, "cpu=C readable=<counters or none>".
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static int fds[2];
static long maps;
static sigjmp_buf trap_jmp;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *mapper(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);

	(void)arg;
	pin(1);
	while (!stop) {
		for (int i = 0; i < 2; i++) {
			void *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fds[i], 0);

			if (p != MAP_FAILED)
				munmap(p, page);
		}
		maps++;
	}
	return NULL;
}

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(trap_jmp, 1);
}

/* Read hpmcounter idx (3..31) from user space: 1 if allowed, 0 if it traps. */
static int readable(int idx)
{
	if (sigsetjmp(trap_jmp, 1))
		return 0;
#ifdef __riscv
	unsigned long sink;

	switch (idx) {
#define READ_HPM(n) case n: __asm__ volatile("csrr %0, hpmcounter" #n : "=r"(sink)); break;
	READ_HPM(3) READ_HPM(4) READ_HPM(5) READ_HPM(6) READ_HPM(7)
	READ_HPM(8) READ_HPM(9) READ_HPM(10) READ_HPM(11) READ_HPM(12)
	READ_HPM(13) READ_HPM(14) READ_HPM(15) READ_HPM(16) READ_HPM(17)
	READ_HPM(18) READ_HPM(19) READ_HPM(20) READ_HPM(21) READ_HPM(22)
	READ_HPM(23) READ_HPM(24) READ_HPM(25) READ_HPM(26) READ_HPM(27)
	READ_HPM(28) READ_HPM(29) READ_HPM(30) READ_HPM(31)
	}
	(void)sink;
#else
	(void)idx;
	raise(SIGILL);
#endif
	return 1;
}

static void check_access(void)
{
	signal(SIGILL, on_sigill);
	for (int cpu = 0; cpu < 2; cpu++) {
		int any = 0;

		pin(cpu);
		sched_yield();
		printf("cpu=%d readable=", cpu);
		for (int idx = 3; idx < 32; idx++) {
			if (readable(idx)) {
				printf("%s%d", any ? "," : "", idx);
				any = 1;
			}
		}
		printf("%s\n", any ? "" : "none");
	}
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	pthread_t thread;
	time_t end;
	pid_t competitor;

	if (argc != 2)
		return 2;
	pin(0);
	competitor = fork();
	if (competitor == 0) {
		for (;;)
			sched_yield();
	}
	for (int i = 0; i < 2; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_RAW;
		attr.config = i ? 0x1 : 0x2;
		fds[i] = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
		if (fds[i] < 0) {
			perror("perf_event_open");
			return 1;
		}
	}
	end = time(NULL) + atoi(argv[1]);
	pthread_create(&thread, NULL, mapper, NULL);
	while (time(NULL) < end)
		sched_yield();
	stop = 1;
	pthread_join(thread, NULL);
	close(fds[0]);
	close(fds[1]);
	kill(competitor, SIGKILL);
	waitpid(competitor, NULL, 0);
	printf("iterations=%ld\n", maps);
	fflush(stdout);
	if (fork() == 0) {
		check_access();
		return 0;
	}
	wait(NULL);
	return 0;
}
