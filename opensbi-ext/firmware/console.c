// SPDX-License-Identifier: BSD-2-Clause
/*
 * Polled 16550 UART console and a small printf for the firmware's own
 * messages (boot banner, fatal traps) and the SBI console extensions.
 */
#include <stdarg.h>
#include "fw.h"

#define UART_THR	0	/* transmit holding register (write) */
#define UART_RBR	0	/* receive buffer register (read) */
#define UART_LSR	5	/* line status register */
#define LSR_DR		0x01	/* a received byte is waiting */
#define LSR_THRE	0x20	/* room in the transmitter */

static inline u8 uart_rd(int reg)
{
	return *(volatile u8 *)(UART_BASE + reg);
}

static inline void uart_wr(int reg, u8 v)
{
	*(volatile u8 *)(UART_BASE + reg) = v;
}

/*
 * Several harts may print at once (fatal traps, DBCN from two CPUs);
 * a byte-level lock keeps each call's output in one piece.
 */
static volatile int console_lock;

static void lock(void)
{
	while (__atomic_exchange_n(&console_lock, 1, __ATOMIC_ACQUIRE))
		;
}

static void unlock(void)
{
	__atomic_store_n(&console_lock, 0, __ATOMIC_RELEASE);
}

static void putc_raw(char c)
{
	while (!(uart_rd(UART_LSR) & LSR_THRE))
		;
	uart_wr(UART_THR, (u8)c);
}

void uart_putc(char c)
{
	lock();
	putc_raw(c);
	unlock();
}

int uart_getc(void)
{
	if (!(uart_rd(UART_LSR) & LSR_DR))
		return -1;
	return uart_rd(UART_RBR);
}

void fw_puts(const char *s)
{
	lock();
	while (*s)
		putc_raw(*s++);
	unlock();
}

/*
 * Number output without any 64-bit division on RV32 (which would need
 * libgcc): decimal is only ever done on ulong, hex works by shifts.
 */
static void put_num(ulong v, unsigned int base, int width, char pad)
{
	char buf[24];
	int n = 0;

	do {
		unsigned int d = base == 16 ? (unsigned int)(v & 15) :
					      (unsigned int)(v % 10);
		buf[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
		v = base == 16 ? v >> 4 : v / 10;
	} while (v);
	while (n < width--)
		putc_raw(pad);
	while (n)
		putc_raw(buf[--n]);
}

/* %s %c %d %u %x %lx %ld %lu %p, with an optional 0-padded width. */
void fw_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lock();
	for (; *fmt; fmt++) {
		int width = 0, is_long = 0;
		char pad = ' ';

		if (*fmt != '%') {
			if (*fmt == '\n')
				putc_raw('\r');
			putc_raw(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (*fmt++ - '0');
		if (*fmt == 'l') {
			is_long = 1;
			fmt++;
		}
		switch (*fmt) {
		case 's': {
			const char *s = va_arg(ap, const char *);

			while (*s)
				putc_raw(*s++);
			break;
		}
		case 'c':
			putc_raw((char)va_arg(ap, int));
			break;
		case 'd': {
			slong v = is_long ? va_arg(ap, slong) : va_arg(ap, int);

			if (v < 0) {
				putc_raw('-');
				v = -v;
			}
			put_num((ulong)v, 10, width, pad);
			break;
		}
		case 'u':
			put_num(is_long ? va_arg(ap, ulong) : va_arg(ap, unsigned int),
				10, width, pad);
			break;
		case 'x':
			put_num(is_long ? va_arg(ap, ulong) : va_arg(ap, unsigned int),
				16, width, pad);
			break;
		case 'p':
			putc_raw('0');
			putc_raw('x');
			put_num((ulong)va_arg(ap, void *), 16, 0, '0');
			break;
		case '%':
			putc_raw('%');
			break;
		default:
			putc_raw('%');
			if (!*fmt)
				goto out;
			putc_raw(*fmt);
		}
	}
out:
	unlock();
	va_end(ap);
}
