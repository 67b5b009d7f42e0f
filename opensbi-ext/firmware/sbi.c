// SPDX-License-Identifier: BSD-2-Clause
/*
 * The SBI v2.0 subset hpmfw implements: BASE, TIME, IPI, RFENCE, HSM,
 * SRST, DBCN, the legacy console, and the HPM extension (handed to the
 * portable core).  Everything else is SBI_ERR_NOT_SUPPORTED; in
 * particular there is no SBI PMU extension.
 */
#include "fw.h"
#include "hpm_core.h"

#define SBI_SPEC_VERSION	0x02000000	/* 2.0: major << 24 | minor */
/*
 * Implementation ID: not in the SBI specification's registry (0..11 are
 * taken by BBL, OpenSBI, Xvisor, KVM, RustSBI, ...); "HPMF" in ASCII,
 * far above any registered value, marks this experimental test firmware.
 */
#define SBI_IMPL_ID		0x48504d46
#define SBI_IMPL_VERSION	0x00000001	/* 0.1: major << 16 | minor */


struct sbiret {
	slong error;
	ulong value;
};

static struct sbiret ret(slong error, ulong value)
{
	struct sbiret r = { error, value };

	return r;
}

/* ---- power ---------------------------------------------------------- */

#define TEST_PASS	0x5555
#define TEST_FAIL	0x3333	/* | status << 16 */
#define TEST_RESET	0x7777

void __attribute__((noreturn)) fw_power_off(unsigned int status)
{
	volatile u32 *test = (volatile u32 *)TEST_DEV_BASE;

	*test = status ? (status << 16) | TEST_FAIL : TEST_PASS;
	/* not QEMU's virt machine after all: stop here, visibly */
	fw_puts("hpmfw: power-off failed, halting\n");
	for (;;)
		asm volatile("wfi");
}

#define SRST_SHUTDOWN		0
#define SRST_COLD_REBOOT	1
#define SRST_WARM_REBOOT	2
#define SRST_REASON_NONE	0
#define SRST_REASON_FAILURE	1
#define SRST_REASON_VENDOR	0xf0000000U

static struct sbiret sbi_srst(ulong fid, ulong a0, ulong a1)
{
	u32 type = (u32)a0, reason = (u32)a1;
	unsigned int status;

	if (fid != 0)
		return ret(SBI_ERR_NOT_SUPPORTED, 0);
	if (type > SRST_WARM_REBOOT ||
	    (reason > SRST_REASON_FAILURE && reason < SRST_REASON_VENDOR))
		return ret(SBI_ERR_INVALID_PARAM, 0);
	if (type != SRST_SHUTDOWN) {
		/* QEMU resets (or, with -no-reboot, exits with status 0) */
		*(volatile u32 *)TEST_DEV_BASE = TEST_RESET;
		return ret(SBI_ERR_FAILED, 0);
	}
	/*
	 * The exit status tells test runners what happened: 0 for a clean
	 * shutdown, 1 for "system failure", N for vendor reason
	 * 0xF0000000 + N (N = 1..255; anything else there counts as 1).
	 */
	if (reason == SRST_REASON_NONE)
		status = 0;
	else if (reason >= SRST_REASON_VENDOR &&
		 reason - SRST_REASON_VENDOR >= 1 &&
		 reason - SRST_REASON_VENDOR <= 255)
		status = reason - SRST_REASON_VENDOR;
	else
		status = 1;
	fw_power_off(status);
}

/* ---- harts ---------------------------------------------------------- */

static int hart_valid(ulong hartid)
{
	return hartid < FW_MAX_HARTS && fw_harts[hartid].present;
}

static void send_msip(int hart)
{
	((volatile u32 *)CLINT_MSIP)[hart] = 1;
}

/* Do what other harts asked of us; clearing a request completes it. */
void hsm_process_rfence(int me)
{
	int src;

	for (src = 0; src < FW_MAX_HARTS; src++) {
		u32 req = fw_harts[me].rfence[src];

		if (!req)
			continue;
		if (req & RFENCE_FENCE_I)
			asm volatile("fence.i" ::: "memory");
		/* a full flush satisfies any address or ASID range */
		if (req & RFENCE_SFENCE_VMA)
			asm volatile("sfence.vma" ::: "memory");
		__atomic_fetch_and(&fw_harts[me].rfence[src], ~req,
				   __ATOMIC_RELEASE);
	}
}

