// SPDX-License-Identifier: GPL-2.0-only
/*
 * sbi_pmu_count - does a KVM guest's SBI PMU counter count what the guest
 * ran, overflows included?  (riscv-hpm-perf, issue 21)
 *
 * Built with the KVM selftests' library (kvm_util) of the same kernel
 * tree as upstream's riscv/sbi_pmu_test, and run in a QEMU guest whose
 * kernel has KVM (tests/guest/kvm.sh).  Each run creates a VM with one
 * vCPU whose guest code:
 *
 *  - configures the SBI PMU instructions event (SBI_PMU_HW_INSTRUCTIONS,
 *    which KVM counts with a host perf event that leaves the host out:
 *    exclude_host, so only VS- and VU-mode instructions count) and
 *    starts it at -PERIOD, so that it overflows after PERIOD;
 *  - runs a loop of exactly 2 * ITERATIONS instructions (addi, bnez);
 *  - on each overflow interrupt (LCOFI, which KVM injects when the host
 *    event's sampling period ends) stops the counter with a snapshot,
 *    adds what it counted (value + PERIOD: it started at -PERIOD), and
 *    configures and starts it again, with a fresh host event
 *    (CFG_MATCH with CLEAR_VALUE) at -PERIOD;
 *  - at the end stops it and adds the last segment.
 *
 * A fresh host event per segment makes each segment's value its own
 * count: KVM 6.12 adds the host event's whole count since creation to
 * the guest's value at each stop, so a restarted event would count its
 * earlier segments again.  One host overflow per segment: after the
 * overflow KVM sets the host event's period to -count (2^64 - count),
 * so only the guest's restart arms the next one.
 *
 * The host side prints the guest's total against 2 * ITERATIONS and
 * judges it.  What the counter counts beyond the loop is the guest's own
 * code between the start and stop calls: the ecall wrappers' return and
 * entry paths (an ecall does not retire, per the ISA), and per overflow
 * the interrupt path: the library's vector saves and restores the
 * registers, routes to the handler, which makes three SBI calls.  The
 * host's own work (HS mode: KVM, perf, the PMU driver; M mode) is not
 * counted: the host event excludes it (mhpmevent's SINH, UINH and MINH
 * on Sscofpmf).  Measured under QEMU 10 -icount (instret is the
 * instruction count there; without -icount it follows the host clock):
 * 33 instructions beyond the loop without overflow, 136 more per
 * overflow, on the SBI PMU driver and on the HPM driver with its
 * overflow path fixed (prototyped: the event marked stopped and up to
 * date around perf_event_overflow()).  Hence the bounds
 *
 *   0 <= count - 2 * ITERATIONS <= FIXED_SLACK + overflows * OVF_SLACK
 *
 * with FIXED_SLACK 500 and OVF_SLACK 1,000 instructions: several times
 * those paths (another compiler, library or KVM version may lengthen
 * them), and at most 1 % of a period of 100,000: a driver that counts
 * one period too many per overflow is far outside.
 *
 * usage: sbi_pmu_count ITERATIONS PERIOD
 *   PERIOD 0: no overflow (the counter starts at 0)
 * Exit status 0 when the count is within the bounds, 1 when not, 4 when
 * the vCPU has no SBI PMU or no Sscofpmf (no overflow interrupt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kvm_util.h"
#include "test_util.h"
#include "processor.h"
#include "sbi.h"
#include "ucall_common.h"

#define FIXED_SLACK	500UL
#define OVF_SLACK	1000UL
#define SNAPSHOT_GPA	BIT(30)

/* Set by the host before the run. */
static unsigned long iterations, period;
static struct riscv_pmu_snapshot_data *snapshot;
static gpa_t snapshot_gpa;
/* Results, read back by the host. */
static unsigned long counter, total, overflows, bad_irqs;
static unsigned long counter_mask;

static void configure_and_start(void)
{
	struct sbiret ret;

	/* A fresh host event (counter_val 0) for the instructions event. */
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_CFG_MATCH, 0, counter_mask,
			SBI_PMU_CFG_FLAG_CLEAR_VALUE, SBI_PMU_HW_INSTRUCTIONS,
			0, 0);
	__GUEST_ASSERT(!ret.error, "CFG_MATCH: error %ld", ret.error);
	counter = ret.value;
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_START, counter, 1,
			SBI_PMU_START_FLAG_SET_INIT_VALUE, -period, 0, 0);
	__GUEST_ASSERT(!ret.error, "COUNTER_START: error %ld", ret.error);
}

/* Stop the counter; what it counted since its start at -period. */
static unsigned long stop_and_count(void)
{
	struct sbiret ret;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_COUNTER_STOP, counter, 1,
			SBI_PMU_STOP_FLAG_TAKE_SNAPSHOT, 0, 0, 0);
	__GUEST_ASSERT(!ret.error, "COUNTER_STOP: error %ld", ret.error);
	return READ_ONCE(snapshot->ctr_values[0]) + period;
}

