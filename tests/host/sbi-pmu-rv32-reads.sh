#!/usr/bin/env bash
# 64-bit counts from the RV32 counter reads of the SBI PMU and legacy
# drivers.  Since the common code keeps all 64 bits of a counter's width
# mask on RV32 (1-fixes/0003), a reading that is off by 2^32 is no longer
# hidden by a 32-bit mask: it is a count off by 2^32.  Checked:
#  1. a firmware counter read of 0x80000005 gives 0x80000005, not a
#     value sign-extended to 64 bits (whose next delta is about 2^64);
#  2. a hardware counter read while it carries from the lower into the
#     upper CSR half gives a value of that moment, not one off by 2^32
#     (SBI PMU driver; 3. the same for the legacy driver);
#  4. the same for a firmware counter read in two SBI calls
#     (COUNTER_FW_READ_HI, SBI v2.0);
#  5. before SBI v2.0, where only a firmware counter's lower 32 bits can
#     be read, an update across their wrap counts the events in between,
#     not about 2^64;
#  6. a raw event whose counterid_mask names only counters the firmware
#     does not have gets no counter: the driver looks only at the
#     counters there are (on RV32 its counter mask is one 32-bit word,
#     and reading 64 bits of it took the next word for counters);
#  7. and 8. checks 1 and 4 on the HPM driver's firmware counter read
#     (hpm_fw_read(), 2-hpm/0021), which counts the same firmware events
#     through the same SBI calls.
#
# The functions are taken as they are from the patched tree
# (scripts/prepare-linux), compiled for RV32 with stand-ins for what they
# call, and run bare-metal on qemu-system-riscv32.  The stand-in counters
# advance by one at each CSR read or SBI call, as a busy counter would.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
descs=(
	"RV32 SBI PMU: a firmware counter read of 0x80000005 gives 0x80000005, not sign-extended"
	"RV32 SBI PMU: a hardware counter read as it carries into its upper half is not off by 2^32"
	"RV32 legacy PMU: cycle read as it carries into its upper half is not off by 2^32"
	"RV32 SBI PMU: a firmware counter read (FW_READ_HI) as it carries into its upper half is not off by 2^32"
	"RV32 SBI PMU before SBI v2.0: an update across the wrap of a firmware counter's lower 32 bits counts the events in between"
	"RV32 SBI PMU: counterid_mask naming only a counter the firmware lacks gives no counter"
	"RV32 HPM driver: a firmware counter read of 0x80000005 gives 0x80000005, not sign-extended"
	"RV32 HPM driver: a firmware counter read (FW_READ_HI) as it carries into its upper half is not off by 2^32"
)
all_fail() {
	for d in "${descs[@]}"; do not_ok "$d"; done
	diag "$@"
	exit 0
}

# On the 6.12 backport's tree: the stand-ins below have 6.12's one-word
# counter mask and pmu_sbi_counterid_cmask(); 7.2's counter mask is a
# bitmap (the 7.2 kernel's RV32 reads are checked in the RV32 guest,
# tests/guest/rv32.sh).
if ! src=$(HPM_LINUX=6.12 "$TOP/scripts/prepare-linux" 2>"$tmp/prep"); then
	all_fail "the series does not apply:" "$(cat "$tmp/prep")"
fi
src=$(tail -n 1 <<<"$src")

# extract FILE NAME: the definition of function NAME in FILE, if any.
extract() {
	awk -v n="$2" '!on && /^[a-z].*[ *]/ && !/;$/ && index($0, " " n "(") { on = 1 }
		on { print } on && /^}$/ { exit }' "$src/drivers/perf/$1"
}
: >"$tmp/functions.c"
for f in riscv_pmu.c:riscv_pmu_ctr_read_csr64 riscv_pmu.c:riscv_pmu_sbi_fw_read \
	riscv_pmu.c:riscv_pmu_ctr_get_width_mask \
	riscv_pmu.c:riscv_pmu_event_update riscv_pmu_sbi.c:pmu_sbi_ctr_get_width \
	riscv_pmu_sbi.c:pmu_sbi_fw_read64 riscv_pmu_sbi.c:pmu_sbi_ctr_read \
	riscv_pmu_legacy.c:pmu_legacy_read_ctr riscv_pmu_sbi.c:pmu_sbi_counterid_cmask; do
	extract "${f%%:*}" "${f#*:}" >"$tmp/fn"
	case ${f#*:} in
	# Helpers the series may not have (yet): the code without them
	# does not call them.
	riscv_pmu_ctr_read_csr64 | riscv_pmu_sbi_fw_read | pmu_sbi_fw_read64) ;;
	*) [ -s "$tmp/fn" ] || all_fail "no ${f#*:}() in drivers/perf/${f%%:*}" ;;
	esac
	cat "$tmp/fn" >>"$tmp/functions.c"
done
extract riscv_pmu_hpm.c hpm_fw_read >"$tmp/fn"
[ -s "$tmp/fn" ] || all_fail "no hpm_fw_read() in drivers/perf/riscv_pmu_hpm.c"
cat "$tmp/fn" >>"$tmp/functions.c"

cat >"$tmp/harness.c" <<'C'
/* Stand-ins for what the drivers' read functions use, RV32 layout. */
typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned long long uint64_t;
typedef _Bool bool;
#define true 1
#define false 0
#define IS_ENABLED(option) option
#define CONFIG_32BIT 1
#define PERF_HES_STOPPED 0x01
#define PERF_HES_UPTODATE 0x02
#define SBI_EXT_PMU 0x504D55
#define SBI_EXT_PMU_COUNTER_FW_READ 5
#define SBI_EXT_PMU_COUNTER_FW_READ_HI 8
#define SBI_PMU_CTR_TYPE_HW 0
#define SBI_PMU_CTR_TYPE_FW 1
#define CSR_CYCLE 0xc00
#define CSR_INSTRET 0xc02
#define CSR_CYCLEH 0xc80
#define CSR_INSTRETH 0xc82
#define RISCV_PMU_LEGACY_CYCLE 0
#define RISCV_PMU_LEGACY_INSTRET 2
#define WARN_ONCE(cond, ...) ((void)(cond))
#define this_cpu_ptr(ptr) (ptr)
#define to_riscv_pmu(p) ((struct riscv_pmu *)(p))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define GENMASK_ULL(h, l) ((~0ULL >> (63 - (h))) & (~0ULL << (l)))
#define BITS_PER_LONG 32
#define RISCV_MAX_COUNTERS 64
#define PERF_TYPE_RAW 4
/* As the hardware does, shift by the amount's low five bits. */
#define BIT(n) (1UL << ((n) & 31))
#define lower_32_bits(v) ((unsigned int)(v))
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = 0; (bit) < (size); (bit)++) \
		if ((addr)[(bit) / 32] >> ((bit) % 32) & 1)

typedef struct { u64 v; } local64_t;
static u64 local64_read(local64_t *l) { return l->v; }
static u64 local64_cmpxchg(local64_t *l, u64 old, u64 new)
{
	u64 cur = l->v;

	if (cur == old)
		l->v = new;
	return cur;
}
static void local64_add(u64 d, local64_t *l) { l->v += d; }
static void local64_sub(u64 d, local64_t *l) { l->v -= d; }

struct sbiret { long error; long value; };
union sbi_pmu_ctr_info {
	unsigned long value;
	struct {
		unsigned long csr:12;
		unsigned long width:6;
		unsigned long reserved:13;
		unsigned long type:1;
	};
};
struct riscv_pmu_snapshot_data { u64 ctr_values[64]; };
struct cpu_hw_events { struct riscv_pmu_snapshot_data *snapshot_addr; };
struct perf_event;
struct riscv_pmu {
	unsigned long cmask;
	struct cpu_hw_events *hw_events;
	u64 (*ctr_read)(struct perf_event *event);
	int (*ctr_get_width)(int idx);
};
struct hw_perf_event {
	int idx;
	int state;
	local64_t prev_count;
	local64_t period_left;
};
struct perf_event {
	struct { unsigned int type; u64 config, config2; } attr;
	struct hw_perf_event hw;
	struct riscv_pmu *pmu;
	local64_t count;
};

static struct cpu_hw_events cpu_events;
static union sbi_pmu_ctr_info pmu_ctr_list[64];
/*
 * The driver's counter mask, one word on RV32, and what the linker puts
 * after it (sections sorted by name): a word of ones.
 */
static unsigned long cmask __attribute__((section(".sdata.cmask.a")));
static unsigned long after_cmask __attribute__((used, section(".sdata.cmask.b"))) = ~0UL;
static bool sbi_v2_available;
static bool fw_event;

/*
 * The counter every stand-in reads: it advances by one after each read
 * of either half and each SBI call, as a busy counter would.
 */
static u64 counter;

static bool sbi_pmu_snapshot_available(void) { return 0; }
static bool pmu_sbi_is_fw_event(struct perf_event *event) { (void)event; return fw_event; }
static unsigned long riscv_pmu_ctr_read_csr(unsigned long csr)
{
	unsigned long half = csr >= CSR_CYCLEH ? counter >> 32 : (unsigned long)counter;

	counter++;
	return half;
}

static struct sbiret sbi_ecall(int ext, int fid, unsigned long a0,
			       unsigned long a1, unsigned long a2,
			       unsigned long a3, unsigned long a4,
			       unsigned long a5)
{
	struct sbiret ret = { 0, 0 };

	(void)ext; (void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	if (fid == SBI_EXT_PMU_COUNTER_FW_READ)
		ret.value = (long)(unsigned long)counter;
	else if (fid == SBI_EXT_PMU_COUNTER_FW_READ_HI && sbi_v2_available)
		ret.value = (long)(unsigned long)(counter >> 32);
	else
		ret.error = -2;
	counter++;
	return ret;
}

/* The HPM driver's firmware counters: perf's index HPM_FW_IDX + i is the
 * SBI counter hpm_fw_ctr[i]. */
#define HPM_FW_IDX 32
#define hpm_err_deferred(...) ((void)0)
static unsigned long hpm_fw_ctr[4] = { 19, 20, 21, 22 };
static bool hpm_fw_read_hi;

#include "functions.c"

/* What the compiler may call for the structures' initialisers. */
void *memset(void *s, int c, unsigned long n)
{
	unsigned char *p = s;

	while (n--)
		*p++ = c;
	return s;
}

static void putc_uart(char c)
{
	volatile unsigned char *uart = (unsigned char *)0x10000000;

	*uart = c;
}

static void puts_uart(const char *s)
{
	while (*s)
		putc_uart(*s++);
}

static void put_hex(u64 v)
{
	puts_uart("0x");
	for (int i = 60; i >= 0; i -= 4)
		putc_uart("0123456789abcdef"[(v >> i) & 0xf]);
}

/* "N ok" or "N bad <value>": the shell script names the checks. */
static void report(int n, bool good, u64 value)
{
	putc_uart('0' + n);
	puts_uart(good ? " ok " : " bad ");
	put_hex(value);
	putc_uart('\n');
}

/* A reading of a counter that was at @before when the read began. */
static bool of_that_moment(u64 val, u64 before)
{
	return val >= before && val <= before + 16;
}

void main(void)
{
	volatile unsigned int *test_dev = (unsigned int *)0x100000;
	struct riscv_pmu pmu = {
		.hw_events = &cpu_events,
		.ctr_read = pmu_sbi_ctr_read,
		.ctr_get_width = pmu_sbi_ctr_get_width,
	};
	struct perf_event event = { .hw = { .idx = 3 }, .pmu = &pmu };
	u64 val, start;

	/* 1: a firmware counter of 0x80000005, SBI v2.0. */
	sbi_v2_available = true;
	fw_event = true;
	pmu_ctr_list[3].width = 63;
	pmu_ctr_list[3].type = SBI_PMU_CTR_TYPE_FW;
	counter = 0x80000005;
	val = pmu_sbi_ctr_read(&event);
	report(1, of_that_moment(val, 0x80000005), val);

	/* 2: hpmcounter3, about to carry into its upper half. */
	fw_event = false;
	pmu_ctr_list[3].type = SBI_PMU_CTR_TYPE_HW;
	pmu_ctr_list[3].csr = CSR_CYCLE + 3;
	counter = start = 0xffffffffULL;
	val = pmu_sbi_ctr_read(&event);
	report(2, of_that_moment(val, start), val);

	/* 3: the legacy driver's cycle counter, the same. */
	event.hw.idx = RISCV_PMU_LEGACY_CYCLE;
	counter = start = 0x1ffffffffULL;
	val = pmu_legacy_read_ctr(&event);
	report(3, of_that_moment(val, start), val);

	/* 4: a firmware counter read in two calls, the same. */
	event.hw.idx = 3;
	fw_event = true;
	pmu_ctr_list[3].type = SBI_PMU_CTR_TYPE_FW;
	counter = start = 0xffffffffULL;
	val = pmu_sbi_ctr_read(&event);
	report(4, of_that_moment(val, start), val);

	/*
	 * 5: before SBI v2.0 only the lower 32 bits can be read: 0xfffffff0,
	 * then 0x10 after 0x20 events.
	 */
	sbi_v2_available = false;
	counter = 0xfffffff0ULL;
	event.hw.state = 0;
	event.hw.prev_count.v = pmu_sbi_ctr_read(&event);
	event.count.v = 0;
	counter = 0x100000010ULL;
	riscv_pmu_event_update(&event);
	val = event.count.v;
	report(5, val == 0x20, val);

	/*
	 * 6: counters 0-3 (cycle, time, instret, hpmcounter3); the event
	 * names hpmcounter4 alone.  Past the four, the list holds what
	 * memory holds: here entries that look like hpmcounter4.
	 */
	for (int i = 0; i < 64; i++) {
		pmu_ctr_list[i].type = SBI_PMU_CTR_TYPE_HW;
		pmu_ctr_list[i].csr = CSR_CYCLE + (i < 4 ? i : 4);
	}
	cmask = pmu.cmask = 0xf;
	event.attr.type = PERF_TYPE_RAW;
	event.attr.config = 0x2;
	event.attr.config2 = 0x10;
	val = pmu_sbi_counterid_cmask(&event);
	report(6, val == 0, val);

	/* 7 and 8: 1 and 4 on the HPM driver. */
	hpm_fw_read_hi = true;
	event.hw.idx = HPM_FW_IDX + 1;
	sbi_v2_available = true;
	counter = 0x80000005;
	val = hpm_fw_read(&event);
	report(7, of_that_moment(val, 0x80000005), val);
	counter = start = 0xffffffffULL;
	val = hpm_fw_read(&event);
	report(8, of_that_moment(val, start), val);

	*test_dev = 0x5555;
	for (;;)
		;
}
C
# -bios none starts at the first byte of RAM: _start, which
# -fno-reorder-functions keeps ahead of main (otherwise in .text.startup).
cat >"$tmp/start.S" <<'S'
	.section .text.start
	.globl _start
_start:
	la	sp, stack_top
	call	main
1:	j	1b
	.bss
	.balign 16
	.space 4096
stack_top:
S
if ! "${CROSS_COMPILE}gcc" -march=rv32imac_zicsr -mabi=ilp32 -O2 -fno-reorder-functions -ffreestanding \
	-nostdlib -static -fno-pic -mcmodel=medany -Wl,-Ttext=0x80000000 \
	-Wl,--no-warn-rwx-segments -Wl,--no-relax -o "$tmp/reads.elf" \
	"$tmp/start.S" "$tmp/harness.c" 2>"$tmp/cc"; then
	all_fail "does not build:" "$(head -n 20 "$tmp/cc")"
fi
timeout 60 qemu-system-riscv32 -M virt -bios none -display none -monitor none \
	-serial stdio -kernel "$tmp/reads.elf" >"$tmp/qemu" 2>&1 </dev/null
for i in "${!descs[@]}"; do
	line=$(grep -a "^$((i + 1)) " "$tmp/qemu" | tr -d '\r')
	case $line in
	"$((i + 1)) ok "*) ok "${descs[$i]}" ;;
	*)	not_ok "${descs[$i]}"
		diag "got: ${line:-no result}" "$(head -n 8 "$tmp/qemu")" ;;
	esac
done