/* M software interrupt taken while S-mode ran: an IPI or fences. */
void sbi_msip(int me)
{
	((volatile u32 *)CLINT_MSIP)[me] = 0;
	/* the clear above must come before we look at the requests */
	asm volatile("fence rw, rw" ::: "memory");
	if (__atomic_exchange_n(&fw_harts[me].ipi_pending, 0, __ATOMIC_ACQUIRE))
		csr_set(CSR_MIP, MIP_SSIP);
	hsm_process_rfence(me);
}

/*
 * Apply fn to every hart named by (mask, base) as the SBI hart-mask
 * convention has it: base == -1 means all harts.  Harts that are not
 * present make the call INVALID_PARAM before anything is done.
 */
static slong for_each_hart(ulong mask, ulong base, void (*fn)(int, u32),
			   u32 arg)
{
	ulong i, all = 0;

	if (base == ~0UL) {
		all = fw_machine.hart_mask;
	} else {
		for (i = 0; i < __riscv_xlen; i++) {
			if (!(mask & (1UL << i)))
				continue;
			if (base + i < base || !hart_valid(base + i))
				return SBI_ERR_INVALID_PARAM;
			all |= 1UL << (base + i);
		}
	}
	for (i = 0; i < FW_MAX_HARTS; i++)
		if (all & (1UL << i))
			fn((int)i, arg);
	return SBI_SUCCESS;
}

static void ipi_one(int hart, u32 unused)
{
	(void)unused;
	if (hart == cur_hartid()) {
		csr_set(CSR_MIP, MIP_SSIP);
		return;
	}
	/* a stopped hart has no S-mode to interrupt */
	if (fw_harts[hart].hsm_state != HSM_STARTED)
		return;
	__atomic_store_n(&fw_harts[hart].ipi_pending, 1, __ATOMIC_RELEASE);
	send_msip(hart);
}

/*
 * Remote fences are synchronous (Linux frees page tables right after
 * the call), so we wait for each target to clear our request.  While
 * waiting we serve requests aimed at us, or two harts fencing each
 * other at once would wait forever with interrupts off.
 */
static void rfence_one(int hart, u32 req)
{
	int me = cur_hartid();

	if (hart == me) {
		if (req & RFENCE_FENCE_I)
			asm volatile("fence.i" ::: "memory");
		if (req & RFENCE_SFENCE_VMA)
			asm volatile("sfence.vma" ::: "memory");
		return;
	}
	if (fw_harts[hart].hsm_state != HSM_STARTED)
		return;
	__atomic_fetch_or(&fw_harts[hart].rfence[me], req, __ATOMIC_RELEASE);
	send_msip(hart);
	while (__atomic_load_n(&fw_harts[hart].rfence[me], __ATOMIC_ACQUIRE))
		hsm_process_rfence(me);
}

static struct sbiret sbi_ipi(ulong fid, ulong mask, ulong base)
{
	if (fid != 0)
		return ret(SBI_ERR_NOT_SUPPORTED, 0);
	return ret(for_each_hart(mask, base, ipi_one, 0), 0);
}

static struct sbiret sbi_rfence(ulong fid, ulong mask, ulong base)
{
	u32 req;

	switch (fid) {
	case 0:			/* remote_fence_i */
		req = RFENCE_FENCE_I;
		break;
	case 1:			/* remote_sfence_vma */
	case 2:			/* remote_sfence_vma_asid */
		req = RFENCE_SFENCE_VMA;
		break;
	default:		/* hfence.*: no hypervisor support */
		return ret(SBI_ERR_NOT_SUPPORTED, 0);
	}
	return ret(for_each_hart(mask, base, rfence_one, req), 0);
}

/* ---- timer ---------------------------------------------------------- */

static struct sbiret sbi_set_timer(int me, u64 when)
{
	if (fw_harts[me].has_sstc) {
		/* STCE is on: STIP follows stimecmp, the CLINT is not used */
#if __riscv_xlen == 64
		csr_write(CSR_STIMECMP, when);
#else
		csr_write(CSR_STIMECMP, ~0UL);	/* no spurious early match */
		csr_write(CSR_STIMECMPH, (ulong)(when >> 32));
		csr_write(CSR_STIMECMP, (ulong)when);
#endif
		return ret(SBI_SUCCESS, 0);
	}
#if __riscv_xlen == 64
	((volatile u64 *)CLINT_MTIMECMP)[me] = when;
#else
	{
		volatile u32 *cmp = (volatile u32 *)(CLINT_MTIMECMP + 8 * me);

		cmp[0] = ~0U;
		cmp[1] = (u32)(when >> 32);
		cmp[0] = (u32)when;
	}
#endif
	csr_clear(CSR_MIP, MIP_STIP);
	csr_set(CSR_MIE, MIP_MTIP);
	return ret(SBI_SUCCESS, 0);
}

