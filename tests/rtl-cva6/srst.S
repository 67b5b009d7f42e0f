/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * An S-mode program that ends as programs on a board end: a line on the
 * SBI debug console, then an SBI system reset (shutdown) for a system
 * failure.  It has no tohost symbol: run-rtl must end the run through
 * OpenSBI's reset device and exit with status 1 (the failure).
 */
#define EXT_DBCN	0x4442434e
#define EXT_SRST	0x53525354

	.section .text.entry, "ax", %progbits
	.globl	_start
_start:
	li	a7, EXT_DBCN
	li	a6, 0			/* console_write */
	la	a1, msg
	la	a0, msg_end
	sub	a0, a0, a1		/* num_bytes */
	li	a2, 0			/* base_addr_hi */
	ecall
	li	a7, EXT_SRST
	li	a6, 0			/* system_reset */
	li	a0, 0			/* shutdown */
	li	a1, 1			/* reason: system failure */
	ecall
	/* the reset returned: an error; spin until --max-cycles */
2:	wfi
	j	2b

	.section .rodata
msg:	.ascii	"rtl-srst: written through the SBI debug console\n"
msg_end:
