// SPDX-License-Identifier: BSD-2-Clause
/*
 * hpmfw boot: hart selection, per-hart machine set-up, the trap
 * dispatcher and the glue that hosts the HPM core.
 */
#include "fw.h"
#include "hpm_core.h"

struct hart fw_harts[FW_MAX_HARTS];
struct hpm_hart fw_hpm[FW_MAX_HARTS];
struct machine fw_machine;

/* QEMU's fw_dynamic_info (the OpenSBI fw_dynamic boot protocol). */
struct fw_dynamic_info {
	ulong magic;
	ulong version;
	ulong next_addr;
	ulong next_mode;
	ulong options;
	ulong boot_hart;	/* version >= 2 */
};
#define FW_DYNAMIC_INFO_MAGIC	0x4942534f	/* "OSBI" */

/*
 * Boot hand-shake.  These live in .data, not .bss: the boot hart clears
 * .bss while the other harts are already polling them.
 */
static volatile int boot_lottery __attribute__((section(".data")));
static volatile int boot_done __attribute__((section(".data")));
static volatile ulong boot_hartid __attribute__((section(".data"))) = ~0UL;

static ulong next_addr, next_arg;

static ulong stack_top(int hartid)
{
	return (ulong)_stacks_end - ((ulong)hartid << FW_STACK_SHIFT);
}

/* hpm_csr_ops for the core: the trap-reporting accessors. */
static int hpm_read(void *ctx, unsigned int csr, hpm_ulong *val)
{
	ulong v;

	(void)ctx;
	if (fw_csr_read_safe(csr, &v))
		return -1;
	*val = v;
	return 0;
}

static int hpm_write(void *ctx, unsigned int csr, hpm_ulong val)
{
	(void)ctx;
	return fw_csr_write_safe(csr, (ulong)val);
}

static const struct hpm_csr_ops hpm_ops = {
	.read = hpm_read,
	.write = hpm_write,
};

/*
 * menvcfg bits S-mode Linux relies on when the hart has the extension:
 * Zicboz/Zicbom instructions usable below M (CBZE, CBCFE, CBIE = flush),
 * Svpbmt page attributes (PBMTE), hardware A/D updates (ADUE: the device
 * tree advertises Svadu without Svade), and Sstc's stimecmp (STCE).
 * Writing them is harmless where they do not exist: menvcfg is WARL.
 */
#define ENVCFG_CBIE_FLUSH	(1UL << 4)
#define ENVCFG_CBCFE		(1UL << 6)
#define ENVCFG_CBZE		(1UL << 7)
#define ENVCFGH_ADUE		(1UL << 29)
#define ENVCFGH_PBMTE		(1UL << 30)
#define ENVCFGH_STCE		(1UL << 31)

static void envcfg_init(struct hart *h)
{
	ulong lo = ENVCFG_CBIE_FLUSH | ENVCFG_CBCFE | ENVCFG_CBZE, v;

#if __riscv_xlen == 64
	lo |= (ENVCFGH_ADUE | ENVCFGH_PBMTE | ENVCFGH_STCE) << 32;
	if (!fw_csr_write_safe(CSR_MENVCFG, lo) &&
	    !fw_csr_read_safe(CSR_MENVCFG, &v))
		h->has_sstc = !!(v & (ENVCFGH_STCE << 32));
#else
	if (!fw_csr_write_safe(CSR_MENVCFG, lo) &&
	    !fw_csr_write_safe(CSR_MENVCFGH, ENVCFGH_ADUE | ENVCFGH_STCE) &&
	    !fw_csr_read_safe(CSR_MENVCFGH, &v))
		h->has_sstc = !!(v & ENVCFGH_STCE);
#endif
	/*
	 * Smstateen: open every state-enable bit, or S-mode would trap on
	 * senvcfg and friends that it expects to simply have.
	 */
	fw_csr_write_safe(CSR_MSTATEEN0, ~0UL);
#if __riscv_xlen == 32
	fw_csr_write_safe(CSR_MSTATEEN0H, ~0UL);
#endif
}

/*
 * PMP: entry 0 hides the firmware's naturally aligned region from S/U
 * (no permission bits, not locked, so M keeps its access); entry 1 opens
 * the whole address space below it.  Lower entries win, so the order
 * matters.
 */
#define PMP_R		0x01
#define PMP_W		0x02
#define PMP_X		0x04
#define PMP_NAPOT	0x18