/* The CLINT timer fired: hand it to S-mode, stop listening ourselves. */
void sbi_mtimer(void)
{
	csr_clear(CSR_MIE, MIP_MTIP);
	csr_set(CSR_MIP, MIP_STIP);
}

/* ---- HSM ------------------------------------------------------------ */

static int addr_is_ram(ulong addr, ulong len)
{
	ulong base = fw_machine.mem_base, size = fw_machine.mem_size;

	if (addr < base || addr - base > size || len > size - (addr - base))
		return 0;
	/* and never the firmware itself */
	return addr + len <= FW_BASE || addr >= FW_BASE + FW_SIZE;
}

/*
 * A stopped hart sleeps here with only MSIP enabled in mie and
 * mstatus.MIE clear, so wfi wakes it without taking a trap.
 */
void __attribute__((noreturn)) hsm_wait_for_start(void)
{
	int me = cur_hartid();
	struct hart *h = &fw_harts[me];

	csr_write(CSR_MIE, MIP_MSIP);
	for (;;) {
		((volatile u32 *)CLINT_MSIP)[me] = 0;
		asm volatile("fence rw, rw" ::: "memory");
		hsm_process_rfence(me);
		if (__atomic_load_n(&h->start_go, __ATOMIC_ACQUIRE))
			break;
		asm volatile("wfi");
	}
	h->start_go = 0;
	h->ipi_pending = 0;
	csr_clear(CSR_MIP, MIP_SSIP | MIP_STIP);
	__atomic_store_n(&h->hsm_state, HSM_STARTED, __ATOMIC_RELEASE);
	fw_enter_smode((ulong)me, h->start_arg, h->start_addr,
		       (ulong)_stacks_end - ((ulong)me << FW_STACK_SHIFT));
}

static struct sbiret sbi_hsm(ulong fid, ulong a0, ulong a1, ulong a2)
{
	int me = cur_hartid(), state = HSM_STOPPED;

