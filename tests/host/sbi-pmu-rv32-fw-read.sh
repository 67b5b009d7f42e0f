#!/usr/bin/env bash
# The SBI PMU driver on RV32 reads a firmware counter whose low word has
# bit 31 set (2^31 and more firmware events counted) as that value, not
# sign-extended to 64 bits.  A sign-extended reading makes the next
# delta of riscv_pmu_event_update(), which masks with the 64-bit width
# mask, about 2^64.
#
# pmu_sbi_ctr_read() is taken as it is from the patched tree
# (scripts/prepare-linux), compiled for RV32 with stand-ins for what it
# calls (the firmware's COUNTER_FW_READ returns 0x80000005, its
# COUNTER_FW_READ_HI 0), and run bare-metal on qemu-system-riscv32, which
# reports the result through the virt machine's test device.
. "$(dirname "$0")/../lib.sh"
. "$TOP/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
desc="RV32 SBI PMU: a firmware counter read of 0x80000005 gives 0x80000005, not sign-extended"

if ! src=$("$TOP/scripts/prepare-linux" 2>"$tmp/prep"); then
	not_ok "$desc"
	diag "the series does not apply:" "$(cat "$tmp/prep")"
	exit 0
fi
src=$(tail -n 1 <<<"$src")
awk '/^static u64 pmu_sbi_ctr_read\(struct perf_event \*event\)$/ { on = 1 }
	on { print } on && /^}$/ { exit }' \
	"$src/drivers/perf/riscv_pmu_sbi.c" >"$tmp/ctr_read.c"
if ! [ -s "$tmp/ctr_read.c" ]; then
	not_ok "$desc"
	diag "no pmu_sbi_ctr_read() in drivers/perf/riscv_pmu_sbi.c"
	exit 0
fi

cat >"$tmp/harness.c" <<'C'
/* Stand-ins for what pmu_sbi_ctr_read() uses, RV32 layout. */
typedef unsigned long long u64;
typedef _Bool bool;
#define true 1
#define IS_ENABLED(option) option
#define CONFIG_32BIT 1
#define PERF_HES_STOPPED 0x01
#define SBI_EXT_PMU 0x504D55
#define SBI_EXT_PMU_COUNTER_FW_READ 5
#define SBI_EXT_PMU_COUNTER_FW_READ_HI 8
#define WARN_ONCE(cond, ...) ((void)(cond))
#define this_cpu_ptr(ptr) (ptr)
#define to_riscv_pmu(p) ((struct riscv_pmu *)(p))

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
struct riscv_pmu { struct cpu_hw_events *hw_events; };
struct hw_perf_event { int idx; int state; };
struct perf_event { struct hw_perf_event hw; struct riscv_pmu *pmu; };

static struct cpu_hw_events cpu_events;
static struct riscv_pmu pmu = { .hw_events = &cpu_events };
static union sbi_pmu_ctr_info pmu_ctr_list[64];
static bool sbi_v2_available = true;

static bool sbi_pmu_snapshot_available(void) { return 0; }
static bool pmu_sbi_is_fw_event(struct perf_event *event) { (void)event; return 1; }
static unsigned long riscv_pmu_ctr_read_csr(unsigned long csr) { (void)csr; return 0; }

static struct sbiret sbi_ecall(int ext, int fid, unsigned long a0,
			       unsigned long a1, unsigned long a2,
			       unsigned long a3, unsigned long a4,
			       unsigned long a5)
{
	struct sbiret ret = { 0, 0 };

	(void)ext; (void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5;
	if (fid == SBI_EXT_PMU_COUNTER_FW_READ)
		ret.value = (long)0x80000005UL;
	return ret;
}

#include "ctr_read.c"

/* QEMU virt's test device: 0x5555 passes, code << 16 | 0x3333 fails. */
void main(void)
{
	volatile unsigned int *test_dev = (unsigned int *)0x100000;
	struct perf_event event = { .hw = { .idx = 3 }, .pmu = &pmu };
	u64 val;

	pmu_ctr_list[3].width = 63;
	pmu_ctr_list[3].type = 1;
	val = pmu_sbi_ctr_read(&event);
	*test_dev = val == 0x80000005ULL ? 0x5555 : (1 << 16 | 0x3333);
	for (;;)
		;
}
C
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
if ! "${CROSS_COMPILE}gcc" -march=rv32imac_zicsr -mabi=ilp32 -O2 -ffreestanding \
	-nostdlib -static -fno-pic -mcmodel=medany -Wl,-Ttext=0x80000000 \
	-Wl,--no-warn-rwx-segments -o "$tmp/fwread.elf" \
	"$tmp/start.S" "$tmp/harness.c" 2>"$tmp/cc"; then
	not_ok "$desc"
	diag "does not build:" "$(head -n 20 "$tmp/cc")"
	exit 0
fi
if timeout 60 qemu-system-riscv32 -M virt -bios none -nographic -monitor none \
	-serial none -kernel "$tmp/fwread.elf" >"$tmp/qemu" 2>&1; then
	ok "$desc"
else
	not_ok "$desc"
	diag "pmu_sbi_ctr_read() returned a sign-extended value (or QEMU failed):" \
		"$(head -n 5 "$tmp/qemu")"
fi