static void pmp_init(void)
{
	ulong fw_napot = ((ulong)FW_BASE | ((FW_SIZE >> 1) - 1)) >> 2;

	if (fw_csr_write_safe(CSR_PMPADDR0, fw_napot) ||
	    fw_csr_write_safe(CSR_PMPADDR1, ~0UL) ||
	    fw_csr_write_safe(CSR_PMPCFG0,
			      (ulong)PMP_NAPOT |
			      (ulong)(PMP_NAPOT | PMP_R | PMP_W | PMP_X) << 8))
		fw_puts("hpmfw: no PMP, S-mode can reach the firmware\n");
	/* PMP changes apply to later accesses only after a fence */
	asm volatile("sfence.vma" ::: "memory");
}

void fw_hart_csr_init(int hartid)
{
	struct hart *h = &fw_harts[hartid];
	ulong v;

	/*
	 * What S-mode handles itself, as with any SBI firmware: its
	 * interrupts, and every exception it can cause except ecalls to
	 * us.  The hypervisor codes are WARL-ignored without the H
	 * extension.
	 */
	csr_write(CSR_MIDELEG, MIP_SSIP | MIP_STIP | MIP_SEIP | MIP_LCOFIP);
	csr_write(CSR_MEDELEG,
		  (1UL << EXC_INSN_MISALIGNED) | (1UL << EXC_INSN_ACCESS) |
		  (1UL << EXC_ILLEGAL_INSN) | (1UL << EXC_BREAKPOINT) |
		  (1UL << EXC_LOAD_MISALIGNED) | (1UL << EXC_LOAD_ACCESS) |
		  (1UL << EXC_STORE_MISALIGNED) | (1UL << EXC_STORE_ACCESS) |
		  (1UL << EXC_ECALL_U) | (1UL << EXC_INSN_PAGE_FAULT) |
		  (1UL << EXC_LOAD_PAGE_FAULT) | (1UL << EXC_STORE_PAGE_FAULT) |
		  (1UL << EXC_INSN_GUEST_PF) | (1UL << EXC_LOAD_GUEST_PF) |
		  (1UL << EXC_VIRTUAL_INSN) | (1UL << EXC_STORE_GUEST_PF));
	/* M timer interrupts only while an SBI set_timer is armed */
	csr_write(CSR_MIE, MIP_MSIP);
	csr_clear(CSR_MIP, MIP_SSIP | MIP_STIP);
	csr_clear(CSR_MSTATUS, MSTATUS_MPRV | MSTATUS_MIE);

	pmp_init();
	envcfg_init(h);
	/* Sscofpmf brings scountovf: its existence tells us. */
	h->has_sscofpmf = !fw_csr_read_safe(CSR_SCOUNTOVF, &v);

	hpm_hart_init(&fw_hpm[hartid], &hpm_ops, 0,
		      h->has_sscofpmf ? HPM_HART_SSCOFPMF : 0);
	/*
	 * S-mode reads every counter directly (Linux's perf and vDSO);
	 * scounteren starts as OpenSBI leaves it (cycle, time, instret for
	 * U) and is S-mode's from then on.
	 */
	csr_write(CSR_MCOUNTEREN, ~0UL);
	csr_write(CSR_SCOUNTEREN, 7);
}

/* Pick the next stage from fw_dynamic_info, with a fallback. */
static void read_dynamic_info(ulong a2)
{
	const struct fw_dynamic_info *di = (const void *)a2;

	next_addr = FW_NEXT_ADDR_DEFAULT;
	/* only trust a pointer that is plausible and outside our image */
	if (!a2 || (a2 & (sizeof(ulong) - 1)) ||
	    (a2 >= FW_BASE && a2 < FW_BASE + FW_SIZE))
		return;
	if (di->magic != FW_DYNAMIC_INFO_MAGIC)
		return;
	if (di->next_addr)
		next_addr = di->next_addr;
	if (di->next_mode != PRV_S)
		fw_printf("hpmfw: next_mode %lu ignored, booting S-mode\n",
			  di->next_mode);
}

static int choose_boot_hart(int hartid, ulong a2)
{
	const struct fw_dynamic_info *di = (const void *)a2;

	if (a2 && !(a2 & (sizeof(ulong) - 1)) &&
	    !(a2 >= FW_BASE && a2 < FW_BASE + FW_SIZE) &&
	    di->magic == FW_DYNAMIC_INFO_MAGIC && di->version >= 2 &&
	    di->boot_hart < FW_MAX_HARTS)
		return (ulong)hartid == di->boot_hart;
	/* no usable preference: first come, first served */
	return !__atomic_exchange_n(&boot_lottery, 1, __ATOMIC_ACQ_REL);
}

