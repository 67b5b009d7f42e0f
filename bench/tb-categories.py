#!/usr/bin/env python3
"""Sort the instructions of a tb-insns profile (bench/tb-insns.c) by who
executed them:

  firmware   M-mode: OpenSBI, loaded at 0x80000000 (QEMU virt's RAM base;
             M-mode runs untranslated, so its addresses are physical)
  driver     the RISC-V PMU drivers (drivers/perf/riscv_pmu*.o) and the
             kernel's SBI call wrappers (arch/riscv/kernel/sbi*.o)
  perf-core  perf's core (kernel/events/*.o)
  kernel     the rest of the kernel: system call entry and exit, locks,
             the clock, the scheduler, interrupts
  user       everything else (the program, the vDSO)

    tb-categories.py PROFILE KERNEL-BUILD-DIR

prints one line per category, "NAME INSTRUCTIONS", and a line "total N".
The kernel's functions are told apart by the symbols of its object files
(nm) and placed by its System.map.
"""
import bisect
import glob
import os
import subprocess
import sys

FW_BASE = 0x80000000
FW_SIZE = 0x200000      # up to the kernel's load address on QEMU virt
CATEGORIES = ('firmware', 'driver', 'perf-core', 'kernel', 'user')


def object_symbols(build, patterns):
    names = set()
    for pattern in patterns:
        for obj in glob.glob(os.path.join(build, pattern)):
            out = subprocess.run(['riscv64-linux-gnu-nm', '--defined-only', obj],
                                 capture_output=True, text=True, check=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[1] in 'tTwW':
                    names.add(parts[2])
    if not names:
        sys.exit(f'tb-categories: no symbols in {build}/{patterns}')
    return names


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    profile, build = sys.argv[1], sys.argv[2]
    driver = object_symbols(build, ['drivers/perf/riscv_pmu*.o', 'arch/riscv/kernel/sbi*.o'])
    core = object_symbols(build, ['kernel/events/*.o'])
    text = []
    with open(os.path.join(build, 'System.map')) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in 'tTwW':
                text.append((int(addr, 16), name))
    text.sort()
    starts = [a for a, _ in text]
    kernel_base = starts[0]

    def category(vaddr):
        if FW_BASE <= vaddr < FW_BASE + FW_SIZE:
            return 'firmware'
        if vaddr < kernel_base:
            return 'user'
        name = text[bisect.bisect_right(starts, vaddr) - 1][1]
        # vmlinux names the copies gcc makes of a function name.isra.0,
        # name.constprop.0 and the like
        base = name.split('.', 1)[0]
        if base in driver:
            return 'driver'
        if base in core:
            return 'perf-core'
        return 'kernel'

    totals = dict.fromkeys(CATEGORIES, 0)
    with open(profile) as f:
        for line in f:
            vaddr, insns, runs = line.split()
            totals[category(int(vaddr, 16))] += int(insns) * int(runs)
    for name in CATEGORIES:
        print(name, totals[name])
    print('total', sum(totals.values()))


if __name__ == '__main__':
    main()
