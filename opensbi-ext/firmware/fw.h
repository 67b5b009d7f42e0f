/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hpmfw: the project's minimal M-mode TEST firmware for QEMU virt.
 * Shared definitions of the firmware's C files.
 */
#ifndef HPMFW_H
#define HPMFW_H

#include "fw_layout.h"
#include "hpm_core.h"
#include "bare_riscv.h"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned long ulong;
typedef long slong;

/* CSR numbers (privileged spec). */
#define CSR_SSTATUS	0x100
#define CSR_SIE		0x104
#define CSR_SCOUNTEREN	0x106
#define CSR_STIMECMP	0x14d
#define CSR_STIMECMPH	0x15d
#define CSR_SATP	0x180
#define CSR_MSTATUS	0x300
#define CSR_MISA	0x301
#define CSR_MEDELEG	0x302
#define CSR_MIDELEG	0x303
#define CSR_MIE		0x304
#define CSR_MTVEC	0x305
#define CSR_MCOUNTEREN	0x306
#define CSR_MENVCFG	0x30a
#define CSR_MSTATEEN0	0x30c
#define CSR_MENVCFGH	0x31a
#define CSR_MSTATEEN0H	0x31c
#define CSR_MSCRATCH	0x340
#define CSR_MEPC	0x341
#define CSR_MCAUSE	0x342
#define CSR_MTVAL	0x343
#define CSR_MIP		0x344
#define CSR_PMPCFG0	0x3a0
#define CSR_PMPADDR0	0x3b0
#define CSR_PMPADDR1	0x3b1
#define CSR_SCOUNTOVF	0xda0
#define CSR_MVENDORID	0xf11
#define CSR_MARCHID	0xf12
#define CSR_MIMPID	0xf13
#define CSR_MHARTID	0xf14

#define MSTATUS_SIE	(1UL << 1)
#define MSTATUS_MIE	(1UL << 3)
#define MSTATUS_SPIE	(1UL << 5)
#define MSTATUS_MPIE	(1UL << 7)
#define MSTATUS_SPP	(1UL << 8)
#define MSTATUS_MPP_SHIFT 11
#define MSTATUS_MPP	(3UL << MSTATUS_MPP_SHIFT)
#define MSTATUS_MPRV	(1UL << 17)
#define PRV_U		0
#define PRV_S		1
#define PRV_M		3

/* Interrupt numbers (mip/mie bits, mcause codes with the top bit). */
#define IRQ_S_SOFT	1
#define IRQ_M_SOFT	3
#define IRQ_S_TIMER	5
#define IRQ_M_TIMER	7
#define IRQ_S_EXT	9
#define IRQ_LCOF	13
#define MIP_SSIP	(1UL << IRQ_S_SOFT)
#define MIP_MSIP	(1UL << IRQ_M_SOFT)
#define MIP_STIP	(1UL << IRQ_S_TIMER)
#define MIP_MTIP	(1UL << IRQ_M_TIMER)
#define MIP_SEIP	(1UL << IRQ_S_EXT)
#define MIP_LCOFIP	(1UL << IRQ_LCOF)
#define MCAUSE_IRQ	(1UL << (__riscv_xlen - 1))

/* Exception codes. */
#define EXC_INSN_MISALIGNED	0
#define EXC_INSN_ACCESS		1
#define EXC_ILLEGAL_INSN	2
#define EXC_BREAKPOINT		3
#define EXC_LOAD_MISALIGNED	4
#define EXC_LOAD_ACCESS		5
#define EXC_STORE_MISALIGNED	6
#define EXC_STORE_ACCESS	7
#define EXC_ECALL_U		8
#define EXC_ECALL_S		9
#define EXC_ECALL_M		11
#define EXC_INSN_PAGE_FAULT	12
#define EXC_LOAD_PAGE_FAULT	13
#define EXC_STORE_PAGE_FAULT	15
#define EXC_INSN_GUEST_PF	20
#define EXC_LOAD_GUEST_PF	21
#define EXC_VIRTUAL_INSN	22
#define EXC_STORE_GUEST_PF	23

/* QEMU virt devices. */
#define UART_BASE	0x10000000UL
#define TEST_DEV_BASE	0x00100000UL
#define CLINT_MSIP	0x02000000UL
#define CLINT_MTIMECMP	0x02004000UL