static void guest_irq_handler(struct pt_regs *regs)
{
	if ((regs->cause & ~CAUSE_IRQ_FLAG) != IRQ_PMU_OVF) {
		bad_irqs++;
		return;
	}
	total += stop_and_count();
	csr_clear(CSR_SIP, BIT(IRQ_PMU_OVF));
	overflows++;
	configure_and_start();
}

static void guest_code(void)
{
	unsigned long n = iterations;
	struct sbiret ret;

	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_SNAPSHOT_SET_SHMEM,
			snapshot_gpa, 0, 0, 0, 0, 0);
	__GUEST_ASSERT(!ret.error, "SNAPSHOT_SET_SHMEM: error %ld", ret.error);
	ret = sbi_ecall(SBI_EXT_PMU, SBI_EXT_PMU_NUM_COUNTERS, 0, 0, 0, 0, 0, 0);
	__GUEST_ASSERT(!ret.error && ret.value > 2 && ret.value < BITS_PER_LONG,
		       "NUM_COUNTERS: error %ld, %ld counters", ret.error, ret.value);
	counter_mask = BIT(ret.value) - 1;
	csr_set(CSR_IE, BIT(IRQ_PMU_OVF));
	local_irq_enable();

	configure_and_start();
	/* Exactly 2 * iterations instructions. */
	asm volatile("1:	addi %0, %0, -1\n"
		     "	bnez %0, 1b\n" : "+r"(n));
	/* An overflow pending now is left pending: the stop counts it all. */
	local_irq_disable();
	total += stop_and_count();
	GUEST_DONE();
}

int main(int argc, char *argv[])
{
	unsigned long loop, extra, allowed;
	struct kvm_vcpu *vcpu;
	struct kvm_vm *vm;
	struct ucall uc;
	bool ok;

	if (argc != 3) {
		fprintf(stderr, "usage: %s ITERATIONS PERIOD\n", argv[0]);
		return 2;
	}
	iterations = strtoul(argv[1], NULL, 0);
	period = strtoul(argv[2], NULL, 0);
	if (!iterations) {
		fprintf(stderr, "ITERATIONS must be at least 1\n");
		return 2;
	}

	vm = vm_create_with_one_vcpu(&vcpu, guest_code);
	if (!__vcpu_has_sbi_ext(vcpu, KVM_RISCV_SBI_EXT_PMU) ||
	    !__vcpu_has_isa_ext(vcpu, KVM_RISCV_ISA_EXT_SSCOFPMF)) {
		printf("sbi_pmu_count: the vCPU has no SBI PMU or no Sscofpmf\n");
		return 4;
	}
	vm_userspace_mem_region_add(vm, VM_MEM_SRC_ANONYMOUS, SNAPSHOT_GPA, 1, 1, 0);
	virt_map(vm, SNAPSHOT_GPA, SNAPSHOT_GPA, 1);
	snapshot = (void *)SNAPSHOT_GPA;
	snapshot_gpa = addr_gva2gpa(vm, (gva_t)snapshot);
	sync_global_to_guest(vm, snapshot);
	sync_global_to_guest(vm, snapshot_gpa);
	sync_global_to_guest(vm, iterations);
	sync_global_to_guest(vm, period);
	vm_init_vector_tables(vm);
	vm_install_interrupt_handler(vm, guest_irq_handler);
	vcpu_init_vector_tables(vcpu);

	vcpu_run(vcpu);
	switch (get_ucall(vcpu, &uc)) {
	case UCALL_DONE:
		break;
	case UCALL_ABORT:
		REPORT_GUEST_ASSERT(uc);
		break;
	default:
		TEST_FAIL("unexpected ucall %lu", uc.cmd);
	}
	sync_global_from_guest(vm, total);
	sync_global_from_guest(vm, overflows);
	sync_global_from_guest(vm, bad_irqs);
	sync_global_from_guest(vm, counter);
	kvm_vm_free(vm);

	loop = 2 * iterations;
	extra = total - loop;
	allowed = FIXED_SLACK + overflows * OVF_SLACK;
	ok = total >= loop && extra <= allowed && !bad_irqs;
	printf("counter=%lu period=%lu loop=%lu count=%lu overflows=%lu extra=%ld allowed=%lu",
	       counter, period, loop, total, overflows, (long)extra, allowed);
	if (overflows)
		printf(" extra_per_overflow=%ld", (long)extra / (long)overflows);
	printf(" bad_irqs=%lu verdict=%s\n", bad_irqs, ok ? "ok" : "wrong");
	return ok ? 0 : 1;
}