static void __attribute__((noreturn)) boot_hart_main(int hartid, ulong fdt,
						     ulong a2)
{
	int i;

	memset(_bss_start, 0, (ulong)(_bss_end - _bss_start));
	fw_printf("\nhpmfw: HPM test firmware (SBI v2.0, impl id 0x%x), "
		  "XLEN %d, boot hart %d\n", 0x48504d46, __riscv_xlen, hartid);

	read_dynamic_info(a2);
	next_arg = fdt;
	if (fdt_scan(fdt, &fw_machine)) {
		fw_puts("hpmfw: no valid device tree; assuming this hart only\n");
		fw_machine.hart_mask = 1U << hartid;
	}
	fw_machine.hart_mask |= 1U << hartid;
	for (i = 0; i < FW_MAX_HARTS; i++) {
		fw_harts[i].present = !!(fw_machine.hart_mask & (1U << i));
		fw_harts[i].hsm_state = HSM_STOPPED;
	}
	fw_harts[hartid].hsm_state = HSM_STARTED;

	if (!fw_machine.mem_size ||
	    fdt_reserve_firmware(fdt, FW_BASE, FW_SIZE, &fw_machine))
		fw_puts("hpmfw: WARNING: could not add /reserved-memory for the "
			"firmware; the OS may overwrite it\n");

	fw_hart_csr_init(hartid);
	fw_printf("hpmfw: harts 0x%x, memory 0x%lx+0x%lx, next stage 0x%lx "
		  "(S-mode), fdt 0x%lx\n", fw_machine.hart_mask,
		  fw_machine.mem_base, fw_machine.mem_size, next_addr, fdt);
	fw_printf("hpmfw: hart %d: counters 0x%x, sstc %d, sscofpmf %d\n",
		  hartid, fw_hpm[hartid].implemented, fw_harts[hartid].has_sstc,
		  fw_harts[hartid].has_sscofpmf);

	/*
	 * All-zero is the defined illegal instruction: nothing was loaded
	 * (QEMU without -kernel).  S-mode would only fault in a loop there,
	 * so say so and stop instead of hanging.
	 */
	if (!*(volatile u32 *)next_addr) {
		fw_printf("hpmfw: nothing to boot at 0x%lx (no -kernel?), "
			  "powering off\n", next_addr);
		fw_power_off(1);
	}

	__atomic_store_n(&boot_done, 1, __ATOMIC_RELEASE);
	fw_enter_smode((ulong)hartid, next_arg, next_addr, stack_top(hartid));
}

void __attribute__((noreturn)) fw_main(ulong hartid, ulong fdt, ulong a2)
{
	int me = (int)hartid;

	if (choose_boot_hart(me, a2))
		boot_hart_main(me, fdt, a2);

	while (!__atomic_load_n(&boot_done, __ATOMIC_ACQUIRE))
		;
	if (!fw_harts[me].present) {
		/* not in the device tree: the OS cannot know this hart */
		for (;;)
			asm volatile("wfi");
	}
	fw_hart_csr_init(me);
	hsm_wait_for_start();
}

static void __attribute__((noreturn)) fatal(struct trap_frame *tf,
					    ulong cause, ulong tval)
{
	ulong mode = (tf->mstatus & MSTATUS_MPP) >> MSTATUS_MPP_SHIFT;

	fw_printf("\nhpmfw: hart %d: unhandled trap from %c-mode: mcause 0x%lx "
		  "mepc 0x%lx mtval 0x%lx ra 0x%lx sp 0x%lx\n", cur_hartid(),
		  mode == PRV_M ? 'M' : mode == PRV_S ? 'S' : 'U', cause,
		  tf->mepc, tval, tf->x[REG_RA], tf->x[REG_SP]);
	fw_power_off(1);
}

void fw_trap(struct trap_frame *tf)
{
	ulong cause = csr_read(CSR_MCAUSE);
	ulong tval = csr_read(CSR_MTVAL);
	int me = cur_hartid();

	if (cause & MCAUSE_IRQ) {
		switch (cause & ~MCAUSE_IRQ) {
		case IRQ_M_SOFT:
			sbi_msip(me);
			return;
		case IRQ_M_TIMER:
			sbi_mtimer();
			return;
		}
		fatal(tf, cause, tval);
	}
	if (cause == EXC_ECALL_S) {
		sbi_ecall(tf);
		return;
	}
	/* A CSR probe from the firmware itself: report and skip it. */
	if (cause == EXC_ILLEGAL_INSN && fw_harts[me].probing &&
	    (tf->mstatus & MSTATUS_MPP) == MSTATUS_MPP) {
		fw_harts[me].faulted = 1;
		tf->mepc += 4;
		return;
	}
	fatal(tf, cause, tval);
}