/* SBI error values. */
#define SBI_SUCCESS			0
#define SBI_ERR_FAILED			-1
#define SBI_ERR_NOT_SUPPORTED		-2
#define SBI_ERR_INVALID_PARAM		-3
#define SBI_ERR_DENIED			-4
#define SBI_ERR_INVALID_ADDRESS		-5
#define SBI_ERR_ALREADY_AVAILABLE	-6

/* Saved registers of a trap: x0..x31 (x0's slot unused), mepc, mstatus. */
struct trap_frame {
	ulong x[32];
	ulong mepc;
	ulong mstatus;
	ulong pad[2];
};
#define REG_RA	1
#define REG_SP	2
#define REG_A0	10
#define REG_A1	11
#define REG_A2	12
#define REG_A3	13
#define REG_A4	14
#define REG_A5	15
#define REG_A6	16
#define REG_A7	17

/* HSM states (SBI specification). */
#define HSM_STARTED		0
#define HSM_STOPPED		1
#define HSM_START_PENDING	2

/* Remote fence requests, one bit each. */
#define RFENCE_FENCE_I		(1U << 0)
#define RFENCE_SFENCE_VMA	(1U << 1)

/* Everything the firmware keeps per hart; indexed by hartid. */
struct hart {
	volatile int probing;		/* a CSR probe is in progress */
	volatile int faulted;		/* ... and it trapped */
	volatile int hsm_state;		/* HSM_* */
	volatile int start_go;		/* hart_start parameters are ready */
	volatile ulong start_addr;
	volatile ulong start_arg;
	volatile u32 ipi_pending;	/* inject SSIP at the next MSIP */
	/* rfence[src]: requests from hart src, cleared when done */
	volatile u32 rfence[FW_MAX_HARTS];
	int present;			/* listed in the device tree */
	int has_sstc;			/* menvcfg.STCE took: use stimecmp */
	int has_sscofpmf;
};

extern struct hart fw_harts[FW_MAX_HARTS];
extern struct hpm_hart fw_hpm[FW_MAX_HARTS];

/* Machine facts found at boot. */
struct machine {
	ulong mem_base, mem_size;	/* first memory bank */
	u32 hart_mask;			/* bit i: hart i is present */
	ulong fdt;
};
extern struct machine fw_machine;

static inline int cur_hartid(void)
{
	return (int)csr_read(CSR_MHARTID);
}

/* start.S */
void fw_trap_vector(void);
void __attribute__((noreturn)) fw_enter_smode(ulong hartid, ulong arg,
					      ulong addr, ulong stack_top);
void __attribute__((noreturn)) fw_switch_stack(ulong stack_top,
					       void (*fn)(void));
extern char fw_csr_read_table[], fw_csr_write_table[];
extern char _fw_start[], _fw_end[], _bss_start[], _bss_end[];
extern char _stacks_end[];

/* console.c */
void uart_putc(char c);
int uart_getc(void);
void fw_puts(const char *s);
void fw_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* csr_probe.c: CSR access that reports a trap instead of taking it */
int fw_csr_read_safe(unsigned int csr, ulong *val);
int fw_csr_write_safe(unsigned int csr, ulong val);

/* fdt.c */
int fdt_scan(ulong fdt, struct machine *m);
int fdt_reserve_firmware(ulong fdt, ulong base, ulong size,
			 const struct machine *m);

/* sbi.c */
void sbi_ecall(struct trap_frame *tf);
void sbi_msip(int hart);
void sbi_mtimer(void);
void __attribute__((noreturn)) fw_power_off(unsigned int status);
void __attribute__((noreturn)) hsm_wait_for_start(void);
void hsm_process_rfence(int me);

/* main.c */
void fw_hart_csr_init(int hartid);

/* lib.c: what GCC may call even in freestanding code */
void *memcpy(void *dst, const void *src, unsigned long n);
void *memmove(void *dst, const void *src, unsigned long n);
void *memset(void *dst, int c, unsigned long n);
int memcmp(const void *a, const void *b, unsigned long n);
unsigned long strlen(const char *s);
int strcmp(const char *a, const char *b);

#endif /* HPMFW_H */