	switch (fid) {
	case 0:			/* hart_start(hartid, start_addr, opaque) */
		if (!hart_valid(a0))
			return ret(SBI_ERR_INVALID_PARAM, 0);
		if (!addr_is_ram(a1, 4))
			return ret(SBI_ERR_INVALID_ADDRESS, 0);
		if (!__atomic_compare_exchange_n(&fw_harts[a0].hsm_state,
						 &state, HSM_START_PENDING, 0,
						 __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return ret(SBI_ERR_ALREADY_AVAILABLE, 0);
		fw_harts[a0].start_addr = a1;
		fw_harts[a0].start_arg = a2;
		__atomic_store_n(&fw_harts[a0].start_go, 1, __ATOMIC_RELEASE);
		send_msip((int)a0);
		return ret(SBI_SUCCESS, 0);
	case 1:			/* hart_stop() */
		__atomic_store_n(&fw_harts[me].hsm_state, HSM_STOPPED,
				 __ATOMIC_RELEASE);
		csr_clear(CSR_MIE, MIP_MTIP);
		/* a fresh M stack: the trap frame we are on is abandoned */
		fw_switch_stack((ulong)_stacks_end -
				((ulong)me << FW_STACK_SHIFT),
				hsm_wait_for_start);
	case 2:			/* hart_get_status(hartid) */
		if (!hart_valid(a0))
			return ret(SBI_ERR_INVALID_PARAM, 0);
		return ret(SBI_SUCCESS, (ulong)fw_harts[a0].hsm_state);
	default:		/* hart_suspend and anything newer */
		return ret(SBI_ERR_NOT_SUPPORTED, 0);
	}
}

/* ---- console -------------------------------------------------------- */

static struct sbiret sbi_dbcn(ulong fid, ulong n, ulong lo, ulong hi)
{
	ulong i;

	switch (fid) {
	case 0:			/* console_write(num_bytes, base_lo, base_hi) */
	case 1:			/* console_read(num_bytes, base_lo, base_hi) */
		/* M-mode sees physical addresses below 2^XLEN only */
		if (hi || !addr_is_ram(lo, n))
			return ret(SBI_ERR_INVALID_PARAM, 0);
		if (fid == 0) {
			for (i = 0; i < n; i++)
				uart_putc(((const char *)lo)[i]);
			return ret(SBI_SUCCESS, n);
		}
		for (i = 0; i < n; i++) {
			int c = uart_getc();

			if (c < 0)
				break;
			((char *)lo)[i] = (char)c;
		}
		return ret(SBI_SUCCESS, i);
	case 2:			/* console_write_byte(byte) */
		uart_putc((char)n);
		return ret(SBI_SUCCESS, 0);
	default:
		return ret(SBI_ERR_NOT_SUPPORTED, 0);
	}
}

/* ---- base ----------------------------------------------------------- */

static int ext_implemented(ulong eid)
{
	switch (eid) {
	case EXT_LEGACY_PUTCHAR:
	case EXT_LEGACY_GETCHAR:
	case EXT_BASE:
	case EXT_TIME:
	case EXT_IPI:
	case EXT_RFENCE:
	case EXT_HSM:
	case EXT_SRST:
	case EXT_DBCN:
	case SBI_EXT_HPM:
		return 1;
	}
	return 0;
}

static struct sbiret sbi_base(ulong fid, ulong a0)
{
	switch (fid) {
	case 0:
		return ret(SBI_SUCCESS, SBI_SPEC_VERSION);
	case 1:
		return ret(SBI_SUCCESS, SBI_IMPL_ID);
	case 2:
		return ret(SBI_SUCCESS, SBI_IMPL_VERSION);
	case 3:
		return ret(SBI_SUCCESS, (ulong)ext_implemented(a0));
	case 4:
		return ret(SBI_SUCCESS, csr_read(CSR_MVENDORID));
	case 5:
		return ret(SBI_SUCCESS, csr_read(CSR_MARCHID));
	case 6:
		return ret(SBI_SUCCESS, csr_read(CSR_MIMPID));
	default:
		return ret(SBI_ERR_NOT_SUPPORTED, 0);
	}
}

/* ---- dispatch ------------------------------------------------------- */

void sbi_ecall(struct trap_frame *tf)
{
	ulong eid = tf->x[REG_A7], fid = tf->x[REG_A6];
	ulong a0 = tf->x[REG_A0], a1 = tf->x[REG_A1], a2 = tf->x[REG_A2];
	int me = cur_hartid();
	struct sbiret r;

	/* ecall is never compressed; resume after it (unless we never return) */
	tf->mepc += 4;

	switch (eid) {
	case EXT_LEGACY_PUTCHAR:	/* legacy calls return only a0 */
		uart_putc((char)a0);
		tf->x[REG_A0] = 0;
		return;
	case EXT_LEGACY_GETCHAR:
		tf->x[REG_A0] = (ulong)(slong)uart_getc();
		return;
	case EXT_BASE:
		r = sbi_base(fid, a0);
		break;
	case EXT_TIME:
#if __riscv_xlen == 64
		r = fid == 0 ? sbi_set_timer(me, a0) :
			       ret(SBI_ERR_NOT_SUPPORTED, 0);
#else
		r = fid == 0 ? sbi_set_timer(me, (u64)a1 << 32 | a0) :
			       ret(SBI_ERR_NOT_SUPPORTED, 0);
#endif
		break;
	case EXT_IPI:
		r = sbi_ipi(fid, a0, a1);
		break;
	case EXT_RFENCE:
		r = sbi_rfence(fid, a0, a1);
		break;
	case EXT_HSM:
		r = sbi_hsm(fid, a0, a1, a2);
		break;
	case EXT_SRST:
		r = sbi_srst(fid, a0, a1);
		break;
	case EXT_DBCN:
		r = sbi_dbcn(fid, a0, a1, a2);
		break;
	case SBI_EXT_HPM: {
		hpm_ulong value = 0;

		r.error = hpm_handle(&fw_hpm[me], fid, a0, a1, &value);
		r.value = (ulong)value;
		break;
	}
	default:
		r = ret(SBI_ERR_NOT_SUPPORTED, 0);
	}
	tf->x[REG_A0] = (ulong)r.error;
	tf->x[REG_A1] = r.value;
}
